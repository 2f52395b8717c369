#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep fleet over two machines that really differ: this one (6.18,
# no ring buffer overwrite mode), reached through an sshd on a private
# port of 127.0.0.1, and the test kernel (scripts/vm-kernel.sh, 6.19+)
# booted by `bpfsweep vm --set vm_ssh_port=PORT`, whose job loads the
# NIC's modules, gives it qemu's usual guest address and runs sshd there.
# Both run the spec; the merged set has each host's rows and meta, overwrite
# mode measured on the guest and unsupported here with the kernel's
# reason; `--shard` over the two is refused for their kernel releases.
# Root only; everything started here is stopped by the trap, the guest
# first by its own power-off.
#
# In make check it boots no guest of its own: tests/e2e/kernel.sh's one
# boot of the test kernel has this script's guest half as its first job
# (`fleet_vm.sh --guest`, which runs the job this script writes into the
# guest's share, FLEET_VM_SHARE), with qemu forwarding FLEET_VM_PORT to it;
# when its sshd ends the guest goes on with kernel.sh's other jobs.
set -u
cd "$(dirname "$0")/../.."
GO=fleet_vm.go
# the guest's half, in kernel.sh's guest: the job the host's half writes
# (at most 10 minutes after the boot), its exit status back in the share
if [ "${1-}" = --guest ]; then
	for _ in $(seq 1200); do
		if [ -e "/run/bpfsweep/$GO" ]; then
			timeout 600 bash "/run/bpfsweep/$GO"
			echo $? >/run/bpfsweep/fleet_vm.status
			exit 0
		fi
		sleep 0.5
	done
	echo "no $GO from the host"
	exit 1
fi
. tests/lib.sh
. tests/e2e/ssh_lib.sh
SHARE=${FLEET_VM_SHARE-}
# no_job WHY: a guest that waits for its job gets one that says WHY and ends
no_job() {
	[ -n "$SHARE" ] && [ ! -e "$SHARE/$GO" ] && echo "echo '$1'" >"$SHARE/$GO"
	return 0
}
trap 'no_job "the host half ended before the guest was needed"' EXIT

BPFSWEEP=$(realpath "$BPFSWEEP")
T=fleet-vm
SPEC=tests/e2e/fleet_vm.spec
HOST_PID=
VM_PID=

why=
if [ "$(id -u)" != 0 ]; then
	why="needs root (sshd, virtiofsd, BPF)"
fi
for tool in ssh scp ssh-keygen /usr/sbin/sshd ip ss insmod qemu-system-x86_64; do
	if [ -z "$why" ] && ! command -v "$tool" >/dev/null; then
		why="$tool not found (make deps: openssh-server, iproute2, kmod, qemu-system-x86)"
	fi
done
if [ -z "$why" ] && [ -n "$SHARE" ] && [ -z "${FLEET_VM_PORT-}" ]; then
	why="no free port for the guest's sshd"
fi
if [ -n "$why" ]; then skip $T "$why"; exit 0; fi

