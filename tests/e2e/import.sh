#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# import: seed 002's two published tables become two result sets whose
# producers axis lines up, read by name as a run's are; bad input leaves
# nothing behind.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FIX=tests/fixtures/import
LABEL='rb-libbpf nr_prod {producers}'

$BPFSWEEP import $FIX/002_x86_64.txt -o "$TMP/x86" --tag arch=x86_64 \
	--tag cpu_model="AMD EPYC 9654" --label "$LABEL" >"$TMP/out" 2>&1
check import_exit_ok [ $? = 0 ]
$BPFSWEEP import $FIX/002_arm64.txt -o "$TMP/arm" --tag arch=arm64 \
	--tag cpu_model="HiSilicon Kunpeng 920" --label "$LABEL" >>"$TMP/out" 2>&1
check import_second_machine [ $? = 0 ]
check import_says_what [ "$(head -1 "$TMP/out")" = "$TMP/x86: 16 rows in 1 blocks from 1 file" ]

producers="1 2 3 4 8 12 16 20 24 28 32 36 40 44 48 52"
check import_producers_axis [ "$(csv_col "$TMP/x86/summary.csv" producers | xargs)" = "$producers" ]
check import_axes_match [ "$(csv_col "$TMP/arm/summary.csv" producers | xargs)" = "$producers" ]
check import_hits_exact [ "$(csv_col "$TMP/x86/summary.csv" hits_per_s_mean producers 52)" = \
	"1709000.000" ]
check import_stddev_exact [ "$(csv_col "$TMP/arm/summary.csv" hits_per_s_stddev producers 1)" = \
	"231000.000" ]
check import_status_ok [ "$(csv_col "$TMP/arm/summary.csv" status | sort -u)" = ok ]
check import_n_unknown [ -z "$(csv_col "$TMP/arm/summary.csv" n | sort -u)" ]
check import_label_column [ "$(csv_col "$TMP/x86/summary.csv" label producers 4)" = \
	"rb-libbpf nr_prod 4" ]
check import_samples_header_only [ "$(cat "$TMP/x86/samples.csv")" = \
	"point,experiment,rep,interval,warmup,elapsed_ns,hits,drops" ]
check import_meta_machine grep -qx 'cpu_model: HiSilicon Kunpeng 920' "$TMP/arm/meta"
check import_meta_arch grep -qx 'arch: arm64' "$TMP/arm/meta"
check import_meta_from grep -qx "imported_from: $FIX/002_arm64.txt" "$TMP/arm/meta"
check import_meta_host_unknown grep -qx 'host: unknown' "$TMP/arm/meta"
# each metric's direction: the bench's names say it, so compare need not guess
check import_meta_metrics [ "$(grep '^metric: ' "$TMP/arm/meta" | tr '\n' ';')" = \
	"metric: hits counter M/s higher;metric: drops counter M/s lower;" ]

# columns.csv, from the column table a run's summary.csv is written from: a row per
# summary.csv column in its order; a rate's rows are a run's counter's, a level's carry its unit
check import_columns_names_header [ "$(csv_col "$TMP/x86/columns.csv" column | paste -sd,)" = \
	"$(head -1 "$TMP/x86/summary.csv")" ]
check import_columns_counter grep -qx 'hits_per_s_mean,hits,mean,counter,1/s,higher' \
	"$TMP/x86/columns.csv"
check import_columns_spread grep -qx 'drops_per_s_stddev,drops,stddev,counter,1/s,' \
	"$TMP/x86/columns.csv"
check import_columns_param grep -qx 'producers,,,param,,' "$TMP/x86/columns.csv"

# the archive's flattened form gives the same numbers as the table
$BPFSWEEP import $FIX/002_flat.txt -o "$TMP/flat" >/dev/null 2>&1
check import_flat_same [ "$(csv_col "$TMP/flat/summary.csv" hits_per_s_mean | head -16)" = \
	"$(csv_col "$TMP/x86/summary.csv" hits_per_s_mean)" ]
check import_flat_runs_columns [ -s "$TMP/flat/runs/1/columns.csv" -a -s "$TMP/flat/runs/2/columns.csv" ]
check import_flat_auto_axis [ "$(csv_col "$TMP/flat/summary.csv" nr_prod | head -3 | xargs)" = \
	"1 2 3" ]

