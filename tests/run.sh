#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test: unit binaries (no root), CLI golden files, end-to-end
# sweeps of the null workload (no root), and the root-only integration
# tests with real BPF.  Each test prints PASS/FAIL/SKIP; the last line is
# "N passed, N failed, N skipped".  Exit status 1 if anything failed.
set -u
cd "$(dirname "$0")/.."

BUILD=${OUTPUT:-build}
LOG=$(mktemp)

# Prefix every line a test binary or script prints, keep them for counting;
# each part's wall and CPU time follow it, and a table of the lanes and the
# slowest parts ends the run, so the suite's 10-minute budget can be kept
# part by part.  CPU time is what a part's processes used (user and
# system): unlike the wall time it does not grow when the machine is busy
# with something else, and where it is far below the wall time the part
# waits (for a guest's boot, a timeout) more than it works.
TIMES=$(mktemp)
LANES=$(mktemp)
trap 'rm -f "$LOG" "$TIMES" "$LANES" "${BUILT-}" "${LANE_OUT[@]}" "${LANE_LOG[@]}"' EXIT
# Ctrl-C or a kill stops every lane: the suite, its lanes beside the
# foreground and their children share this process group (no job control
# in a script).
trap 'trap - INT TERM; kill -TERM 0' INT TERM
START=$SECONDS
# cpu_cs VAR: VAR is the CPU time, in 1/100 s, of this shell's children
# waited for so far (cutime + cstime in /proc/PID/stat): a part's pipeline
# and whatever its processes waited for count once it has ended.  Read here,
# not in a $(...) subshell, whose children are its own.
cpu_cs() {
	local stat f
	read -r stat </proc/$BASHPID/stat
	read -ra f <<<"${stat##*) }"
	printf -v "$1" %d $((f[13] + f[14]))
}
# part_time TITLE T0 CPU0: the part's line after it, its line in the table
part_time() {
	local cpu
	cpu_cs cpu
	echo "-- $1: $((SECONDS - $2)) s (cpu $(((cpu - $3 + 50) / 100)) s)"
	printf '%6d s (cpu %4d s)  %s%s\n' "$((SECONDS - $2))" "$(((cpu - $3 + 50) / 100))" \
		"${LANE-}" "$1" >>"$TIMES"
}
run_part() {
	local title=$1 t0=$SECONDS cpu0
	cpu_cs cpu0
	shift
	echo "== $title"
	"$@" 2>&1 | tee -a "$LOG"
	part_time "$title" "$t0" "$cpu0"
}
# lane_done NAME T0 CPU0: the lane's wall and CPU time, for the table at the end
lane_done() {
	local cpu
	cpu_cs cpu
	printf '%d %d %s\n' "$((SECONDS - $2))" "$(((cpu - $3 + 50) / 100))" "$1" >>"$LANES"
}

# The unit tests and the no-root end-to-end tests again, built with ASan and
# UBSan (make SANITIZE=1): any report fails with status 86, which no test
# expects.  Their PASS/FAIL lines are prefixed "san/".
SAN=build-san
san_part() {
	local title=$1 status t0=$SECONDS cpu0
	cpu_cs cpu0
	shift
	echo "== $title (sanitized)"
	"$@" 2>&1 | sed -E 's/^(PASS|FAIL|SKIP) /\1 san\//' | tee -a "$LOG"
	status=${PIPESTATUS[0]}
	# a unit binary exits 0 or 1; anything else is a crash or a report after its tests
	if [ "$title" != e2e ] && [ "$status" -gt 1 ]; then
		echo "FAIL san/$title: exit status $status" | tee -a "$LOG"
	fi
	part_time "$title (sanitized)" "$t0" "$cpu0"
}
sanitized_parts() {
	if [ ! -x "$SAN/bpfsweep" ]; then
		echo "SKIP san: $SAN/bpfsweep not built (make SANITIZE=1)" | tee -a "$LOG"
		return
	fi
	export ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=1:print_stacktrace=1
	export UBSAN_OPTIONS=halt_on_error=1:exitcode=86:print_stacktrace=1
	for t in "$SAN"/tests/unit/test_*; do
		[ -x "$t" ] && san_part "${t##*/}" "$t"
	done
	san_part e2e env BPFSWEEP="$SAN/bpfsweep" BUILD="$SAN" tests/e2e/null.sh
	unset ASAN_OPTIONS UBSAN_OPTIONS
}

