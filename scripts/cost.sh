#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The cost of a point: how much a repetition takes beyond its planned
# warmup and duration (issue 34), for the null, ringbuf, trigger and
# map_perf workloads.  For each, one ad hoc run of N repetitions and one of
# 1, each of 1 s warmup + 1 s measured, the statistics pass off, no charts: the
# difference of their wall times over N - 1 is one repetition's wall time,
# whatever the process's start and end cost; over its planned 2 s it is the
# share the harness adds (set-up, teardown, the sampler).  Prints one line
# per workload:
#
#   ringbuf  2.108 s a repetition of 2.000 planned: 1.054 (+54 ms)
#
# Run as root on a quiet machine (the host's noise moves it); --reps N (10).
set -u
cd "$(dirname "$0")/.."

BPFSWEEP=${BPFSWEEP:-./bpfsweep}
REPS=10
[ "${1:-}" = --reps ] && REPS=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# wall_of WORKLOAD REPS: the run's wall time in ns
wall_of() {
	local t0 t1
	t0=$(date +%s%N)
	$BPFSWEEP run "$1" -w 1 -d 1 --set interval=1s --set repeat="$2" --set bpf_stats=off \
		--no-plots -o "$TMP/$1-$2" </dev/null >/dev/null 2>"$TMP/$1-$2.err" ||
		{ echo "$1: the run failed: $(tail -n1 "$TMP/$1-$2.err")" >&2; return 1; }
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

for w in null ringbuf trigger map_perf; do
	many=$(wall_of "$w" "$REPS") || continue
	one=$(wall_of "$w" 1) || continue
	awk -v w="$w" -v many="$many" -v one="$one" -v n="$REPS" 'BEGIN {
		rep = (many - one) / (n - 1) / 1e9
		printf "%-8s %.3f s a repetition of 2.000 planned: %.3f (%+.0f ms)\n",
		       w, rep, rep / 2, (rep - 2) * 1000
	}'
done
