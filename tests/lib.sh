# SPDX-License-Identifier: GPL-2.0
# Shared by the shell tests: one PASS/FAIL/SKIP line per check, as
# tests/run.sh counts them.

BPFSWEEP=${BPFSWEEP:-./bpfsweep}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CONDITION-COMMAND... : PASS if the command succeeds
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

# csv_col FILE COLUMN [KEY VALUE]: COLUMN of every data row (whose KEY is VALUE)
csv_col() { "${BUILD:-build}"/tests/tools/csvget "$@"; }

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

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
