#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Quality flags end to end, without root: the null workload's injected
# zero intervals and jitter get their flags and a clean point none; a noisy
# point is retried; a point that counts nothing (rate = 0) is stalled, not
# ok, and never a 0 on its chart; a flagged point is drawn hollow on it;
# and a thousand spinning producers on a few CPUs start and stop promptly,
# every one of them in the cpus column.  Interference has its own script
# (interference.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# quality_of DIR EXPERIMENT [KEY VALUE]: the quality column of that point
quality_of() { csv_col "$1/summary.csv" quality experiment "$2" | sed -n "${3:-1}p"; }

# --- injected noise, and none ---------------------------------------------------
D=$TMP/flags
$BPFSWEEP tests/e2e/quality.spec -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check quality/exit-0 [ $? = 0 ]
check quality/clean-no-flags [ "$(csv_col "$D/summary.csv" quality experiment clean)" = "" ]
# zero_every = 3: intervals 3, 6, 9 of 11 (the first is warmup) count nothing
check quality/zero-intervals [ "$(quality_of "$D" zeros)" = "cv=69%;zero=3/10" ]
# ±30%: sd = 30% * sqrt(10/9) of the mean; two levels, nothing between
check quality/jitter-30-cv-bimodal [ "$(quality_of "$D" jitter 1)" = "cv=32%;bimodal" ]
# ±3% is under max_cv's 10%, still two clusters
check quality/jitter-3-bimodal [ "$(quality_of "$D" jitter 2)" = "bimodal" ]
check quality/tries-1 [ "$(csv_col "$D/summary.csv" tries | sort -u)" = 1 ]
# a flagged row ends in its flags; a legend after the table says once what each means
check quality/table-mark grep -q '^zeros .*M/s) \[cv=69%, zero=3/10\]$' "$D/table.txt"
check quality/table-marks-jitter \
	[ "$(grep -c '^jitter_pct=[0-9]* .*M/s) \[.*bimodal\]$' "$D/table.txt")" = 2 ]
check quality/table-legend grep -qx \
	"\[cv=N%\] the intervals' stddev is N% of their mean, over 10%" "$D/table.txt"
check quality/table-legend-once [ "$(grep -c '^\[bimodal\] ' "$D/table.txt")" = 1 ]
check quality/table-clean-unmarked grep -Eq \
	'^clean +1\.000 ± 0\.000M/s \(drops 0\.000 ± 0\.000M/s\)$' "$D/table.txt"
check quality/progress-word grep -q \
	'^\[2/4\] null{}: ok hits .* noisy (cv=69%;zero=3/10)$' "$TMP/err"

# --- retry_noisy: up to N more tries, the last one kept -------------------------
cat >"$TMP/jitter.spec" <<'EOF'
[sweep]
workload = null
warmup   = 50ms
duration = 500ms
interval = 50ms
[params]
producers  = 0
jitter_pct = 30
EOF
D=$TMP/retry
$BPFSWEEP "$TMP/jitter.spec" --set retry_noisy=2 -o "$D" >/dev/null 2>"$TMP/err" </dev/null
check quality/retry-exit-0 [ $? = 0 ]
check quality/retry-tries [ "$(csv_col "$D/summary.csv" tries)" = 3 ]
check quality/retry-progress [ "$(grep -c 'noisy (cv=32%;bimodal), try [23]/3$' "$TMP/err")" = 2 ]
# samples.csv holds the kept try only: 1 warmup + 10 measured intervals
check quality/retry-samples-match [ "$(csv_col "$D/samples.csv" point | wc -l)" = 11 ]
check quality/retry-n [ "$(csv_col "$D/summary.csv" n)" = 10 ]
check quality/retry-mark grep -q ', after 3 tries\]$' "$D/table.txt"

