#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Chart safety with the real gnuplot: titles that would each run a command
# if any of gnuplot's substitutions (backquotes, macros, system()) or a
# broken quote reached them.  Rendering, and re-running the kept .gp by
# hand, must create no marker file, and the charts still show the titles
# as written.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
M=$TMP/marks
mkdir "$M"

if ! command -v gnuplot >/dev/null; then
	skip plot-safety/gnuplot "gnuplot is not installed"
	exit 0
fi

QUICK='workload = null
warmup   = 0ms
duration = 20ms
interval = 10ms'

# Each piece would create MARK/<name> if gnuplot interpreted it.
SWEEP_TITLE='speed `touch MARK/bq` _{x}^2 '
SWEEP_TITLE+='m "; X = "system('"'"'touch MARK/macro'"'"')"; @X; " '
SWEEP_TITLE+='s " . system("touch MARK/system") . " $(touch MARK/dollar) back\'
PARAMS_TITLE='exp `touch MARK/params` @X $(touch MARK/params-dollar) '"'"'q'"'"' été'
SET_TITLE='set `touch MARK/set` @X " . system("touch MARK/set-system") . "'
# each of these before a digit was an octal escape running on into it ("*2" drawn "R")
SET_TITLE+=' 1..8*2 !1"2#3$4%5&6'"'"'7*8;9<0>1?2 \\3{4}5^6_7~8'
# a --tag value goes into the charts' subtitle
TAG='machine=`touch MARK/tag` @X $(touch MARK/tag-dollar) " . system("touch MARK/tag-sys") . "'
sed "s|MARK|$M|g" >"$TMP/inject.spec" <<EOF
[sweep]
title    = $SWEEP_TITLE
$QUICK

[report]
plot = producers vs hits

[params]
producers = 1 2

[params "$PARAMS_TITLE"]
producers = 1 2 16
EOF

no_marks() { [ -z "$(ls -A "$M")" ]; }

# outside_quotes FILE: FILE's lines but comments, each '...' string (with
# its doubled '') taken out: gnuplot reads those as written, substituting
# nothing, so what is left is all it could interpret
outside_quotes() { grep -v '^#' "$1" | sed "s/'\([^']\|''\)*'//g"; }

# no_raw_user_syntax DIR: outside single quotes, no .gp in DIR/plots holds a
# backquote or an at sign, and every "..." string is one of bpfsweep's own
# (file names, colours, the font, the line break), none with user text
no_raw_user_syntax() {
	local gp own='^"(\\n|[a-z0-9-]*\.(dat|png|svg)|_[a-z0-9_]*|white|black|sans,13|)"$'
	for gp in "$1"/plots/*.gp; do
		outside_quotes "$gp" | grep -q '[`@]' && return 1
		outside_quotes "$gp" | grep -o '"[^"]*"' | grep -qvE "$own" && return 1
	done
	return 0
}

# rerun_gp DIR: gnuplot on every kept .gp, by hand, as a user restyling a chart would
rerun_gp() {
	local gp
	rm -f "$M"/*
	for gp in "$1"/plots/*.gp; do
		(cd "$1/plots" && gnuplot "${gp##*/}") || return 1
	done
}

