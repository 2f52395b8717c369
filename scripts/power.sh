#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The power of bpfsweep's decisions on this machine (docs/statistics.md,
# "Decisions"): how often A/A is called different (near alpha, at most),
# how often a known effect is found, and how long a decision takes, with
# the two arms interleaved in rounds (decide) beside two separate runs
# compared (compare --decide).
#
#   scripts/power.sh [--pairs N] [--work W] [--reps R] [--set KEY=VAL]...
#                    [--out DIR]
#
#   --pairs N   pairs of each kind (A/A and A/B, interleaved and separate);
#               default 20
#   --work W    the A/B arm's extra_work: W dependent multiply-adds added to
#               every bpf_csum_diff() call by the BPF program
#               (specs/power_csum.spec), real work, whose effect every A/B
#               round measures (the pooled ratio is printed); default 2
#   --reps R    repetitions of each separate run (compare's units); default 5
#   --set K=V   passed to every run (repeatable): shorter points, a budget
#   --out DIR   where the runs go; default results/power/<YYYYmmdd-HHMMSS>
#
# The A/A arms differ in csum_diff's arm alone, which changes nothing.
# Prints one line per pair and a table.  Needs root (real BPF).  BPFSWEEP
# names the binary (default: the build's ./bpfsweep).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BPFSWEEP=${BPFSWEEP:-$ROOT/bpfsweep}
SPEC=$ROOT/specs/power_csum.spec
pairs=20 work=2 reps=5 out=
sets=()

die() {
	echo "power: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--pairs | --work | --reps | --set | --out) [ $# -ge 2 ] || die "$1 wants a value" ;;&
	--pairs) pairs=$2 ;;
	--work) work=$2 ;;
	--reps) reps=$2 ;;
	--set) sets+=(--set "$2") ;;
	--out) out=$2 ;;
	*) die "unknown argument '$1' (see the comment at the top of $0)" ;;
	esac
	shift 2
done
for v in "$pairs" "$work" "$reps"; do
	case "$v" in
	'' | *[!0-9]*) die "--pairs, --work and --reps want whole numbers, not '$v'" ;;
	esac
done
[ -n "$out" ] || out=results/power/$(date +%Y%m%d-%H%M%S)
[ -e "$out" ] && die "$out exists: give another --out"
mkdir -p "$out"

# the arms of each kind: --set pairs for the interleaved run
aa=(--set arm="0 1" --set baseline=arm=0 --set extra_work=0)
ab=(--set extra_work="0 $work")

# word DIR: the arm's decision's first word and its rounds (the baseline's row says "baseline")
word() {
	python3 - "$1/summary.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["decision"] and r["decision"] != "baseline"]
d = rows[0]["decision"] if rows else "missing"
print(d.split(":")[0].split(" ")[0], rows[0]["rounds"] if rows else 0)
PY
}

# interleaved KIND ARGS...: one decide run per pair
interleaved() {
	local kind=$1 i t0 w n
	shift
	for i in $(seq 1 "$pairs"); do
		t0=$(date +%s.%N)
		"$BPFSWEEP" run "$SPEC" "${sets[@]}" "$@" --no-plots -o "$out/$kind-$i" \
			>"$out/$kind-$i.log" 2>&1 </dev/null || die "run $kind-$i: $out/$kind-$i.log"
		read -r w n < <(word "$out/$kind-$i")
		echo "$kind $i $w $n $(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$out/pairs"
	done
}

# separate KIND VALUE_A VALUE_B PARAM: two runs one after the other, compared
separate() {
	local kind=$1 a=$2 b=$3 param=$4 i t0 w
	for i in $(seq 1 "$pairs"); do
		t0=$(date +%s.%N)
		for side in a b; do
			local v=$a
			[ $side = b ] && v=$b
			"$BPFSWEEP" run "$SPEC" "${sets[@]}" --set decide=off --set repeat="$reps" \
				--set baseline= --set extra_work=0 --set arm=0 --set "$param=$v" \
				--no-plots \
				-o "$out/$kind-$i$side" >"$out/$kind-$i$side.log" 2>&1 </dev/null ||
				die "run $kind-$i$side: $out/$kind-$i$side.log"
		done
		"$BPFSWEEP" compare -f csv -i "$param" "$out/$kind-${i}a" "$out/$kind-${i}b" \
			>"$out/$kind-$i.csv" 2>/dev/null || true
		w=$(python3 -c 'import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["metric"] == "calls"]
print(r[0]["verdict"].split(" ")[0] if r else "missing")' "$out/$kind-$i.csv")
		echo "$kind $i $w $reps $(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$out/pairs"
	done
}

interleaved aa-rounds "${aa[@]}"
interleaved ab-rounds "${ab[@]}"
separate aa-separate 0 1 arm
separate ab-separate 0 "$work" extra_work

# the pooled effect of extra_work: every A/B round's log ratio, over all pairs
effect=$(python3 - "$out" <<'PY'
import csv, glob, math, sys
lr = []
for d in glob.glob(sys.argv[1] + "/ab-rounds-*/"):
    rows = list(csv.DictReader(open(d + "samples.csv")))
    means = {}
    for r in rows:
        if r["warmup"] == "0" and int(r["elapsed_ns"]) and not r.get("thread"):
            means.setdefault((r["point"], r["rep"]), []).append(int(r["calls"]) * 1e9 /
                                                               int(r["elapsed_ns"]))
    pts = sorted({p for p, _ in means}, key=int)
    for rep in sorted({k for _, k in means}, key=int):
        a, b = (means.get((p, rep)) for p in pts[:2])
        if a and b:
            lr.append(math.log(sum(b) / len(b) / (sum(a) / len(a))))
print("%+.1f %% over %d rounds" % ((math.exp(sum(lr) / len(lr)) - 1) * 100, len(lr))
      if lr else "n/a")
PY
)
echo "extra_work=$work: $effect (every A/B round pooled)"
python3 - "$out/pairs" "$pairs" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print("| kind | pairs | different | same | undecided / no test | median s | median units |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for kind in ("aa-rounds", "aa-separate", "ab-rounds", "ab-separate"):
    k = [r for r in rows if r[0] == kind]
    if not k:
        continue
    diff = sum(r[2] in ("different", "faster", "slower") for r in k)
    same = sum(r[2] == "same" for r in k)
    print("| %s | %d | %d (%.0f %%) | %d | %d | %.1f | %s |" % (
        kind, len(k), diff, 100 * diff / len(k), same, len(k) - diff - same,
        statistics.median(float(r[4]) for r in k),
        statistics.median(int(r[3]) for r in k)))
PY