# --- stalled: a point that counted nothing is not ok, nor a 0 on the chart -----
cat >"$TMP/stall.spec" <<'EOF'
[sweep]
title    = stall
workload = null
warmup   = 50ms
duration = 200ms
interval = 50ms
[params]
producers = 1
rate      = 0 1000000
[report]
plot = rate vs hits
EOF
D=$TMP/stall
$BPFSWEEP "$TMP/stall.spec" --set retry_noisy=1 -o "$D" >/dev/null 2>"$TMP/err" </dev/null
check quality/stalled-exit-1 [ $? = 1 ]
check quality/stalled-status [ "$(csv_col "$D/summary.csv" status rate 0)" = stalled ]
# rate=0's producer sleeps on a futex: said, with where as root (wchan: the kernel's own name)
check quality/stalled-reason grep -Eqx "hits counted nothing in all 4 measured intervals, nor did any other counter, while 1 producer ran \(asleep: the most CPU a producer had was 0\.0 ms of 0\.20 s measured; they waited 0% of it for a CPU; one idle a whole window: S( in [a-z_0-9]+)?\), after 2 tries" \
	<(csv_col "$D/summary.csv" reason rate 0)
check quality/stalled-retried [ "$(csv_col "$D/summary.csv" tries rate 0)" = 2 ]
check quality/stalled-zero-flag grep -q '^zero=4/4' <(csv_col "$D/summary.csv" quality rate 0)
check quality/stalled-no-mean [ "$(csv_col "$D/summary.csv" hits_per_s_mean rate 0)" = "" ]
check quality/stalled-other-ok [ "$(csv_col "$D/summary.csv" status rate 1000000)" = ok ]
check quality/stalled-progress grep -q '^\[1/2\] null{rate=0}: stalled (zero=4/4.*), try 2/2$' \
	"$TMP/err"
check quality/stalled-table grep -q '^rate=0 *stalled: hits counted nothing' "$D/table.txt"
# the chart's data holds the ok point only: no 0 drawn for the stalled one
check quality/stalled-not-drawn [ "$(grep -vc '^#\|^$' "$D/plots/1-hits-vs-rate.dat")" = 1 ]
check quality/stalled-ok-drawn grep -q '^1000000 ' "$D/plots/1-hits-vs-rate.dat"
# --resume runs a stalled point again, as a failed one; the ok one stays
$BPFSWEEP "$TMP/stall.spec" --set retry_noisy=1 --resume "$D" >/dev/null 2>"$TMP/err" </dev/null
check quality/stalled-resume-exit-1 [ $? = 1 ]
check quality/stalled-resume-reran grep -q '^resuming .*: 1 of 2 points keep their rows, 1 to run$' "$TMP/err"
check quality/stalled-resume-kept [ "$(csv_col "$D/summary.csv" status | sort | tr '\n' ' ')" = \
	"ok stalled " ]

# --- charts: flagged points hollow, named in the key ---------------------------------
# jitter.spec's point and a clean one (no producers: no load flags on a busy machine)
{ sed 's/^jitter_pct = 30$/jitter_pct = 0 30/' "$TMP/jitter.spec"
  printf '[report]\nplot = jitter_pct vs hits\n'; } >"$TMP/hollow.spec"
D=$TMP/hollow
$BPFSWEEP "$TMP/hollow.spec" -o "$D" >/dev/null 2>&1 </dev/null
check quality/hollow-exit-0 [ $? = 0 ]
GP=$D/plots/1-hits-vs-jitter-pct
# the .dat's last column: 1 for the flagged point (cv=32%;bimodal), 0 for the clean one
check quality/hollow-dat-clean grep -Eq '^0 [0-9.]+ [0-9.]+ "0" 0$' "$GP.dat"
check quality/hollow-dat-flagged grep -Eq '^30 [0-9.]+ [0-9.]+ "30" 1$' "$GP.dat"
check quality/hollow-gp-open-marker grep -qF \
	'index 0 using 1:($5 > 0 ? $2 : 1/0) notitle with points linecolor 1 pointtype 6' "$GP.gp"
