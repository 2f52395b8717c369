#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test: unit binaries (no root), CLI golden files, end-to-end
# sweeps of the null workload (no root), and the root-only integration
# tests with real BPF.  Each test prints PASS/FAIL/SKIP; the last line is
# "N passed, N failed, N skipped".  Exit status 1 if anything failed.
set -u
cd "$(dirname "$0")/.."

BUILD=${OUTPUT:-build}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

# Prefix every line a test binary or script prints, keep them for counting.
run_part() {
	local title=$1
	shift
	echo "== $title"
	"$@" 2>&1 | tee -a "$LOG"
}

for t in "$BUILD"/tests/unit/test_*; do
	[ -x "$t" ] && run_part "unit: ${t##*/}" "$t"
done
run_part "cli golden files" tests/cli/run.sh
run_part "end to end (null workload)" tests/e2e/null.sh
run_part "end to end (plan)" tests/e2e/plan.sh
run_part "end to end (chart safety)" tests/e2e/plot_safety.sh
run_part "end to end (meta)" tests/e2e/meta.sh
run_part "end to end (quality flags)" tests/e2e/quality.sh
run_part "result directory (null workload)" tests/e2e/persist.sh
run_part "kill and resume (null workload)" tests/e2e/kill.sh
run_part "report and merge (null workload)" tests/e2e/report.sh
for t in "$BUILD"/tests/integ/test_*; do
	[ -x "$t" ] && run_part "integration: ${t##*/}" "$t"
done
run_part "end to end (ringbuf, root)" tests/e2e/ringbuf.sh
run_part "end to end (plan, root: capabilities)" tests/e2e/plan.sh root

passed=$(grep -c '^PASS ' "$LOG")
failed=$(grep -c '^FAIL ' "$LOG")
skipped=$(grep -c '^SKIP ' "$LOG")
if [ "$skipped" -gt 0 ]; then
	echo "skipped:"
	grep '^SKIP ' "$LOG" | sed 's/^SKIP /  /'
fi
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$LOG" | sed 's/^FAIL /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
