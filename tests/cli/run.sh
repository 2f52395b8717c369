#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Golden-file tests of the command line: for every tests/cli/cases/NAME.args
# (the arguments, one line), run bpfsweep from the top directory and compare
# stdout, stderr and the exit status with NAME.out, NAME.err, NAME.status.
# NAME.stdout, if present, names where stdout goes instead (e.g. /dev/full).
# UPDATE=1 rewrites the golden files from the current output (review the diff!).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

# One temporary directory, files read with $(<...), cmp before diff: a
# case costs two processes (timeout and bpfsweep) and two cmps, where
# mktemp, cat and diff made it eleven (20 s of CPU for the 114 cases).
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
out=$TMP/out err=$TMP/err
for args_file in tests/cli/cases/*.args; do
	name=$(basename "$args_file" .args)
	base=tests/cli/cases/$name
	: >"$out"
	: >"$err"
	# A generous limit: a case that hangs fails instead of stalling make check.
	# Word splitting of the one-line argument list is intended.
	# shellcheck disable=SC2046
	stdout=$out
	[ -f "$base.stdout" ] && stdout=$(<"$base.stdout")
	timeout 10 $BPFSWEEP $(<"$args_file") >"$stdout" 2>"$err" </dev/null
	status=$?
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$out" "$base.out"
		cp "$err" "$base.err"
		echo "$status" >"$base.status"
	fi
	if ! cmp -s "$base.out" "$out"; then
		fail "cli/$name" "stdout differs: $(diff -u "$base.out" "$out" | head -20)"
	elif ! cmp -s "$base.err" "$err"; then
		fail "cli/$name" "stderr differs: $(diff -u "$base.err" "$err" | head -20)"
	elif [ "$status" != "$(<"$base.status")" ]; then
		fail "cli/$name" "exit status $status, expected $(<"$base.status")"
	else
		pass "cli/$name"
	fi
done
