#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel axis.  Without a VM: --kernel's errors, a host-only kernel list
# that is a plain run, fail-all (a sub-run's setting) into a new and into a
# partial directory.
# With root, qemu and the test kernel (scripts/vm-kernel.sh; skipped with
# the reason otherwise): a kernel that does not boot gives a failed row per
# point and the sweep goes on; `kernel = host <test kernel>` gives one set
# with both kernels' rows; overwrite mode and fentry run in the guest; the
# ring buffer overwrite sequence test passes on a kernel that has it; and
# htab_mem and map_perf run on both kernels, memory through cgroup v1 here
# and v2 in the guest, whose memory cgroup tests pass; every trigger attach
# type runs in the guest with either trigger, in the integration test and
# in specs/seed_attach.spec (but tp), whose tables are seed 003's; a
# profiled point's kernel stacks are the guest's (profile = on).  The
# accelerator expected is what the KVM probe says (vm --probe-accel), the
# sweep's stdout is its JSON table alone (the console goes to stderr), and
# `vm` runs under TCG after a warning when the probe's qemu aborts as on a
# host whose KVM cannot run a guest (tests/e2e/vmprobe.sh tests the probe
# itself).  The kernel's own 7.3 bench runs in the guest too (kbench-vm/).
# What needs the test kernel but not the kernel axis shares one boot (the
# guest's jobs, below), the fleet over ssh to it (tests/e2e/fleet_vm.sh)
# too; the axis's own tests boot as a sweep does.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/seed_lib.sh
. tests/e2e/ssh_lib.sh

