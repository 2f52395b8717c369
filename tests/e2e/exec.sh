#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The exec workload end to end, without root: tests/tools/fakebench stands
# in for the kernel bench and map_perf_test.  Its numbers follow from its
# arguments, its intervals last 1 s + 50 us and 1 s - 25 us alternately;
# a failing and a hanging point come out failed with their reasons, and the
# sweep goes on.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAKE=${BUILD:-build}/tests/tools/fakebench

# row COLUMN MODE PRODUCERS: summary.csv's COLUMN of that point
row() { csv_col "$TMP/k/summary.csv" "$1" point "$(csv_col "$TMP/k/summary.csv" point mode "$2" |
	sed -n "$3p")"; }

D=$TMP/k
sed "s|build/tests/tools/fakebench|$FAKE|" tests/e2e/exec.spec >"$TMP/exec.spec"
$BPFSWEEP "$TMP/exec.spec" -o "$D" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
check exec/failed_points_exit_1 [ "$rc" = 1 ]
check exec/all_rows [ "$(csv_col "$D/summary.csv" status | tr '\n' ' ')" = \
	"ok ok failed failed failed failed " ]
# 1.5 M/s per producer over 1 s + 50 us, 1 s - 25 us: counts are rounded to whole events
check exec/kbench_hits [ "$(row hits_per_s_mean kbench 2)" = 6000000.000 ]
check exec/kbench_drops_median [ "$(row drops_per_s_median kbench 2)" = 250000.375 ]
check exec/kbench_producers [ "$(row nr_producers kbench 2)" = 4 ]
# warmup 1s + duration 3s: the bench's own first iteration is its warmup,
# the 3 + 1 after it are measured (bench.c's Summary is of those too)
check exec/kbench_measured_n [ "$(row n kbench 1)" = 4 ]
check exec/kbench_warmup_marked [ "$(csv_col "$D/samples.csv" warmup point 0 | tr '\n' ' ')" = "1 0 0 0 0 " ]
check exec/kbench_elapsed_is_the_bench_own [ "$(csv_col "$D/samples.csv" elapsed_ns point 0 |
	tr '\n' ' ')" = "1000050000 999975000 1000050000 999975000 1000050000 " ]
check exec/kbench_counts [ "$(csv_col "$D/samples.csv" hits point 0 | tr '\n' ' ')" = \
	"1500075 1499963 1500075 1499963 1500075 " ]
check exec/fail_reason_is_stderr_tail [ "$(row reason fail 1)" = \
	"exit status 1: libbpf: prog 'bench_ringbuf': failed to attach: Operation not permitted | libbpf: prog 'bench_ringbuf': failed to auto-attach: -1 | failed to attach prog" ]
check exec/hang_timed_out [ "$(row reason hang 2)" = "timed out after 2.0s, killed" ]
check exec/table_shows_failed grep -q "^fail p1  *failed: exit status 1: libbpf" "$D/table.txt"
# the hanging program's child was in its process group: killed with it
check exec/group_killed not pgrep -f "^$FAKE hang"

# each metric's direction in meta: the bench's name's (drops lower), the default
# (higher), or the spec's `better` (total_operations=neither)
check exec/meta_metric_lines [ "$(grep '^metric: ' "$D/meta" | tr '\n' ';')" = \
	"metric: hits counter M/s higher;metric: drops counter M/s lower;metric: total_operations counter M/s neither;" ]
# better names a metric of the spec and a direction, or the spec is refused
for bad in "nosuch=lower:is no metric of this" "hits=sideways:better is METRIC=higher"; do
	sed "s|^better .*|better = ${bad%%:*}|" "$TMP/exec.spec" >"$TMP/bad.spec"
	$BPFSWEEP check "$TMP/bad.spec" >/dev/null 2>"$TMP/bad.err" </dev/null
	check "exec/better_refused_${bad%%=*}" [ $? = 2 ]
	check "exec/better_says_${bad%%=*}" grep -q "bad.spec:[0-9]*:[0-9]*: error: .*${bad#*:}" \
		"$TMP/bad.err"