# htab-mem: names as the bench gives them, sizes in bytes
$BPFSWEEP import $FIX/000_htab_mem.txt -o "$TMP/htab" >/dev/null 2>&1
check import_htab_rate [ "$(csv_col "$TMP/htab/summary.csv" per_prod_op_per_s_mean | head -1)" = \
	"11240.000" ]
check import_htab_bytes [ "$(csv_col "$TMP/htab/summary.csv" peak_mem_bytes_mean | head -1)" = \
	"124969288" ]

check import_htab_meta_metrics [ "$(grep '^metric: ' "$TMP/htab/meta" | tr '\n' ';')" = \
	"metric: per_prod_op counter M/s higher;metric: avg_mem bytes B lower;metric: peak_mem bytes B lower;" ]
check import_htab_samples_names [ "$(cat "$TMP/htab/samples.csv")" = \
	"point,experiment,rep,interval,warmup,elapsed_ns,per_prod_op,avg_mem,peak_mem" ]

check import_htab_columns_bytes grep -qx 'avg_mem_bytes_mean,avg_mem,mean,gauge,bytes,lower' \
	"$TMP/htab/columns.csv"

# An imported size or time is read back, by report, compare and merge alike
# (they refused "metric 'avg_mem' has no statistics in summary.csv"): the
# table shows the bench's numbers in their units, and compare pairs them.
$BPFSWEEP import $FIX/map_bench_latency.txt -o "$TMP/lat" >/dev/null 2>&1
check import_latency_columns_ns grep -qx 'latency_ns_mean,latency,mean,gauge,ns,lower' \
	"$TMP/lat/columns.csv"
$BPFSWEEP report "$TMP/htab" --no-plots >"$TMP/htab.txt" 2>"$TMP/htab.err"
check import_htab_report_reads [ $? = 0 ]
check import_htab_report_bytes grep -q \
	'^overwrite  *0.011 ± 0.000M/s (avg_mem 86654321 ± 27598520B, peak_mem 124969288B)$' \
	"$TMP/htab.txt"
$BPFSWEEP report "$TMP/lat" --no-plots >"$TMP/lat.txt" 2>"$TMP/lat.err"
check import_latency_report_reads [ $? = 0 ]
check import_latency_report_ns grep -q '^htab-lookup  *5.204 ± 0.007M/s (latency 192.159ns)$' \
	"$TMP/lat.txt"
$BPFSWEEP compare "$TMP/htab" "$TMP/htab" >"$TMP/htab.cmp" 2>&1
check import_htab_compare_reads [ $? = 0 ]
check import_htab_compare_level grep -q '^overwrite  *avg_mem  *86654321 →  *86654321B ' "$TMP/htab.cmp"
$BPFSWEEP compare "$TMP/lat" "$TMP/lat" >"$TMP/lat.cmp" 2>&1
check import_latency_compare_reads [ $? = 0 ]
check import_latency_compare_ns grep -q '^htab-lookup  *latency  *192.159 → 192.159ns ' "$TMP/lat.cmp"
$BPFSWEEP merge "$TMP/htab" "$TMP/lat" -o "$TMP/levels" --no-plots >/dev/null 2>&1
check import_levels_merge_reads [ $? = 0 ]
check import_levels_merged_report [ "$($BPFSWEEP report "$TMP/levels" --no-plots 2>/dev/null |
	grep -c 'latency 192.159ns\|avg_mem 86654321')" = 2 ]

# report, compare and merge read a set the same with its columns.csv as from its names alone
cp -r "$TMP/lat" "$TMP/lat_old" && rm "$TMP/lat_old/columns.csv"
$BPFSWEEP report "$TMP/lat_old" --no-plots >"$TMP/lat_old.txt" 2>/dev/null
check import_columns_report_same cmp -s "$TMP/lat.txt" "$TMP/lat_old.txt"
check import_columns_compare_same [ "$($BPFSWEEP compare "$TMP/lat_old" "$TMP/lat_old" 2>&1 |
	sed 1,2d)" = "$(sed 1,2d "$TMP/lat.cmp")" ]
