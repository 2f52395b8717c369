#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Real BPF through the whole tool, as root: every bench measures nonzero
# hits, points the kernel cannot run are rows with their reason, and the
# default spec's quick run yields a valid chart.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip ringbuf/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

positive() { awk -v v="$1" 'BEGIN { exit !(v > 0) }'; }

# the BPF program ran: records were consumed (hits) or found the ring full (drops)
bpf_ran() {
	local hits drops
	hits=$(csv_col "$SUM" hits_per_s_mean bench "$1" | head -1)
	drops=$(csv_col "$SUM" drops_per_s_mean bench "$1" | head -1)
	awk -v h="${hits:-0}" -v d="${drops:-0}" 'BEGIN { exit !(h + d > 0) }'
}

D=$TMP/benches
stats_before=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)
$BPFSWEEP tests/e2e/ringbuf_benches.spec -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
status=$?
SUM=$D/summary.csv
check ringbuf/benches-exit-0 [ "$status" = 0 ]
# the first row of each bench is its point in the "benches" experiment
for b in rb-libbpf rb-custom pb-libbpf; do
	check "ringbuf/$b-hits" positive "$(csv_col "$SUM" hits_per_s_mean bench "$b" | head -1)"
done
# the kernel's run time of the producer program: on for each point's pass, said so in meta,
# then as it was; the pass measures as long as a repetition (the spec's 500ms), a second at most
check ringbuf/meta-bpf-stats grep -Eqx 'bpf_stats: pass: off while measuring; on \((BPF_ENABLE_STATS|sysctl .*)\) in a separate 0.5 s pass per point, after its repetitions, for ns_per_run' "$D/meta"
for b in rb-libbpf rb-custom pb-libbpf rb-prod; do
	check "ringbuf/$b-ns-per-run" positive "$(csv_col "$SUM" ns_per_run_mean bench "$b" | head -1)"
done
check ringbuf/bpf-stats-as-before [ "$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)" = \
	"$stats_before" ]
# without CAP_SYS_ADMIN the kernel refuses both ways: the points run, ns_per_run empty, meta says why
D3=$TMP/nostats
# (0.2 s a point: what is checked is the statistics, not the rates)
SHORT=(--set warmup=100ms --set duration=200ms --set interval=100ms)
setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin $BPFSWEEP tests/e2e/ringbuf_benches.spec \
	"${SHORT[@]}" --only benches --no-plots -o "$D3" >"$TMP/out3" 2>"$TMP/err3" </dev/null
check ringbuf/nostats-exit-0 [ $? = 0 ]
check ringbuf/nostats-meta grep -Eqx 'bpf_stats: unavailable \(BPF_ENABLE_STATS: .*\)' "$D3/meta"
check ringbuf/nostats-hits positive "$(csv_col "$D3/summary.csv" hits_per_s_mean bench rb-libbpf)"
check ringbuf/nostats-column grep -q '^exp,.*,ns_per_run_mean,' "$D3/summary.csv"
check ringbuf/nostats-empty [ "$(csv_col "$D3/summary.csv" ns_per_run_mean | sort -u)" = "" ]
check ringbuf/nostats-bpf-stats-as-before [ "$(cat /proc/sys/kernel/bpf_stats_enabled \
	2>/dev/null)" = "$stats_before" ]
# bpf_stats = off: the statistics left alone, as the kernel's benches run; meta says so
D4=$TMP/statsoff
$BPFSWEEP tests/e2e/ringbuf_benches.spec "${SHORT[@]}" --only benches --no-plots \
	--set bpf_stats=off -o "$D4" >"$TMP/out4" 2>"$TMP/err4" </dev/null
check ringbuf/statsoff-exit-0 [ $? = 0 ]
check ringbuf/statsoff-meta grep -qx 'bpf_stats: off (bpf_stats = off)' "$D4/meta"
check ringbuf/statsoff-hits positive "$(csv_col "$D4/summary.csv" hits_per_s_mean bench rb-libbpf)"
check ringbuf/statsoff-empty [ "$(csv_col "$D4/summary.csv" ns_per_run_mean | sort -u)" = "" ]
check ringbuf/statsoff-bpf-stats-as-before [ "$(cat /proc/sys/kernel/bpf_stats_enabled \
	2>/dev/null)" = "$stats_before" ]
