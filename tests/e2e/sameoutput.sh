#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The same result sets give the same outputs, byte for byte: report's table
# in every format (stdout, table.txt, report.html) and compare's of pairs in
# every format (text, markdown, csv, json, --paired, --html, -e,
# --fail-above, refusals), stdout, stderr and exit status, against goldens
# kept in tests/fixtures/sameoutput/golden/.  A guard for moving code
# (issue 35: compare, report and charts reading one result view): a
# refactor that changes one byte of what a user sees fails here, and one
# that means to change it says so by updating the goldens (--update), whose
# diff the reviewer then reads.
#
# The sets are fixtures in the repository, not made here (a run's numbers
# differ every time): tests/fixtures/sameoutput/sets/, made once by
# `tests/e2e/sameoutput.sh --make-sets` (root: real BPF), from compare.spec
# (null workload: base, fast at +10 %, same, broken, single), a tiny
# seed_csum_diff (csum_a, csum_b: ns_per_run from its statistics pass,
# program counters not recorded), a tiny seed_htab_mem (htab_a, htab_b:
# gauges, a per-thread metric) and two imports of tests/fixtures/import
# (imp_x86, imp_arm: no samples, n unknown, a label column); beside them
# tests/fixtures/results/export (a set from before meta's metric lines and
# columns.csv).  Three more are derived here: nosamples (base without
# samples.csv: compare falls back to summary.csv's units), tcg (fast with
# meta's vm_accel: tcg) and failed (base with a point failed).
#
# What is normalised: nothing in the outputs.  The commands run in a
# scratch directory with the sets under short relative names, so no path
# differs from run to run; no output read here holds the time of day.
# Cost: 78 commands, about 6 s of CPU (most of it this shell's); 20-30 s
# wall on this 2-CPU host under make check's load.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

FIX=tests/fixtures/sameoutput
BIN=$(realpath "$BPFSWEEP")

