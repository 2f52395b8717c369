#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What is known before a sweep starts.  Without an argument, the checks that
# need no root: spec errors refuse a run before anything is written, points
# the probe rules out are said up front and shown as one line per run, the
# ETA counts only runnable points.  With "root": capabilities, by running
# bpfsweep as uid 0 without them (setpriv), and the up-front kernel probe.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# what the BPF workloads need, as the messages say it (a regex)
RULE='CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)'

# no_caps CMD...: CMD as uid 0 (files stay accessible) with no capability at all
no_caps() { setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all "$@"; }

# line_before FILE A B: the first line matching A comes before the first matching B
line_before() {
	local a b
	a=$(grep -n -m1 -e "$2" "$1" | cut -d: -f1)
	b=$(grep -n -m1 -e "$3" "$1" | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}

unprivileged() {
	local D status

	# --- spec errors found by validation: exit 2, nothing written --------
	for spec in tests/cli/specs/ringbuf_rules.spec tests/cli/specs/pairs.spec; do
		name=$(basename "$spec" .spec)
		D=$TMP/$name
		$BPFSWEEP "$spec" -o "$D" >/dev/null 2>"$TMP/err" </dev/null
		status=$?
		check "plan/$name-run-exit-2" [ "$status" = 2 ]
		check "plan/$name-run-located" grep -q "^$spec:[0-9]*:[0-9]*: error: " "$TMP/err"
		check "plan/$name-run-writes-nothing" [ ! -e "$D" ]
	done

	# --- an estimate too long to count saturates, never wraps to a short one
	$BPFSWEEP expand tests/e2e/null.spec --set duration=100000000s --set repeat=1000000 \
		>"$TMP/out" 2>&1 </dev/null
	check plan/huge-estimate-exit-0 [ $? = 0 ]
	check plan/huge-estimate-saturates grep -q ': about 584 years or more for' "$TMP/out"

	# --- --only in check and expand: the block's points alone; a title
	# that names none lists the titles there are
	$BPFSWEEP check tests/e2e/null.spec --only failures >"$TMP/out" 2>&1 </dev/null
	check plan/check-only-exit-0 [ $? = 0 ]
	check plan/check-only-counts grep -q ', [0-9]* points, [0-9]* of them in .failures.$' \
		"$TMP/out"
	$BPFSWEEP expand tests/e2e/null.spec --only failures >"$TMP/out" 2>&1 </dev/null
	check plan/expand-only-its-points [ "$(grep -cE '^ +[0-9]+  null\{' "$TMP/out")" = 2 ]
	check plan/expand-only-its-block not grep -qx 'null sweep' "$TMP/out"
	check plan/expand-only-estimate grep -q '^2 points × 2 repetitions' "$TMP/out"
	$BPFSWEEP expand tests/e2e/null.spec --only 'nothing like it at all' >"$TMP/out" \
		2>"$TMP/err" </dev/null
	check plan/only-unknown-exit-2 [ $? = 2 ]
	check plan/only-unknown-lists-titles grep -qx '  failures' "$TMP/err"

	# --- the README's --only examples name a block of a shipped spec
	grep -oE 'bpfsweep specs/[a-z_]+\.spec --only "[^"]+"' README.md >"$TMP/readme-only"
	check plan/readme-only-examples [ -s "$TMP/readme-only" ]
	while read -r _ spec _ title; do
		title=${title#\"}
		$BPFSWEEP check "$spec" --only "${title%\"}" >/dev/null 2>&1 </dev/null ||
			fail plan/readme-only-example "$spec --only $title: not a block of it"
	done <"$TMP/readme-only"

	# --- list: the kernel's benchmarks first, the harness's own after them
	$BPFSWEEP list >"$TMP/list" 2>&1 </dev/null
	check plan/list-bpf-first [ "$(grep -m1 -o '^[a-z_]*:' "$TMP/list")" = ringbuf: ]
	check plan/list-null-after line_before "$TMP/list" '^trigger:' '^null:'
	# every metric says where it comes from: the load figures printed "(null)" once
	check plan/list-no-null not grep -q '(null)' "$TMP/list"
	check plan/list-load-figures-deterministic grep -Eq \
		'^    total_insns +gauge, shown in insns, what loading its BPF programs cost .*, deterministic$' \
		"$TMP/list"

	# --- other tools' syntax gets the hint of ours
	$BPFSWEEP check null -p 1-4 >/dev/null 2>"$TMP/err" </dev/null
	check plan/range-hint grep -q "^-p/--producers:1:11: error: invalid integer '1-4' (a range is written 1\.\.4)$" "$TMP/err"
	printf '[sweep]\nworkload = null\nduration = 10 s\n' >"$TMP/space.spec"
	$BPFSWEEP check "$TMP/space.spec" >/dev/null 2>"$TMP/err" </dev/null
	check plan/duration-space-hint grep -q "error: a space in duration '10 s': write it as 10s$" "$TMP/err"

	# --- points ruled out: said first, one progress line per run ---------
	D=$TMP/unsupported
	printf '%s\n' '[sweep]' 'workload = null' 'warmup = 0s' 'duration = 20ms' \
		'interval = 10ms' '[params]' 'fail = none probe' 'producers = 1 2 3' \
		'[params "after"]' >"$TMP/unsupported.spec"
	$BPFSWEEP "$TMP/unsupported.spec" -o "$D" >/dev/null 2>"$TMP/err" </dev/null
	check plan/unsupported-exit-0 [ $? = 0 ]
	check plan/unsupported-said-first line_before "$TMP/err" \
		'^3 of 7 points unsupported: null: unsupported on request (fail=probe)$' '^\[1/7\]'
	run_line='\[4-6/7\] null{fail=probe,producers=1} \.\. null{fail=probe,producers=3}: '
	run_line+='unsupported: null: unsupported on request (fail=probe)'
	check plan/unsupported-one-line grep -qx "$run_line" "$TMP/err"
	check plan/progress-lines [ "$(grep -c '^\[' "$TMP/err")" = 5 ]
	check plan/unsupported-row-per-point [ "$(csv_col "$D/summary.csv" status | tr '\n' ' ')" \
		= "ok ok ok unsupported unsupported unsupported ok " ]
	check plan/unsupported-reason-per-row [ "$(csv_col "$D/summary.csv" reason status \
		unsupported | sort -u)" = "null: unsupported on request (fail=probe)" ]
	# --only and --resume: the probe's report counts the points this run runs
	$BPFSWEEP "$TMP/unsupported.spec" --only after -o "$D-only" >/dev/null 2>"$TMP/err" \
		</dev/null
	check plan/only-report-own-points [ "$(grep -c 'points unsupported' "$TMP/err")" = 0 ]
	$BPFSWEEP "$TMP/unsupported.spec" --resume "$D-only" >/dev/null 2>"$TMP/err" </dev/null
	check plan/resume-report-own-points grep -qx \
		'3 of 6 points unsupported: null: unsupported on request (fail=probe)' "$TMP/err"

	# --- the ETA of the first point: one runnable point of 1s, not two ---
	printf '%s\n' '[sweep]' 'workload = null' 'warmup = 0s' 'duration = 1s' \
		'[params]' 'fail = none probe' >"$TMP/eta.spec"
	if [ "$(script -qefc true /dev/null 2>&1; echo $?)" != 0 ]; then
		skip plan/eta-counts-runnable "script(1) cannot open a terminal here"
		return
	fi
	# the line names the experiment: the spec's name, "eta", where it has no title
	script -qefc "$BPFSWEEP $TMP/eta.spec -o $TMP/eta" "$TMP/tty" >/dev/null 2>&1 </dev/null
	check plan/eta-counts-runnable grep -q '1/2 eta: null{fail=none} ETA 0m01s' "$TMP/tty"
}

privileged() {
	local D status

	if [ "$(id -u)" -ne 0 ]; then
		skip plan/root "needs root to run without capabilities as uid 0"
		return
	fi
	check plan/setpriv-drops-caps [ "$(no_caps awk '/^CapEff:/ { print $2 }' \
		/proc/self/status)" = 0000000000000000 ]

	# --- a BPF workload without its capabilities: exit 2, nothing written -
	D=$TMP/nocaps
	no_caps $BPFSWEEP specs/ringbuf_overwrite.spec --quick -o "$D" \
		>/dev/null 2>"$TMP/err" </dev/null
	check plan/no-caps-exit-2 [ $? = 2 ]
	check plan/no-caps-says-which grep -qx "bpfsweep: error: ringbuf needs $RULE; this process \
lacks CAP_BPF, CAP_PERFMON: run as root" "$TMP/err"
	check plan/no-caps-writes-nothing [ ! -e "$D" ]
	setpriv --bounding-set=-all,+bpf --inh-caps=-all --ambient-caps=-all \
		$BPFSWEEP specs/ringbuf_overwrite.spec --quick -o "$D" >/dev/null 2>"$TMP/err"
	check plan/cap-bpf-only-lacks-perfmon grep -q 'this process lacks CAP_PERFMON: run' \
		"$TMP/err"
	no_caps $BPFSWEEP check specs/ringbuf_overwrite.spec >"$TMP/out" 2>&1
	check plan/no-caps-check-exit-0 [ $? = 0 ]
	check plan/no-caps-check-says-skipped grep -qx "probes skipped: ringbuf needs $RULE, and \
this process lacks CAP_BPF, CAP_PERFMON" "$TMP/out"
	no_caps $BPFSWEEP tests/e2e/count.spec -o "$TMP/count" >/dev/null 2>&1 </dev/null
	check plan/no-caps-count-runs [ $? = 0 ]

	# --- with them: the kernel is asked before the sweep -----------------
	D=$TMP/probed
	$BPFSWEEP specs/ringbuf_overwrite.spec --quick --set producers=1 -o "$D" \
		>/dev/null 2>"$TMP/err" </dev/null
	check plan/probed-exit-0 [ $? = 0 ]
	# a kernel with overwrite mode runs every point (rb-custom reads the ring)
	if [ "$(csv_col "$D/summary.csv" status bench rb-prod)" = ok ]; then
		check plan/overwrite-all-ok not grep -q 'unsupported' "$TMP/err"
		return
	fi
	said="^2 of 3 points unsupported: BPF_F_RB_OVERWRITE: not supported by kernel $(uname -r)$"
	check plan/overwrite-said-first line_before "$TMP/err" "$said" '^\[1/3\]'
	# unsupported points fold into one line within an experiment; each experiment
	# starts with its own line, so here each has its line
	check plan/overwrite-one-line-each grep -q \
		'^\[2/3\] ringbuf{overwrite=on}: unsupported: BPF_F_RB_OVERWRITE' "$TMP/err"
	check plan/overwrite-second-experiment line_before "$TMP/err" '^experiment 2/2: ' \
		'^\[3/3\] ringbuf{}: unsupported: BPF_F_RB_OVERWRITE'
}

case "${1:-}" in
root) privileged ;;
*) unprivileged ;;
esac