done

# map_perf_test: one line per worker, the metric per worker
cat >"$TMP/map.spec" <<EOF2
[sweep]
workload = exec
warmup = 0s
duration = 1s
[param "workers"]
default = 3
[exec]
argv = $FAKE map_perf {workers} 100000
parser = map_perf
[report]
worker_rows = on
EOF2
$BPFSWEEP "$TMP/map.spec" -o "$TMP/m" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
check exec/map_perf_runs [ $? = 0 ]
check exec/map_perf_total [ "$(csv_col "$TMP/m/summary.csv" events_per_s_mean)" = 303000.000 ]
check exec/map_perf_workers [ "$(csv_col "$TMP/m/summary.csv" nr_producers)" = 3 ]
check exec/map_perf_worker_max [ "$(csv_col "$TMP/m/summary.csv" events_per_s_worker_max)" = 102000.000 ]
check exec/map_perf_worker_rows grep -q "^2:.* 102000 events per sec" "$TMP/m/table.txt"

# a regex with named fields; {flag?word} words
cat >"$TMP/re.spec" <<EOF2
[sweep]
workload = exec
warmup = 0s
duration = 1s
[param "lines"]
default = 4
[exec]
argv = $FAKE regex {lines}
parser = regex
regex = ^t=([0-9]+) elapsed_ms=([0-9.]+) ops=([0-9.]+)
fields = - elapsed_ms ops
EOF2
$BPFSWEEP "$TMP/re.spec" -o "$TMP/r" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
check exec/regex_runs [ $? = 0 ]
check exec/regex_rate [ "$(csv_col "$TMP/r/summary.csv" ops_per_s_mean)" = 1234.000 ]
check exec/regex_elapsed [ "$(csv_col "$TMP/r/samples.csv" elapsed_ns | sort -u)" = 500000000 ]

# A value the bench scanner does not read ("1,000.5M/s" was 000.5) leaves
# its line out, said with its line as import says it, once over the
# repetitions (each prints the same), after the program has ended
mkdir -p "$TMP/u"
printf '#!/bin/sh\nprintf "Iter   0 ( 10.000us): hits 1.500M/s\\nIter   1 ( 10.000us): hits 1,000.5M/s\\nIter   2 ( 10.000us): hits 2.500M/s\\n"\n' >"$TMP/u/bench"
chmod +x "$TMP/u/bench"
cat >"$TMP/unread.spec" <<EOF2
[sweep]
workload = exec
warmup = 0s
duration = 1s
repeat = 3
[exec]
argv = $TMP/u/bench
parser = kbench
metrics = hits
EOF2
$BPFSWEEP "$TMP/unread.spec" -o "$TMP/unread" --no-plots >/dev/null 2>"$TMP/err" </dev/null
check exec/unread_runs [ $? = 0 ]
check exec/unread_said_once [ "$(grep -c "warning: program '$TMP/u/bench': output line 2: \
'1,000.5M/s' not read: .*; line skipped" "$TMP/err")" = 1 ]
check exec/unread_line_left_out [ "$(csv_col "$TMP/unread/summary.csv" n)" = 6 ]

# csv and jsonl: fields name the columns and keys, elapsed_ms=COLUMN the
# interval's length; a broken line fails the point with its number
for fmt in csv jsonl; do
	cat >"$TMP/$fmt.spec" <<EOF2
[sweep]
workload = exec
warmup = 0s
duration = 1s
[param "mode"]
type = enum
choices = $fmt csv-short jsonl-cut
default = $fmt
[exec]
argv = $FAKE {mode} 3
parser = $fmt
fields = ops elapsed_ms=time_ms
[params]
mode = $fmt $([ $fmt = csv ] && echo csv-short || echo jsonl-cut)
EOF2
	$BPFSWEEP "$TMP/$fmt.spec" -o "$TMP/$fmt" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
	check exec/${fmt}_broken_exit_1 [ $? = 1 ]
	# 2000.25/s over 250.5 ms is 501.06 events: 501 counted, 2000.000/s
	check exec/${fmt}_rate [ "$(csv_col "$TMP/$fmt/summary.csv" ops_per_s_mean | head -1)" = 2000.000 ]
	check exec/${fmt}_n [ "$(csv_col "$TMP/$fmt/summary.csv" n | head -1)" = 3 ]
	check exec/${fmt}_elapsed [ "$(csv_col "$TMP/$fmt/samples.csv" elapsed_ns point 0 | sort -u)" = 250500000 ]