# --make-sets: the fixture sets again (root, real BPF; a run's numbers
# differ, so every golden changes with them: --update after).  Meta's
# lines that name this machine's scratch paths or its boot command line
# are cut to what a reader needs.
make_sets() {
	local t
	t=$(mktemp -d)
	run() { "$BIN" run "$@" --no-plots </dev/null >/dev/null 2>&1; }
	local tiny=(--set warmup=50ms --set duration=300ms --set interval=50ms --set repeat=3)
	run tests/e2e/compare.spec -o "$t/base"
	run tests/e2e/compare.spec -o "$t/fast" --set rate=1100000 --set producers="0 2"
	run tests/e2e/compare.spec -o "$t/same" --set producers=0
	run tests/e2e/compare.spec -o "$t/broken" --set producers=0 --set fail=setup
	run tests/e2e/compare.spec -o "$t/single" --set producers=0 --set duration=20ms \
		--set repeat=1
	run specs/seed_csum_diff.spec "${tiny[@]}" --set 'size=16 64' -o "$t/csum_a"
	run specs/seed_csum_diff.spec "${tiny[@]}" --set 'size=16 64' -o "$t/csum_b"
	run specs/seed_htab_mem.spec "${tiny[@]}" --set bpf_stats=off --set use_case=overwrite \
		--set value_size=8 -o "$t/htab_a"
	run specs/seed_htab_mem.spec "${tiny[@]}" --set bpf_stats=off --set use_case=overwrite \
		--set value_size=8 -o "$t/htab_b"
	"$BIN" import tests/fixtures/import/002_x86_64.txt -o "$t/imp_x86" --tag arch=x86_64 \
		--tag cpu_model='AMD EPYC 9654' --label 'rb-libbpf nr_prod {producers}' >/dev/null
	"$BIN" import tests/fixtures/import/002_arm64.txt -o "$t/imp_arm" --tag arch=arm64 \
		--tag cpu_model='HiSilicon Kunpeng 920' --label 'rb-libbpf nr_prod {producers}' \
		>/dev/null
	# base and fast unflagged, as compare.sh makes them: their verdicts are
	# the test's, not the veto's (same keeps its flags: the veto's)
	for d in base fast; do
		python3 - "$t/$d/summary.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
q, st = rows[0].index("quality"), rows[0].index("status")
for r in rows[1:]:
    if r[st] == "ok":
        r[q] = ""
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
	done
	sed -i -e "s#$t/##g" -e "s#$BIN#./bpfsweep#" -e 's/^cmdline: .*/cmdline: console=ttyS0/' "$t"/*/meta
	rm -rf "$FIX/sets"
	mkdir -p "$FIX"
	mv "$t" "$FIX/sets"
	chmod 755 "$FIX/sets"
}

# The cases: NAME then the arguments, one case a line.  Set names are
# those under the scratch directory.
CASES='
cmp_null_text compare base fast -i rate
cmp_null_markdown compare base fast -i rate -f markdown
cmp_null_csv compare base fast -i rate -f csv
cmp_null_json compare base fast -i rate -f json
cmp_null_three_text compare base fast same -i rate
cmp_null_three_markdown compare base fast same -i rate -f markdown
cmp_null_three_csv compare base fast same -i rate -f csv
cmp_null_three_json compare base fast same -i rate -f json
cmp_same_text compare base same
cmp_same_csv compare base same -f csv
cmp_broken_text compare base broken
cmp_broken_json compare base broken -f json
cmp_single_text compare base single
cmp_single_csv compare base single -f csv
cmp_pick_text compare base fast -i rate -e drops,hits
cmp_pick_markdown compare base fast -i rate -e drops -f markdown
cmp_pick_json compare base fast -i rate -e drops,hits -f json
cmp_pick_bad compare base fast -i rate -e hitz
cmp_gate_slower compare fast base -i rate --fail-above 5
cmp_gate_faster compare base fast -i rate --fail-above 5
cmp_gate_same compare base same --fail-above 5 --decide 20
cmp_gate_failed compare base failed --fail-above 5
cmp_gate_failed_json compare failed base --fail-above 5 -f json
cmp_alpha compare base fast -i rate --alpha 0.001 --decide 15
cmp_paired_text compare --paired base fast base same -i rate
cmp_paired_csv compare --paired base fast base same -i rate -f csv
cmp_html compare --html base fast -i rate
cmp_nosamples_text compare nosamples fast -i rate
cmp_nosamples_csv compare nosamples fast -i rate -f csv
cmp_tcg_refused compare base tcg -i rate
cmp_tcg_allowed compare base tcg -i rate --allow-tcg
cmp_nothing compare base export
cmp_csum_text compare csum_a csum_b
cmp_csum_markdown compare csum_a csum_b -f markdown
cmp_csum_csv compare csum_a csum_b -f csv
cmp_csum_json compare csum_a csum_b -f json
cmp_csum_pick compare csum_a csum_b -e ns_per_run,prog_ns,calls
cmp_csum_pick_csv compare csum_a csum_b -e prog_runs,ns_per_run -f csv
cmp_htab_text compare htab_a htab_b
cmp_htab_markdown compare htab_a htab_b -f markdown
cmp_htab_csv compare htab_a htab_b -f csv
cmp_htab_json compare htab_a htab_b -f json
cmp_htab_html compare --html htab_a htab_b
cmp_imp_text compare imp_x86 imp_arm
cmp_imp_markdown compare imp_x86 imp_arm -f markdown
cmp_imp_csv compare imp_x86 imp_arm -f csv
cmp_imp_json compare imp_x86 imp_arm -f json
cmp_export_text compare export export
cmp_export_json compare export export -f json
rep_base report base --no-plots
rep_base_markdown report base --no-plots -f markdown
rep_base_csv report base --no-plots -f csv
rep_base_json report base --no-plots -f json
rep_fast report fast --no-plots
rep_broken report broken --no-plots
rep_broken_json report broken --no-plots -f json
rep_nosamples report nosamples --no-plots
rep_nosamples_json report nosamples --no-plots -f json
rep_csum report csum_a --no-plots
rep_csum_markdown report csum_a --no-plots -f markdown
rep_csum_csv report csum_a --no-plots -f csv
rep_csum_json report csum_a --no-plots -f json
rep_htab report htab_a --no-plots
rep_htab_csv report htab_a --no-plots -f csv
rep_htab_json report htab_a --no-plots -f json
rep_imp report imp_x86 --no-plots
rep_imp_markdown report imp_x86 --no-plots -f markdown
rep_imp_json report imp_x86 --no-plots -f json
rep_export report export --no-plots
rep_export_json report export --no-plots -f json
'

# The sets in a scratch directory: report writes table.txt and
# report.html into its set; the derived ones beside them.
stage() {
	cp -r "$FIX/sets/." "$1/"
	cp -r tests/fixtures/results/export "$1/export"
	cp -r "$1/base" "$1/nosamples"
	rm "$1/nosamples/samples.csv"
	cp -r "$1/fast" "$1/tcg"
	echo "vm_accel: tcg" >>"$1/tcg/meta"
	# base with its second point failed: the gate's "ok in BASE, failed in NEW"
	cp -r "$1/base" "$1/failed"
	python3 - "$1/failed/summary.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
st, why = rows[0].index("status"), rows[0].index("reason")
rows[2][st], rows[2][why] = "failed", "setup: -5 (EIO)"
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
}

# run_case DIR ARGS...: the command's stdout, stderr and exit status, and
# for report the files it wrote into its set (table.txt, report.html)
run_case() {
	local dir=$1 status
	shift
	echo "\$ bpfsweep $*"
	(cd "$dir" && "$BIN" "$@" >"$dir/.out" 2>"$dir/.err" </dev/null)
	status=$?
	echo "--- stdout"
	cat "$dir/.out"
	echo "--- stderr"
	cat "$dir/.err"
	echo "--- exit status $status"
	if [ "$1" = report ]; then
		echo "--- $2/table.txt"
		cat "$dir/$2/table.txt" 2>/dev/null
		rm -f "$dir/$2/table.txt"
	fi
}

# html_case DIR SET: report --html's page of SET
html_case() {
	(cd "$1" && "$BIN" report "$2" --html >/dev/null 2>&1 </dev/null)
	echo "\$ bpfsweep report $2 --html: $2/report.html"
	cat "$1/$2/report.html" 2>/dev/null
	rm -f "$1/$2/report.html"
}

all_cases() {
	local dir=$1 name args
	while read -r name args; do
		[ -n "$name" ] || continue
		# shellcheck disable=SC2086 # the case's words, as written above
		run_case "$dir" $args >"$dir/.case"
		printf '%s\n' "$name" >>"$dir/.names"
		mv "$dir/.case" "$dir/.golden.$name"
	done <<<"$CASES"
	for s in base csum_a htab_a imp_x86; do
		html_case "$dir" "$s" >"$dir/.golden.html_$s"
		printf '%s\n' "html_$s" >>"$dir/.names"
	done
}

case ${1-} in
--make-sets)
	make_sets
	exit
	;;
esac

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ ! -d "$FIX/sets" ]; then
	fail sameoutput/sets "$FIX/sets missing (tests/e2e/sameoutput.sh --make-sets)"
	exit 0
fi
stage "$TMP"
all_cases "$TMP"

if [ "${1-}" = --update ]; then
	rm -rf "$FIX/golden"
	mkdir -p "$FIX/golden"
	while read -r name; do
		cp "$TMP/.golden.$name" "$FIX/golden/$name"
	done <"$TMP/.names"
	echo "goldens written: $(wc -l <"$TMP/.names") cases in $FIX/golden"
	exit 0
fi

while read -r name; do
	if [ ! -f "$FIX/golden/$name" ]; then
		fail "sameoutput/$name" "no golden (tests/e2e/sameoutput.sh --update)"
	elif cmp -s "$FIX/golden/$name" "$TMP/.golden.$name"; then
		pass "sameoutput/$name"
	else
		fail "sameoutput/$name" "differs from $FIX/golden/$name:
$(diff "$FIX/golden/$name" "$TMP/.golden.$name" | head -20)"
	fi
done <"$TMP/.names"
# a golden no case makes any more is a case dropped without saying so
for g in "$FIX"/golden/*; do
	grep -qxF "${g##*/}" "$TMP/.names" || fail "sameoutput/${g##*/}" "golden of no case"
done
step_time sameoutput
