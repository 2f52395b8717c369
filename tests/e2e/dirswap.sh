#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A root run with -o inside a directory another user owns: that user renames
# the run's directory away mid-run and puts a symlink to a victim directory
# in its place: root's result directory of an earlier run, whose table and
# charts a path-following run would overwrite.  Every file of the run is
# opened beneath the directory descriptor held since its creation, so the
# victim is left as it was and the run ends in its own (moved) directory.
# Root only.  About 12 s.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	skip dirswap/all "needs root, setpriv and the user nobody"
	exit 0
fi
TMP=$(mktemp -d)
RUN_PID=
trap '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
mkdir "$TMP/shared"
chown nobody "$TMP/shared"
D=$TMP/shared/run

# the victim: root's earlier result set of the same spec (same file names)
$BPFSWEEP tests/e2e/twopoints.spec -o "$TMP/victim" </dev/null >/dev/null 2>&1
check dirswap/victim-made [ -s "$TMP/victim/table.txt" ] && [ -n "$(ls "$TMP/victim/plots")" ]
victim_sums() { (cd "$TMP/victim" && find . -printf '%p %i %s %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }
victim_sums >"$TMP/victim.before"

$BPFSWEEP tests/e2e/twopoints.spec -o "$D" </dev/null >"$TMP/run.out" 2>"$TMP/run.err" &
RUN_PID=$!
for _ in $(seq 100); do [ -s "$D/meta" ] && break; sleep 0.05; done
check dirswap/run-started [ -s "$D/meta" ]
# as nobody, who owns shared/: the run's directory away, a symlink in its place
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	sh -c 'cd "$1" && mv run moved && ln -s ../victim run' sh "$TMP/shared"
check dirswap/swapped [ -L "$D" ]
wait "$RUN_PID"
status=$?
RUN_PID=
victim_sums >"$TMP/victim.after"
check dirswap/victim-untouched cmp -s "$TMP/victim.before" "$TMP/victim.after"
# the run ends in its own directory, moved
check dirswap/run-exit-0 [ $status = 0 ]
check dirswap/table-in-moved [ -s "$TMP/shared/moved/table.txt" ]
check dirswap/charts-in-moved [ -n "$(ls "$TMP/shared/moved/plots" 2>/dev/null)" ]
check dirswap/meta-ended grep -q '^end:' "$TMP/shared/moved/meta"
check dirswap/rows-in-moved [ "$(csv_col "$TMP/shared/moved/summary.csv" status | wc -l)" = 2 ]
check dirswap/run-says-moved grep -q "warning: $D was moved or replaced" "$TMP/run.err"

# A fleet: scp reads the spec and the settings it sends to a host.  A
# stand-in ssh runs the remote line here, a stand-in scp copies with cp;
# just before the upload, nobody swaps OUT for a symlink to a directory of
# theirs with its own subrun/ spec.  An scp given OUT's path sent nobody's
# spec; it reads them through its inherited descriptor of the held OUT now.
FAKE_BIN=$TMP/fakebin
mkdir "$FAKE_BIN"
cat >"$FAKE_BIN/ssh" <<'SSH'
#!/bin/sh
# ssh OPTIONS -- HOST LINE: LINE run here; "-O exit" (the master's end) does nothing
for a; do shift; [ "$a" = -O ] && exit 0; [ "$a" = -- ] && break; done
shift
exec sh -c "$1"
SSH
cat >"$FAKE_BIN/scp" <<'SCP'
#!/bin/bash
# scp OPTIONS -- SOURCES TARGET: host:PATH stripped to PATH; an upload to
# DIR/spec swaps OUT first (once), as nobody
for a; do shift; [ "$a" = -- ] && break; done
args=("$@")
to=${args[-1]}
unset 'args[-1]'
if [ "${to#*:}" != "$to" ] && [ "${to%/spec}" != "$to" ] && [ ! -e "$FLEET_SHARED/theirs" ]; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c '
		cd "$1" && mkdir -p theirs && cp -r fl/subrun theirs/ &&
		sed -i "s/^title .*/title = not the fleet/" theirs/subrun/*.spec &&
		chmod -R a+rwX theirs && mv fl fl.moved && ln -s theirs fl' sh "$FLEET_SHARED"
fi
exec cp -r -- "${args[@]/#localhost:/}" "${to#localhost:}"
SCP
chmod 755 "$FAKE_BIN/ssh" "$FAKE_BIN/scp"
echo '@one/localhost' >"$TMP/hosts"
FLEET_SHARED=$TMP/shared PATH=$FAKE_BIN:$PATH timeout 60 $BPFSWEEP fleet tests/e2e/fleet.spec \
	--hosts "$TMP/hosts" -o "$TMP/shared/fl" --no-plots </dev/null >/dev/null 2>"$TMP/fl.err"
status=$?
check dirswap/fleet-swapped [ -L "$TMP/shared/fl" ]
check dirswap/fleet-host-done grep -q '^host one: done' "$TMP/fl.err"
# the host's own rows came back (not a failed fill), of the spec as written
check dirswap/fleet-host-came-back [ "$(csv_col "$TMP/shared/fl.moved/hosts/one/summary.csv" \
	status | sort -u)" = ok ]
check dirswap/fleet-host-ran-its-spec grep -qx 'title: fleet null sweep' \
	"$TMP/shared/fl.moved/hosts/one/meta"
# the merge looks for OUT/hosts/<label> and reads the runs beneath the held
# OUT (by path it found nothing there and the fleet exited 1): the merged
# set and its table are in the moved OUT, and nothing of it in theirs
check dirswap/fleet-exit-0 [ $status = 0 ]
check dirswap/fleet-merged-in-moved [ "$(csv_col "$TMP/shared/fl.moved/summary.csv" status | \
	sort | uniq -c | awk '{ print $1, $2 }')" = "2 ok" ]
check dirswap/fleet-table-in-moved grep -q '^null rate 1000000 prod 2 ' \
	"$TMP/shared/fl.moved/table.txt"
check dirswap/fleet-nothing-in-theirs [ "$(ls -A "$TMP/shared/theirs")" = subrun ]

# A sweep over kernels: its sub-runs are children started by path.  While
# the first kernel (not one: it fails to boot, vm_boot_timeout) holds the
# sweep up, nobody swaps OUT for a symlink to a directory of theirs that
# has its own subrun/ spec and settings and a runs/ for the host kernel's
# sub-run.  That child (root) got OUT's path and followed the symlink: it
# read nobody's files and wrote its result in nobody's runs/2.  It names
# them through its inherited descriptor of the held OUT now.
if ! command -v qemu-system-x86_64 >/dev/null; then
	skip dirswap/kernel-sweep "needs qemu-system-x86_64 (a sweep over kernels)"
	exit 0
fi
FAKE=$TMP/fake-bzImage
head -c 4096 /dev/zero >"$FAKE"
printf 'HdrS' | dd of="$FAKE" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
K=$TMP/shared/ks
$BPFSWEEP run tests/e2e/kernel.spec --kernel "$FAKE" --kernel host --set vm_boot_timeout=2s \
	-o "$K" --no-plots </dev/null >/dev/null 2>"$TMP/ks.err" &
RUN_PID=$!
for _ in $(seq 100); do [ -s "$K/meta" ] && break; sleep 0.05; done
check dirswap/kernel-sweep-started [ -s "$K/meta" ]
setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c '
	cd "$1" && mkdir -p evil/subrun evil/runs && cp ks/subrun/kernel.spec evil/subrun/ &&
	sed -i "s/^title .*/title = not the sweep/" evil/subrun/kernel.spec &&
	printf "guest-of = host\nno-plots = yes\n" >evil/subrun/2.settings &&
	chmod -R a+rwX evil && mv ks ks.moved && ln -s evil ks' sh "$TMP/shared"
check dirswap/kernel-sweep-swapped [ -L "$K" ]
wait "$RUN_PID"
RUN_PID=
check dirswap/kernel-sweep-nothing-in-theirs [ -z "$(ls -A "$TMP/shared/evil/runs")" ]
check dirswap/kernel-sweep-host-ran-in-moved [ "$(csv_col "$TMP/shared/ks.moved/runs/2/summary.csv" \
	status | sort -u)" = ok ]
check dirswap/kernel-sweep-ran-its-spec grep -qx 'title: kernels' "$TMP/shared/ks.moved/runs/2/meta"
# the sweep's merge finds both kernels' runs beneath the held OUT (by path it
# found none in theirs and merged nothing)
check dirswap/kernel-sweep-merged-in-moved [ "$(csv_col "$TMP/shared/ks.moved/summary.csv" \
	status | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }')" = "3 failed 3 ok " ]
