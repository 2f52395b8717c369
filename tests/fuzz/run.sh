#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzzes one target of tests/fuzz (built by `make fuzz`) for FUZZ_TIME
# seconds (default 20): `run.sh spec` (the default) spec parsing and
# binding, from tests/fuzz/corpus and every spec of the tree; `run.sh
# results` the result-file reader, from tests/fuzz/corpus-results and the
# result files of a quick run; `run.sh import` import's bench text and
# --label templates, from tests/fuzz/corpus-import and the import
# fixtures (tests/fixtures/import).  Any crash, leak, undefined behaviour
# or input slower than 5 s is a FAIL; its input is kept as
# tests/fuzz/crash-* to be fixed and then moved into tests/fuzz/corpus.
# FUZZ_KEEP=1 merges the new inputs that reach new code into the corpus.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TARGET=${1:-spec}
FUZZER=${FUZZER:-build-san/tests/fuzz/fuzz_$TARGET}
TIME=${FUZZ_TIME:-20}
if [ ! -x "$FUZZER" ]; then
	skip "fuzz/$TARGET" "$FUZZER not built (make fuzz)"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/new" "$TMP/seeds"
case $TARGET in
spec)
	CORPUS=tests/fuzz/corpus
	DICT=(-dict=tests/fuzz/spec.dict)
	for f in specs/*.spec tests/e2e/*.spec tests/cli/specs/*.spec; do
		cp "$f" "$TMP/seeds/$(echo "$f" | tr / _)"
	done ;;
results)
	CORPUS=tests/fuzz/corpus-results
	DICT=()
	# a real run's files as one input: summary.csv, "%%", samples.csv
	if $BPFSWEEP run tests/e2e/null.spec --quick --no-plots -o "$TMP/run" >/dev/null 2>&1 \
		</dev/null; then
		{ cat "$TMP/run/summary.csv"; echo '%%'; cat "$TMP/run/samples.csv"; } \
			>"$TMP/seeds/null-run"
	fi ;;
import)
	CORPUS=tests/fuzz/corpus-import
	DICT=()
	for f in tests/fixtures/import/*.txt; do
		cp "$f" "$TMP/seeds/${f##*/}"
	done ;;
*)
	fail "fuzz/$TARGET" "no such target"
	exit 0 ;;
esac
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
"$FUZZER" -runs=0 -timeout=5 -artifact_prefix="$TMP/" "$CORPUS" "$TMP/seeds" \
	>"$TMP/log" 2>&1
report "fuzz/$TARGET-corpus-replays" $?

"$FUZZER" -max_total_time="$TIME" -timeout=5 "${DICT[@]}" \
	-artifact_prefix="$TMP/" "$TMP/new" "$CORPUS" "$TMP/seeds" >"$TMP/log" 2>&1
report "fuzz/$TARGET-${TIME}s" $?

if [ "${FUZZ_KEEP:-0}" = 1 ]; then
	"$FUZZER" -merge=1 "$CORPUS" "$TMP/new" >/dev/null 2>&1
	echo "fuzz: $CORPUS now holds $(ls "$CORPUS" | wc -l) inputs"
fi
