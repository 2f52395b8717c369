#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole path without root: spec → runner → CSV → table → chart, with
# the null workload, whose hits grow at exactly `rate` per second, and the
# count workload, whose producers really run.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# near VALUE EXPECTED PCT: |VALUE - EXPECTED| <= PCT% of EXPECTED
near() { awk -v v="$1" -v e="$2" -v p="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e * p / 100) }'; }

# rates_near FILE COLUMN RATE EXPECTED PCT: every non-empty COLUMN of the rows
# whose rate is RATE is near EXPECTED (and there is at least one)
rates_near() {
	local n=0 v
	for v in $(csv_col "$1" "$2" rate "$3"); do
		near "$v" "$4" "$5" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# elapsed_is_measured SUMMARY SAMPLES: each interval's elapsed_ns is the span
# it really lasted.  The null workload's hits grow with real time at `rate`,
# so hits / elapsed_ns is the point's rate in every interval (within 5 %: the
# two clock reads are adjacent, not one), and the spans are not all the
# nominal 200 ms.  Their lengths are not checked: on a loaded machine the
# sampler may wake late and the next interval, ending at its deadline, is the
# shorter for it.
elapsed_is_measured() {
	local p rate n=0 e h
	for p in $(csv_col "$1" point status ok); do
		rate=$(csv_col "$1" rate point "$p")
		while read -r e h; do
			near "$(awk -v h="$h" -v e="$e" 'BEGIN { print h * 1e9 / e }')" "$rate" 5 ||
				return 1
			n=$((n + 1))
		done < <(paste -d' ' <(csv_col "$2" elapsed_ns point "$p") <(csv_col "$2" hits point "$p"))
	done
	[ "$n" -gt 0 ] && [ "$(csv_col "$2" elapsed_ns | sort -u | wc -l)" -gt 1 ]
}

# "prod 0,1,0": 3 producers pinned round-robin over the CPUs (numbered 0..n-1)
three_producers_cpus() {
	local n
	n=$(nproc)
	echo "prod 0,$((1 % n)),$((2 % n))"
}

# --- a sweep with ok, unsupported and failed points -------------------------
D=$TMP/sweep
$BPFSWEEP tests/e2e/null.spec -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
status=$?
SUM=$D/summary.csv
SAMPLES=$D/samples.csv
check null/exit-1-when-a-point-failed [ "$status" = 1 ]
check null/summary-row-per-point [ "$(csv_col "$SUM" point | wc -l)" = 6 ]
check null/statuses [ "$(csv_col "$SUM" status | tr '\n' ' ')" = \
	"ok ok ok ok unsupported failed " ]
check null/unsupported-reason [ "$(csv_col "$SUM" reason status unsupported)" = \
	"null: unsupported on request (fail=probe)" ]
check null/failed-reason [ "$(csv_col "$SUM" reason status failed)" = \
	"rep 1/2: null: setup failed on request (fail=setup)" ]
# rates come from real elapsed time, so they match `rate` closely
check null/hits-rate-1M rates_near "$SUM" hits_per_s_mean 1000000 1000000 0.5
check null/hits-rate-5M rates_near "$SUM" hits_per_s_mean 5000000 5000000 0.5
check null/drops-10pct rates_near "$SUM" drops_per_s_mean 5000000 500000 0.5
check null/measured-intervals [ "$(csv_col "$SUM" n status ok | sort -u)" = 10 ]
# 2 repetitions × (1 warmup + 5 measured) intervals for each ok point
check null/sample-rows [ "$(csv_col "$SAMPLES" point point 0 | wc -l)" = 12 ]
check null/warmup-marked [ "$(csv_col "$SAMPLES" warmup point 0 | grep -c 1)" = 2 ]
check null/elapsed-is-measured elapsed_is_measured "$SUM" "$SAMPLES"
check null/oversubscribed-cpus-noted [ "$(csv_col "$SUM" cpus producers 3 | sort -u)" = \
	"$(three_producers_cpus)" ]
check null/table-title grep -qx 'null sweep' "$D/table.txt"
check null/table-underline grep -qx '==========' "$D/table.txt"
# a row may end in a quality mark: interference is real on a shared machine
check null/table-row grep -Eq '^null rate 1000000 prod 1 +1\.000 ± 0\.00[0-9]M/s \(1\.000M/prod, drops 0\.100 ± 0\.00[0-9]M/s\)( \[[^]]+\])?$' "$D/table.txt"
# the bench's rate per producer beside the total: 5M/s shared by 3 producers
check null/table-per-prod grep -Eq '^null rate 5000000 prod 3 +[0-9.]+ ± [0-9.]+M/s \(1\.[5-7][0-9]{2}M/prod, drops ' "$D/table.txt"
check null/table-unsupported-row grep -q 'unsupported: null: unsupported on request' "$D/table.txt"
check null/table-on-stdout diff -q "$TMP/out" "$D/table.txt"
cpu_model=$(sed -n 's/^cpu_model: //p' "$D/meta")
check null/table-machine-line [ "$(head -1 "$D/table.txt")" = \
	"- $(uname -m) ($cpu_model), kernel $(uname -r)" ]
# the table imports as it reads, its machine with the kernel
$BPFSWEEP import "$D/table.txt" -o "$TMP/reimported" >/dev/null 2>&1
check null/table-imports-machine grep -qx "kernel_release: $(uname -r)" "$TMP/reimported/meta"
check null/not-quick quiet not grep -q '^quick: ' "$D/meta"
check null/progress-line-per-point [ "$(grep -c '^\[[0-9]/6\]' "$TMP/err")" = 6 ]
# 3 producers: more threads than CPUs on machines of fewer than 3
if [ "$(nproc)" -lt 3 ]; then
	check null/oversubscription-noted grep -q \
		"^note: 2 points ran more threads than the $(nproc) CPUs" "$TMP/err"
else
	check null/no-oversubscription-note quiet not grep -q "^note: " "$TMP/err"
fi
check null/png-chart is_png "$(ls "$D"/plots/*.png | head -1)"
check null/svg-chart grep -q '<svg' "$(ls "$D"/plots/*.svg | head -1)"
check null/gnuplot-script-kept [ -s "$(ls "$D"/plots/*.gp | head -1)" ]
check null/meta-kernel grep -qx "kernel_release: $(uname -r)" "$D/meta"
check null/spec-as-run-reparses quiet $BPFSWEEP check "$D/spec"

# --- --set and --quick --------------------------------------------------------
D=$TMP/quick
$BPFSWEEP tests/e2e/null.spec --quick --set rate=2000 --set fail=none -o "$D" \
	>/dev/null 2>&1 </dev/null
check null/quick-exit-0 [ $? = 0 ]
check null/set-overrides-rate rates_near "$D/summary.csv" hits_per_s_mean 2000 2000 1
check null/quick-one-rep [ "$(csv_col "$D/summary.csv" n | sort -u)" = 4 ]
check null/quick-in-meta grep -qx 'quick: yes' "$D/meta"
check null/quick-table-title grep -qx 'null sweep (smoke run: --quick)' "$D/table.txt"
check null/quick-chart-title grep -q "^set title 'null sweep (smoke run: --quick)'" \
	"$D"/plots/*.gp

# --- unsupported points: one table line, a summary row each; exp first for cut --
D=$TMP/unsupported
cat >"$TMP/unsupported.spec" <<'EOF'
[sweep]
title    = Folded, with a comma
workload = null
warmup   = 0ms
duration = 20ms
interval = 10ms

[params]
producers = 1 2 3
fail      = probe
EOF
$BPFSWEEP "$TMP/unsupported.spec" -o "$D" --no-plots >"$TMP/out" 2>/dev/null </dev/null
check null/unsupported-exit-0 [ $? = 0 ]
check null/unsupported-one-line grep -qx \
	'3 points unsupported: null: unsupported on request (fail=probe)' "$D/table.txt"
check null/unsupported-no-rows quiet not grep -q '^producers=' "$D/table.txt"
check null/unsupported-rows-kept [ "$(csv_col "$D/summary.csv" status | xargs)" = \
	"unsupported unsupported unsupported" ]
check null/exp-first-for-cut [ "$(tail -n +2 "$D/summary.csv" | cut -d, -f1,2 | xargs)" = \
	"0,0 0,1 0,2" ]

# --- a bad spec writes nothing ------------------------------------------------
D=$TMP/bad
printf '[sweep]\nworkload = null\n[params]\nrate = -5\n' >"$TMP/bad.spec"
$BPFSWEEP "$TMP/bad.spec" -o "$D" >/dev/null 2>"$TMP/err" </dev/null
check null/bad-spec-exit-2 [ $? = 2 ]
check null/bad-spec-located grep -q "^$TMP/bad.spec:4:8: error: " "$TMP/err"
check null/bad-spec-writes-nothing [ ! -e "$D" ]

# --- Ctrl-C keeps what finished ----------------------------------------------
# wait_first_point DIR: until DIR/summary.csv has a row (10 s at most)
wait_first_point() {
	for _ in $(seq 100); do
		[ "$(csv_col "$1/summary.csv" point 2>/dev/null | wc -l)" -ge 1 ] && return
		sleep 0.1
	done
}

D=$TMP/int
$BPFSWEEP tests/e2e/slow.spec -o "$D" >/dev/null 2>"$TMP/int.err" </dev/null &
pid=$!
wait_first_point "$D"
kill -INT $pid
wait $pid
check null/sigint-exit-130 [ $? = 130 ]
check null/sigint-says-resume grep -q "^interrupted: [1-9][0-9]* of [0-9]* points finished and kept; the same command with --resume $D (instead of -o) runs the rest$" "$TMP/int.err"
check null/sigint-keeps-finished [ "$(csv_col "$D/summary.csv" status | head -1)" = ok ]
check null/sigint-marks-cut-point [ "$(csv_col "$D/summary.csv" status | tail -1)" = interrupted ]
check null/sigint-still-writes-table [ -s "$D/table.txt" ]

# timeout(1) sends SIGTERM (or -s INT) to the child, then to its process
# group: one request, not the second Ctrl-C that ends a hung run.  The copy
# comes while a (fake, slow) gnuplot draws the charts of what finished: the
# table, the charts' time limit and meta's end must still come.  (SIGTERM:
# a background job of a script ignores SIGINT.)
D=$TMP/int2
mkdir "$TMP/slowbin"
# the fake gnuplot leaves a mark, so the second copy is sent while it draws
# (a fixed pause raced a slow, sanitized or loaded run)
printf '#!/bin/sh\n: >"%s"\nexec sleep 10\n' "$TMP/drawing" >"$TMP/slowbin/gnuplot"
chmod +x "$TMP/slowbin/gnuplot"
printf '[sweep]\nworkload = null\nwarmup = 0ms\nduration = 400ms\ninterval = 100ms\n%s\n%s\n' \
	'[report]' 'plot = rate vs hits' >"$TMP/int2.spec"
printf '[params]\nrate = 1000 2000 3000\n' >>"$TMP/int2.spec"
PATH=$TMP/slowbin:$PATH $BPFSWEEP "$TMP/int2.spec" --plot-timeout 1 -o "$D" \
	>/dev/null 2>"$TMP/err" </dev/null &
pid=$!
wait_first_point "$D"
kill -TERM $pid
for _ in $(seq 200); do
	[ -e "$TMP/drawing" ] && break
	sleep 0.1
done
kill -TERM $pid 2>/dev/null
wait $pid
check null/sigterm-twice-exit-143 [ $? = 143 ]
check null/sigterm-twice-writes-table [ -s "$D/table.txt" ]
check null/sigterm-twice-charts-limited grep -q "gnuplot timed out after 1 s" "$TMP/err"
check null/sigterm-twice-meta-end [ "$(tail -n 1 "$D/meta" | cut -d: -f1)" = end ]

# --- count: real producer threads, pinned, counting ---------------------------
D=$TMP/count
$BPFSWEEP tests/e2e/count.spec -o "$D" >/dev/null 2>&1 </dev/null
check count/exit-0 [ $? = 0 ]
for p in 1 2; do
	hits=$(csv_col "$D/summary.csv" hits_per_s_mean producers $p)
	check "count/producers-$p-count" awk -v h="${hits:-0}" 'BEGIN { exit !(h > 1000000) }'
done
check count/threads-pinned [ "$(csv_col "$D/summary.csv" cpus producers 2)" = \
	"prod 0,$((1 % $(nproc)))" ]

# --- version --------------------------------------------------------------------
check cli/version-names-commit [ "$($BPFSWEEP --version)" = \
	"bpfsweep 0.1.0 ($(git describe --always --dirty 2>/dev/null || echo unknown))" ]