# svg_shows DIR TITLE: some chart's SVG has TITLE as a text element, as
# written (escaped as gnuplot's svg terminal escapes text: & and <)
svg_shows() {
	local t
	t=$(printf '%s' "$2" | sed 's/&/\&amp;/g; s/</\&lt;/g')
	grep -qF "<text>$t</text>" "$1"/plots/*.svg
}

# svg_titled DIR TITLE: some chart's SVG is titled TITLE (escaped as the pages
# escape, which XML reads), on a white background
svg_titled() {
	local t
	t=$(printf '%s' "$2" | sed "s/&/\\&amp;/g; s/</\\&lt;/g; s/>/\\&gt;/g; s/\"/\\&quot;/g; s/'/\\&#39;/g")
	grep -qF "<title>$t</title>" "$1"/plots/*.svg &&
		grep -q '^<rect x="0" y="0" width="1024" height="640" fill="#ffffff"/>' \
			"$1"/plots/*.svg
}

D=$TMP/spec-titles
$BPFSWEEP "$TMP/inject.spec" -o "$D" --tag "${TAG//MARK/$M}" >"$TMP/out" 2>"$TMP/err" </dev/null
check plot-safety/spec-titles-run [ $? = 0 ]
check plot-safety/two-charts [ "$(ls "$D"/plots/*.svg | wc -l)" = 2 ]
check plot-safety/spec-titles-no-command-ran no_marks
check plot-safety/spec-titles-gp-inert no_raw_user_syntax "$D"
# producers 1 2 16 span 16 times: a log2 axis, its tics the values, quoted like every text
check plot-safety/log2-axis grep -qxF "set xtics ('1' 1, '2' 2, '16' 16)" \
	"$D/plots/2-hits-vs-producers.gp"
check plot-safety/sweep-title-shown svg_shows "$D" "${SWEEP_TITLE//MARK/$M}"
check plot-safety/params-title-shown svg_shows "$D" "${PARAMS_TITLE//MARK/$M}"
check plot-safety/tag-in-subtitle grep -qF "${TAG//MARK/$M}" "$D"/plots/*.svg
check plot-safety/svg-title svg_titled "$D" "${PARAMS_TITLE//MARK/$M}"
check plot-safety/spec-titles-rerun quiet rerun_gp "$D"
check plot-safety/spec-titles-rerun-no-command-ran no_marks

D=$TMP/set-title
$BPFSWEEP "$TMP/inject.spec" -o "$D" --set "title=${SET_TITLE//MARK/$M}" \
	>"$TMP/out" 2>"$TMP/err" </dev/null
check plot-safety/set-title-run [ $? = 0 ]
check plot-safety/set-title-no-command-ran no_marks
check plot-safety/set-title-gp-inert no_raw_user_syntax "$D"
check plot-safety/set-title-shown svg_shows "$D" "${SET_TITLE//MARK/$M}"
check plot-safety/set-title-rerun quiet rerun_gp "$D"
check plot-safety/set-title-rerun-no-command-ran no_marks

# --- the README's small sweep: titled as typed, its axis log2 -----------------
D=$TMP/adhoc
$BPFSWEEP run null -p '1..8*2' -w 0 -d 0.04 --set interval=10ms --set repeat=1 -o "$D" \
	>"$TMP/out" 2>"$TMP/err" </dev/null
check plot-safety/adhoc-run [ $? = 0 ]
check plot-safety/adhoc-title svg_shows "$D" "null producers=1..8*2"
check plot-safety/adhoc-svg-title grep -qF "<title>null producers=1..8*2</title>" \
	"$D/plots/1-hits-vs-producers.svg"
# a doubling series on log2 with its values as tics, the ends clear of the frame
check small-sweep/log2 grep -qx 'set logscale x 2' "$D/plots/1-hits-vs-producers.gp"
check small-sweep/tics grep -qxF "set xtics ('1' 1, '2' 2, '4' 4, '8' 8)" \
	"$D/plots/1-hits-vs-producers.gp"
check small-sweep/range grep -qxF 'set xrange [0.939523:8.51496]' "$D/plots/1-hits-vs-producers.gp"
# one repetition of 4 intervals is one independent unit: no error bars, and the key says so
check small-sweep/no-bars-said grep -qF \
	"title 'no error bars: fewer than 2 independent units per point'" \
	"$D/plots/1-hits-vs-producers.gp"
check small-sweep/no-bars-drawn grep -qF "using 1:2 title 'hits' with linespoints" \
	"$D/plots/1-hits-vs-producers.gp"
# an ad hoc run's three repetitions: each a unit, the bars their 95 % interval
D=$TMP/adhoc3
$BPFSWEEP run null -p '1..8*2' -w 0 -d 0.04 --set interval=10ms -o "$D" \
	>"$TMP/out" 2>"$TMP/err" </dev/null
check small-sweep/reps-run [ $? = 0 ]
check small-sweep/bars-said grep -qF "title 'error bars: 95% CI of the mean over 3 repetitions'" \
	"$D/plots/1-hits-vs-producers.gp"
check small-sweep/bars-drawn grep -qF "using 1:2:3 title 'hits' with yerrorlines" \
	"$D/plots/1-hits-vs-producers.gp"

# --- a chart cut short leaves no .png or .svg (issue 34 F3) -----------------
# gnuplot writes each chart under a name of its own, and bpfsweep renames it
# into place once it is whole: a file size limit kills gnuplot mid-PNG, and
# on a full disk gnuplot exits 0 with a PNG cut at 4 KiB and an empty SVG
D=$TMP/cut
$BPFSWEEP run null -p '1..8*2' -w 0 -d 0.04 --set interval=10ms --set repeat=1 -o "$D" \
	--no-plots >/dev/null 2>&1 </dev/null
# no_chart_files DIR: DIR/plots has the .gp and .dat, and no .png, .svg or part of one
no_chart_files() {
	[ -s "$1/plots/1-hits-vs-producers.gp" ] && [ -s "$1/plots/1-hits-vs-producers.dat" ] &&
		[ -z "$(find "$1/plots" -name '*.png' -o -name '*.svg' -o -name '*.part*')" ]
}
(ulimit -f 16 && exec $BPFSWEEP report "$D" >/dev/null 2>"$TMP/err" </dev/null)
check chart-cut/fsize-exit-1 [ $? = 1 ]
check chart-cut/fsize-no-partial-file no_chart_files "$D"
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir "$TMP/full"
	rm -rf "$D/plots"
	# 12 KiB free: the .dat and .gp fit, the PNG (about 20 KiB) does not
	unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" || exit 9
		cp -r "$3" "$1/d" && dd if=/dev/zero of="$1/fill" bs=1k count=28 2>/dev/null
		"$2" report "$1/d" >/dev/null 2>"$4/full.err" </dev/null
		echo $? >"$4/full.rc"
		cp -r "$1/d/plots" "$4/full-plots"' sh "$TMP/full" "$BPFSWEEP" "$D" "$TMP"
	check chart-cut/full-disk-exit-1 [ "$(cat "$TMP/full.rc")" = 1 ]
	check chart-cut/full-disk-said grep -qF "chart 1-hits-vs-producers not drawn: gnuplot's \
png was cut short" "$TMP/full.err"
	mkdir "$TMP/fullset" && mv "$TMP/full-plots" "$TMP/fullset/plots"
	check chart-cut/full-disk-no-partial-file no_chart_files "$TMP/fullset"
else
	skip chart-cut/full-disk "needs root and unshare (a tmpfs of its own)"
fi
# with room, the same set's chart is drawn whole, under its own name
$BPFSWEEP report "$D" >/dev/null 2>&1 </dev/null
check chart-cut/redrawn [ $? = 0 -a -s "$D/plots/1-hits-vs-producers.png" -a \
	-s "$D/plots/1-hits-vs-producers.svg" -a \
	-z "$(find "$D/plots" -name '*.part*')" ]

# --- a gnuplot that hangs is killed; the other charts still render ---------
cat >"$TMP/two.spec" <<EOF
[sweep]
$QUICK

[report]
plot = producers vs hits

[params "a"]
producers = 1 2

[params "b"]
producers = 1 2
EOF
mkdir "$TMP/hangbin"
# the script is gnuplot's last argument (before it: -e "out = '...'")
cat >"$TMP/hangbin/gnuplot" <<EOF
#!/bin/sh
for last; do :; done
case "\$last" in 1-*) exec sleep 60 ;; esac
exec $(command -v gnuplot) "\$@"
EOF
chmod +x "$TMP/hangbin/gnuplot"
D=$TMP/hang
start=$(date +%s)
# 3 s: the other chart's gnuplot must finish within it on a loaded machine too
PATH=$TMP/hangbin:$PATH $BPFSWEEP "$TMP/two.spec" -o "$D" --plot-timeout 3 \
	>"$TMP/out" 2>"$TMP/err" </dev/null
status=$?
took=$(($(date +%s) - start))
check plot-timeout/exit-1 [ "$status" = 1 ]
check plot-timeout/killed-in-time [ "$took" -lt 12 ]
check plot-timeout/message grep -qxF \
	"bpfsweep: error: gnuplot timed out after 3 s on $D/plots/1-hits-vs-producers.gp" "$TMP/err"
check plot-timeout/other-chart-rendered grep -q '<svg' "$D/plots/2-hits-vs-producers.svg"
check plot-timeout/csv-intact [ "$(csv_col "$D/summary.csv" status | tr '\n' ' ')" = \
	"ok ok ok ok " ]
check plot-timeout/table-intact grep -qx 'a' "$D/table.txt"
$BPFSWEEP "$TMP/two.spec" -o "$TMP/zero" --plot-timeout 0 >/dev/null 2>"$TMP/err" </dev/null
check plot-timeout/zero-is-usage-error [ $? = 2 ]
check plot-timeout/zero-message grep -q "plot-timeout expects whole seconds" "$TMP/err"
check plot-timeout/zero-writes-nothing [ ! -e "$TMP/zero" ]

# --- no gnuplot: a set-up error before the sweep, unless charts are off ----
mkdir "$TMP/nobin"
D=$TMP/nognuplot
PATH=$TMP/nobin $BPFSWEEP "$TMP/two.spec" -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check no-gnuplot/usage-error [ $? = 2 ]
check no-gnuplot/says-what-to-do grep -qF "bpfsweep: error: gnuplot not found, and the spec \
asks for charts: install gnuplot-nox, or pass --no-plots" "$TMP/err"
check no-gnuplot/before-the-sweep quiet not grep -q '^\[' "$TMP/err"
check no-gnuplot/nothing-written [ ! -e "$D" ]
PATH=$TMP/nobin $BPFSWEEP "$TMP/two.spec" -o "$D" --no-plots >/dev/null 2>&1 </dev/null
check no-gnuplot/no-plots-runs [ $? = 0 ]
sed '/^plot/d' "$TMP/two.spec" >"$TMP/nochart.spec"
PATH=$TMP/nobin $BPFSWEEP "$TMP/nochart.spec" -o "$TMP/nochart" >/dev/null 2>&1 </dev/null
check no-gnuplot/no-charts-runs [ $? = 0 ]
