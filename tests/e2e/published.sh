#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Published numbers: seed 002's two tables (x86_64 and arm64), imported,
# then drawn together (report, merge: a chart with a line per machine, a
# table block per machine) and compared (Δ% from the summary rows: the
# bench output says no n, so no test).  No root, no BPF.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FIX=tests/fixtures/import
LABEL='rb-libbpf nr_prod {producers}'

quiet $BPFSWEEP import $FIX/002_x86_64.txt -o "$TMP/X" --tag arch=x86_64 \
	--tag cpu_model='AMD EPYC 9654' --label "$LABEL"
quiet $BPFSWEEP import $FIX/002_arm64.txt -o "$TMP/A" --tag arch=arm64 \
	--tag cpu_model='HiSilicon Kunpeng 920' --label "$LABEL"

# series of a chart's .dat: "SERIES X MEAN" per point
dat_points() {
	awk '/^# x mean/ { next } /^# / { s = substr($0, 3); next }
	     NF >= 2 { print s, $1, $2 }' "$1"
}

$BPFSWEEP report "$TMP/X" "$TMP/A" -o "$TMP/BOTH" --by arch >"$TMP/out" 2>&1
check published_report_ok [ $? = 0 ]
DAT=$(ls "$TMP"/BOTH/plots/*hits-vs-producers.dat 2>/dev/null | head -1)
check published_one_chart [ -n "$DAT" ]
dat_points "$DAT" >"$TMP/pts"
check published_two_series [ "$(cut -d' ' -f1 "$TMP/pts" | uniq | xargs)" = "x86_64 arm64" ]
check published_x86_1 grep -qx 'x86_64 1 14.970000' "$TMP/pts"
check published_arm_1 grep -qx 'arm64 1 10.319000' "$TMP/pts"
check published_x86_52 grep -qx 'x86_64 52 1.709000' "$TMP/pts"
check published_arm_52 grep -qx 'arm64 52 2.858000' "$TMP/pts"
check published_16_each [ "$(grep -c '^arm64 ' "$TMP/pts")" = 16 ]
check published_table_x86 grep -q 'x86_64 (AMD EPYC 9654)' "$TMP/BOTH/table.txt"
check published_table_arm grep -q 'arm64 (HiSilicon Kunpeng 920)' "$TMP/BOTH/table.txt"
check published_table_blocks [ "$(grep -c '^Ringbuf, multi-producer' "$TMP/BOTH/table.txt")" = 2 ]
check published_table_label grep -q '^rb-libbpf nr_prod 52 *2.858 ± 0.002M/s' \
	"$TMP/BOTH/table.txt"

# merge draws the same chart
quiet $BPFSWEEP merge "$TMP/X" "$TMP/A" -o "$TMP/M" --by arch
check published_merge_ok [ $? = 0 ]
MDAT=$(ls "$TMP"/M/plots/*hits-vs-producers.dat 2>/dev/null | head -1)
check published_merge_chart [ -n "$MDAT" ] && dat_points "$MDAT" >"$TMP/mpts"
check published_merge_same cmp -s "$TMP/pts" "$TMP/mpts"

# a scaling chart: per producer, relative to the first
quiet $BPFSWEEP report "$TMP/X" "$TMP/A" -o "$TMP/N" --by arch --normalize first \
	--per producers
NDAT=$(ls "$TMP"/N/plots/*per-producers-relative.dat 2>/dev/null | head -1)
check published_scaling_chart [ -n "$NDAT" ] && dat_points "$NDAT" >"$TMP/npts"
check published_scaling_first [ "$(awk '$2 == 1 { print $1, $3 }' "$TMP/npts" | xargs)" = \
	"x86_64 1.000000 arm64 1.000000" ]

# runs named by what tells them apart: arch and CPU model, without --by
quiet $BPFSWEEP report "$TMP/X" "$TMP/A" -o "$TMP/DEF"
DDAT=$(ls "$TMP"/DEF/plots/*hits-vs-producers.dat 2>/dev/null | head -1)
check published_default_by_x86 grep -qx '# x86_64 AMD EPYC 9654' "$DDAT"
check published_default_by_arm grep -qx '# arm64 HiSilicon Kunpeng 920' "$DDAT"
quiet $BPFSWEEP merge "$TMP/X" "$TMP/A" -o "$TMP/MD"
check published_merge_default_by grep -qx '# arm64 HiSilicon Kunpeng 920' \
	"$(ls "$TMP"/MD/plots/*hits-vs-producers.dat 2>/dev/null | head -1)"
# producers 1..52 on log2, tics at the powers of two and 52; no text but quoted in the .gp
GP=${DDAT%.dat}.gp
check published_log2_axis grep -qx 'set logscale x 2' "$GP"
check published_log2_tics grep -qx \
	"set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32, '52' 52)" "$GP"
check published_gp_inert not grep -q '[`@]' "$GP"

# the archive's text, both machines in one file: a run per machine, named by its CPU
quiet $BPFSWEEP import $FIX/002_flat.txt -o "$TMP/F" --label "$LABEL"
check published_flat_two_runs [ -f "$TMP/F/runs/2/summary.csv" -a ! -e "$TMP/F/runs/3" ]
check published_flat_machine_1 grep -qx 'cpu_model: AMD EPYC 9654' "$TMP/F/runs/1/meta"
check published_flat_machine_2 grep -qx 'arch: arm64' "$TMP/F/runs/2/meta"
check published_flat_one_title [ "$(csv_col "$TMP/F/summary.csv" experiment | sort -u)" = \
	"Ringbuf, multi-producer contention, overwrite mode" ]
quiet $BPFSWEEP report "$TMP/F"
FDAT=$(ls "$TMP"/F/plots/*hits-vs-producers.dat 2>/dev/null | head -1)
check published_flat_series [ "$(grep -e '^# x86' -e '^# arm' "$FDAT" | xargs -d '\n')" = \
	"# x86_64 AMD EPYC 9654 # arm64 HiSilicon Kunpeng 920" ]
dat_points "$FDAT" | sed 's/^x86_64 AMD EPYC 9654/x86_64/; s/^arm64 HiSilicon Kunpeng 920/arm64/' \
	>"$TMP/fpts"
check published_flat_same_points cmp -s "$TMP/pts" "$TMP/fpts"

# [report] keys still apply, checked against the set's own parameters
quiet $BPFSWEEP report "$TMP/X" -o "$TMP/D" --set 'plot=producers vs drops'
check published_set_plot [ -n "$(ls "$TMP"/D/plots/*drops-vs-producers.dat 2>/dev/null)" ]
$BPFSWEEP report "$TMP/X" -o "$TMP/E" --set 'plot=producer vs hits' >"$TMP/err" 2>&1
check published_set_unknown_exit2 [ $? = 2 ]
check published_set_unknown_says grep -q "unknown parameter 'producer'" "$TMP/err"

# compare: the summary's means, Δ%, and no test without n
$BPFSWEEP compare "$TMP/X" "$TMP/A" >"$TMP/cmp" 2>&1
grep '^rb-libbpf nr_prod 1 ' "$TMP/cmp" >"$TMP/row1"
# each row is labelled as the bench printed it: the label column is not a
# parameter ("label=rb-libbpf nr_prod 1 producers=1" before); one line per point
# and metric, as the issue's example reads:
# rb-libbpf nr_prod 1  hits   14.970 → 10.319M/s  -31.1 %  no test (n unknown)
check published_compare_label [ "$(grep -c '^rb-libbpf nr_prod [0-9]* *hits ' "$TMP/cmp")" = 16 ]
check published_compare_label_not_param not grep -q 'label=' "$TMP/cmp"
check published_compare_means grep -q ' hits  *14\.970 → 10\.319M/s ' "$TMP/row1"
check published_compare_pct grep -q -- ' -31\.1 % ' "$TMP/row1"
check published_compare_no_n grep -q 'no test (n unknown)' "$TMP/row1"
$BPFSWEEP compare "$TMP/X" "$TMP/A" --format csv >"$TMP/cmp.csv" 2>&1
check published_compare_csv_n_empty [ "$(csv_col "$TMP/cmp.csv" base_n | sort -u | xargs)" = "" ]

# a value a row does not print is n/a in compare's tables, not "nan ± nanM/s"
printf 'T\n===\nrb 1  1.0 ± 0.1M/s (drops 0.0 ± 0.0M/s)\nrb 2  2.0M/s\n' >"$TMP/gap.txt"
quiet $BPFSWEEP import "$TMP/gap.txt" -o "$TMP/G1"
quiet $BPFSWEEP import "$TMP/gap.txt" -o "$TMP/G2"
for fmt in text markdown; do
	$BPFSWEEP compare -f $fmt "$TMP/G1" "$TMP/G2" >"$TMP/gap.out" 2>&1
	check "published_gap_no_nan:$fmt" not grep -qi nan "$TMP/gap.out"
	check "published_gap_mean_only:$fmt" grep -q '2\.000M/s' "$TMP/gap.out"
done
