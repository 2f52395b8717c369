#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The HTML page (docs/html.md) in a real browser: a run of hostile titles
# and tags, flagged, unsupported and failed points writes report.html,
# which report --html writes again byte for byte; chromium (make
# test-deps) loads it offline with no console message, and its DOM holds
# every point and number of summary.csv, every flag and reason, and the
# hostile strings as text (html_check.py); each chart is an image of its
# file's bytes, decoded and with a size, a hostile one inert; a
# screenshot at 1280 px is not blank.  A merged set's page: a section per
# run.  compare --html's page, read as written.  Two chromium starts: the DOM of the
# page with a measuring script added, and the screenshot of the page.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
D=$TMP/run

# a failed point on purpose: exit status 1; profiles' top symbols where the kernel profiles
$BPFSWEEP tests/e2e/html.spec -o "$D" --profile --tag 'x=<img src=x onerror=alert(1)>' \
	--tag "q=a\"b'c&d" </dev/null >/dev/null 2>&1
check html/run-exit-1 [ $? = 1 ]
check html/run-writes-page [ -s "$D/report.html" ]
cp "$D/report.html" "$TMP/run.html"
# a run's end draws each flame graph once, for profiles/<point>.svg and the page: the same bytes
page_has_flames() {
	python3 -c 'import sys, glob
page = open(sys.argv[1], "rb").read()
svgs = glob.glob(sys.argv[2] + "/profiles/*.svg")
sys.exit(0 if all(open(f, "rb").read().rstrip(b"\n") in page for f in svgs) else 1)' "$@"
}
if ls "$D"/profiles/*.svg >/dev/null 2>&1; then
	check html/page-holds-flame-files page_has_flames "$D/report.html" "$D"
else
	skip html/page-holds-flame-files "no flame graph: the kernel profiled no point of the null workload"
fi
$BPFSWEEP report "$D" --html </dev/null >/dev/null 2>&1
check html/report-exit-0 [ $? = 0 ]
check html/rerun-identical cmp "$TMP/run.html" "$D/report.html"
$BPFSWEEP report "$D" --html -o "$TMP/o.html" </dev/null >/dev/null 2>&1
check html/to-file-identical cmp "$TMP/run.html" "$TMP/o.html"
check html/two-dirs-usage quiet_status 2 $BPFSWEEP report "$D" "$D" --html -o "$TMP/x.html"

$BPFSWEEP tests/e2e/html.spec -o "$TMP/nohtml" --only 'not measured' --no-html \
	</dev/null >/dev/null 2>&1
check html/no-html [ -s "$TMP/nohtml/table.txt" ]
check html/no-html-none [ ! -e "$TMP/nohtml/report.html" ]

# report DIR (no --html) draws the page again where there is one, makes none elsewhere
echo stale >"$D/report.html"
$BPFSWEEP report "$D" </dev/null >/dev/null 2>&1
check html/report-redraws-page cmp "$TMP/run.html" "$D/report.html"
$BPFSWEEP report "$TMP/nohtml" </dev/null >/dev/null 2>&1
check html/report-makes-no-page [ ! -e "$TMP/nohtml/report.html" ]

# compare --html: every metric of every point compared, regressions first, then by effect
$BPFSWEEP tests/e2e/html.spec -o "$TMP/new" --set rate=3000000 </dev/null >/dev/null 2>&1
$BPFSWEEP compare "$D" "$TMP/new" -i rate --html >"$TMP/compare.html" 2>/dev/null
check html/compare-exit-0 [ $? = 0 ]
python3 tests/e2e/html_check.py compare "$TMP/compare.html" 8 \
	'ok &lt;/svg&gt;&lt;script&gt;x()&lt;/script&gt;' 'null: unsupported on request'
check html/compare-deterministic cmp "$TMP/compare.html" \
	<($BPFSWEEP compare "$D" "$TMP/new" -i rate --html 2>/dev/null)

# control characters, which no spec, option or meta line lets through: a reason edited in
sed -i 's/unsupported on request/unsupported\x01on\x1b[31mrequest/' "$D/summary.csv"
# and a chart edited in: a script, an event handler, a fetch and HTML, all of
# which an SVG shown as an image leaves inert (html_check.py: chart-script-inert)
cat >"$D/plots/1-zz-hostile.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200"
     onload="top.document.title = 'pwned'">
<script>top.document.body.appendChild(top.document.createElement("p")).id = "pwned";</script>
<image href="http://127.0.0.1:9/x.png" width="10" height="10"/>
<foreignObject width="100" height="50"><p xmlns="http://www.w3.org/1999/xhtml" id="pwned">x</p></foreignObject>
<rect width="400" height="200" fill="#c33"/>
<text x="10" y="100">&lt;/svg&gt;&lt;script&gt;x()&lt;/script&gt;</text>
</svg>
SVG
$BPFSWEEP report "$D" --html </dev/null >/dev/null 2>"$TMP/err"
check html/edited-exit-0 [ $? = 0 ]

# a merged set: its charts, then a section per run, every id once
$BPFSWEEP merge "$D" "$D" -o "$TMP/merged" </dev/null >/dev/null 2>&1
$BPFSWEEP report "$TMP/merged" --html </dev/null >/dev/null 2>&1
check html/merged-exit-0 [ $? = 0 ]
M=$TMP/merged/report.html
check html/merged-run-sections [ "$(grep -c '<section class="run"' "$M")" = 2 ]
check html/merged-every-row [ "$(grep -c '<tr id="r[12]-p-' "$M")" = $((2 * $(grep -c '^[0-9]' "$D/summary.csv"))) ]
check html/merged-ids-once [ -z "$(grep -o ' id="[^"]*"' "$M" | sort | uniq -d)" ]

CHROMIUM=$(command -v chromium || command -v chromium-browser) || {
	skip html/browser "chromium is not installed here (make test-deps installs it)"
	exit 0
}
python3 tests/e2e/html_check.py instrument "$D/report.html" "$TMP/measure.html"
headless_chromium "$TMP/profile" --enable-logging=stderr --v=0 \
	--dump-dom "file://$TMP/measure.html" >"$TMP/dom.html" 2>"$TMP/console.txt"
check html/chromium-dom [ $? = 0 ]
headless_chromium "$TMP/profile" --window-size=1280,800 \
	--screenshot="$TMP/shot.png" "file://$D/report.html" >/dev/null 2>&1
check html/chromium-screenshot is_png "$TMP/shot.png"
python3 tests/e2e/html_check.py check "$D" "$TMP/dom.html" "$TMP/console.txt" "$TMP/shot.png"