$BPFSWEEP merge "$TMP/htab" "$TMP/lat_old" -o "$TMP/levels_old" --no-plots >/dev/null 2>&1
check import_columns_merge_same [ "$(cut -d, -f2- "$TMP/levels_old/summary.csv")" = \
	"$(cut -d, -f2- "$TMP/levels/summary.csv")" ]

# each fixture's summary.csv as bpfsweep wrote it before import went through the column
# table (golden/, made by that build), byte for byte (002_flat's, of two machines, merged)
for f in $FIX/*.txt; do
	n=$(basename "$f" .txt)
	$BPFSWEEP import "$f" -o "$TMP/golden_$n" >/dev/null 2>&1
	check "import_golden_summary:$n" cmp -s "$FIX/golden/$n.summary.csv" \
		"$TMP/golden_$n/summary.csv"
done

# several files into one set
$BPFSWEEP import $FIX/003_rename.txt $FIX/001_map_perf.txt -o "$TMP/two" >/dev/null 2>&1
check import_two_files [ "$(csv_col "$TMP/two/summary.csv" point | wc -l)" = 78 ]
check import_two_from [ "$(grep -c '^imported_from: ' "$TMP/two/meta")" = 2 ]

# refused, and nothing written
$BPFSWEEP import $FIX/002_x86_64.txt -o "$TMP/x86" >/dev/null 2>"$TMP/err"
check import_existing_out [ $? = 2 ]
check import_existing_says grep -q "File exists" "$TMP/err"
$BPFSWEEP import $FIX/002_x86_64.txt >/dev/null 2>&1
check import_needs_out [ $? = 2 ]
$BPFSWEEP import "$TMP/nonexistent" -o "$TMP/none" >/dev/null 2>&1
check import_missing_file [ $? = 2 ]
check import_missing_file_no_dir [ ! -e "$TMP/none" ]
$BPFSWEEP import $FIX/002_x86_64.txt -o "$TMP/none" --label 'rb-custom {n}' >/dev/null \
	2>"$TMP/err"
check import_label_no_match [ $? = 2 ]
check import_label_no_match_says grep -q "matches no row" "$TMP/err"
check import_label_no_match_no_dir [ ! -e "$TMP/none" ]
(ulimit -f 2 && exec $BPFSWEEP import $FIX/001_map_perf.txt -o "$TMP/big" >/dev/null \
	2>"$TMP/err")
# a result that cannot be written exits 1, as a run's does (README), not 2
check import_write_fails_exit_1 [ $? = 1 ]
check import_write_fails_said grep -q "cannot write $TMP/big/summary.csv: File too large" \
	"$TMP/err"
check import_write_fails_no_dir [ ! -e "$TMP/big" ]
# a full disk (a tmpfs filled up, in a mount namespace of its own): import and
# merge exit 1, say why, and leave no half-written set
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir "$TMP/full"
	unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" || exit 9
		dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
		"$2" import "$3" -o "$1/imp" >/dev/null 2>"$4/full-import.err"
		echo $? >"$4/full-import.rc"
		"$2" merge "$5" "$6" -o "$1/mrg" --no-plots >/dev/null 2>"$4/full-merge.err"
		echo $? >"$4/full-merge.rc"
		ls -A "$1" >"$4/full.ls"' sh "$TMP/full" "$BPFSWEEP" "$FIX/002_x86_64.txt" "$TMP" \
		"$TMP/x86" "$TMP/arm"
	check import_full_disk_exit_1 [ "$(cat "$TMP/full-import.rc")" = 1 ]
	check import_full_disk_said grep -q "No space left on device" "$TMP/full-import.err"
	check merge_full_disk_exit_1 [ "$(cat "$TMP/full-merge.rc")" = 1 ]
	check merge_full_disk_said grep -q "No space left on device" "$TMP/full-merge.err"
	check full_disk_nothing_left [ "$(cat "$TMP/full.ls")" = fill ]
else
	skip import_full_disk "needs root and unshare (a tmpfs of its own)"
fi
printf 'no numbers here\n' >"$TMP/prose.txt"
$BPFSWEEP import "$TMP/prose.txt" -o "$TMP/none" >/dev/null 2>&1
check import_no_rows [ $? = 2 ]
# an unreadable FILE or a file with no row: one error, no second empty or garbage one
for f in /dev/null "$TMP/prose.txt"; do
	$BPFSWEEP import "$f" -o "$TMP/none" 2>"$TMP/err" >/dev/null
	check "import_one_error:$f" [ "$(grep -c 'error:' "$TMP/err")" = 1 ]
done
# a page's control characters (ESC, BEL, DEL, C1 CSI) reach no file and no terminal raw
printf 'evil \033[31m\302\233 title\n==========\nrb\007-lib\177bpf nr_prod 1  1.0 ± 0.1M/s\n' \
	>"$TMP/ctl.txt"
$BPFSWEEP import "$TMP/ctl.txt" -o "$TMP/ctl" >"$TMP/out" 2>&1
check import_controls_ok [ $? = 0 ]
check import_controls_blanked not env LC_ALL=C grep -q $'[\001-\010\016-\037\177]\|\302[\200-\237]' \
	"$TMP/out" "$TMP/ctl/summary.csv" "$TMP/ctl/meta"

# values import does not read are said with their line, and the table goes on around them;
# an exponent and "X +/- Y M/s" are read; labels a spreadsheet would run as formulas are
# kept as text (a leading apostrophe); a bidi override refuses its line (issue 34 N11)
printf 'T\n===\nrowA 1.0M/s\nrowC 1,000.5M/s\nrowD -5.0M/s\nrowE nan M/s\nrowF 1.0e3M/s
rowG 5.0 +/- 0.1 M/s\n=HYPERLINK("x") 1  2.0M/s\n@SUM(A1) 2  3.0M/s\n+x 3  4.0M/s
-y 4  5.0M/s\nrb \342\200\256 5  6.0M/s\nrowH 3.0M/s\n' >"$TMP/unread.txt"
$BPFSWEEP import "$TMP/unread.txt" -o "$TMP/unread" >"$TMP/out" 2>"$TMP/err"
check import_unread_ok [ $? = 0 ]
check import_unread_separator grep -q "unread.txt:4: '1,000.5M/s' not read: a thousands \
separator" "$TMP/err"
check import_unread_negative grep -q "unread.txt:5: '-5.0M/s' not read: a negative value" \
	"$TMP/err"
check import_unread_nan grep -q "unread.txt:6: 'nan M/s' not read: not a number" "$TMP/err"
check import_unread_bidi grep -q "unread.txt:13: U+202E not read: a bidi control" "$TMP/err"
check import_unread_one_block [ "$(csv_col "$TMP/unread/summary.csv" experiment | sort -u)" = T ]
check import_unread_labels [ "$(csv_col "$TMP/unread/summary.csv" label | tr '\n' ';')" = \
	"rowA;rowF;rowG;'=HYPERLINK(\"x\") 1;'@SUM(A1) 2;'+x 3;'-y 4;rowH;" ]
check import_unread_exponent [ "$(csv_col "$TMP/unread/summary.csv" hits_per_s_mean label rowF)" \
	= 1000000000.000 ]
check import_unread_blank_unit [ "$(csv_col "$TMP/unread/summary.csv" hits_per_s_stddev label \
	rowG)" = 100000.000 ]
check import_no_formula_cell not grep -q '^[^,]*,[^,]*,[^,]*,"\?[=+@-]' "$TMP/unread/summary.csv"
# a FIFO is no file to read, and says so (it was "Invalid argument")
mkfifo "$TMP/fifo.txt"
timeout 10 $BPFSWEEP import "$TMP/fifo.txt" -o "$TMP/none_fifo" >/dev/null 2>"$TMP/err"
check import_fifo_refused [ $? = 2 ]
check import_fifo_said grep -q "cannot read $TMP/fifo.txt: not a regular file" "$TMP/err"
check import_fifo_no_dir [ ! -e "$TMP/none_fifo" ]

# cpu_ms CMD...: CMD's CPU time (user + sys) in ms into $CPU_MS, its status returned; CPU,
# not wall time: six jobs share the machine's two CPUs while make check runs
cpu_ms() {
	local TIMEFORMAT='%3U %3S' t rc
	{ t=$( { time "$@" >/dev/null 2>"$TMP/err"; } 2>&1 ); } ; rc=$?
	CPU_MS=$(echo "$t" | tail -1 | awk '{ printf "%d", ($1 + $2) * 1000 }')
	return $rc
}

# bounded in time: 40,000 blocks of one title (was cubic: 4,000 took 43 s)
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "T\n===\nrb 1  1.0M/s\n" }' >"$TMP/same.txt"
cpu_ms timeout 60 $BPFSWEEP import "$TMP/same.txt" -o "$TMP/same"
check import_same_titles_ok [ $? = 0 ]
check import_same_titles_fast [ "$CPU_MS" -lt 5000 ]
check import_same_titles_last [ "$(csv_col "$TMP/same/summary.csv" experiment | tail -1)" = \
	"T (40000)" ]
# a 150-character label against 6 {name}s: no exponential backtracking
{ printf 'T\n===\na'; printf '%.0s-' $(seq 148); printf 'b  1.0M/s\n'; } >"$TMP/dash.txt"
cpu_ms timeout 60 $BPFSWEEP import "$TMP/dash.txt" -o "$TMP/none" --label '{a}-{b}-{c}-{d}-{e}-{f}-y'
check import_label_bounded_refused [ $? = 2 ]
check import_label_bounded_fast [ "$CPU_MS" -lt 1000 ]

# refused with file:line, nothing written: a NUL byte, numbers past 2^63 (inf, cut to 63 digits)
printf 'T\n===\nrb 1  1.0M/s\nrb 2  2.0\000M/s\nrb 3  3.0M/s\n' >"$TMP/nul.txt"
$BPFSWEEP import "$TMP/nul.txt" -o "$TMP/none_nul" >/dev/null 2>"$TMP/err"
check import_nul_refused [ $? = 2 ]
check import_nul_names_line grep -q "nul.txt:4: a NUL byte" "$TMP/err"
check import_nul_no_dir [ ! -e "$TMP/none_nul" ]
for digits in 400 64; do
	{ printf 'T\n===\nrb 1  1.0M/s\nrb 2  '; printf '9%.0s' $(seq $digits); printf 'M/s\n'; } \
		>"$TMP/big$digits.txt"
	$BPFSWEEP import "$TMP/big$digits.txt" -o "$TMP/none_$digits" >/dev/null 2>"$TMP/err"
	check "import_${digits}_digits_refused" [ $? = 2 ]
	check "import_${digits}_digits_line" grep -q "big$digits.txt:4: a number of 2^63 or more" \
		"$TMP/err"
	check "import_${digits}_digits_no_dir" [ ! -e "$TMP/none_$digits" ]
done
# the 1 MiB cap, said as such
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' 'a' >"$TMP/huge.txt"
$BPFSWEEP import "$TMP/huge.txt" -o "$TMP/none" >/dev/null 2>"$TMP/err"
check import_cap_refused [ $? = 2 ]
check import_cap_said grep -q "huge.txt: larger than 1 MiB, the most import reads of a file" \
	"$TMP/err"

# a value the bench never printed is n/a, never a made-up 0, in the table and every export
printf 'T\n===\nrb 1  1.0 ± 0.1M/s (drops 0.5 ± 0.1M/s)\nrb 2  2.0M/s\n' >"$TMP/part.txt"
$BPFSWEEP import "$TMP/part.txt" -o "$TMP/part" >/dev/null 2>&1
check import_partial_cells_empty [ "$(csv_col "$TMP/part/summary.csv" drops_per_s_mean point 1)" = "" ]
$BPFSWEEP report "$TMP/part" --no-plots >/dev/null 2>&1
check import_partial_table_na grep -q '^rb 2  *2.000M/s (drops n/a)$' "$TMP/part/table.txt"
check import_partial_table_no_zero not grep -q '0.000 ± 0.000' "$TMP/part/table.txt"
$BPFSWEEP report "$TMP/part" -f csv --no-plots >"$TMP/part.csv" 2>/dev/null
check import_partial_export_empty grep -q '^1,T,1,rb 2,rb 2,2,ok,,drops,drops/s,,,,,,,$' \
	"$TMP/part.csv"
