#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# No process of bpfsweep's outlives it, whatever ends it (root: cgroups).
# The exec benchmark ignores TERM, HUP, INT and PIPE, leaves a child in its
# process group and a setsid daemon, then waits (or exits at once): after
# a normal end, SIGKILL, SIGHUP and SIGPIPE (`| head -1`) none of them is
# left 2 s later, found by a marker in their environment, and no cgroup of
# the run's stays; with its guardian killed too, the next start of
# bpfsweep removes them.  Handled signals exit 128 + the signal, the
# running point becomes an `interrupted` row.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" != 0 ]; then
	skip procs "needs root (cgroups)"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MARK=procs-$$-$RANDOM

cat >"$TMP/bench" <<'EOF2'
#!/bin/sh
trap '' TERM HUP INT PIPE
sleep 300 &
setsid sleep 300 &
: >"$1"
[ "$2" = exit ] && exit 1
sleep 300
EOF2
chmod +x "$TMP/bench"
# spec NAME MODE [TIMEOUT]: two points, each runs the bench
spec() {
	printf '[sweep]\nworkload = exec\n[param "x"]\ndefault = 1\n' >"$TMP/$1.spec"
	printf '[params]\nx = 1 2\n' >>"$TMP/$1.spec"
	printf '[exec]\nargv = %s %s %s\ntimeout = %s\n' "$TMP/bench" "$TMP/ready-$1-{x}" "$2" \
		"${3:-60s}" >>"$TMP/$1.spec"
}
# start NAME: bpfsweep in the background, marked; $pid
start() {
	PROCS_MARK=$MARK-$1 $BPFSWEEP "$TMP/$1.spec" -o "$TMP/$1" --no-plots \
		>/dev/null 2>"$TMP/$1.err" </dev/null &
	pid=$!
}
ready() { for _ in $(seq 100); do [ -e "$TMP/ready-$1-1" ] && return; sleep 0.05; done; }
# marked: "/proc/PID/environ:PROCS_MARK=...-NAME" of every process marked by this test
marked() { grep -sza -o "^PROCS_MARK=$MARK-[a-z]*\$" /proc/[0-9]*/environ | tr '\0' '\n'; }
# cgroups [PID]: the cgroup directories bpfsweep PID (or any) made that are still there
cgroups() {
	find /sys/fs/cgroup -mindepth 1 -maxdepth 8 -type d -name "bpfsweep-${1:-*}-*" 2>/dev/null
}
# none_left NAME PID: no process of NAME's marker, no cgroup of PID's (in $LEFT, $CGS)
none_left() { ! grep -q -- "-$1\$" <<<"$LEFT" && ! grep -q "/bpfsweep-$2-" <<<"$CGS"; }

spec kill hang
spec hup hang
spec guard hang
spec end exit
spec pipe hang 500ms
start kill; kpid=$pid
start hup; hpid=$pid
start guard; gpid=$pid
start end; epid=$pid
# bpfsweep ... 2>&1 | head -1, with bpfsweep's pid and status
mkfifo "$TMP/fifo"
head -1 <"$TMP/fifo" >/dev/null &
PROCS_MARK=$MARK-pipe $BPFSWEEP "$TMP/pipe.spec" -o "$TMP/pipe" --no-plots >"$TMP/fifo" 2>&1 \
	</dev/null &
ppid=$!
ready kill
ready hup
ready guard
kcg=$(cgroups $kpid)
gguard=$(pgrep -P $gpid -x bpfsweep-guard)
{ kill -KILL $kpid && wait $kpid; } 2>/dev/null
kill -HUP $hpid
[ -n "$gguard" ] && kill -KILL "$gguard"
# taken while the run lives: once it is killed, any bpfsweep another lane of
# make check starts may remove the cgroup before this test looks
gcg=$(cgroups $gpid)
{ kill -KILL $gpid && wait $gpid; } 2>/dev/null
$BPFSWEEP --version >/dev/null
LEFT=$(marked)
CGS=$(cgroups $gpid)
check procs/guardian-found [ -n "$gguard" ]
# with the guardian dead (gone, or a zombie not yet reaped), only a start of
# bpfsweep can remove the run's cgroup
guard_dead() { [ ! -e /proc/$gguard ] || grep -q '^State:.*Z' /proc/$gguard/status; }
check procs/guardian-killed-cgroup-stays eval '[ -n "$gcg" ] && guard_dead'

check procs/next-start-removes-the-dead-runs none_left guard $gpid
wait $hpid
hst=$?
wait $epid
est=$?
wait $ppid
pst=$?
sleep 2
LEFT=$(marked)
CGS=$(cgroups)
check procs/cgroup-made-for-the-bench [ -n "$kcg" ]
check procs/normal-end-exit-1 [ "$est" = 1 ]
check procs/normal-end-none-left none_left end $epid
check procs/sigkill-none-left none_left kill $kpid
check procs/sighup-exit-129 [ "$hst" = 129 ]
check procs/sighup-interrupted-row [ "$(csv_col "$TMP/hup/summary.csv" status)" = interrupted ]
check procs/sighup-none-left none_left hup $hpid
check procs/sigpipe-exit-141 [ "$pst" = 141 ]
check procs/sigpipe-none-left none_left pipe $ppid
# what a failing check left, killed by pid
for p in $(marked | cut -d/ -f3); do kill -KILL "$p" 2>/dev/null; done

# Not root: no cgroup can be made, the bench's process group is all there is.
# After a SIGKILL of bpfsweep the guardian kills the groups of the children
# it was told of: the bench's child in its group is gone too (it stayed,
# reparented to init).  A setsid daemon escapes any group: only a cgroup
# (root) takes it, so this bench starts none (docs/exec.md).
if ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	skip procs/nonroot "needs setpriv and the user nobody"
	exit 0
fi
cat >"$TMP/gbench" <<'EOF2'
#!/bin/sh
trap '' TERM HUP INT PIPE
sleep 300 &
: >"$1"
sleep 300
EOF2
chmod 755 "$TMP" "$TMP/gbench"
printf '[sweep]\nworkload = exec\n[param "x"]\ndefault = 1\n[params]\nx = 1 2\n' >"$TMP/nobody.spec"
printf '[exec]\nargv = %s %s\ntimeout = 60s\n' "$TMP/gbench" "$TMP/nb/ready-{x}" >>"$TMP/nobody.spec"
mkdir "$TMP/nb"
chown nobody "$TMP/nb"
PROCS_MARK=$MARK-nobody setpriv --reuid=nobody --regid=nogroup --clear-groups \
	$BPFSWEEP "$TMP/nobody.spec" -o "$TMP/nb/out" --no-plots >/dev/null 2>"$TMP/nobody.err" \
	</dev/null &
npid=$!
for _ in $(seq 100); do [ -e "$TMP/nb/ready-1" ] && break; sleep 0.05; done
check procs/nonroot-bench-started [ -e "$TMP/nb/ready-1" ]
check procs/nonroot-group-child-running grep -q -- "-nobody\$" <<<"$(marked)"
{ kill -KILL $npid && wait $npid; } 2>/dev/null
sleep 2
LEFT=$(marked)
check procs/nonroot-sigkill-none-left not grep -q -- "-nobody\$" <<<"$LEFT"
for p in $(marked | cut -d/ -f3); do kill -KILL "$p" 2>/dev/null; done
