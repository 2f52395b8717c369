#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Two Debian kernels A/B'd in TCG icount guests and decided (docs/kernel.md,
# "Numbers that do not move"): three sweeps of one csum_diff point, each
# with both kernels' guests up at once and the point's units alternating
# between them in rounds (decide = 2%):
#
#   ab    BASE (Debian's 6.1) against PATCHED (the newest cloud kernel)
#   aa    PATCHED against a copy of itself: must come out the same
#   hog   the A/B again beside a busy loop on every host CPU, started here:
#         each kernel's rate must stay within the tolerance (0.1 %) of ab's
#
#   scripts/icount-ab.sh [--size N] [--out DIR] [--set KEY=VAL]...
#
#   --size N    csum_diff's size (bytes summed a call); default 64
#   --out DIR   where the runs go; default results/icount-ab/<YYYYmmdd-HHMMSS>
#   --set K=V   passed to every run (repeatable)
#
# Prints each run's units (M calls/s per round and kernel), its rounds:
# line (the decision, how many rounds) and its wall time, then the hog
# run's rates against ab's.  Exit 1 when a claim above does not hold.
# Needs root, qemu and the kernels scripts/vm-kernel.sh fetches.  BPFSWEEP
# names the binary (default: the build's ./bpfsweep).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BPFSWEEP=${BPFSWEEP:-$ROOT/bpfsweep}
TOL_PCT=0.1	# DECIDE_ICOUNT_TOL_PCT (sweep/results/precision.h)
size=64 out=
sets=()
hogs=()

die() {
	echo "icount-ab: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--size | --out | --set) [ $# -ge 2 ] || die "$1 wants a value" ;;&
	--size) size=$2 ;;
	--out) out=$2 ;;
	--set) sets+=(--set "$2") ;;
	*) die "unknown argument '$1' (see the comment at the top of $0)" ;;
	esac
	shift 2
done
case "$size" in
'' | *[!0-9]*) die "--size wants a whole number, not '$size'" ;;
esac
[ -n "$out" ] || out=results/icount-ab/$(date +%Y%m%d-%H%M%S)
[ -e "$out" ] && die "$out exists: give another --out"
mkdir -p "$out"

BASE=$("$ROOT/scripts/vm-kernel.sh" 6.1) || die "no 6.1 kernel"
PATCHED=$("$ROOT/scripts/vm-kernel.sh") || die "no test kernel"
# the same image under another name: the sweep boots it twice
cp -r "$(dirname "$PATCHED")" "$out/copy"
COPY=$out/copy/$(basename "$PATCHED")

stop_hogs() {
	for p in "${hogs[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	hogs=()
}
trap stop_hogs EXIT

# One sweep: NAME, then the two kernels; its rounds: line and wall time.
sweep() {
	local name=$1 start rc=0

	start=$(date +%s)
	"$BPFSWEEP" run csum_diff --set size="$size" -w 0.5 -d 1 --set bpf_stats=off \
		--no-plots --set vm_accel=tcg-icount --set vm_boot_timeout=900s \
		--set decide=2% --set max_repeat=10 --kernel "$2" --kernel "$3" "${sets[@]}" \
		-o "$out/$name" </dev/null >"$out/$name.out" 2>"$out/$name.err" || rc=$?
	echo "$name: exit $rc, $(($(date +%s) - start)) s wall, host load $(cut -d' ' -f1 /proc/loadavg)"
	grep '^rounds: ' "$out/$name.err" | sed 's/^/  /'
	units "$out/$name/samples.csv" | sed 's/^/  /'
	return "$rc"
}

# Each unit's rate: its measured intervals' calls over their guest nanoseconds.
units() {
	python3 - "$1" <<'EOF'
import collections, csv, sys
calls, ns, rel = collections.Counter(), collections.Counter(), {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["thread"] == "" and r["warmup"] == "0":
        k = (r["run"], int(r["rep"]))
        calls[k] += int(r["calls"])
        ns[k] += int(r["elapsed_ns"])
        rel[r["run"]] = r["kernel_release"]
for run in sorted(rel):
    rates = [calls[k] / ns[k] * 1e3 for k in sorted(calls) if k[0] == run]
    print("run %s (%s): M calls/s per round: %s" % (run, rel[run],
          " ".join("%.5f" % x for x in rates)))
EOF
}

# Each run's mean unit rate: "RUN RATE" lines.
means() {
	python3 - "$1" <<'EOF'
import collections, csv, sys
calls, ns = collections.Counter(), collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r["thread"] == "" and r["warmup"] == "0":
        calls[r["run"]] += int(r["calls"])
        ns[r["run"]] += int(r["elapsed_ns"])
for run in sorted(calls):
    print(run, calls[run] / ns[run] * 1e3)
EOF
}

decision() {
	grep '^rounds: ' "$out/$1.err" | sed 's/.*against run 1: //'
}

fail=0
sweep ab "$BASE" "$PATCHED" || fail=1
sweep aa "$PATCHED" "$COPY" || fail=1
case "$(decision aa)" in
same:*) echo "aa: the same kernel twice is the same" ;;
*) echo "aa: NOT the same: $(decision aa)"; fail=1 ;;
esac

for _ in $(seq "$(nproc)"); do
	(while :; do :; done) &
	hogs+=($!)
done
echo "hog: ${#hogs[@]} busy loops on the host (pids ${hogs[*]})"
sweep hog "$BASE" "$PATCHED" || fail=1
stop_hogs

# each kernel's rate beside the hog against its rate without
join <(means "$out/ab/samples.csv") <(means "$out/hog/samples.csv") | while read -r run quiet busy; do
	awk -v r="$run" -v q="$quiet" -v b="$busy" -v t="$TOL_PCT" 'BEGIN {
		d = (b / q - 1) * 100
		printf "run %s: %.5f M/s quiet, %.5f beside the hog: %+.3f %% (%s %.1f %%)\n",
		       r, q, b, d, (d <= t && d >= -t) ? "within" : "BEYOND", t
		exit (d <= t && d >= -t) ? 0 : 1 }' || echo "hog moved run $run" >"$out/hog.moved"
done
[ -e "$out/hog.moved" ] && fail=1
[ "$(decision ab)" = "$(decision hog)" ] && echo "hog: the same decision as ab" ||
	echo "hog: decided otherwise: $(decision hog)"
echo "results in $out"
exit "$fail"
