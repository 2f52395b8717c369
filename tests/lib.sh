# SPDX-License-Identifier: GPL-2.0
# Shared by the shell tests: one PASS/FAIL/SKIP line per check, as
# tests/run.sh counts them.

BPFSWEEP=${BPFSWEEP:-./bpfsweep}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CONDITION-COMMAND... : PASS if the command succeeds; its
# status is the condition's, so that `check ... || say_more` can add to a
# failure's log
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; return 1; fi
}

# csv_col FILE COLUMN [KEY VALUE]: COLUMN of every data row (whose KEY is VALUE)
csv_col() { "${BUILD:-build}"/tests/tools/csvget "$@"; }

# not_ok_rows SUMMARY: each row of SUMMARY whose status is not ok, as
# "  | status: reason", for a failed check's log (a stall's reason says
# whether its producers were starved of CPU or asleep)
not_ok_rows() {
	paste -d'|' <(csv_col "$1" status) <(csv_col "$1" reason) |
		awk -F'|' '$1 != "ok" { st = $1; sub(/^[^|]*[|]/, ""); print "  | " st ": " $0 }'
}

# not CMD...: succeed when CMD fails
not() { ! "$@"; }

# quiet CMD...: run CMD, keep only its exit status
quiet() { "$@" >/dev/null 2>&1; }

# quiet_status STATUS CMD...: CMD exits with STATUS (its output dropped)
quiet_status() {
	local want=$1
	shift
	"$@" </dev/null >/dev/null 2>&1
	[ $? = "$want" ]
}

# headless_chromium PROFILE ARG...: chromium offline, with no profile of the
# user's (PROFILE, a directory of the test's) and no network services of
# the browser's own; $CHROMIUM, found by the caller
headless_chromium() {
	local profile=$1
	shift
	DBUS_SESSION_BUS_ADDRESS=disabled: timeout 60 "$CHROMIUM" --headless --no-sandbox \
		--disable-gpu --no-first-run --disable-extensions --disable-background-networking \
		--disable-sync --disable-component-update --disable-default-apps --mute-audio \
		--user-data-dir="$profile" "$@"
}

# qemu_missing: why a guest cannot start here (root for virtiofsd, qemu), or nothing
qemu_missing() {
	if [ "$(id -u)" != 0 ]; then
		echo "not root (virtiofsd needs it)"
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		echo "qemu-system-x86_64 not installed (make deps installs qemu-system-x86)"
	fi
}

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# step_time NAME: one line, "-- NAME: W s (cpu C s)", the wall and CPU time
# of the script's steps since the last step_time (or since lib.sh was
# sourced): the script's own CPU and that of the processes it waited for
# (/proc/PID/stat), which a busy machine does not inflate as it does the
# wall time.  Not a PASS/FAIL/SKIP line: tests/run.sh prints it but does
# not count it.  Called in the script's own shell, not in a $(...)
# subshell, whose children are its own.
step_cpu() {
	local stat f
	read -r stat </proc/$BASHPID/stat
	read -ra f <<<"${stat##*) }"
	printf -v "$1" %d $((f[11] + f[12] + f[13] + f[14]))
}
STEP_T0=$SECONDS
step_cpu STEP_CPU0
step_time() {
	local cpu
	step_cpu cpu
	echo "-- $1: $((SECONDS - STEP_T0)) s (cpu $(((cpu - STEP_CPU0 + 50) / 100)) s)"
	STEP_T0=$SECONDS
	STEP_CPU0=$cpu
}

# cpu_share PID / cpu_share_done: PID's threads, now and later, weigh
# together what one task does beside make check's other lanes, for a
# test that oversubscribes the machine on purpose (1024 spinning
# producers).  Without it, a point of another lane measured beside them
# had its one producer wait up to 667 ms for its first slice, and 4 of 50
# short points stalled.  A cgroup of cgroup v1's cpu controller does it,
# at its default weight; where none can be made (1 is returned), PID runs
# as it is.  The test's own shell stays out of it: in it, a `sleep 0.3`
# took 5.7 s beside the spinners.  cpu_share_done removes the cgroup once
# the caller has waited for what ran in it.
CPU_SHARE_V1=/sys/fs/cgroup/cpu
cpu_share() {
	local home
	if [ -z "${CPU_SHARE_CG-}" ]; then
		home=$(sed -n 's/^[0-9]*:cpu\(,[a-z,]*\)\{0,1\}:\(.*\)/\2/p' /proc/$BASHPID/cgroup)
		[ -n "$home" ] || return 1
		CPU_SHARE_CG=$CPU_SHARE_V1${home%/}/bpfsweep-test-$BASHPID
		mkdir -p "$CPU_SHARE_CG" 2>/dev/null || { CPU_SHARE_CG=; return 1; }
	fi
	echo "$1" >"$CPU_SHARE_CG/cgroup.procs" 2>/dev/null
}
cpu_share_done() {
	[ -n "${CPU_SHARE_CG-}" ] && rmdir "$CPU_SHARE_CG"
	CPU_SHARE_CG=
}