check quality/hollow-gp-key grep -qF \
	"keyentry with points linecolor rgb \"black\" pointtype 6 title 'hollow: flagged cv, bimodal (see the table)'" \
	"$GP.gp"
if command -v gnuplot >/dev/null; then
	check quality/hollow-png is_png "$GP.png"
else
	skip quality/hollow-png "gnuplot not installed"
fi

# --- max_cv is the user's ----------------------------------------------------------
D=$TMP/maxcv
$BPFSWEEP "$TMP/jitter.spec" --set max_cv=40 -o "$D" >/dev/null 2>&1 </dev/null
check quality/max-cv-40 [ "$(csv_col "$D/summary.csv" quality)" = bimodal ]
printf '[sweep]\nworkload = null\nmax_cv = -1\n' >"$TMP/badcv.spec"
$BPFSWEEP check "$TMP/badcv.spec" >/dev/null 2>"$TMP/err"
check quality/max-cv-checked [ $? = 2 ]
check quality/max-cv-located grep -q "^$TMP/badcv.spec:3:10: error: " "$TMP/err"

# --- oversubscription: 1024 spinning producers ------------------------------------
# Before the gate, each new thread waited for the spinning ones: 40-90 s on
# 2 CPUs for a point of 0.2 s.  The bound is generous, not a benchmark:
# the warmup waits for every producer's first slice, and in its CPU cgroup
# (cpu_share) the run has one task's share beside make check's other lanes
# (2.7 s alone here, 4.7 and 7.7 s in CI runs).
cat >"$TMP/many.spec" <<'EOF'
[sweep]
workload = count
warmup   = 0ms
interval = 100ms
affinity = on
[params]
producers = 1024
EOF
D=$TMP/many
start=$(date +%s%N)
$BPFSWEEP "$TMP/many.spec" --set duration=200ms -o "$D" >/dev/null 2>&1 </dev/null &
pid=$!
# as one task beside make check's other lanes (tests/lib.sh)
cpu_share $pid
wait $pid
status=$?
took_ms=$((($(date +%s%N) - start) / 1000000))
check quality/many-exit-0 [ "$status" = 0 ]
check "quality/many-start-promptly (${took_ms} ms)" [ "$took_ms" -lt 30000 ]

commas() { local s=${1//[!,]/}; echo ${#s}; }
# threads_in "prod (0,1)x511,0": how many threads the cpus column names
threads_in() {
	local s=${1#prod } group reps rest
	if [[ $s =~ ^\(([0-9,]+)\)x([0-9]+)(,([0-9,]+))?$ ]]; then
		group=${BASH_REMATCH[1]} reps=${BASH_REMATCH[2]} rest=${BASH_REMATCH[4]}
		echo $((($(commas "$group") + 1) * reps + ${rest:+$(commas "$rest") + 1} + 0))
	else
		echo $(($(commas "$s") + 1))
	fi
}
check quality/cpus-every-thread [ "$(threads_in "$(csv_col "$D/summary.csv" cpus)")" = 1024 ]

# Ctrl-C while a thousand producers start or run ends the run at once.
D=$TMP/many-int
$BPFSWEEP "$TMP/many.spec" --set duration=30s -o "$D" >/dev/null 2>&1 </dev/null &
pid=$!
cpu_share $pid
# a background job ignores SIGINT until the runner takes it: wait for the
# CSVs, made just before the sweep, however slow a loaded machine starts
for _ in $(seq 100); do
	[ -s "$D/summary.csv" ] && break
	sleep 0.1
done
sleep 0.3
start=$(date +%s%N)
kill -INT $pid
wait $pid
status=$?
took_ms=$((($(date +%s%N) - start) / 1000000))
check quality/many-sigint-exit-130 [ "$status" = 130 ]
check "quality/many-sigint-prompt (${took_ms} ms)" [ "$took_ms" -lt 10000 ]
cpu_share_done
