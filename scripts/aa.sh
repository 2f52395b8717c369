#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A/A benchmark of compare's test: N pairs of runs of one spec (the same
# binary, kernel and settings), each pair compared, and the share of the
# headline metric's tests that came out significant: the false-positive
# rate, which should be near alpha (docs/statistics.md records it).
#
#   scripts/aa.sh [--pairs N] [--spec FILE] [--set KEY=VALUE]... [--alpha A]
#                 [--out DIR]
#
#   --pairs N       A/A pairs (two runs each); default 10
#   --spec FILE     the spec both runs of a pair take; default
#                   specs/aa_ringbuf.spec (ringbuf rb-libbpf, 1 and 2
#                   producers, short points, 3 repetitions: needs root)
#   --set KEY=VAL   passed to every run (repeatable)
#   --alpha A       compare's significance level; default 0.05
#   --out DIR       where the runs go; default results/aa/<YYYYmmdd-HHMMSS>
#
# Prints one line per pair (its tests, how many significant) and a last
# line "false positives: K of M tests (R%), alpha A; U untested".  BPFSWEEP
# names the binary (default: the build's ./bpfsweep).  A busy machine
# makes runs differ for real (the load moved between them): that shows
# here as false positives, and is worth reporting with the rate.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BPFSWEEP=${BPFSWEEP:-$ROOT/bpfsweep}
pairs=10
spec=$ROOT/specs/aa_ringbuf.spec
alpha=0.05
out=
sets=()

die() {
	echo "aa: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--pairs | --spec | --set | --alpha | --out)
		[ $# -ge 2 ] || die "$1 wants a value" ;;&
	--pairs) pairs=$2 ;;
	--spec) spec=$2 ;;
	--set) sets+=(--set "$2") ;;
	--alpha) alpha=$2 ;;
	--out) out=$2 ;;
	*) die "unknown argument '$1' (see the comment at the top of $0)" ;;
	esac
	shift 2
done
case "$pairs" in
'' | *[!0-9]* | 0) die "--pairs wants a positive number, not '$pairs'" ;;
esac
[ -n "$out" ] || out=results/aa/$(date +%Y%m%d-%H%M%S)
[ -e "$out" ] && die "$out exists: give another --out"
mkdir -p "$out"

# verdicts CSV: "tests significant untested" of the headline metric (the
# first metric of a point's rows) in compare's CSV, at the level alpha
verdicts() {
	python3 - "$1" "$alpha" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
alpha = float(sys.argv[2])
head = next((r["metric"] for r in rows if r["state"] == "compared"), None)
tests = sig = untested = 0
for r in rows:
    if r["state"] != "compared" or r["metric"] != head:
        continue
    if r["p"] == "":
        untested += 1
        continue
    tests += 1
    sig += float(r["p"]) < alpha
print(tests, sig, untested)
PY
}

total=0 fp=0 untested=0
for i in $(seq 1 "$pairs"); do
	for side in a b; do
		"$BPFSWEEP" run "$spec" "${sets[@]}" --no-plots -o "$out/$i$side" \
			>"$out/$i$side.log" 2>&1 </dev/null ||
			die "run $i$side failed: $out/$i$side.log"
	done
	"$BPFSWEEP" compare -f csv --alpha "$alpha" "$out/${i}a" "$out/${i}b" \
		>"$out/$i.csv" 2>"$out/$i.err" || die "compare of pair $i failed: $out/$i.err"
	read -r t s u < <(verdicts "$out/$i.csv")
	echo "pair $i: $t tests, $s significant, $u untested"
	total=$((total + t)) fp=$((fp + s)) untested=$((untested + u))
done
rate=n/a
[ "$total" -gt 0 ] && rate=$(awk -v k="$fp" -v m="$total" 'BEGIN { printf "%.1f%%", 100 * k / m }')
echo "false positives: $fp of $total tests ($rate), alpha $alpha; $untested untested"
