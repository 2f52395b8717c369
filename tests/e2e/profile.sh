#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# profile = on through the whole tool, as root (docs/profile.md): csum_diff
# with a 4 KiB buffer, one producer pinned to one CPU, a 1 s warmup and
# 1 s measured, three repetitions.  Its folded profile is well formed, its
# hottest kernel leaf of bpfsweep's own stacks is the checksum
# (csum_partial or do_csum), under the workload's BPF program by its
# kallsyms name (symbolised before the teardown); the samples are those of
# the measured second of each repetition only (the warmup would double
# them, a sampler not reset between repetitions add them up); at most one
# sampler is loaded at any time, and none after the run, nor after a
# SIGINT or a SIGKILL.  Without the capabilities, the point runs and the
# profile is unsupported with the kernel's words.  report --profile prints
# the top symbols under the row, compare --profile the moves against a
# second run with a small buffer.  About 15 s.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip profile/e2e "needs root to load BPF programs and open perf events"
	exit 0
fi
if ! command -v bpftool >/dev/null; then
	skip profile/e2e "needs bpftool to see the loaded programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The profiler's programs (its one program is profile_sample) that process
# PID holds, by id, from its descriptors: not every one loaded on the
# machine, which make check's other lanes may load at the same moment.
sampler_ids() {
	local id
	for id in $(sed -n 's/^prog_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u); do
		bpftool prog show id "$id" 2>/dev/null | grep -q ' name profile_sample ' && echo "$id"
	done
}
# gone IDS_FILE: none of the programs whose ids the file lists is loaded any more
gone() {
	local id
	for id in $(sort -u "$1"); do
		bpftool prog show id "$id" >/dev/null 2>&1 && return 1
	done
	return 0
}

HZ=99
RUN=(--set size=4096 --set batch=64 --set producers=1 -a --set warmup=1s
     --set duration=1s --set interval=500ms --set repeat=3 --set bpf_stats=off
     --set profile_hz=$HZ --profile --no-plots)
D=$TMP/run
$BPFSWEEP run csum_diff "${RUN[@]}" -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
most=0
: >"$TMP/ids"
while kill -0 "$pid" 2>/dev/null; do
	sampler_ids "$pid" >"$TMP/now"
	cat "$TMP/now" >>"$TMP/ids"
	n=$(grep -c . "$TMP/now")
	[ "$n" -gt "$most" ] && most=$n
	sleep 0.2
done
wait "$pid"
check profile/exit-0 [ $? = 0 ]
check profile/one-sampler-at-a-time [ "$most" = 1 ]
check profile/none-left gone "$TMP/ids"

SUM=$D/summary.csv
check profile/point-ok [ "$(csv_col "$SUM" status)" = ok ]
check profile/profile-ok [ "$(csv_col "$SUM" profile)" = ok ]
# lost: two stacks in one bucket of the stack map, rare (stacksampler.c)
lost=$(csv_col "$SUM" profile_lost) all=$(csv_col "$SUM" profile_samples)
check profile/lost-counted-and-few [ "${lost:-x}" -ge 0 -a $((lost * 20)) -le "${all:-0}" ]

# Every line "frames count", frames non-empty, no blank in them.
F=$D/profiles/0-r0.folded
check profile/folded-files [ -s "$F" -a -s "$D/profiles/0-r2.folded" -a \
	-s "$D/profiles/0-r0.top" ]
check profile/folded-well-formed awk '!/^[^ ;]+(;[^ ;]+)* [0-9]+$/ { exit 1 }' "$F"

# bpfsweep's own kernel samples of the three repetitions: their hottest
# leaf is the checksum (one repetition alone, on a loaded machine, may be
# led by the irq-enable point a deferred timer sample lands on).
leaf=$(cat "$D"/profiles/0-r*.folded | awk -F';' '$1 == "bpfsweep" && NF > 1 {
	n = split($NF, a, " "); self[a[1]] += a[2] }
	END { for (s in self) print self[s], s }' | sort -rn | head -1 | cut -d' ' -f2)
check profile/checksum-leads [ "$leaf" = csum_partial -o "$leaf" = do_csum ]
check profile/bpf-program-named grep -q ';bpf_prog_[0-9a-f]*_csum_run;' "$F"
grep -q '^ *[0-9.]*% *[0-9.]*% *[0-9]* *\(csum_partial\|do_csum\)$' "$D/profiles/0-r0.top"
check profile/top-names-it [ $? = 0 ]

# The point's flame graph (profiles/0.svg, written with --no-plots too):
# XML, its root as wide as the three repetitions' samples, a frame of the
# checksum, only the elements flame.c writes.
python3 tests/e2e/flame_check.py "$D/profiles" 0

# One CPU sampled at HZ for the measured second of each repetition: about
# HZ samples; with the 1 s warmup counted, twice that; with the sampler
# (kept across repetitions) not reset, three times that in repetition 2.
for r in 0 2; do
	samples=$(sed -n "s/^# point 0 .*repetition $r: \([0-9]*\) samples.*/\1/p" \
		"$D/profiles/0-r$r.top")
	check "profile/measured-part-only-r$r" [ "${samples:-0}" -ge $((HZ * 6 / 10)) -a \
		"${samples:-0}" -le $((HZ * 14 / 10)) ]
done
$BPFSWEEP report "$D" --no-plots >/dev/null 2>&1
check profile/report-reads-it [ $? = 0 ]

# report --profile: under the row, the point's top symbols summed over its
# three repetitions, the checksum among them; the run (profile = on)
# printed them at its end too; table.txt, written by both, has none.
$BPFSWEEP report "$D" --profile --no-plots >"$TMP/rep" 2>&1
check profile/report-profile-exit-0 [ $? = 0 ]
under=$(grep -A "$((1 + 4))" '^ *profile: [0-9]* samples of 3 repetitions, self share$' "$TMP/rep")
case $under in
*%"  csum_partial"* | *%"  do_csum"*) pass profile/report-profile-under-row ;;
*) fail profile/report-profile-under-row "$(cat "$TMP/rep")" ;;
esac
check profile/run-end-prints-it grep -q '^ *profile: [0-9]* samples of 3 repetitions' "$TMP/out"
check profile/table-txt-written [ -s "$D/table.txt" ]
check profile/table-txt-without-it not grep -q 'profile:' "$D/table.txt"

