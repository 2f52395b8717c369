#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest boot for many tests: run in the guest by
#
#   bpfsweep vm -o SHARE KERNEL -- /bin/bash tests/e2e/guest_jobs.sh JOBS -- CMD [ARG...]
#
# Each JOBS/NAME.sh (in name order) runs with bash, its stdout, stderr,
# exit status and time kept in the share (the guest's /run/bpfsweep, SHARE
# on the host) as NAME.out, NAME.err, NAME.rc and NAME.time, for the host's
# test to check (and print) there after the guest powered off.  Then CMD
# replaces this script: its output is the console (the vm command's
# stdout) and its exit status the vm command's.  Under TCG a boot costs 10-20 s: tests/e2e/kernel.sh puts
# every check that needs the test kernel alone here, in one boot.
set -u
JOBS=$1
shift
[ "${1-}" = -- ] && shift
OUT=/run/bpfsweep
for job in "$JOBS"/*.sh; do
	name=$(basename "$job" .sh)
	echo "guest job $name" >&2
	# its time, for the host's test to print: the slow jobs show
	TIMEFORMAT="%R s (cpu %U + %S s)"
	{ time bash "$job" </dev/null >"$OUT/$name.out" 2>"$OUT/$name.err"; } 2>"$OUT/$name.time"
	echo $? >"$OUT/$name.rc"
done
exec "$@"
