#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep's ring buffer numbers beside the kernel selftests' bench, on the
# same points, in interleaved rounds, as a paired ratio bpfsweep / bench
# (docs/fidelity.md, "Re-measuring").
#
#   scripts/calibrate.sh [--rawtp] [--no-affinity] [--rounds N] [--out DIR]
#                        [--quick] [-- RUN-ARGS...]
#
#   --rawtp        the bench built with a raw tracepoint instead of fentry
#                  (scripts/kbench-build.sh --rawtp), for a kernel that
#                  refuses fentry; bpfsweep then attaches with raw_tp too.
#                  Without it both attach with fentry.
#   --no-affinity  no CPU pinning on either side: the bench's -a wants a
#                  CPU per thread, which a 2-CPU machine lacks at 2 producers
#   --rounds N     rounds of (bench, bpfsweep); default 5
#   --out DIR      where the rounds' result directories go; default
#                  results/calibrate/<YYYYmmdd-HHMMSS>
#   --quick        bpfsweep's --quick on both sides (a smoke run, no numbers)
#   -- RUN-ARGS    the rest goes to `bpfsweep run` on both sides, e.g.
#                  -- --only "Single producer, sampled notification"
#                     --set bench=rb-custom --set bpf_stats=off
#
# Every round runs specs/calib_kbench.spec, then specs/calib_ringbuf.spec,
# so whatever drifts on the machine drifts for both; the last step is
# `bpfsweep compare --paired` over the rounds.  BPFSWEEP names the binary
# (default: the build's ./bpfsweep).  The bench is one of the spec's
# `program` choices, relative to the repository, where this runs.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BPFSWEEP=${BPFSWEEP:-$ROOT/bpfsweep}
rounds=5
rawtp=
affinity=on
quick=
out=

die() {
	echo "calibrate: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--rawtp) rawtp=--rawtp ;;
	--no-affinity) affinity=off ;;
	--quick) quick=--quick ;;
	--) shift; break ;;
	--rounds)
		[ $# -ge 2 ] || die "--rounds wants a number"
		rounds=$2
		shift ;;
	--out)
		[ $# -ge 2 ] || die "--out wants a directory"
		out=$2
		shift ;;
	*) die "unknown argument '$1' (see the comment at the top of $0)" ;;
	esac
	shift
done
case "$rounds" in
'' | *[!0-9]* | 0) die "--rounds wants a positive number, not '$rounds'" ;;
esac
[ -n "$out" ] || out=results/calibrate/$(date +%Y%m%d-%H%M%S)
[ -e "$out" ] && die "$out exists: give another --out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$BPFSWEEP" in
/*) ;;
*/*) BPFSWEEP=$(pwd)/$BPFSWEEP ;;	# relative to here, not to where this goes next
esac
cd "$ROOT"

sh scripts/kbench-build.sh $rawtp >/dev/null || die "no kernel bench to compare with"
program=.cache/kbench/bench
attach=fentry
if [ -n "$rawtp" ]; then
	program=.cache/kbench/bench-rawtp
	attach=raw_tp
fi

pairs=
i=1
while [ "$i" -le "$rounds" ]; do
	echo "calibrate: round $i of $rounds" >&2
	"$BPFSWEEP" run specs/calib_kbench.spec $quick --no-plots -o "$out/kbench/$i" \
		--set "program=$program" --set "cpu_affinity=$affinity" "$@" >/dev/null
	"$BPFSWEEP" run specs/calib_ringbuf.spec $quick --no-plots -o "$out/bpfsweep/$i" \
		--set "attach=$attach" --set "affinity=$affinity" "$@" >/dev/null
	pairs="$pairs $out/kbench/$i $out/bpfsweep/$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # the pairs are separate arguments
"$BPFSWEEP" compare --paired $pairs
