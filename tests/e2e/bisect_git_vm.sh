#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# git bisect run over a tiny repository whose "kernels" are Debian's
# images (issue 37), by hand: not in make check, for it fetches five
# kernels (minutes on a cold cache) and boots one guest per run.  Each
# commit's file `kernel` names a Debian version: 6.12, 6.12, 6.18, 6.19,
# 7.2, 7.3 (6.19 image-only).  The point is ring buffer overwrite mode,
# unsupported before 6.19 and ok from it on, so the first new ("bad")
# commit is commit 4.  The
# ends run once (`bpfsweep run --kernel`), then git bisect run drives
# `bpfsweep bisect --step IMAGE --good DIR --bad DIR` in each commit it
# checks out, the image fetched by scripts/vm-kernel.sh.  Needs root,
# qemu and the archive.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

command -v git >/dev/null || { skip bisect_git_vm/git "git not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { skip bisect_git_vm/root "not root"; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -z "${KEEP-}" ] || trap - EXIT
BIN=$(realpath "$BPFSWEEP")
BUILD=$(realpath "${BUILD:-build}")
FETCH=$(realpath scripts/vm-kernel.sh)
SPEC=$(realpath specs/ringbuf_overwrite.spec)
ONLY="Ringbuf, multi-producer contention, overwrite mode, producer only"
ARGS=(--only "$ONLY" --set producers=1 --quick)
R=$TMP/repo

# every image first: a fetch that fails is this machine's, not a step's
for v in 6.12 6.18 6.19 7.2 7.3; do
	if ! "$FETCH" "$v" >"$TMP/image-$v" 2>"$TMP/fetch.err"; then
		skip bisect_git_vm/fetch "no $v image: $(tail -n1 "$TMP/fetch.err")"
		exit 0
	fi
done

mkdir "$R"
cd "$R" || exit 1
git init -q . && git config user.email t@example.org && git config user.name t
i=0
for v in 6.12 6.12 6.18 6.19 7.2 7.3; do
	i=$((i + 1))
	echo "$v" >kernel
	echo "$i" >n
	git add kernel n && git commit -qm "commit $i: $v"
done
C1=$(git rev-list --reverse HEAD | sed -n 1p)
C4=$(git rev-list --reverse HEAD | sed -n 4p)
C6=$(git rev-parse HEAD)

image() { cat "$TMP/image-$(cat kernel)"; }
start=$SECONDS
git checkout -q "$C1" && "$BIN" run "$SPEC" "${ARGS[@]}" --kernel "$(image)" \
	-o "$TMP/old" --no-plots >"$TMP/old.out" 2>&1
git checkout -q "$C6" && "$BIN" run "$SPEC" "${ARGS[@]}" --kernel "$(image)" \
	-o "$TMP/new" --no-plots >"$TMP/new.out" 2>&1
check bisect_git_vm/old_end_unsupported [ "$(csv_col "$TMP/old/summary.csv" status)" = unsupported ]
check bisect_git_vm/new_end_ok [ "$(csv_col "$TMP/new/summary.csv" status)" = ok ]
echo "  (the ends: two boots in $((SECONDS - start)) s)"

cat >"$TMP/predicate" <<PRED
#!/bin/sh
exec "$BIN" bisect "$SPEC" $(printf '%q ' "${ARGS[@]}") \\
	--step "\$(cat "$TMP/image-\$(cat kernel)")" --good "$TMP/old" --bad "$TMP/new" \\
	-o "$TMP/step-\$(cat n)"
PRED
chmod +x "$TMP/predicate"
start=$SECONDS
git bisect start "$C6" "$C1" >"$TMP/start.out" 2>&1
git bisect run "$TMP/predicate" >"$TMP/bisect.out" 2>&1
check bisect_git_vm/run_exit_0 [ $? = 0 ]
echo "  (git bisect run: $(ls -d "$TMP"/step-* 2>/dev/null | wc -l) boots in $((SECONDS - start)) s)"
grep -E '^(running|[0-9a-f]{40} is|Bisecting|.*: (good|bad|skip): )' "$TMP/bisect.out" |
	sed 's/^/  | /'
check bisect_git_vm/ends_on_commit_4 grep -q "^$C4 is the first bad commit" "$TMP/bisect.out"
# each step said why, as the ends' statuses
check bisect_git_vm/steps_say_status [ "$(grep -cE ': (good|bad): .*(unsupported|ok)' \
	"$TMP/bisect.out")" -ge 2 ]
check bisect_git_vm/each_step_kept_its_run [ "$(ls -d "$TMP"/step-*/1 | wc -l)" -ge 2 ]
git bisect reset -q >/dev/null 2>&1 || true
