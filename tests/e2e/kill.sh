#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# SIGKILL at moments drawn from a fixed seed (some within the first 100 ms,
# the rest over the whole run: set-up, points, between points, table and
# charts; every fourth resume is killed as well).  After each kill every CSV there parses with its header, every
# summary row has all its samples, no temporary file is left, and --resume
# completes the run to the points an uninterrupted run has.  Null workload.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/resultset.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

SPEC=tests/e2e/kill.spec
PER_POINT=6		# 2 repetitions × (1 warmup + 2 measured intervals)
TRIALS=${KILL_TRIALS:-10}
EARLY=3			# trials killed within the first 25, 50 and 75 ms
LATE=2			# and in the last fifth of the run: the table and charts
RANDOM=${KILL_SEED:-20251130}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# after_kill DIR: what a kill may leave is a prefix of a run, never a lie:
# the CSVs there parse with their headers and every summary row has its samples
after_kill() {
	local d=$1
	[ -e "$d/samples.csv" ] && ! has_header "$d/samples.csv" && return 1
	[ -e "$d/summary.csv" ] && ! has_header "$d/summary.csv" && return 1
	if [ -e "$d/summary.csv" ] && [ -e "$d/samples.csv" ]; then
		consistent "$d" $PER_POINT || return 1
	fi
}

# stray DIR: the temporary files left there, if any
stray() { find "$1" -name '*.tmp' -printf '%f '; }

# --- the uninterrupted run: its points, and how long it takes ---------------
start=$(now_ms)
$BPFSWEEP $SPEC -o "$TMP/ref" </dev/null >/dev/null 2>&1
check kill/reference-exit-0 [ $? = 0 ]
span=$(($(now_ms) - start))
want=$(rows "$TMP/ref")

for i in $(seq "$TRIALS"); do
	if [ "$i" -le $EARLY ]; then
		delay=$((RANDOM % (25 * i)))
	elif [ "$i" -gt $((TRIALS - LATE)) ]; then
		delay=$((span * 4 / 5 + RANDOM % (span / 5 + 1)))
	else
		delay=$((RANDOM % (span + 50)))
	fi
	name=kill/$i-at-${delay}ms
	D=$TMP/k$i
	$BPFSWEEP $SPEC -o "$D" </dev/null >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	{ kill -KILL $pid && wait $pid; } 2>/dev/null
	if [ ! -d "$D" ]; then
		pass "$name/before-the-directory"
		continue
	fi
	check "$name/prefix-of-a-run" after_kill "$D"
	check "$name/no-tmp" [ -z "$(stray "$D")" ]
	[ -n "${KILL_DEBUG:-}" ] && echo "$name: $(rows "$D" 2>/dev/null | wc -l) rows," \
		"$(ls "$D" | tr '\n' ' ')"
	# every fourth: the resume is killed too (in its rewrite or its points)
	if [ $((i % 4)) = 0 ]; then
		again=$((RANDOM % (span / 2 + 1)))
		$BPFSWEEP $SPEC --resume "$D" </dev/null >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((again / 1000)) $((again % 1000)))"
		{ kill -KILL $pid && wait $pid; } 2>/dev/null
		check "$name/resume-killed-at-${again}ms/prefix-of-a-run" after_kill "$D"
		check "$name/resume-killed-at-${again}ms/no-tmp" [ -z "$(stray "$D")" ]
	fi
	$BPFSWEEP $SPEC --resume "$D" </dev/null >/dev/null 2>"$TMP/err"
	check "$name/resume-exit-0" [ $? = 0 ]
	check "$name/resume-same-points" [ "$(rows "$D")" = "$want" ]
	check "$name/resume-consistent" consistent "$D" $PER_POINT
	check "$name/resume-one-set" one_header "$D/samples.csv"
	check "$name/resume-table" [ "$(grep -c M/s "$D/table.txt")" = 5 ]
	check "$name/resume-no-tmp" no_tmp "$D"
done