# Three lanes, side by side: most parts wait more than they compute (a
# guest's boot under TCG, a sweep's warmup and intervals, a timeout, an
# sshd), so that two CPUs run three lanes of them in less time than two.
# The guests' lane: the test kernel's fetch, then every part that boots a
# guest, one guest at a time (under TCG, -accel tcg,thread=single, a guest
# keeps at most one CPU busy while the host's side of its test waits for
# it; two side by side on a loaded machine may miss vm_boot_timeout), then
# the integration tests that leave the BPF statistics alone, and make
# install; the background lane: under make check the sanitizer's and the
# fuzzer's builds, the KVM probe (whose qemus are fakes or boot nothing),
# csum_diff, htab_mem, the kernel's bench, map_perf and trigger, the
# sanitizer pass, the fuzzing and the exports; the foreground lane: the
# unit tests, the CLI's, and the other end-to-end tests.  Each lane took
# 560-620 s of a 627 s CI run (2 CPUs, 92% busy): a part moves to even
# them out, and a part's CPU saved shortens every lane.  None of them
# asserts a rate or a timing that a busy CPU beside it changes (they pass
# beside other runs of the suite on this shared machine).  The
# integration tests that turn the BPF statistics on or need them off wait
# for all three: the statistics test needs their static key off while it
# measures, which a sweep on this host beside it could turn on (and the
# other two would turn on beside a sweep).  Each lane's output is printed
# when it is done, each part with its own wall and CPU time (overlapping
# the other lanes': the total below is the suite's).
guest_parts() {
	# fetches once into .cache/vm-kernel (SKIP without network), then
	# offline; it needs nothing built, so it runs while make check builds
	run_part "test kernel for the VM (scripts/vm-kernel.sh)" tests/e2e/vm_kernel.sh
	until [ -s "$BUILT" ]; do sleep 1; done
	[ "$(cat "$BUILT")" = ok ] || return
	# one boot for the checks that need the test kernel alone, among them
	# the kernel's bench, unmodified, in the test kernel (kbench-vm/), and
	# the fleet of this machine and that guest over ssh (fleet_vm.sh, root)
	run_part "kernels under test in a VM (kernel axis, vm command, guest jobs, fleet)" \
		tests/e2e/kernel.sh
	# its own boot (qemu's -icount): csum_diff thrice in one guest, about 39 s here
	run_part "a guest timed by its instruction count (vm_accel = tcg-icount)" \
		tests/e2e/icount_vm.sh
	# Debian's 6.1 (fetched once, initramfs path) beside the test kernel: two boots
	run_part "seed 001 before/after on two real kernels (6.1, test kernel)" \
		tests/e2e/seed_map_perf_ab.sh
	# host, Debian's 6.19 (image-only) and the test kernel: two boots, about
	# 16 s here; after the fetch above, so that 6.19's finds the lists fresh
	run_part "bisect over three real kernels: when did overwrite mode appear" \
		tests/e2e/bisect_images_vm.sh
	integ_parts beside
	# from the foreground, the longest lane in a CI run (619 s, the
	# background's 580 s, this one's 560 s) before fleet.sh and
	# ringbuf_script.sh took about 50 s less of it: 22 s, mostly make's CPU
	run_part "make install: files, man pages, bash completion" tests/e2e/install.sh
	# in this lane, which ends first: about 12 s wall, 3 s of CPU (9 runs of the fake bench)
	run_part "bisect --step as git bisect run's predicate (fake bench, git)" \
		tests/e2e/bisect_git.sh
	# 4 runs of the fake bench, two bisect --resume that run nothing, one
	# chromium start: 5 s of CPU, 15-21 s wall at a load of 10 on 2 CPUs
	run_part "bisect's page: a fabricated record's steps, chart and chromium" \
		tests/e2e/bisect_page.sh
}
# The integration tests (root, real BPF) that neither turn the BPF
# statistics on nor need them off (stats_integ) run beside the other
# lanes, in the guests' lane, which ends first; the others after all lanes
# (see below).  integ_parts beside|after: the first ones or the others.
stats_integ() {
	case ${1##*/} in
	test_csum_diff | test_progstats | test_statspass) return 0 ;;
	esac
	return 1
}
integ_parts() {
	for t in "$BUILD"/tests/integ/test_*; do
		[ -x "$t" ] || continue
		if stats_integ "$t"; then [ "$1" = after ]; else [ "$1" = beside ]; fi &&
			run_part "integration: ${t##*/}" "$t"
	done
}
# make check (CHECK_BUILDS=1) has the sanitizer's and the fuzzer's binaries
# built here, on every CPU, beside the other lanes' tests: one tree
# (build-san/) for both, and only what they run (the binary, the unit tests
# and the tools; not the integration tests, which need root and real BPF
# more than a sanitizer); run by hand, the suite takes them as they are
# (their parts SKIP if not built).  The make check's command line (V=1,
# CC=...) comes in MAKEFLAGS.
check_builds() {
	make --no-print-directory -j"$(nproc)" SANITIZE=1 all unit-bins fuzz ||
		echo "FAIL build: make SANITIZE=1 all unit-bins fuzz"
}
background_parts() {
	[ -n "${CHECK_BUILDS-}" ] &&
		run_part "builds: make SANITIZE=1 all unit-bins fuzz" check_builds
	# beside the guests' lane, not in it: its qemus are fakes, or real
	# ones for kernels that do not boot (a 2 s timeout each)
	run_part "the KVM probe: fake qemus that abort, hang, work (vm_accel)" tests/e2e/vmprobe.sh
	run_part "end to end (csum_diff, root)" tests/e2e/csum_diff.sh
	run_part "the power benchmark command, tiny (csum_diff, root)" tests/e2e/power.sh
	run_part "end to end (htab_mem, root)" tests/e2e/htab_mem.sh
	run_part "exec workload (the kernel's bench)" tests/e2e/kbench.sh
	run_part "end to end (map_perf, root)" tests/e2e/map_perf.sh
	run_part "end to end (trigger, root)" tests/e2e/trigger.sh
	sanitized_parts
	run_part "fuzz (spec parser and binder)" tests/fuzz/run.sh
	run_part "fuzz (result files)" env FUZZ_TIME=10 tests/fuzz/run.sh results
	run_part "fuzz (import text)" env FUZZ_TIME=10 tests/fuzz/run.sh import
	# from the foreground, the longest lane (588 s vs 529 s in a CI run):
	# mostly waiting on its null runs, about 36 s wall for 14 s of CPU
	run_part "exports: --format markdown, csv, json (null workload)" tests/e2e/export.sh
	# from the foreground (595 s in a CI run, beside this lane's 563 s and
	# the guests' 558 s), once this lane's real workloads ran 0.3 s points:
	# 40 s wall, 19 s of CPU
	run_part "compare (null workload)" tests/e2e/compare.sh
}
# lane NAME FUNCTION LOG: FUNCTION's parts, one after another, their
# PASS/FAIL lines into LOG (run in the background by start_lane)
lane() {
	local cpu0
	cpu_cs cpu0
	LOG=$3
	LANE="($1) "
	"$2"
	lane_done "$1 lane" "$START" "$cpu0"
}
# start_lane NAME FUNCTION: lane NAME beside the foreground; its output in
# LANE_OUT[i], its PASS/FAIL lines in LANE_LOG[i]
LANE_PIDS=()
LANE_OUT=()
LANE_LOG=()
start_lane() {
	local out log
	out=$(mktemp)
	log=$(mktemp)
	LANE_OUT+=("$out")
	LANE_LOG+=("$log")
	echo "== $1 lane: printed when done"
	lane "$1" "$2" "$log" </dev/null >"$out" 2>&1 &
	LANE_PIDS+=($!)
}
# make check (CHECK_BUILDS=1): bpfsweep and the test binaries first, timed
# like a part, while the guests' lane fetches the test kernel (the lane's
# other parts wait for $BUILT to say ok); if they do not build, nothing
# else runs.  Each lane's time counts from the start, the build's included.
BUILT=$(mktemp)
main_build() {
	make --no-print-directory -j"$(nproc)" all test-bins ||
		echo "FAIL build: make all test-bins"
}
if [ -n "${CHECK_BUILDS-}" ]; then
	start_lane guests guest_parts
	cpu_cs BUILD_CPU0
	run_part "build: make all test-bins" main_build
	lane_done "build: all test-bins" "$START" "$BUILD_CPU0"
	if grep -q '^FAIL build: make all test-bins' "$LOG"; then
		echo failed >"$BUILT"
		wait
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	echo ok >"$BUILT"
else
	echo ok >"$BUILT"
	start_lane guests guest_parts
