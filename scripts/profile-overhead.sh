#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What the profiler costs (docs/profile.md): one point run unprofiled, at
# 99 Hz and at 999 Hz, in interleaved rounds (so that a change of the
# machine's load falls on all three alike), and each setting's median
# rate of the headline metric, its profiled rate against the unprofiled
# one, and the profiler's samples.  Needs root.
#
#   scripts/profile-overhead.sh [--rounds N] [--duration D] [--set KEY=VALUE]...
#                               [--out DIR] [WORKLOAD]
#
#   --rounds N      rounds of the three runs; default 5
#   --duration D    measured time of each run; default 3s
#   --set KEY=VAL   passed to every run (repeatable); the default point is
#                   csum_diff size=4096 batch=64, one producer pinned
#   --out DIR       where the runs go; default a temporary directory, removed
#   WORKLOAD        default csum_diff
#
# Prints a line per setting: "off|99|999 Hz  median M/s  vs off  samples",
# then the profiler's program's own cost per sample, from one more run at
# 999 Hz with the kernel's BPF statistics on (kernel.bpf_stats_enabled,
# restored after): run_time_ns / run_cnt of profile_sample, the part of a
# sample's cost that is the program (not the timer interrupt around it).
# BPFSWEEP names the binary (default: the build's ./bpfsweep).  On a
# shared machine the rounds differ by more than the profiler's cost at
# 99 Hz: read the spread of the rounds before the difference.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BPFSWEEP=${BPFSWEEP:-$ROOT/bpfsweep}
rounds=5 duration=3s out="" workload=csum_diff
sets=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--set) sets+=(--set "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	-*) echo "usage: $0 [--rounds N] [--duration D] [--set K=V]... [--out DIR] [WORKLOAD]" >&2
	    exit 2 ;;
	*) workload=$1; shift ;;
	esac
done
if [ "$workload" = csum_diff ] && [ ${#sets[@]} = 0 ]; then
	sets=(--set size=4096 --set batch=64 --set producers=1)
fi
stats=/proc/sys/kernel/bpf_stats_enabled old_stats="" rm_out=0
cleanup() {
	[ -n "$old_stats" ] && echo "$old_stats" >"$stats"
	[ "$rm_out" = 1 ] && rm -rf "$out"
	return 0
}
trap cleanup EXIT
if [ -z "$out" ]; then
	out=$(mktemp -d)
	rm_out=1
fi
CSVGET=$ROOT/build/tests/tools/csvget

# One run: its headline rate (the first metric's mean) and the profiler's samples.
run_one() {
	local dir=$1 hz=$2 prof=()

	[ "$hz" != off ] && prof=(--profile --set "profile_hz=$hz")
	"$BPFSWEEP" run "$workload" "${sets[@]}" -a --set warmup=500ms \
		--set "duration=$duration" --set bpf_stats=off "${prof[@]}" --no-plots \
		-o "$dir" >/dev/null 2>&1 </dev/null
	local col
	col=$(head -1 "$dir/summary.csv" | tr ',' '\n' | grep -m1 '_per_s_mean$')
	printf '%s %s\n' "$("$CSVGET" "$dir/summary.csv" "$col")" \
		"$([ "$hz" = off ] && echo - || "$CSVGET" "$dir/summary.csv" profile_samples)"
}

for r in $(seq "$rounds"); do
	for hz in off 99 999; do
		run_one "$out/r$r-$hz" "$hz" >>"$out/$hz.rates"
	done
done
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
base=$(cut -d' ' -f1 "$out/off.rates" | median)
for hz in off 99 999; do
	m=$(cut -d' ' -f1 "$out/$hz.rates" | median)
	s=$(cut -d' ' -f2 "$out/$hz.rates" | tr '\n' ' ')
	all=$(cut -d' ' -f1 "$out/$hz.rates" | tr '\n' ' ')
	awk -v hz="$hz" -v m="$m" -v b="$base" -v s="$s" -v all="$all" 'BEGIN {
		printf "%-4s Hz  median %.3f M/s  vs off %+.2f %%  rounds: %s samples: %s\n",
			hz, m / 1e6, 100 * (m / b - 1), all, s }'
done

# The program's own time per sample, from the kernel's statistics of it.
old_stats=$(cat "$stats")
echo 1 >"$stats"
run_one "$out/stats" 999 >/dev/null &
pid=$!
info=""
while kill -0 "$pid" 2>/dev/null; do
	now=$(bpftool -j prog show name profile_sample 2>/dev/null || true)
	case $now in *run_cnt*) info=$now ;; esac
	sleep 0.2
done
wait "$pid" || true
ns=$(printf '%s' "$info" | grep -o '"run_time_ns":[0-9]*' | tail -1 | cut -d: -f2)
cnt=$(printf '%s' "$info" | grep -o '"run_cnt":[0-9]*' | tail -1 | cut -d: -f2)
if [ -n "$ns" ] && [ "${cnt:-0}" -gt 0 ]; then
	awk -v ns="$ns" -v n="$cnt" 'BEGIN { printf "the program: %.0f ns per sample over %d samples\n",
		ns / n, n }'
else
	echo "the program: no statistics read (bpftool, or the statistics refused)"
fi