# on_guest CMD: CMD run by the guest's sshd (qemu's forward accepts a
# connection before the guest listens: only a login says it is up)
on_guest() {
	ssh -F "$TMP/ssh_config" -o BatchMode=yes -p "$PORT_GUEST" root@127.0.0.1 "$@"
}
# guest_on: the guest still runs its job (its own vm command, or kernel.sh's
# guest that has not said how the job ended)
guest_on() {
	if [ -n "$SHARE" ]; then [ ! -e "$SHARE/fleet_vm.status" ]; else kill -0 "$VM_PID" 2>/dev/null; fi
}
TMP=$(mktemp -d)
cleanup() {
	[ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null && wait "$HOST_PID" 2>/dev/null
	# a guest still up: bpfsweep vm stops it on SIGTERM (qemu, virtiofsd,
	# its files); its process group (setsid) is them all, should it not
	if [ -n "$VM_PID" ] && kill -0 "$VM_PID" 2>/dev/null; then
		kill -TERM "$VM_PID"
		for _ in $(seq 50); do kill -0 "$VM_PID" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$VM_PID" 2>/dev/null && kill -KILL -- -"$VM_PID"
		wait "$VM_PID" 2>/dev/null
	fi
	# kernel.sh's guest: its sshd ended, should the checks have stopped early
	# shellcheck disable=SC2016 # the guest's shell reads the pid file
	[ -n "$SHARE" ] && [ -n "${PORT_GUEST-}" ] && guest_on && on_guest 'kill $(cat /run/sshd-fleet.pid)' </dev/null 2>/dev/null
	no_job "the host half ended before the guest was needed"
	if [ -n "${KEEP:-}" ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

if ! KERNEL=$(scripts/vm-kernel.sh --modules 2>"$TMP/vm-kernel.err"); then
	skip $T "no test kernel: $(tail -n1 "$TMP/vm-kernel.err")"
	exit 0
fi
MODS=$(dirname "$KERNEL")/modules
RELEASE=$(basename "$(dirname "$KERNEL")")

BASE=$((20000 + ($$ % 1000) * 40))
PORT_HERE=$(free_port $BASE)
PORT_GUEST=${FLEET_VM_PORT:-$(free_port $((PORT_HERE + 1)))}

mkdir -p /run/sshd
mkdir "$TMP/home" "$TMP/remote"
for k in hostkey-here hostkey-guest id; do
	ssh-keygen -q -t ed25519 -N '' -f "$TMP/$k" || { fail $T "ssh-keygen"; exit 0; }
done
cp "$TMP/id.pub" "$TMP/authorized_keys"
echo "[127.0.0.1]:$PORT_HERE $(cat "$TMP/hostkey-here.pub")" > "$TMP/known_hosts"
echo "[127.0.0.1]:$PORT_GUEST $(cat "$TMP/hostkey-guest.pub")" >> "$TMP/known_hosts"
ssh_client_conf "$TMP/ssh_config" "ConnectTimeout 10"

# this machine: an sshd on 127.0.0.1
sshd_conf "$TMP/sshd-here.conf" "127.0.0.1:$PORT_HERE" "$TMP/hostkey-here" \
	"$TMP/sshd-here.pid" "$TMP/remote"
/usr/sbin/sshd -D -e -f "$TMP/sshd-here.conf" 2>"$TMP/sshd-here.log" &
HOST_PID=$!

# the guest: its job (the host's root is its root, read-only; /run and
# /run/tmp are its own tmpfs) loads the NIC, takes qemu's guest address
# 10.0.2.15 and runs sshd on port 22, which qemu forwards PORT_GUEST to
sshd_conf "$TMP/sshd-guest.conf" "0.0.0.0:22" "$TMP/hostkey-guest" /run/sshd-fleet.pid \
	/run/tmp
cat > "$TMP/guest.sh" <<'GUEST'
set -e
while read -r m; do insmod "$1/$m"; done < "$1/load"
ip link set lo up
ip addr add 10.0.2.15/24 dev eth0
ip link set eth0 up
mkdir -p /run/sshd
exec /usr/sbin/sshd -D -e -f "$2"
GUEST
if [ -n "$SHARE" ]; then
	# kernel.sh's guest, booted with the port forwarded: its job, written whole, then named
	printf '%q ' /bin/bash "$TMP/guest.sh" "$MODS" "$TMP/sshd-guest.conf" >"$SHARE/$GO.new"
	mv "$SHARE/$GO.new" "$SHARE/$GO"
else
	setsid "$BPFSWEEP" vm --set vm_ssh_port="$PORT_GUEST" -o "$TMP/vm" "$KERNEL" -- \
		/bin/bash "$TMP/guest.sh" "$MODS" "$TMP/sshd-guest.conf" \
		</dev/null >"$TMP/vm.out" 2>"$TMP/vm.err" &
	VM_PID=$!
fi

up=
start=$SECONDS
while [ $((SECONDS - start)) -lt 150 ] && guest_on; do
	if on_guest true 2>/dev/null </dev/null; then up=1; break; fi
	sleep 2
done
if [ -z "$up" ]; then
	fail $T "the guest's sshd did not answer: $(tail -c 600 "$TMP/vm.err" 2>/dev/null) \
$(tail -n 5 "${SHARE:-$TMP/vm}/console.log" 2>/dev/null)"
	exit 0
fi
echo "# guest up after $((SECONDS - start)) s"
check "$T: the guest runs the test kernel" [ "$(on_guest uname -r </dev/null)" = "$RELEASE" ]
check "$T: this machine runs another" [ "$(uname -r)" != "$RELEASE" ]

cat > "$TMP/hosts" <<HOSTS
# this machine and the test kernel under qemu
@here/root@127.0.0.1:$PORT_HERE
@guest/root@127.0.0.1:$PORT_GUEST
HOSTS

OUT=$TMP/out
S=$OUT/summary.csv
start=$SECONDS
# --quick, with the spec's own points of 0.6 s after 0.2 s (the --set win
# over --quick's 1.25 s, on each host too) and no statistics pass (1.2 s
# more a point, under TCG on the guest): nothing here checks ns_per_run
timeout 180 "$BPFSWEEP" fleet "$SPEC" --quick --set warmup=200ms --set duration=600ms \
	--set interval=200ms --set bpf_stats=off --hosts "$TMP/hosts" \
	--ssh-config "$TMP/ssh_config" -o "$OUT" --no-plots >"$TMP/fleet.out" 2>"$TMP/fleet.err"
st=$?
echo "# fleet took $((SECONDS - start)) s"
check "$T: exit 0 (every point ok or unsupported)" [ "$st" = 0 ]
if [ "$st" != 0 ]; then sed 's/^/  /' "$TMP/fleet.err" | tail -20; fi
# rows: "host overwrite status" of the merged summary, sorted
rows() {
	paste -d' ' <(csv_col "$S" tag_fleet_host) <(csv_col "$S" overwrite) \
		<(csv_col "$S" status) | sort
}
check "$T: both hosts' rows merged: overwrite ok on the guest, unsupported here" \
	[ "$(rows | tr '\n' ',')" = "guest off ok,guest on ok,here off ok,here on unsupported," ]
check "$T: the unsupported row has this kernel's reason" \
	[ "$(csv_col "$S" reason status unsupported)" = \
	  "BPF_F_RB_OVERWRITE: not supported by kernel $(uname -r)" ]
check "$T: the guest's overwrite row counted events" \
	[ "$(paste -d' ' <(csv_col "$S" tag_fleet_host) <(csv_col "$S" overwrite) \
	     <(csv_col "$S" hits_per_s_mean) | awk '$1 == "guest" && $2 == "on" && $3 > 0' | wc -l)" = 1 ]
check "$T: each row's kernel_release is its host's" \
	[ "$(csv_col "$S" kernel_release tag_fleet_host here | sort -u)" = "$(uname -r)" -a \
	  "$(csv_col "$S" kernel_release tag_fleet_host guest | sort -u)" = "$RELEASE" ]
check "$T: each host's meta has its own kernel_release" \
	[ "$(sed -n 's/^kernel_release: //p' "$OUT/hosts/here/meta")" = "$(uname -r)" -a \
	  "$(sed -n 's/^kernel_release: //p' "$OUT/hosts/guest/meta")" = "$RELEASE" ]
check "$T: meta lists both hosts, no failure" \
	[ -n "$(grep -x 'fleet: 2 hosts' "$OUT/meta")" -a -z "$(grep host_failed "$OUT/meta")" ]
check "$T: the table has a block per host" \
	[ "$(grep -c '^run [12]: .*fleet_host=\(here\|guest\)' "$OUT/table.txt")" = 2 ]
# block LABEL: the cross-machine table's block of host LABEL
block() { awk -v h="fleet_host=$1" '/^run [0-9]+: / { on = index($0, h) > 0 } on' "$OUT/table.txt"; }
check "$T: the table: overwrite unsupported here, with the kernel's reason" \
	grep -qx "rb-custom overwrite on  unsupported: BPF_F_RB_OVERWRITE: not supported by kernel $(uname -r)" \
	<(block here)
check "$T: the table: overwrite measured on the guest" \
	grep -q '^rb-custom overwrite on  [0-9.]* ± [0-9.]*[kMG]*/s' <(block guest)

# --shard over the two: refused before anything runs, their kernels named
timeout 60 "$BPFSWEEP" fleet "$SPEC" --quick --shard --hosts "$TMP/hosts" \
	--ssh-config "$TMP/ssh_config" -o "$TMP/outs" --no-plots >"$TMP/shard.out" 2>"$TMP/shard.err"
st=$?
check "$T: --shard over different kernels: exit 2" [ "$st" = 2 ]
check "$T: --shard: the kernel_release difference is named" \
	grep -qxF "kernel_release: '$(uname -r)' on here; '$RELEASE' on guest" "$TMP/shard.err"
check "$T: --shard: no result directory" [ ! -e "$TMP/outs" ]
if [ "$st" != 2 ]; then sed 's/^/  /' "$TMP/shard.err" | tail -20; fi

# the guest ends its job (sshd) and powers off: bpfsweep vm returns
# shellcheck disable=SC2016 # the guest's shell reads the pid file
on_guest 'kill $(cat /run/sshd-fleet.pid)' </dev/null 2>/dev/null
if [ -n "$SHARE" ]; then
	# kernel.sh's guest goes on with its next job
	for _ in $(seq 300); do guest_on || break; sleep 0.2; done
	check "$T: the guest's job ended when its sshd ended (exit 0)" \
		[ "$(cat "$SHARE/fleet_vm.status" 2>/dev/null)" = 0 ]
	exit 0
fi
for _ in $(seq 300); do kill -0 "$VM_PID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$VM_PID" 2>/dev/null; then
	fail "$T: the guest powered off when its sshd ended" "still running after 60 s"
	exit 0
fi
wait "$VM_PID"
st=$?
VM_PID=
check "$T: the guest powered off when its sshd ended (vm exit 0)" [ "$st" = 0 ]
[ "$st" = 0 ] || tail -n 5 "$TMP/vm.err" | sed 's/^/  /'