fi
start_lane background background_parts

foreground_parts() {
	for t in "$BUILD"/tests/unit/test_*; do
		[ -x "$t" ] && run_part "unit: ${t##*/}" "$t"
	done
	run_part "cli golden files" tests/cli/run.sh
	run_part "includes run one way, files and functions short (check-includes.py, check-sizes.py)" \
		tests/e2e/include_order.sh
	run_part "docs/dependencies.md's counts, json-c users and unused libraries" \
		tests/e2e/dependencies.sh
	run_part "cli: what each command takes, its --help and its completion agree" tests/cli/options.sh
	run_part "end to end (null workload)" tests/e2e/null.sh
	run_part "baseline figures (null workload)" tests/e2e/baseline.sh
	run_part "end to end (plan)" tests/e2e/plan.sh
	run_part "end to end (chart safety)" tests/e2e/plot_safety.sh
	run_part "end to end (meta)" tests/e2e/meta.sh
	run_part "end to end (quality flags)" tests/e2e/quality.sh
	run_part "interference: the threads' wait for a CPU beside a spinner (null, count)" \
		tests/e2e/interference.sh
	run_part "sub-second durations, measured as asked (null workload)" tests/e2e/durations.sh
	run_part "result directory (null workload)" tests/e2e/persist.sh
	run_part "summary.csv's column table, read back (null workload)" tests/e2e/columns.sh
	run_part "kill and resume (null workload)" tests/e2e/kill.sh
	run_part "import of bench output" tests/e2e/import.sh
	run_part "exec workload (fake bench)" tests/e2e/exec.sh
	run_part "no child outlives bpfsweep: SIGKILL, SIGHUP, SIGPIPE (root)" tests/e2e/procs.sh
	run_part "calibration: compare --paired over interleaved rounds (fake bench)" tests/e2e/calibrate.sh
	# the fixture sets' report and compare outputs, byte for byte (goldens): 20-30 s wall
	# under make check's load, 6 s of CPU, most of it the shell's
	run_part "the same sets give the same outputs (report, compare: goldens)" \
		tests/e2e/sameoutput.sh
	run_part "A/A benchmark command, tiny (null workload)" tests/e2e/aa.sh
	run_part "precision per point (null workload)" tests/e2e/precision.sh
	run_part "decide: interleaved rounds against a baseline (null workload)" tests/e2e/decide.sh
	run_part "fleet over ssh (network namespaces, root)" tests/e2e/fleet.sh
	# a one-node Slurm started here (slurm_lib.sh): 60-105 s on a loaded 2-CPU machine
	run_part "fleet --engine slurm (a one-node Slurm, root)" tests/e2e/fleet_slurm.sh
	run_part "report and merge (null workload)" tests/e2e/report.sh
	run_part "readers and a running sweep: locks; report -f json prints only" tests/e2e/readlock.sh
	run_part "the HTML page in chromium: every number, hostile strings as text" tests/e2e/html.sh
	run_part "a run's directory swapped for a symlink mid-run (root)" tests/e2e/dirswap.sh
	# no guest boots: qemu on an image that does not, 2 s of boot timeout; about 6 s
	run_part "a kernel's text forms as before: spec as run, meta, settings" \
		tests/e2e/kernelform.sh
	run_part "result files: a 64 MiB CSV within 5x its size, NUL refused" tests/e2e/bigcsv.sh
	run_part "escape sequences from files shown as escapes" tests/e2e/termsafe.sh
	run_part "a run under TCG: marked, compared only if allowed" tests/e2e/tcg.sh
	run_part "a run under TCG icount: marked, compared only with its kind" tests/e2e/icount.sh
	run_part "published numbers: import, report, merge, compare" tests/e2e/published.sh
	# from the background (580 s in a CI run, beside this lane's 619 s,
	# before fleet.sh and ringbuf_script.sh took about 50 s less of it): 13 s
	run_part "kernel profile per point (csum_diff, root)" tests/e2e/profile.sh
	run_part "ad hoc runs: run WORKLOAD, the bench options, --save-spec" tests/e2e/adhoc.sh
	run_part "end to end (ringbuf, root)" tests/e2e/ringbuf.sh
	run_part "specs/ringbuf.spec as run_bench_ringbufs.sh prints it (root)" tests/e2e/ringbuf_script.sh
	run_part "end to end (plan, root: capabilities)" tests/e2e/plan.sh root
}
# In a subshell of its own: its CPU time is then its parts' alone, not also
# that of the other lanes, which this shell reaps when they end.
(
	cpu_cs FG_CPU0
	foreground_parts
	lane_done "foreground lane" "$START" "$FG_CPU0"
)
for i in "${!LANE_PIDS[@]}"; do
	wait "${LANE_PIDS[i]}"
	cat "${LANE_OUT[i]}"
	cat "${LANE_LOG[i]}" >>"$LOG"
	rm -f "${LANE_OUT[i]}" "${LANE_LOG[i]}"
