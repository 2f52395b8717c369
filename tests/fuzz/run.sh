#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzzes spec parsing and binding (tests/fuzz/fuzz_spec.c, built by
# `make fuzz`) for FUZZ_TIME seconds (default 20), starting from the kept
# corpus and every spec of the tree.  Any crash, leak, undefined behaviour
# or input slower than 5 s is a FAIL; its input is kept as
# tests/fuzz/crash-* to be fixed and then moved into tests/fuzz/corpus.
# FUZZ_KEEP=1 merges the new inputs that reach new code into the corpus.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

FUZZER=${FUZZER:-build-fuzz/tests/fuzz/fuzz_spec}
TIME=${FUZZ_TIME:-20}
if [ ! -x "$FUZZER" ]; then
	skip fuzz/spec "$FUZZER not built (make fuzz)"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/new" "$TMP/seeds"
for f in specs/*.spec tests/e2e/*.spec tests/cli/specs/*.spec; do
	cp "$f" "$TMP/seeds/$(echo "$f" | tr / _)"
done
export ASAN_OPTIONS=detect_leaks=1:print_stacktrace=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# report NAME STATUS: PASS, or FAIL with the sanitizer's summary and the input kept
report() {
	local crash
	if [ "$2" = 0 ]; then
		pass "$1"
		return
	fi
	crash=$(ls "$TMP"/crash-* "$TMP"/leak-* "$TMP"/timeout-* "$TMP"/oom-* 2>/dev/null | head -1)
	[ -n "$crash" ] && cp "$crash" tests/fuzz/
	fail "$1" "exit status $2, input ${crash:+tests/fuzz/${crash##*/}}: $(grep -m1 -E 'ERROR|SUMMARY|runtime error' "$TMP/log")"
}

# Every kept input first: they are the regression tests of past findings.
"$FUZZER" -runs=0 -timeout=5 -artifact_prefix="$TMP/" tests/fuzz/corpus "$TMP/seeds" \
	>"$TMP/log" 2>&1
report fuzz/corpus-replays $?

"$FUZZER" -max_total_time="$TIME" -timeout=5 -dict=tests/fuzz/spec.dict \
	-artifact_prefix="$TMP/" "$TMP/new" tests/fuzz/corpus "$TMP/seeds" >"$TMP/log" 2>&1
report "fuzz/spec-${TIME}s" $?

if [ "${FUZZ_KEEP:-0}" = 1 ]; then
	"$FUZZER" -merge=1 tests/fuzz/corpus "$TMP/new" >/dev/null 2>&1
	echo "fuzz: tests/fuzz/corpus now holds $(ls tests/fuzz/corpus | wc -l) inputs"
fi
