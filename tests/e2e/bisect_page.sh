#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The bisect's page, OUT/bisect.html (docs/kernel.md, "The record"), with
# no guest: four runs of tests/tools/fakebench (docs/exec.md) stand for
# kernels at 6 M/s (good), 3 M/s (bad), alternating 3 and 6 (undecided)
# and a bench that fails (skipped), copied as the finished rounds of a
# bisect record of ten kernels, so that `bisect --resume OUT` reads every
# round and runs none.  It must find the step (first bad k6, last good
# k5) through a skipped and an undecided step, and its page must hold
# every number of steps.csv in each step's row, every step on the chart,
# the bad end's figure, a hostile kernel label as text; --resume writes it
# again, byte for byte.  chromium (make test-deps) then loads it offline:
# no console message, the chart drawn with a size.  5 s of CPU (half of
# it chromium's), 15 to 21 s wall here beside other builds (load 10 on 2 CPUs).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -z "${KEEP-}" ] || trap - EXIT
BIN=$(realpath "$BPFSWEEP")
FAKE=$(realpath "${BUILD:-build}/tests/tools/fakebench")
SPEC=$(realpath tests/e2e/fakebench.spec)

# a kind of kernel: a directory whose ./bench is the kernel's behaviour, run once
kind() {
	mkdir "$TMP/$1" && printf '#!/bin/sh\n%s\n' "$2" >"$TMP/$1/bench" &&
		chmod +x "$TMP/$1/bench" &&
		(cd "$TMP/$1" && "$BIN" run "$SPEC" -o "$TMP/$1/run" --no-plots \
			</dev/null >/dev/null 2>&1)
}
kind good "exec $FAKE kbench \"\$1\" \"\$2\" 4"
kind bad "exec $FAKE kbench \"\$1\" \"\$2\" 2"
kind broken "exit 1"
kind noisy "n=\$(cat n 2>/dev/null || echo 0); echo \$((n + 1)) >n
exec $FAKE kbench \"\$1\" \"\$2\" \$((n % 2 ? 4 : 2))"
check bisect_page/runs_made [ -s "$TMP/good/run/summary.csv" ] && [ -s "$TMP/bad/run/summary.csv" ] \
	&& [ -s "$TMP/broken/run/summary.csv" ] && [ -s "$TMP/noisy/run/summary.csv" ]

# the record: ten kernels, the rounds each one the bisect visits will read
O=$TMP/out
mkdir -p "$O/steps"
printf 'command: bpfsweep bisect (fabricated)\nstart: 2026-12-05 12:00:00\nbisect_terms: good bad\n' \
	>"$O/meta"
HOSTILE='img/k2"><script>alert(1)</script>&amp;'
for k in 0 1 2 3 4 5 6 7 8 9; do
	label=img/k$k
	[ $k != 2 ] || label=$HOSTILE
	printf '%s\t\t%s\t0\n' "$label" "$label" >>"$O/kernels"
done
rounds() {	# rounds KERNEL KIND NR
	for r in $(seq "$3"); do
		mkdir -p "$O/steps/00$1-k$1" && cp -r "$TMP/$2/run" "$O/steps/00$1-k$1/$r"
	done
}
rounds 0 good 3
rounds 9 bad 3
rounds 4 broken 1
rounds 5 good 1
rounds 7 noisy 3
rounds 8 bad 1
rounds 6 bad 1
rm -rf "$TMP"/*/run/report.html

"$BIN" bisect "$SPEC" --resume "$O" >"$TMP/table" 2>"$TMP/err"
check bisect_page/resume_found_exit_0 [ $? = 0 ]
check bisect_page/first_bad_k6 grep -qx "first bad: img/k6" "$TMP/table"
check bisect_page/last_good_k5 grep -qx "last good: img/k5" "$TMP/table"
check bisect_page/ran_nothing [ -z "$(ls "$O"/steps/*/log 2>/dev/null)" ]
check bisect_page/verdicts [ "$(cut -d, -f4 "$O/steps.csv" | tr '\n' ' ')" = \
	"verdict skip good undecided bad bad " ]
check bisect_page/page_written [ -s "$O/bisect.html" ]
python3 tests/e2e/bisect_page_check.py static "$O" "$O/bisect.html" "$HOSTILE"

# --resume again: the same page, whatever was there
cp "$O/bisect.html" "$TMP/first.html"
echo stale >"$O/bisect.html"
"$BIN" bisect "$SPEC" --resume "$O" >/dev/null 2>&1
check bisect_page/resume_rewrites_same cmp "$TMP/first.html" "$O/bisect.html"

CHROMIUM=$(command -v chromium || command -v chromium-browser) || {
	skip bisect_page/browser "chromium is not installed here (make test-deps installs it)"
	exit 0
}
python3 tests/e2e/bisect_page_check.py instrument "$O/bisect.html" "$TMP/measure.html"
headless_chromium "$TMP/profile" --enable-logging=stderr --v=0 \
	--dump-dom "file://$TMP/measure.html" >"$TMP/dom.html" 2>"$TMP/console.txt"
check bisect_page/chromium_dom [ $? = 0 ]
python3 tests/e2e/bisect_page_check.py browser "$O" "$TMP/dom.html" "$TMP/console.txt"
step_time bisect_page