done
check exec/csv_short_reason [ "$(csv_col "$TMP/csv/summary.csv" reason | tail -1)" = \
	"output line 3: 3 cells, the header has 4: 1,250.5,2000.25" ]
check exec/jsonl_cut_reason [ "$(csv_col "$TMP/jsonl/summary.csv" reason | tail -1)" = \
	'output line 2: not one JSON object: {"time_ms": 250.5, "ops"' ]
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nparser = csv\nfields = ops=a b=a -\nregex = x\n' \
	>"$TMP/c.spec"
$BPFSWEEP check "$TMP/c.spec" >/dev/null 2>"$TMP/err"
check exec/csv_spec_exit_2 [ $? = 2 ]
check exec/csv_column_twice grep -q "c.spec:6:16: error: column 'a' used twice" "$TMP/err"
check exec/csv_no_skip_field grep -q "c.spec:6:20: error: metric '-'" "$TMP/err"
check exec/csv_no_regex grep -q "c.spec:7:1: error: regex is for parser = regex" "$TMP/err"
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nparser = jsonl\n' >"$TMP/j.spec"
$BPFSWEEP check "$TMP/j.spec" >/dev/null 2>"$TMP/err"
check exec/jsonl_needs_fields grep -q "j.spec:3:1: error: parser = jsonl needs fields" "$TMP/err"

cat >"$TMP/args.spec" <<EOF2
[sweep]
workload = exec
[param "flag"]
type = bool
default = off
[param "size"]
type = size
default = 4K
[exec]
argv = $FAKE args {flag?--with-flag} x{size}y {warmup_s}s
[params]
flag = on off
EOF2
$BPFSWEEP "$TMP/args.spec" -o "$TMP/a" --no-plots --quick >"$TMP/out" 2>"$TMP/err" </dev/null
check exec/args_one_word_each [ "$(csv_col "$TMP/a/summary.csv" reason | tr '\n' '|')" = \
	"exit status 3: [--with-flag] [x4096y] [1s]|exit status 3: [x4096y] [1s]|" ]

# spec errors: located, exit 2, nothing run
cat >"$TMP/bad.spec" <<EOF2
[sweep]
workload = exec
[param "n"]
type = int
default = 1
[exec]
argv = $FAKE {n} {nope} {n?x}
parser = kbench
timeout = soon
EOF2
$BPFSWEEP check "$TMP/bad.spec" >/dev/null 2>"$TMP/err"
check exec/spec_error_exit_2 [ $? = 2 ]
check exec/spec_error_unknown_param grep -q "bad.spec:7:$((${#FAKE} + 13)): error: unknown parameter 'nope'" "$TMP/err"
check exec/spec_error_flag_not_bool grep -q "bad.spec:7:.*'{n?...}' needs an on/off parameter" "$TMP/err"
check exec/spec_error_timeout grep -q "bad.spec:9:11: error:" "$TMP/err"
printf '[sweep]\nworkload = null\n[exec]\nargv = x\n' >"$TMP/notexec.spec"
$BPFSWEEP check "$TMP/notexec.spec" >/dev/null 2>"$TMP/err"
check exec/exec_section_needs_exec [ $? = 2 ]
check exec/exec_section_error grep -q "notexec.spec:3:1: error: \[exec\] is for workload = exec" "$TMP/err"
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nparser = map_perf\nmetrics = a b\n' >"$TMP/m2.spec"
$BPFSWEEP check "$TMP/m2.spec" >/dev/null 2>"$TMP/err"
check exec/map_perf_one_metric grep -q "m2.spec:6:13: error: parser = map_perf has one metric" "$TMP/err"
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nmetrics = hits hits\n' >"$TMP/m3.spec"
$BPFSWEEP check "$TMP/m3.spec" >/dev/null 2>"$TMP/err"
check exec/metric_twice grep -q "m3.spec:5:16: error: metric 'hits' given twice" "$TMP/err"
printf '[sweep]\nworkload = exec\n[param "affinity"]\ndefault = 1\n[exec]\nargv = x\n' >"$TMP/a.spec"
$BPFSWEEP check "$TMP/a.spec" >/dev/null 2>"$TMP/err"
check exec/param_not_a_sweep_key grep -q "a.spec:3:1: error: 'affinity' is a \[sweep\] or \[report\] key" "$TMP/err"
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nparser = regex\nregex = (a{1000}){1000}\nfields = a\n' \
	>"$TMP/re.spec"