# ns/run is not in the default row (a separate pass under bpf_stats, not stable between
# runs), and no note explains a figure the table does not show
check ringbuf/table-no-ns-per-run not grep -q 'ns/run' "$D/table.txt"
check ringbuf/table-rows-without-prog grep -Eq \
	'^rb-libbpf .*M/s \(.*drops [0-9.]+ ± [0-9.]+M/s\)( \[[^]]+\])?$' "$D/table.txt"
# the rates were measured with the statistics off: no program numbers in the intervals
check ringbuf/samples-no-prog-runs [ "$(csv_col "$D/samples.csv" prog_runs | sort -u)" = "" ]
# a values template asks for it by name: the pass's figure, and its note under the block
$BPFSWEEP report "$D" --no-plots --set 'values={hits} (prog {prog_ns.per_run}/run)' \
	>"$TMP/prog.txt" 2>/dev/null </dev/null
check ringbuf/report-ns-per-run grep -Eq '^rb-libbpf .* \(prog [0-9]+\.[0-9] ± [0-9.]+ns/run\)' \
	"$TMP/prog.txt"
check ringbuf/report-pass-note grep -q '^note: prog ns/run from a separate 0.5 s pass of each point with bpf_stats on (off while the rates were measured); its program runs on every syscall' "$TMP/prog.txt"
# without overwrite mode and with no consumer, rb-prod fills the ring within
# the warmup and then only drops: what it must show is that BPF ran
check ringbuf/rb-prod-ran bpf_ran rb-prod
# overwrite mode: measured where the kernel has it, else unsupported with the
# reason; rb-libbpf never measures it (libbpf's reader ignores overwrite_pos)
rows=$(paste <(csv_col "$SUM" bench overwrite on) <(csv_col "$SUM" status overwrite on) \
	<(csv_col "$SUM" reason overwrite on))
check ringbuf/overwrite-rows [ "$(printf '%s\n' "$rows" | grep -c .)" = 2 ]
while IFS=$'\t' read -r b st why; do
	case "$b/$st/$why" in
	*/unsupported/"BPF_F_RB_OVERWRITE: not supported by kernel "*)
		pass "ringbuf/$b-overwrite-kernel-reason" ;;
	rb-libbpf/unsupported/"rb-libbpf: libbpf "*" cannot consume BPF_F_RB_OVERWRITE rings"*)
		pass ringbuf/rb-libbpf-overwrite-libbpf-reason ;;
	rb-libbpf/*) fail ringbuf/rb-libbpf-overwrite "status $st: $why" ;;
	*/ok/*) pass "ringbuf/$b-overwrite-measured" ;;
	*) fail "ringbuf/$b-overwrite" "status $st: $why" ;;
	esac
done <<<"$rows"
st=$(csv_col "$SUM" status attach fentry)
case "$st" in
ok) pass ringbuf/fentry-measured ;;
unsupported) check ringbuf/fentry-reason [ -n "$(csv_col "$SUM" reason attach fentry)" ] ;;
*) fail ringbuf/fentry "status $st: $(csv_col "$SUM" reason attach fentry)" ;;
esac
# under lockdown the reason says so, and where to run it instead (meta read the same facts)
if [ "$st" = unsupported ] && grep -Eqx 'lockdown: (integrity|confidentiality)' "$D/meta"; then
	mode=$(sed -n 's/^lockdown: //p' "$D/meta")
	check ringbuf/fentry-reason-lockdown grep -q "fentry: Operation not permitted: kernel \
lockdown is '$mode'; try it on another kernel in a VM: --kernel IMAGE (docs/kernel.md)" "$SUM"
fi

# the main job, quick and with two producer counts: a table and a chart
D=$TMP/default
$BPFSWEEP specs/ringbuf_overwrite.spec --quick --set producers=1,2 -o "$D" \
	>"$TMP/out" 2>"$TMP/err" </dev/null
check ringbuf/default-spec-exit-0 [ $? = 0 ]
check ringbuf/default-spec-table grep -Eq '^rb-custom nr_prod 2 +[0-9]+\.[0-9]{3} ± ' "$D/table.txt"
check ringbuf/default-spec-png is_png "$(ls "$D"/plots/*.png | head -1)"

# extra_work (scripts/power.sh's knob): the most rounds the verifier walks,
# 512 records x 64, load and count; the rate itself is no test's
$BPFSWEEP run ringbuf --quick --set batch_cnt=512 --set extra_work=64 --no-plots \
	-o "$TMP/work" >/dev/null 2>&1 </dev/null
check ringbuf/extra-work-loads [ "$(csv_col "$TMP/work/summary.csv" status)" = ok ]
