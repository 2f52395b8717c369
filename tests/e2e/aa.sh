#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/aa.sh, the A/A benchmark command, runs end to end without root:
# pairs of null-workload runs (tests/e2e/compare.spec, three repetitions,
# so that compare tests them), each compared, and the false-positive rate
# printed.  The rate itself is a benchmark's number and not asserted here.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

aa() {
	scripts/aa.sh --spec tests/e2e/compare.spec --set producers=0 --set duration=100ms "$@"
}

aa --pairs 2 --set repeat=3 --out "$TMP/aa" >"$TMP/out" 2>"$TMP/err"
check aa/exit-0 [ $? = 0 ]
pair='^pair [12]: 1 tests, [01] significant, 0 untested$'
check aa/pair-lines [ "$(grep -c "$pair" "$TMP/out")" = 2 ]
rate='^false positives: [0-2] of 2 tests \([0-9.]+%\), alpha 0.05; 0 untested$'
check aa/rate-line grep -Eq "$rate" "$TMP/out"
check aa/compared-csv [ -s "$TMP/aa/1.csv" ] && [ -d "$TMP/aa/2b" ]

# one repetition of two intervals: two units, too few for a test, no rate
aa --pairs 1 --set repeat=1 --set interval=20ms --set duration=40ms --out "$TMP/one" \
	>"$TMP/one.out" 2>&1
none='^false positives: 0 of 0 tests (n/a), alpha 0.05; 1 untested$'
check aa/untested-no-rate grep -q "$none" "$TMP/one.out"

aa --pairs 0 >/dev/null 2>"$TMP/bad.err"
check aa/bad-pairs-exit-2 [ $? = 2 ]
check aa/bad-pairs-says grep -q "pairs wants a positive number" "$TMP/bad.err"
aa --out "$TMP/aa" >/dev/null 2>"$TMP/exists.err"
check aa/out-exists-refused grep -q "exists: give another --out" "$TMP/exists.err"
