# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/e2e/fleet_slurm.sh: a one-node Slurm on this machine,
# without systemd.  munged on a private key and socket, slurmctld and
# slurmd on a private slurm.conf (SlurmUser=root, proctrack/linuxproc,
# select/cons_tres, no cgroup plugin, the node line from `slurmd -C`),
# with their state, spool, pid and log files under one directory; each
# started here in the background and stopped by its pid.  SLURM_CONF
# (exported) points the clients (sinfo, salloc, srun, sbcast, scancel)
# and bpfsweep fleet --engine slurm at it.
#
#   slurm_start DIR   start it in DIR (made; short: munge's socket path),
#                     wait for the node to be idle (at most 30 s); 1 with
#                     the reason in SLURM_WHY when it cannot
#   slurm_stop        cancel every job, stop the three daemons and every
#                     slurmstepd they left (those whose environment names
#                     this SLURM_CONF), by pid; call it from the caller's
#                     trap on EXIT (and INT, TERM, HUP: bash runs the EXIT
#                     trap when a trapped signal ends the script)
#   SLURM_NODE        the node's name, SLURM_PARTITION its one partition

# shellcheck disable=SC2034  # the caller's: SLURM_WHY, SLURM_NODE, SLURM_PARTITION
SLURM_PIDS=()
SLURM_DIR=
SLURM_WHY=
SLURM_PARTITION=debug

# slurm_have: the packages are installed (else SLURM_WHY says which is missing)
slurm_have() {
	local t
	for t in munged slurmctld slurmd sinfo salloc srun sbcast scancel squeue scontrol pgrep; do
		if ! command -v "$t" >/dev/null && ! [ -x "/usr/sbin/$t" ]; then
			SLURM_WHY="$t not found (slurmctld, slurmd, slurm-client, munge: make test-deps)"
			return 1
		fi
	done
}

# slurm_conf DIR NODELINE PORT: the private configuration
slurm_conf() {
	local d=$1 node=$2 port=$3
	cat > "$d/slurm.conf" <<-CONF
		ClusterName=bpfsweep$$
		SlurmctldHost=$SLURM_NODE(127.0.0.1)
		SlurmUser=root
		SlurmdUser=root
		SlurmctldPort=$port
		SlurmdPort=$((port + 1))
		AuthType=auth/munge
		CredType=cred/munge
		AuthInfo=socket=$d/munge.sock
		StateSaveLocation=$d/state
		SlurmdSpoolDir=$d/spool
		SlurmctldPidFile=$d/slurmctld.pid
		SlurmdPidFile=$d/slurmd.pid
		SlurmctldLogFile=$d/slurmctld.log
		SlurmdLogFile=$d/slurmd.log
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SelectType=select/cons_tres
		SelectTypeParameters=CR_Core
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		MpiDefault=none
		ReturnToService=2
		SlurmctldTimeout=30
		SlurmdTimeout=30
		MessageTimeout=10
		KillWait=5
		$node NodeAddr=127.0.0.1 State=UNKNOWN
		PartitionName=$SLURM_PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	CONF
}

# slurm_bg LOG CMD...: CMD in the background, its pid kept for slurm_stop
slurm_bg() {
	local log=$1
	shift
	"$@" >>"$log" 2>&1 &
	SLURM_PIDS+=($!)
}

slurm_start() {
	local d=$1 node port
	SLURM_DIR=$d
	slurm_have || return 1
	mkdir -p "$d/state" "$d/spool" || { SLURM_WHY="cannot make $d"; return 1; }
	chmod 700 "$d"
	node=$(/usr/sbin/slurmd -C 2>/dev/null | head -1)
	SLURM_NODE=${node#NodeName=}
	SLURM_NODE=${SLURM_NODE%% *}
	case $node in NodeName=?*) ;; *) SLURM_WHY="slurmd -C gave no node line"; return 1 ;; esac
	# two ports of this run, so that two runs of the test do not meet
	port=$((20000 + ($$ % 10000) * 2))
	slurm_conf "$d" "$node" "$port"
	export SLURM_CONF=$d/slurm.conf
	dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 status=none && chmod 600 "$d/munge.key"
	slurm_bg "$d/munged.out" /usr/sbin/munged -F -f --key-file="$d/munge.key" \
		--socket="$d/munge.sock" --pid-file="$d/munged.pid" --log-file="$d/munged.log" \
		--seed-file="$d/munged.seed"
	for _ in $(seq 50); do [ -S "$d/munge.sock" ] && break; sleep 0.1; done
	[ -S "$d/munge.sock" ] || { SLURM_WHY="munged did not start: $(tail -2 "$d/munged.log")"; return 1; }
	slurm_bg "$d/slurmctld.out" /usr/sbin/slurmctld -D -i -f "$SLURM_CONF"
	slurm_bg "$d/slurmd.out" /usr/sbin/slurmd -D -f "$SLURM_CONF" -N "$SLURM_NODE"
	slurm_wait_idle 300 || { SLURM_WHY="the node is not idle after 30 s: $(sinfo -h -o %T 2>&1 | head -1); $(tail -2 "$d/slurmctld.log")"; return 1; }
}

# slurm_wait_idle TENTHS: the node is idle (at most TENTHS tenths of a second)
slurm_wait_idle() {
	for _ in $(seq "$1"); do
		[ "$(sinfo -h -n "$SLURM_NODE" -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	return 1
}

# slurm_jobs: the jobs the cluster holds, queued or running, one line each
slurm_jobs() { squeue -h -o '%i %T %j' 2>/dev/null; }

# the slurmstepd processes of this cluster: their environment names its SLURM_CONF
slurm_stepds() {
	local p
	for p in $(pgrep -x slurmstepd); do
		tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF" &&
			echo "$p"
	done
}

slurm_stop() {
	local p ids
	[ -n "$SLURM_DIR" ] || return 0
	if [ ${#SLURM_PIDS[@]} -gt 0 ]; then
		ids=$(slurm_jobs | awk '{print $1}')
		# shellcheck disable=SC2086
		[ -z "$ids" ] || timeout 5 scancel --quiet $ids 2>/dev/null
		# shellcheck disable=SC2046
		kill $(slurm_stepds) 2>/dev/null
		# slurmd first (it must not start steps), then slurmctld, munged last
		for ((p = ${#SLURM_PIDS[@]} - 1; p >= 0; p--)); do
			kill "${SLURM_PIDS[$p]}" 2>/dev/null
			wait "${SLURM_PIDS[$p]}" 2>/dev/null
		done
		# shellcheck disable=SC2046
		kill -9 $(slurm_stepds) 2>/dev/null
	fi
	SLURM_PIDS=()
	rm -rf "$SLURM_DIR"
	SLURM_DIR=
}