TMP=$(mktemp -d)
VM_PID=
# KEEP=1 keeps the files of a run to look at (its directory is printed); a
# guest still up is stopped (bpfsweep vm stops qemu and virtiofsd on SIGTERM)
cleanup() {
	if [ -n "$VM_PID" ] && kill -0 "$VM_PID" 2>/dev/null; then
		kill -TERM "$VM_PID"
		wait "$VM_PID"
	fi
	if [ -n "${KEEP:-}" ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
SPEC=tests/e2e/kernel.spec
BUILD=${OUTPUT:-build}

# run_b NAME ARGS...: bpfsweep ARGS into $TMP/NAME.{out,err}, status in $TMP/NAME.rc
run_b() {
	local name=$1
	shift
	$BPFSWEEP "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
# rc_is NAME STATUS: the run exited with STATUS; if not, its last words go
# to the log (not counted: lines that are not PASS/FAIL/SKIP)
rc_is() {
	[ "$(cat "$TMP/$1.rc")" = "$2" ] && return 0
	tail -n 8 "$TMP/$1.err" | sed 's/^/  | /'
	return 1
}
err_has() { grep -qF -- "$2" "$TMP/$1.err"; }
# every value of COLUMN in FILE is VALUE (and there is at least one row)
all_are() {
	local vals
	vals=$(csv_col "$1" "$2" | sort -u)
	[ "$vals" = "$3" ]
}
rows() { csv_col "$1" point | wc -l; }

# --- no VM ------------------------------------------------------------------
run_b twice run $SPEC --kernel host --kernel host -o "$TMP/twice"
check kernel/listed-twice-exit-2 rc_is twice 2
check kernel/listed-twice-message err_has twice "kernel 'host' is listed twice"
check kernel/listed-twice-nothing-written [ ! -e "$TMP/twice" ]
run_b missing check $SPEC --kernel /nonexistent/bzImage
check kernel/missing-image-exit-2 rc_is missing 2
check kernel/missing-image-message err_has missing \
	"--kernel: kernel image /nonexistent/bzImage: No such file or directory"
run_b hostonly run $SPEC --kernel host -o "$TMP/hostonly" --no-plots
check kernel/host-only-is-a-plain-run rc_is hostonly 0
check kernel/host-only-no-runs-dir [ ! -e "$TMP/hostonly/runs" ]

# fail-all, a sub-run's setting (a settings file, as the orchestrator writes it;
# no longer an option): the rows of a kernel that did not run, new directory and partial one
run_b failopt run $SPEC --fail-all "it did not boot" -o "$TMP/failopt" --no-plots
check kernel/fail-all-no-option rc_is failopt 2
check kernel/fail-all-no-option-nothing-written [ ! -e "$TMP/failopt" ]
printf 'fail-all = it did not boot\n' >"$TMP/failnew.settings"
printf 'fail-all = the guest stopped\n' >"$TMP/failrest.settings"
run_b failnew run $SPEC --subrun "$TMP/failnew.settings" -o "$TMP/failnew" --no-plots
check kernel/fail-all-exit-1 rc_is failnew 1
check kernel/fail-all-every-point [ "$(rows "$TMP/failnew/summary.csv")" = 3 ]
check kernel/fail-all-status all_are "$TMP/failnew/summary.csv" status failed
check kernel/fail-all-reason all_are "$TMP/failnew/summary.csv" reason "it did not boot"
check kernel/fail-all-no-samples [ "$(wc -l <"$TMP/failnew/samples.csv")" = 1 ]
run_b partial run $SPEC --only first -o "$TMP/partial" --no-plots
run_b failrest run $SPEC --subrun "$TMP/failrest.settings" --resume "$TMP/partial" --no-plots
check kernel/fail-rest-exit-1 rc_is failrest 1
check kernel/fail-rest-keeps-ok [ "$(csv_col "$TMP/partial/summary.csv" status experiment first \
	| sort -u)" = ok ]
check kernel/fail-rest-fails-the-rest [ "$(csv_col "$TMP/partial/summary.csv" reason \
	experiment second)" = "the guest stopped" ]
# quick with quick-keeps (the timing its sweep's --set gave, in the resolved
# spec): that timing stays the spec's, --quick shortens the rest
printf 'quick = yes\nquick-keeps = duration\nfail-all = it did not boot\n' \
	>"$TMP/quickkeeps.settings"
run_b quickkeeps run $SPEC --subrun "$TMP/quickkeeps.settings" -o "$TMP/quickkeeps" --no-plots
check kernel/subrun-quick-keeps-the-set-duration [ "$(grep -E '^(warmup|duration|repeat|quick):' \
	"$TMP/quickkeeps/meta" | tr '\n' ' ')" = "warmup: 250ms duration: 300ms repeat: 1 quick: yes " ]
step_time "kernel.sh: the checks without a VM"

# --- in a VM ----------------------------------------------------------------
why=
if [ "$(id -u)" != 0 ]; then
	why="not root (virtiofsd and the guest's BPF need it)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="qemu-system-x86_64 not installed (make deps installs qemu-system-x86)"
# the release with the NIC's modules, which fleet_vm.sh's guest loads, if it can be had
elif ! KERNEL=$(scripts/vm-kernel.sh --modules 2>/dev/null) &&
	! KERNEL=$(scripts/vm-kernel.sh 2>"$TMP/vm-kernel.err"); then
	why="no test kernel: $(tail -n1 "$TMP/vm-kernel.err")"
fi
if [ -n "$why" ]; then
	skip kernel/vm "$why"
	exit 0
fi

# A kernel that does not boot: a bzImage header and nothing else.
FAKE=$TMP/fake-bzImage
head -c 4096 /dev/zero >"$FAKE"
printf 'HdrS' | dd of="$FAKE" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
run_b noboot run $SPEC --kernel "$FAKE" --kernel host --set vm_boot_timeout=2s \
	-o "$TMP/noboot" --no-plots
check kernel/no-boot-exit-1 rc_is noboot 1
check kernel/no-boot-failed-rows all_are "$TMP/noboot/runs/1/summary.csv" status failed
check kernel/no-boot-reason [ "$(csv_col "$TMP/noboot/runs/1/summary.csv" reason | \
	grep -c 'did not boot')" = 3 ]
check kernel/no-boot-console-kept [ -f "$TMP/noboot/vm/1/console.log" ]
check kernel/no-boot-sweep-goes-on all_are "$TMP/noboot/runs/2/summary.csv" status ok
check kernel/no-boot-merged [ "$(rows "$TMP/noboot/summary.csv")" = 6 ]
check kernel/no-boot-ran-nowhere [ "$(csv_col "$TMP/noboot/summary.csv" executor run 1 | \
	sort -u)" = none ]
check kernel/no-boot-no-kernel-facts grep -qx "kernel_release: unknown (it did not run)" \
	"$TMP/noboot/runs/1/meta"
step_time "kernel.sh: a kernel that does not boot"

# The host and the test kernel: one set, both kernels' rows; the table in
# JSON on stdout, the guest's console on stderr.  Just before qemu starts,
# OUT's path is swapped for a symlink to another OUT (theirs, with its own
# spec and an empty share; tests/fixtures/swapqemu): qemu's console, the
# share's virtiofsd and the guest's spec and settings are OUT's as held
# (they were looked up by path, in theirs), and the sweep ends in OUT, moved.
SWAP_OUT=$TMP/both SWAP_TO=$TMP/theirs SWAP_QEMU=$(command -v qemu-system-x86_64) \
	PATH=$PWD/tests/fixtures/swapqemu:$PATH \
	run_b both run $SPEC --kernel host --kernel "$KERNEL" -o "$TMP/both" --no-plots -f json
check kernel/both-swapped [ -L "$TMP/both" ]
check kernel/both-nothing-in-theirs [ -z "$(find "$TMP/theirs" -path "$TMP/theirs/subrun" \
	-prune -o -type f -print)" ]
rm -f "$TMP/both" && mv "$TMP/both.moved" "$TMP/both"
RELEASE=$(basename "$(dirname "$KERNEL")")
check kernel/both-exit-0 rc_is both 0
check kernel/both-merged-rows [ "$(rows "$TMP/both/summary.csv")" = 6 ]
check kernel/both-all-ok all_are "$TMP/both/summary.csv" status ok
check kernel/both-host-rows [ "$(csv_col "$TMP/both/summary.csv" kernel_release | \
	grep -cxF "$(uname -r)")" = 3 ]
check kernel/both-guest-rows [ "$(csv_col "$TMP/both/summary.csv" kernel_release | \
	grep -cxF "$RELEASE")" = 3 ]
check kernel/both-guest-meta grep -qx "kernel_release: $RELEASE" "$TMP/both/runs/2/meta"
# the VM executor, through the orchestrator: the guest ran the spec as the
# sweep resolved it, copied with its settings into the share it mounts
check kernel/both-guest-ran-resolved-spec grep -qx 'spec: /run/bpfsweep/kernel.spec' \
	"$TMP/both/runs/2/meta"
check kernel/both-guest-spec-copied cmp -s "$TMP/both/vm/2/kernel.spec" \
	"$TMP/both/subrun/kernel.spec"
check kernel/both-guest-ran-its-spec grep -qx 'title: kernels' "$TMP/both/runs/2/meta"
check kernel/both-executors [ "$(csv_col "$TMP/both/summary.csv" executor | sort | uniq -c | \
	awk '{ printf "%s:%s ", $2, $1 }')" = "host:3 vm:3 " ]
# what the KVM probe says here: kvm only where a guest ran under it, not
# wherever /dev/kvm opens
check kernel/both-accel [ "$(csv_col "$TMP/both/summary.csv" accel run 2 | sort -u)" = \
	"$($BPFSWEEP vm --probe-accel 2>/dev/null | cut -d' ' -f1)" ]
check kernel/both-stdout-is-json quiet python3 -m json.tool "$TMP/both.out"
check kernel/both-console-on-stderr grep -q "Power down" "$TMP/both.err"
check kernel/both-tcg-said grep -q "VM under TCG emulation\|^run 2: .*kernel $RELEASE$" \
	"$TMP/both/table.txt"
check kernel/sweep-meta grep -qx "kernel_sweep: 2 kernels" "$TMP/both/meta"
# drawn again later, its kernels keep their names (not the emulated CPU's model)
run_b redraw report "$TMP/both"
check kernel/redraw-exit-0 rc_is redraw 0
check kernel/redraw-series-by-release grep -q "index 1 using 1:2\(:3\)\? title '$RELEASE'" \
	"$TMP/both/plots/1-hits-vs-producers.gp"
check kernel/both-console-kept grep -q "Power down" "$TMP/both/vm/2/console.log"
check kernel/both-table-per-kernel grep -q "kernel $RELEASE" "$TMP/both/table.txt"
step_time "kernel.sh: host and test kernel (a boot)"

# --resume: a kernel with every point finished runs nothing; one without its
# directory (as if the sweep stopped before it) boots and runs them all.
rm -rf "$TMP/both/runs/2"
run_b resume run $SPEC --kernel host --kernel "$KERNEL" --resume "$TMP/both" --no-plots
check kernel/resume-exit-0 rc_is resume 0
check kernel/resume-host-skipped err_has resume "kernel host: all 3 points finished before"
check kernel/resume-guest-rows [ "$(csv_col "$TMP/both/summary.csv" kernel_release | \
	grep -cxF "$RELEASE")" = 3 ]
check kernel/resume-second-boot [ -f "$TMP/both/vm/2-2/console.log" ]
run_b resume_other run $SPEC --kernel "$KERNEL" --resume "$TMP/both" --no-plots
check kernel/resume-other-kernels-exit-2 rc_is resume_other 2
check kernel/resume-other-kernels-message err_has resume_other "it ran kernel 1 host"
step_time "kernel.sh: --resume (a boot)"

# Ctrl-C while the guest runs: the points it finished are kept, and --resume
# continues in a new boot.  The whole process group gets SIGINT, as from a
# terminal: bpfsweep, qemu and virtiofsd.
sed 's/^duration = .*/duration = 2s/' $SPEC >"$TMP/slow.spec"
setsid $BPFSWEEP run "$TMP/slow.spec" --kernel "$KERNEL" -o "$TMP/int" --no-plots \
	</dev/null >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 600); do
	grep -q '\[1/3\] .*: ok' "$TMP/int/vm/1/console.log" 2>/dev/null && break
	sleep 0.2
done
kill -INT -- -"$pid"
wait "$pid"
echo $? >"$TMP/int.rc"
check kernel/interrupt-exit-130 rc_is int 130
check kernel/interrupt-keeps-finished [ "$(csv_col "$TMP/int/runs/1/summary.csv" status | \
	grep -c '^ok$')" -ge 1 ]
run_b int_resume run "$TMP/slow.spec" --kernel "$KERNEL" --resume "$TMP/int" --no-plots
check kernel/interrupt-resume-exit-0 rc_is int_resume 0
check kernel/interrupt-resume-all-ok all_are "$TMP/int/summary.csv" status ok
check kernel/interrupt-resume-all-rows [ "$(rows "$TMP/int/summary.csv")" = 3 ]
step_time "kernel.sh: Ctrl-C and --resume (two boots)"

# --- one boot for what only the test kernel runs ----------------------------
# Under TCG a boot is 10-20 s: the checks that need the test kernel alone,
# not the kernel axis, share one guest (tests/e2e/guest_jobs.sh).  Each is a
# job there: the specs only 7.3 runs (overwrite mode, fentry, seed 002's and
# 003's, the kernel's own bench), the guest's halves of the htab_mem and
# map_perf sets of both kernels, and the memory cgroup, overwrite sequence
# and trigger integration tests.  A job's output, status and result
# directory come back as $TMP/NAME.{out,err,rc} and $TMP/NAME, where run_b
# would have put them, and are checked below.  The first job is the guest
# half of tests/e2e/fleet_vm.sh: its sshd, with qemu forwarding a port to
# it, for the fleet that fleet_vm.sh runs from here while the guest is up.
# The boot is also the vm command's test: its command, run last, gives its
# exit status back.
mkdir "$TMP/jobs"
# job NAME CMD...: CMD (a bpfsweep run writes to the share as -o NAME) is job NAME
job() {
	local name=$1
	shift
	printf '%q ' "$@" >"$TMP/jobs/$name.sh"
	echo >>"$TMP/jobs/$name.sh"
}
G=/run/bpfsweep
job 0fleet_vm bash tests/e2e/fleet_vm.sh --guest
job rb $BPFSWEEP run tests/e2e/kernel_ringbuf.spec -o "$G/rb" --no-plots
# seed 002's six points with --quick's one repetition, each 0.3 s after 0.1 s
# of warmup (the --set win over --quick's 1 s after 0.25 s): its checks are
# of function and form
job seed002 $BPFSWEEP run specs/ringbuf_overwrite.spec --quick --set "producers=1 2" \
	--set bpf_stats=off --set warmup=100ms --set duration=300ms --set interval=100ms \
	-o "$G/seed002" --no-plots
# the default spec as it runs, decide's rounds of overwrite on against off,
# which only a kernel with overwrite mode runs: one producer, 5 rounds of
# 0.2 s after 0.1 s (its checks are of function and form)
job decide $BPFSWEEP run specs/ringbuf_overwrite.spec --set producers=1 --set max_repeat=5 \
	--set bpf_stats=off --set warmup=100ms --set duration=200ms --set interval=100ms \
	-o "$G/decide" --no-plots
# seed 003's 14 points, each 0.4 s after 0.1 s of warmup (--quick's 1 s
# after 0.25 s took 77 s of the guest): its checks are of function and form
job attach $BPFSWEEP run specs/seed_attach.spec --set warmup=100ms --set duration=400ms \
	--set interval=100ms -o "$G/attach" --no-plots
# a profiled point (docs/profile.md), symbolised from the guest's kallsyms
job profile $BPFSWEEP run csum_diff --set size=4096 --set batch=64 --set producers=1 -a \
	--set warmup=200ms --set duration=1s --set interval=500ms --set repeat=1 \
	--set bpf_stats=off --profile -o "$G/profile" --no-plots
# the guest's half of the hash map workloads' host-and-guest sets (below)
job hm_guest $BPFSWEEP run tests/e2e/kernel_htab.spec -o "$G/hm_guest" --no-plots
job mp_guest $BPFSWEEP run tests/e2e/kernel_map_perf.spec -o "$G/mp_guest" --no-plots
for t in memcg ringbuf_overwrite trigger; do
	[ -x "$BUILD/tests/integ/test_$t" ] && job "$t" "$BUILD/tests/integ/test_$t"
done
# the kernel's bench as 7.3 builds it (scripts/kbench-build.sh, cached), the
# seed's rows, --quick: three producer counts of the sixteen (each point is a
# bench process of 3 s and more under TCG), with the bench's -a, which 7.3's
# takes round the guest's 2 CPUs
KBENCH=$(scripts/kbench-build.sh --source 7.3 2>"$TMP/kbench-build.err")
kbench_built=$?
[ $kbench_built = 0 ] && job kbench $BPFSWEEP specs/kbench_ringbuf.spec --quick \
	--set producers="1 2 3" -o "$G/kbench" --no-plots

# vm: one command, its exit status back; on a host whose KVM cannot run a
# guest (the fake qemu that aborts as qemu 7.2 does there, in the probe's
# place), under TCG after one warning
PORT=$(free_port $((20000 + ($$ % 1000) * 40 + 20)))
BPFSWEEP_KVM_PROBE=tests/fixtures/fakeqemu/abort \
	$BPFSWEEP vm ${PORT:+--set vm_ssh_port="$PORT"} -o "$TMP/guest" "$KERNEL" -- \
	/bin/bash tests/e2e/guest_jobs.sh "$TMP/jobs" -- sh -c 'uname -r; exit 3' \
	</dev/null >"$TMP/vm.out" 2>"$TMP/vm.err" &
VM_PID=$!
# the fleet over ssh to the guest while it is up (fleet-vm: checks), then
# the host's halves of the hash map workloads' sets (below)
BPFSWEEP=$BPFSWEEP FLEET_VM_SHARE=$TMP/guest FLEET_VM_PORT=$PORT tests/e2e/fleet_vm.sh
run_b hm_host run tests/e2e/kernel_htab.spec -o "$TMP/hm_host" --no-plots
run_b mp_host run tests/e2e/kernel_map_perf.spec -o "$TMP/mp_host" --no-plots
wait "$VM_PID"
check kernel/vm-exit-status [ $? = 3 ]
VM_PID=
check kernel/vm-output grep -qxF "$RELEASE" "$TMP/vm.out"
check kernel/vm-kvm-refused-warning [ "$(grep -c "^bpfsweep: warning: vm_accel = auto: KVM \
cannot run a guest here (qemu-system-x86_64: .*kvm_buf_set_msrs: Assertion" "$TMP/vm.err")" = 1 ]
check kernel/vm-ran-under-tcg grep -qxF "vm: kernel $RELEASE (tcg): exit status 3" "$TMP/vm.err"
step_time "kernel.sh: the guest's jobs (a boot), the fleet to it, the host's halves"
# each job's time in the guest (its wall and CPU, by the guest's clock)
for j in "$TMP"/guest/*.time; do
	[ -e "$j" ] && echo "-- guest job $(basename "$j" .time): $(cat "$j")"
done
for j in "$TMP"/jobs/*.sh; do
	j=$(basename "$j" .sh)
	for f in out err rc; do
		cp "$TMP/guest/$j.$f" "$TMP/$j.$f" 2>/dev/null || echo 127 >"$TMP/$j.rc"
	done
	[ -d "$TMP/guest/$j" ] && mv "$TMP/guest/$j" "$TMP/$j"
done

# What only the test kernel can run: overwrite mode and fentry, measured.
check kernel/ringbuf-exit-0 rc_is rb 0
check kernel/ringbuf-all-ok all_are "$TMP/rb/summary.csv" status ok
check kernel/ringbuf-hits [ "$(csv_col "$TMP/rb/summary.csv" hits_per_s_mean | \
	awk '$1 > 1000 { n++ } END { print n + 0 }')" = 4 ]
# the load's figures in the guest, as on the host (docs/results.md "The
# load's figures"): the verifier's count and the JIT's size of every point
check kernel/ringbuf-load-figures [ "$(paste -d' ' <(csv_col "$TMP/rb/summary.csv" \
	total_insns_mean) <(csv_col "$TMP/rb/summary.csv" jited_size_mean) | \
	awk '$1 > 0 && $2 > 0 { n++ } END { print n + 0 }')" = 4 ]

# Seed 002 on bpfsweep's workload: the README's default spec, which needs
# overwrite mode, with 1 and 2 producers; each of its three tables the
# seed's rows (docs/seeds.md, 002), line by line
check kernel/seed002-exit-0 rc_is seed002 0
check kernel/seed002-all-ok all_are "$TMP/seed002/summary.csv" status ok
SEED_ROW='^[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s \(drops [0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s\)'
for block in "off:overwrite mode (overwrite=off)" "on:overwrite mode (overwrite=on)" \
	     "prod:overwrite mode, producer only"; do
	block_rows "$TMP/seed002/table.txt" "Ringbuf, multi-producer contention, ${block#*:}" \
		>"$TMP/seed002.rows"
	bench=rb-custom
	[ "${block%%:*}" = prod ] && bench=rb-prod
	check "kernel/seed002-table-${block%%:*}" rows_are "$TMP/seed002.rows" \
		"$SEED_ROW( \[[^]]+\])?\$" "$bench nr_prod 1" "$bench nr_prod 2"
done

# decide in the default spec: overwrite=on against its off twin in 5
# interleaved rounds, its decision in summary.csv and at the end of its row
check kernel/decide-exit-0 rc_is decide 0
check kernel/decide-all-ok all_are "$TMP/decide/summary.csv" status ok
check kernel/decide-rounds [ "$(csv_col "$TMP/decide/summary.csv" rounds bench rb-custom |
	grep -c '^5$')" = 1 ]
check kernel/decide-word grep -Eq '^(different|same|undecided after 5 rounds|inconclusive)' \
	<(csv_col "$TMP/decide/summary.csv" decision overwrite on)
check kernel/decide-row grep -Eq \
	'^rb-custom nr_prod 1 .*  (different|same|undecided after 5 rounds|inconclusive)' \
	"$TMP/decide/table.txt"

# The hash map workloads beside the host, whose bpf_ma code differs from
# the guest's.  Memory goes through cgroup v1 here and v2 in the guest: both
# fill the gauges, and both reset the peak after the setup (a row that
# could not says so in its reason).  Run 1 is the host, run 2 the guest:
# the guest's run is a job of the one boot above, the host's ran beside
# it, and the two are merged into one set as the kernel axis merges its
# kernels' runs.
# all_ok NAME...: each of the runs exited 0
all_ok() {
	local n
	for n in "$@"; do
		rc_is "$n" 0 || return 1
	done
}
HM=$TMP/hm/summary.csv
run_b hm merge -o "$TMP/hm" "$TMP/hm_host" "$TMP/hm_guest" --no-plots
check kernel/htab-exit-0 all_ok hm_host hm_guest hm
check kernel/htab-rows [ "$(rows "$HM")" = 4 ]
check kernel/htab-all-ok all_are "$HM" status ok
check kernel/htab-no-memory-note [ -z "$(csv_col "$HM" reason | tr -d '\n')" ]
# every row of run $1: mem and mem_peak filled, the peak at least the mean level
mem_filled() {
	paste <(csv_col "$HM" mem_mean run "$1") <(csv_col "$HM" mem_peak_max run "$1") |
		awk -F'\t' '$1 > 0 && $2 >= $1 { n++ } END { exit n != 2 }'
}
# every row of run $1: the kernel memory (v1 kmem counter, v2 memory.stat)
# filled, and kmem_other is it less the map's memlock
kmem_split() {
	paste <(csv_col "$HM" kmem_mean run "$1") <(csv_col "$HM" memlock_mean run "$1") \
		<(csv_col "$HM" kmem_other_mean run "$1") |
		awk -F'\t' '{ d = $1 - $2 - $3 } $2 > 0 && $3 > 0 && d < 16 && d > -16 { n++ }
			END { exit n != 2 }'
}
# the two rows' mean memory, prealloc on and off, differ by a fifth at least
# (which is larger depends on the CPU count: the seed's 8 CPUs had prealloc
# lower, 2 CPUs have it higher)
prealloc_differs() {
	paste <(csv_col "$HM" prealloc run "$1") <(csv_col "$HM" mem_mean run "$1") |
		awk -F'\t' '{ m[$1] = $2 }
			END { hi = m["on"] > m["off"] ? m["on"] : m["off"]
			      lo = m["on"] > m["off"] ? m["off"] : m["on"]
			      exit !(lo > 0 && hi >= 1.2 * lo) }'
}
for run in 1 2; do
	where=$([ $run = 1 ] && echo host || echo guest)
	check "kernel/htab-$where-mem-filled" mem_filled $run
	check "kernel/htab-$where-prealloc-memory-differs" prealloc_differs $run
	check "kernel/htab-$where-kmem-split" kmem_split $run
	check "kernel/htab-$where-ops" [ "$(csv_col "$HM" ops_per_s_mean run $run | \
		awk '$1 > 0 { n++ } END { print n + 0 }')" = 2 ]
done
check kernel/htab-table-memory [ "$(grep -cE 'avg mem: [0-9.]+ ± [0-9.]+MiB, peak mem: [0-9.]+MiB' \
	"$TMP/hm/table.txt")" = 4 ]

MP=$TMP/mp/summary.csv
run_b mp merge -o "$TMP/mp" "$TMP/mp_host" "$TMP/mp_guest" --no-plots
check kernel/map-perf-exit-0 all_ok mp_host mp_guest mp
check kernel/map-perf-rows [ "$(rows "$MP")" = 4 ]
check kernel/map-perf-all-ok all_are "$MP" status ok
# a worker per CPU, each with a rate: min <= median <= max, all above zero
workers_filled() {
	paste <(csv_col "$MP" nr_producers run "$1") <(csv_col "$MP" nr_cpus run "$1") \
		<(csv_col "$MP" events_per_s_worker_min run "$1") \
		<(csv_col "$MP" events_per_s_worker_median run "$1") \
		<(csv_col "$MP" events_per_s_worker_max run "$1") |
		awk -F'\t' '$1 == $2 && $3 > 0 && $3 <= $4 && $4 <= $5 { n++ } END { exit n != 2 }'
}
for run in 1 2; do
	where=$([ $run = 1 ] && echo host || echo guest)
	check "kernel/map-perf-$where-worker-columns" workers_filled $run
done
# worker_rows: map_perf_test's per-CPU lines, one per worker of every row
nr_workers=$(csv_col "$MP" nr_producers | awk '{ n += $1 } END { print n }')
check kernel/map-perf-worker-rows [ "$(grep -cE \
	'^[0-9]+:hash_map_perf kmalloc .* [0-9]+ events per sec$' "$TMP/mp/table.txt")" = "$nr_workers" ]

# The memory cgroup's own tests on cgroup v2 (resetting the peak needs 6.12+).
T=$BUILD/tests/integ/test_memcg
if [ -x "$T" ]; then
	check kernel/memcg-v2-exit-0 rc_is memcg 0
	check kernel/memcg-v2-no-skip not grep -q '^SKIP' "$TMP/memcg.out"
	# the guest's init mounts cgroup2 alone, at /sys/fs/cgroup (v1 would be .../memory/...)
	check kernel/memcg-v2-in-cgroup2 grep -q '^# in /sys/fs/cgroup/bpfsweep-' "$TMP/memcg.out"
	grep -aE '^(PASS|FAIL) ' "$TMP/memcg.out" | sed 's/^\(PASS\|FAIL\) /\1 kernel\/vm\//'
else
	fail kernel/memcg-v2 "$T not built"
fi

# The overwrite sequence test, where overwrite mode exists.
T=$BUILD/tests/integ/test_ringbuf_overwrite
if [ -x "$T" ]; then
	check kernel/overwrite-seq-exit-0 rc_is ringbuf_overwrite 0
	check kernel/overwrite-seq-no-skip not grep -q '^SKIP' "$TMP/ringbuf_overwrite.out"
	grep -E '^(PASS|FAIL) ' "$TMP/ringbuf_overwrite.out" | sed 's/^\(PASS\|FAIL\) /\1 kernel\/vm\//'
else
	fail kernel/overwrite-seq "$T not built"
fi

# Every attach type of the trigger family loads, attaches and counts in
# the guest, where nothing refuses them, with either trigger: fmod_ret too,
# on security_task_prctl() (user) and bpf_modify_return_test_tp() (kernel),
# which the verifier lets it modify (docs/attach.md).
T=$BUILD/tests/integ/test_trigger
if [ -x "$T" ]; then
	check kernel/trigger-exit-0 rc_is trigger 0
	tr -d '\r' <"$TMP/trigger.out" >"$TMP/trig.out"
	check kernel/trigger-no-skip not grep -q '^SKIP' "$TMP/trig.out"
	check kernel/trigger-none-unsupported not grep -q '^# .*: unsupported' "$TMP/trig.out"
	for t in user kernel; do
		for b in base tp rawtp kprobe kretprobe fentry fexit fmodret; do
			check "kernel/trigger-$t-$b-ok" \
				[ "$(grep -c "^# $t $b: ok x" "$TMP/trig.out")" = 2 ]
		done
	done
	grep -E '^(PASS|FAIL) ' "$TMP/trig.out" | sed 's/^\(PASS\|FAIL\) /\1 kernel\/vm\/trigger\//'
else
	fail kernel/trigger "$T not built"
fi
# and seed 003's spec through the whole tool in the guest: every row
# measured, both tables the seed's row for row (tests/e2e/trigger.sh checks
# the host's, where most benches are refused)
check kernel/attach-spec-exit-0 rc_is attach 0
check kernel/attach-spec-rows [ "$(rows "$TMP/attach/summary.csv")" = 14 ]
check kernel/attach-spec-all-ok all_are "$TMP/attach/summary.csv" status ok
SEED_ROW='^: +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s \(ns over base [-+][0-9.]+ ± [0-9.]+ns\)'
for block in user:run_bench_rename.sh "kernel:in-kernel trigger"; do
	block_rows "$TMP/attach/table.txt" "${block#*:}" >"$TMP/attach.rows"
	check "kernel/attach-seed-table-${block%%:*}" rows_are "$TMP/attach.rows" \
		"$SEED_ROW( \[[^]]+\])?\$" base kprobe kretprobe rawtp fentry fexit fmodret
done
check kernel/attach-stats-off-while-measuring grep -q '^bpf_stats: pass: off while measuring' \
	"$TMP/attach/meta"

# A profile in the guest: the point ran with profile = ok, its folded file
# names the workload's program as the guest's kallsyms named it while it
# was loaded there, and the checksum leads bpfsweep's own kernel samples;
# the run printed the top symbols under its row.
check kernel/profile-guest-exit-0 rc_is profile 0
check kernel/profile-guest-ok [ "$(csv_col "$TMP/profile/summary.csv" profile)" = ok ]
check kernel/profile-guest-bpf-named grep -q ';bpf_prog_[0-9a-f]*_csum_run;' \
	"$TMP/profile/profiles/0-r0.folded"
leaf=$(awk -F';' '$1 == "bpfsweep" && NF > 1 { n = split($NF, a, " "); self[a[1]] += a[2] }
	END { for (s in self) print self[s], s }' "$TMP/profile/profiles/0-r0.folded" |
	sort -rn | head -1 | cut -d' ' -f2)
check kernel/profile-guest-checksum-leads [ "$leaf" = csum_partial -o "$leaf" = do_csum ]
check kernel/profile-guest-under-row grep -q '^ *profile: [0-9]* samples of 1 repetition' \
	"$TMP/profile.out"

# The kernel's bench, unmodified, in the guest (its job above; on this host,
# tests/e2e/kbench.sh): the spec's own table, seed 002's overwrite rows with
# the merged bench's flags, every point ok.  Skipped, with kbench-build.sh's
# reason, where the package cannot be fetched.
N=kbench-vm
S=$TMP/kbench/summary.csv
if [ $kbench_built = 3 ]; then
	skip $N/build "$(tail -n1 "$TMP/kbench-build.err")"
elif [ $kbench_built != 0 ]; then
	fail $N/build "$(tail -n1 "$TMP/kbench-build.err")"
else
	check $N/built_7.3 [ "$KBENCH" -ef .cache/kbench/bench-7.3 ]
	check $N/ok_exit_0 rc_is kbench 0
	check $N/three_points [ "$(csv_col "$S" status | wc -l)" = 3 ]
	# the merged bench refuses overwrite without --rb-bench-producer, and
	# either with a consumer: ok points are the flags it takes
	check $N/all_points_ok [ "$(csv_col "$S" status | sort -u)" = ok ]
	check $N/overwrite_rows [ "$(csv_col "$S" overwrite | sort -u)" = on ]
	check $N/bench_producer [ "$(csv_col "$S" bench_producer | sort -u)" = on ]
	check $N/no_consumer [ "$(csv_col "$S" consumers | sort -u)" = 0 ]
	# the rows' kernel, as a set of runs has it (merge's column, from the run's meta)
	run_b kbench_set merge -o "$TMP/kbench_set" "$TMP/kbench" --no-plots
	check $N/kernel_7.3 grep -q '^7\.3\.' <(csv_col "$TMP/kbench_set/summary.csv" kernel_release)
	# --quick: -w1 -d1; bench.c prints iterations 0..2, the first its warmup
	check $N/intervals_are_the_bench_seconds [ "$(csv_col "$TMP/kbench/samples.csv" warmup \
		point 0 | tr '\n' ' ')" = "1 0 0 " ]
	# the seed's table: its title, and its row format for each point
	check $N/table_title grep -q "^Ringbuf, multi-producer contention, overwrite mode" \
		"$TMP/kbench/table.txt"
	for p in 1 2 3; do
		check $N/table_row_$p grep -Eq "^rb-libbpf nr_prod $p +[0-9.]+ ± [0-9.]+M/s \
\([0-9.]+M/prod, drops +[0-9.]+ ± [0-9.]+M/s\)" "$TMP/kbench/table.txt"
		check $N/hits_positive_$p awk -v v="$(csv_col "$S" hits_per_s_mean \
			point $((p - 1)))" 'BEGIN { exit !(v > 0) }'
	done
fi