$BPFSWEEP check "$TMP/re.spec" >/dev/null 2>"$TMP/err"
check exec/regex_no_bounds grep -q "re.spec:6:9: error: regex: no {m,n} repetition" "$TMP/err"
# a backreference: glibc backtracks on it (a 2 KB line took 532 s), refused where it stands
printf '[sweep]\nworkload = exec\n[exec]\nargv = x\nparser = regex\nregex = (a)\\1 ([0-9]+)\nfields = - a\n' \
	>"$TMP/br.spec"
$BPFSWEEP check "$TMP/br.spec" >/dev/null 2>"$TMP/err"
check exec/regex_backref_exit_2 [ $? = 2 ]
check exec/regex_backref_refused grep -q "br.spec:6:12: error: regex: no backreference" "$TMP/err"

# output that is no honest text fails its point with the line: an overflowing rate (was
# 9.22e18 events, ok), a NUL byte (was the end of the output)
ITER='Iter 0 (1.000us): hits %sM/s (1.0M/prod), drops 0.000M/s, total operations 1.0M/s\n'
printf '#!/bin/sh\nprintf "%s"\n' "$(printf "$ITER" 99999999999999999999)" >"$TMP/ovf.sh"
printf '#!/bin/sh\nprintf "%s\\n\\000\\n%s"\n' "$(printf "$ITER" 1.0)" "$(printf "$ITER" 2.0)" \
	>"$TMP/nul.sh"
chmod +x "$TMP/ovf.sh" "$TMP/nul.sh"
for bad in ovf nul; do
	printf '[sweep]\nworkload = exec\nwarmup = 0s\nduration = 1s\n[exec]\nargv = %s\n' \
		"$TMP/$bad.sh" >"$TMP/$bad.spec"
	printf 'metrics = hits drops total_operations\n' >>"$TMP/$bad.spec"
	$BPFSWEEP "$TMP/$bad.spec" -o "$TMP/$bad" --no-plots >/dev/null 2>&1 </dev/null
	check "exec/${bad}_exit_1" [ $? = 1 ]
	check "exec/${bad}_failed" [ "$(csv_col "$TMP/$bad/summary.csv" status)" = failed ]
done
check exec/overflow_reason [ "$(csv_col "$TMP/ovf/summary.csv" reason | cut -c1-47)" = \
	"output line 1: a number of 2^63 or more: Iter 0" ]
check exec/nul_reason [ "$(csv_col "$TMP/nul/summary.csv" reason)" = \
	"output line 2: a NUL byte: no text output" ]

