#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect --step as git bisect run's predicate (docs/kernel.md, "Bisect"),
# cheaply: a tiny git repository whose commits change what a point
# measures, not a kernel.  Its ./bench runs tests/tools/fakebench (instant,
# its numbers exact) with the producers' rate its `rate` file says: 3 M/s
# before commit 5, 1.5 M/s from it on; commit 3's bench fails outright (a
# kernel that does not boot: skipped, 125).  The ends are run once, then
# git bisect run drives `bpfsweep bisect SPEC --step host --good DIR --bad
# DIR` and must end on commit 5; a predicate with a mistyped option must
# stop git bisect run (128) with no commit marked.  About 13 s wall (3 s
# of CPU) here.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

command -v git >/dev/null || { skip bisect_git/git "git not installed"; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -z "${KEEP-}" ] || trap - EXIT
BIN=$(realpath "$BPFSWEEP")
FAKE=$(realpath "${BUILD:-build}/tests/tools/fakebench")
R=$TMP/repo

mkdir "$R"
SPEC=$(realpath tests/e2e/fakebench.spec)
cd "$R" || exit 1
git init -q . && git config user.email t@example.org && git config user.name t
for i in 1 2 3 4 5 6 7 8; do
	rate=2
	[ "$i" -lt 5 ] || rate=1
	printf '#!/bin/sh\nexec %s kbench "$1" "$2" "$(cat rate)"\n' "$FAKE" >bench
	[ "$i" != 3 ] || printf '#!/bin/sh\nexit 1\n' >bench
	chmod +x bench
	echo "$rate" >rate
	echo "$i" >n
	git add bench rate n && git commit -qm "commit $i"
done
C1=$(git rev-list --reverse HEAD | sed -n 1p)
C5=$(git rev-list --reverse HEAD | sed -n 5p)
C8=$(git rev-parse HEAD)

git checkout -q "$C1" && "$BIN" run "$SPEC" -o "$TMP/good" --no-plots >/dev/null 2>&1
git checkout -q "$C8" && "$BIN" run "$SPEC" -o "$TMP/bad" --no-plots >/dev/null 2>&1
check bisect_git/ends_ran [ -s "$TMP/good/summary.csv" ] && [ -s "$TMP/bad/summary.csv" ]

# the predicate alone: a good commit 0, a bad one 1, the broken one 125
step() { "$BIN" bisect "$SPEC" --step host --good "$TMP/good" --bad "$TMP/bad" \
	-o "$TMP/step-$1-$(git rev-parse --short HEAD)" 2>"$TMP/step.err"; }
git checkout -q "$C1" && step a >"$TMP/out.good"
check bisect_git/good_exits_0 [ $? = 0 ]
check bisect_git/good_says_why grep -q "^host: good: .*like good" "$TMP/out.good"
git checkout -q "$C8" && step b >"$TMP/out.bad"
check bisect_git/bad_exits_1 [ $? = 1 ]
check bisect_git/bad_says_why grep -q "^host: bad: .*like bad" "$TMP/out.bad"
git checkout -q "$C5~2" && step c >"$TMP/out.skip"
check bisect_git/broken_exits_125 [ $? = 125 ]
check bisect_git/broken_says_why grep -q "^host: skip: no point ran" "$TMP/out.skip"
# ends that do not differ stop git bisect run (128), saying why
"$BIN" bisect "$SPEC" --step host --good "$TMP/good" --bad "$TMP/good" \
	-o "$TMP/aa" >/dev/null 2>"$TMP/aa.err"
check bisect_git/aa_stops_128 [ $? = 128 ]
check bisect_git/aa_says_why grep -q "ends do not differ" "$TMP/aa.err"

# ends that ran under plain TCG: a metric's bisect refused (128), with the
# reason, unless --allow-tcg
git checkout -q "$C8"
for e in good bad; do
	cp -r "$TMP/$e" "$TMP/tcg-$e" && echo "vm_accel: tcg" >>"$TMP/tcg-$e/meta"