# compare --profile against a 64-byte buffer (the points matched with
# --ignore size): the largest move's row has its symbol's leaf counts
# summed over each side's folded files (three repetitions and one), and
# the shares of each side's samples.  Which symbol moves most is left to
# the docs' measurement: on a machine this loaded, the other processes'
# share can move more than the buffer's effect does in 1 s.
D2=$TMP/small
$BPFSWEEP run csum_diff "${RUN[@]}" --set size=64 --set repeat=1 -o "$D2" >/dev/null 2>&1 </dev/null
$BPFSWEEP compare --profile --ignore size "$D" "$D2" >"$TMP/cmp" 2>&1
check profile/compare-profile-exit-0 [ $? = 0 ]
# leaf LEAF DIR: "<count of LEAF> <all samples>" over DIR's folded files, a BPF
# program's frame without its tag as compare names it (symname.h:
# bpf_prog_<16 hex digits>_<name> is bpf_prog_<name>)
leaf() { awk -v want="$1" '{ n = split($0, f, ";"); split(f[n], a, " ")
	sub(/^bpf_prog_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]_/, "bpf_prog_", a[1])
	all += $NF; if (a[1] == want) c += $NF } END { print c + 0, all + 0 }' "$2"/profiles/0-r*.folded; }
row=$(grep -A1 '^ *BASE *NEW *moved *relative *n BASE *n NEW *symbol$' "$TMP/cmp" | tail -1)
sym=$(awk '{ print ($NF == "(?)") ? $(NF - 1) : $NF }' <<<"$row")
read -r cb ab <<<"$(leaf "$sym" "$D")"
read -r cn an <<<"$(leaf "$sym" "$D2")"
want=$(awk -v cb="$cb" -v ab="$ab" -v cn="$cn" -v an="$an" 'BEGIN {
	printf "%6.1f%% %6.1f%% %+8.1f pp", 100 * cb / ab, 100 * cn / an, 100 * cn / an - 100 * cb / ab }')
case $row in
"  $want "*" $cb "*" $cn  $sym"*) pass profile/compare-profile-move-exact ;;
*) fail profile/compare-profile-move-exact "$sym: want '$want' $cb $cn; $(cat "$TMP/cmp")" ;;
esac
check profile/compare-profile-text-only not quiet $BPFSWEEP compare --profile -f json "$D" "$D2"

# merge keeps each run's profiles in runs/<n>: report --profile of the
# merged set shows both runs' (3 repetitions and 1)
$BPFSWEEP merge -o "$TMP/merged" "$D" "$D2" --no-plots >/dev/null 2>&1
check profile/merge-exit-0 [ $? = 0 ]
$BPFSWEEP report "$TMP/merged" --profile --no-plots >"$TMP/mrep" 2>&1
head='^ *profile: [0-9]* samples of [13] repetitions\?, self share$'
check profile/merged-report-both-runs [ "$(grep -c "$head" "$TMP/mrep")" = 2 ]
check profile/merged-flame-graphs-kept cmp "$D/profiles/0.svg" "$TMP/merged/runs/1/profiles/0.svg"

# SIGINT and SIGKILL mid-run: the sampler closed by the teardown, or
# dropped by the kernel with the process.
for sig in INT KILL; do
	$BPFSWEEP run csum_diff "${RUN[@]}" -o "$TMP/killed-$sig" >/dev/null 2>&1 </dev/null &
	pid=$!
	for _ in $(seq 50); do
		sampler_ids "$pid" >"$TMP/ids-$sig"
		[ -s "$TMP/ids-$sig" ] && break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	sleep 0.3
	check "profile/sampler-seen-before-sig$sig" [ -s "$TMP/ids-$sig" ]
	check "profile/none-left-after-sig$sig" gone "$TMP/ids-$sig"
done

# Without CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN the null workload still runs.
U=$TMP/unsupported
capsh --drop=cap_bpf,cap_perfmon,cap_sys_admin -- -c \
	"$BPFSWEEP run null --set warmup=0s --set duration=200ms --set interval=100ms \
	 --profile --no-plots -o $U" >"$TMP/uout" 2>"$TMP/uerr" </dev/null
check profile/unsupported-exit-0 [ $? = 0 ]
check profile/unsupported-point-ok [ "$(csv_col "$U/summary.csv" status)" = ok ]
why=$(csv_col "$U/summary.csv" profile)
case $why in
"unsupported: profile: "*"Operation not permitted"*) pass profile/unsupported-says-why ;;
*) fail profile/unsupported-says-why "profile column: $why" ;;
esac
check profile/unsupported-no-files [ ! -e "$U/profiles" ]