# a long stderr: the reason keeps its end, the program's last word, within
# a point's reason (result.h: 384 bytes with its NUL)
printf '[sweep]\nworkload = exec\n[exec]\nargv = %s fail-long\n' "$FAKE" >"$TMP/fl.spec"
$BPFSWEEP "$TMP/fl.spec" -o "$TMP/fl" --no-plots >/dev/null 2>&1 </dev/null
reason=$(csv_col "$TMP/fl/summary.csv" reason)
kept_end() { [ "${reason:0:18}" = "exit status 1: ..." ] && [ "${reason: -16}" = " | the last line" ] &&
	[ ${#reason} -le 383 ]; }
check exec/long_stderr_keeps_its_end kept_end

# Ctrl-C while the program runs: its process group is killed, the point
# is interrupted, the sweep ends (130)
cat >"$TMP/hang.spec" <<EOF2
[sweep]
workload = exec
[exec]
argv = $FAKE hang ctrl-c
timeout = 60s
EOF2
$BPFSWEEP "$TMP/hang.spec" -o "$TMP/h" --no-plots >/dev/null 2>&1 </dev/null &
pid=$!
for _ in $(seq 50); do pgrep -f "^$FAKE hang ctrl-c" >/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid
check exec/ctrl_c_exit_130 [ $? = 130 ]
check exec/ctrl_c_interrupted [ "$(csv_col "$TMP/h/summary.csv" status)" = interrupted ]
sleep 0.2
check exec/ctrl_c_group_killed not pgrep -f "^$FAKE hang ctrl-c"

# Two builds of a program as the arms of decide (program = ./a/bench
# ./b/bench, the first the baseline): their units alternate in shuffled
# rounds, each build at both places of a round, and the second's row
# carries the decision, here of one binary copied twice (A/A: the same)
mkdir -p "$TMP/a" "$TMP/b"
cp "$FAKE" "$TMP/a/bench" && cp "$FAKE" "$TMP/b/bench"
cat >"$TMP/arms.spec" <<EOF2
[sweep]
workload = exec
warmup   = 1s
duration = 2s
decide   = 2%
[param "program"]
type    = enum
choices = $TMP/a/bench $TMP/b/bench
default = $TMP/a/bench
[exec]
argv      = {program} kbench {warmup_s} {duration_s} 2
parser    = kbench
warmup_intervals = {warmup_s}
[params]
program = $TMP/a/bench $TMP/b/bench
[report]
baseline = program=$TMP/a/bench
EOF2
$BPFSWEEP "$TMP/arms.spec" -o "$TMP/arms" --no-plots >"$TMP/arms.out" 2>"$TMP/arms.err" </dev/null
check exec/arms_exit_0 [ $? = 0 ]
check exec/arms_baseline [ "$(csv_col "$TMP/arms/summary.csv" decision program "$TMP/a/bench")" = baseline ]
check exec/arms_same [ "$(csv_col "$TMP/arms/summary.csv" decision program "$TMP/b/bench")" = \
	"same: no change beyond ±0.0 %" ]
check exec/arms_rounds [ "$(csv_col "$TMP/arms/summary.csv" rounds program "$TMP/b/bench")" = 5 ]
check exec/arms_both_places [ "$(paste -d' ' <(csv_col "$TMP/arms/samples.csv" point) \
	<(csv_col "$TMP/arms/samples.csv" slot) | sort -u | wc -l)" = 4 ]

# A program that is not there fails every point on any kernel: check and
# run refuse the sweep (exit 2, nothing written) once, naming what builds
# it ([exec] build), before anything runs or a guest boots
cat >"$TMP/missing.spec" <<EOF2
[sweep]
workload = exec
[exec]
argv  = $TMP/no/such/bench kbench 1 1 {producers}
build = make fakebench
[param "producers"]
default = 1
[params]
producers = 1 2 3
EOF2
want="bpfsweep: error: program '$TMP/no/such/bench': No such file or directory; build it: make fakebench (3 points need it)"
$BPFSWEEP check "$TMP/missing.spec" >/dev/null 2>"$TMP/missing.err" </dev/null
check exec/missing_check_exit_2 [ $? = 2 ]
check exec/missing_check_once [ "$(cat "$TMP/missing.err")" = "$want" ]
$BPFSWEEP "$TMP/missing.spec" -o "$TMP/missing" >/dev/null 2>"$TMP/missing.err" </dev/null
check exec/missing_run_exit_2 [ $? = 2 ]
check exec/missing_run_said grep -qxF "$want" "$TMP/missing.err"
check exec/missing_run_writes_nothing [ ! -e "$TMP/missing" ]