done
"$BIN" bisect "$SPEC" --step host --good "$TMP/tcg-good" --bad "$TMP/tcg-bad" \
	-o "$TMP/tcg" >/dev/null 2>"$TMP/tcg.err"
check bisect_git/tcg_refused_128 [ $? = 128 ]
check bisect_git/tcg_says_why grep -q "plain TCG: its numbers are the emulator's time" "$TMP/tcg.err"
check bisect_git/tcg_ran_nothing [ ! -e "$TMP/tcg" ]
"$BIN" bisect "$SPEC" --step host --good "$TMP/tcg-good" --bad "$TMP/tcg-bad" \
	--allow-tcg -o "$TMP/tcg" >/dev/null 2>&1
check bisect_git/tcg_allowed [ $? = 1 ]

# a broken invocation of the predicate stops git bisect run (128), never
# reads as bad (git takes 1-127 but 125 for bad): an unknown option before
# or after --step, an option without its value, no SPEC, a SPEC not there
S=(--step host --good "$TMP/good")
check bisect_git/step_unknown_option_128 \
	quiet_status 128 "$BIN" bisect "$SPEC" "${S[@]}" --bda "$TMP/bad"
check bisect_git/step_option_before_128 \
	quiet_status 128 "$BIN" bisect "$SPEC" --bogus "${S[@]}" --bad "$TMP/bad"
check bisect_git/step_no_value_128 quiet_status 128 "$BIN" bisect "$SPEC" "${S[@]}" --bad
check bisect_git/step_no_spec_128 quiet_status 128 "$BIN" bisect "${S[@]}" --bad "$TMP/bad"
check bisect_git/step_spec_gone_128 \
	quiet_status 128 "$BIN" bisect "$TMP/gone.spec" "${S[@]}" --bad "$TMP/bad"
check bisect_git/step_abbreviated_128 \
	quiet_status 128 "$BIN" bisect "$SPEC" --ste=host --good "$TMP/good" --bda x
# a verdict that cannot be written (stdout full) is no verdict: 128, not 2
git checkout -q "$C1" && step full >/dev/full
check bisect_git/step_stdout_full_128 [ $? = 128 ]
# without --step, a usage error is 2 as in every command
check bisect_git/usage_still_2 quiet_status 2 "$BIN" bisect "$SPEC" --good 6.12 --bda 7.3
printf '#!/bin/sh\nexec "%s" bisect "%s" --step host --good "%s" --bda "%s"\n' "$BIN" \
	"$SPEC" "$TMP/good" "$TMP/bad" >"$TMP/broken"
chmod +x "$TMP/broken"
git bisect start "$C8" "$C1" >/dev/null 2>&1
git bisect run "$TMP/broken" >"$TMP/broken.out" 2>&1
check bisect_git/broken_predicate_aborts [ $? != 0 ]
check bisect_git/broken_predicate_found_nothing not grep -q "is the first bad commit" "$TMP/broken.out"
check bisect_git/broken_predicate_marked_nothing [ "$(git bisect log | grep -c '^# bad:')" = 1 ]
git bisect reset -q >/dev/null 2>&1

# the whole loop: git bisect run, the predicate in each commit it checks out
cat >"$TMP/predicate" <<PRED
#!/bin/sh
exec "$BIN" bisect "$SPEC" --step host --good "$TMP/good" --bad "$TMP/bad" \
	-o "$TMP/run-\$(git rev-parse --short HEAD)"
PRED
chmod +x "$TMP/predicate"
git bisect start "$C8" "$C1" >"$TMP/start.out" 2>&1
git bisect run "$TMP/predicate" >"$TMP/bisect.out" 2>&1
check bisect_git/run_ends_on_commit_5 grep -q "^$C5 is the first bad commit" "$TMP/bisect.out"
check bisect_git/each_step_kept_its_run [ "$(ls -d "$TMP"/run-*/1 | wc -l)" -ge 2 ]
git bisect reset -q >/dev/null 2>&1