done
echo "-- all lanes done at $((SECONDS - START)) s"

# with the BPF statistics' static key to themselves (see above)
T_AFTER=$SECONDS
cpu_cs AFTER_CPU0
integ_parts after
lane_done "after all lanes" "$T_AFTER" "$AFTER_CPU0"

# The lanes side by side, the longest of them (the critical path: the
# suite's time is it plus the parts after all lanes), then the slowest parts
times_table() {
	local name wall cpu long=none longest=0 after=0 all=0
	echo "times, wall (cpu), of $((SECONDS - START)) s in all:"
	while read -r wall cpu name; do
		printf '  %-24s %4d s (cpu %4d s)\n' "$name" "$wall" "$cpu"
		all=$((all + cpu))
		case $name in
		build*) ;;
		after*) after=$wall ;;
		*) [ "$wall" -gt "$longest" ] && longest=$wall && long=$name ;;
		esac
	done <"$LANES"
	printf '  critical path: the %s, then the parts after all lanes: %d + %d = %d s\n' \
		"$long" "$longest" "$after" "$((longest + after))"
	wall=$((SECONDS - START > 0 ? SECONDS - START : 1))
	printf '  cpu in all: %d s, %d%% of what %d CPUs had in %d s\n' "$all" \
		"$((all * 100 / ($(nproc) * wall)))" "$(nproc)" "$wall"
	echo "slowest parts:"
	sort -rn "$TIMES" | head -12
}
times_table
passed=$(grep -c '^PASS ' "$LOG")
failed=$(grep -c '^FAIL ' "$LOG")
skipped=$(grep -c '^SKIP ' "$LOG")
if [ "$skipped" -gt 0 ]; then
	echo "skipped:"
	grep '^SKIP ' "$LOG" | sed 's/^SKIP /  /'
fi
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$LOG" | sed 's/^FAIL /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
