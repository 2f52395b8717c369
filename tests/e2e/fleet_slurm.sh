#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep fleet --engine slurm on a real one-node Slurm started here
# (tests/e2e/slurm_lib.sh: munged, slurmctld and slurmd on a private
# configuration, stopped by pid).  The merged result is the one the ssh
# engine brings back of the same spec from this same machine (an sshd on
# 127.0.0.1), numbers aside; a Ctrl-C mid-run stops the run at a point
# boundary and leaves no job in squeue, and --resume continues it; a
# SIGTERM while the allocation is pending (the node drained) revokes it; a
# node that goes down mid-run fails its points with the reason; a bad
# machine file is a located error.  Root only.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/ssh_lib.sh
. tests/e2e/slurm_lib.sh

BPFSWEEP=$(realpath "$BPFSWEEP")
T=fleet_slurm
SPEC=tests/e2e/fleet.spec

if [ "$(id -u)" != 0 ]; then skip $T "needs root (slurmd, BPF)"; exit 0; fi
if ! slurm_have; then skip $T "$SLURM_WHY"; exit 0; fi
for tool in ssh ssh-keygen /usr/sbin/sshd ss; do
	command -v "$tool" >/dev/null || { skip $T "$tool not found (openssh-server, iproute2)"; exit 0; }
done

# short: munge's socket path lives in it
TMP=$(mktemp -d /tmp/bsl.XXXXXX)
SSHD_PID=
cleanup() {
	slurm_stop
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null && wait "$SSHD_PID" 2>/dev/null
	[ -n "${KEEP_TMP-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if ! slurm_start "$TMP/slurm"; then fail $T "cannot start a one-node Slurm: $SLURM_WHY"; exit 0; fi
step_time "$T: a one-node Slurm"

# no_jobs: within 2 s, squeue holds no job and no slurmstepd of this cluster runs
no_jobs() {
	for _ in $(seq 20); do
		[ -z "$(slurm_jobs)" ] && [ -z "$(slurm_stepds)" ] && return 0
		sleep 0.1
	done
	return 1
}
# numbers_aside FILE: the table with every number a '#'
numbers_aside() { sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$1"; }
# node_dir LOG: the directory the probe made on the node
node_dir() { sed -n 's/^dir: //p' "$1" | tail -1; }
# wait_line FILE PATTERN: FILE has a line matching PATTERN (at most 30 s)
wait_line() {
	for _ in $(seq 300); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# The same spec over ssh from this machine, as the baseline of the merged result
mkdir "$TMP/home" "$TMP/remote"
ssh-keygen -q -t ed25519 -N '' -f "$TMP/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$TMP/id" ||
	{ fail $T "ssh-keygen"; exit 0; }
cp "$TMP/id.pub" "$TMP/authorized_keys"
PORT=$(free_port $((30000 + ($$ % 1000) * 7)))
echo "[127.0.0.1]:$PORT $(cat "$TMP/hostkey.pub")" > "$TMP/known_hosts"
ssh_client_conf "$TMP/ssh_config"
sshd_conf "$TMP/sshd.conf" "127.0.0.1:$PORT" "$TMP/hostkey" "$TMP/sshd.pid" "$TMP/remote"
mkdir -p /run/sshd
/usr/sbin/sshd -D -e -f "$TMP/sshd.conf" 2>"$TMP/sshd.log" &
SSHD_PID=$!
echo "@alpha/root@127.0.0.1:$PORT" > "$TMP/hosts"
echo "@alpha/ partition=$SLURM_PARTITION" > "$TMP/machines"
for _ in $(seq 50); do [ -n "$(ss -Htln "sport = :$PORT")" ] && break; sleep 0.1; done
timeout 120 "$BPFSWEEP" fleet "$SPEC" --hosts "$TMP/hosts" --ssh-config "$TMP/ssh_config" \
	-o "$TMP/ssh" >"$TMP/ssh.out" 2>"$TMP/ssh.err"
check "$T: the ssh baseline: exit 0" [ $? = 0 ]
step_time "$T: the ssh engine's fleet"

# The Slurm engine: the same spec, the same label, the same machine
timeout 120 "$BPFSWEEP" fleet "$SPEC" --engine slurm --hosts "$TMP/machines" \
	-o "$TMP/out" >"$TMP/out.out" 2>"$TMP/out.err"
st=$?
check "$T: exit 0" [ $st = 0 ]
[ $st = 0 ] || sed 's/^/  /' "$TMP/out.err"
check "$T: every row ok, from alpha" [ "$(csv_col "$TMP/out/summary.csv" status | sort | uniq -c | awk '{print $1, $2}')" = "2 ok" ] 
check "$T: the merged summary's columns and points are the ssh engine's" \
	[ "$(head -1 "$TMP/out/summary.csv")" = "$(head -1 "$TMP/ssh/summary.csv")" -a \
	  "$(csv_col "$TMP/out/summary.csv" point | tr '\n' ' ')" = \
	  "$(csv_col "$TMP/ssh/summary.csv" point | tr '\n' ' ')" -a \
	  "$(csv_col "$TMP/out/summary.csv" tag_fleet_host | tr '\n' ' ')" = "alpha alpha " ]
check "$T: the table is the ssh engine's, numbers aside" \
	[ "$(numbers_aside "$TMP/out/table.txt")" = "$(numbers_aside "$TMP/ssh/table.txt")" ]
check "$T: the charts are the ssh engine's" \
	[ -n "$(ls "$TMP/out/plots")" -a "$(ls "$TMP/out/plots")" = "$(ls "$TMP/ssh/plots")" ]
check "$T: the stdout table is the ssh engine's, numbers aside" \
	[ "$(numbers_aside "$TMP/out.out")" = "$(numbers_aside "$TMP/ssh.out")" ]
check "$T: the node's facts, from the node: its host, governor and kernel in its meta" \
	[ "$(sed -n 's/^host: //p' "$TMP/out/hosts/alpha/meta")" = "$SLURM_NODE" -a \
	  "$(grep -c '^cpu_governor: ' "$TMP/out/hosts/alpha/meta")" = 1 -a \
	  "$(sed -n 's/^kernel_release: //p' "$TMP/out/hosts/alpha/meta")" = "$(uname -r)" ]
check "$T: meta says the engine, the job and its node; the machines kept for --resume" \
	grep -q "^fleet_engine: slurm$" "$TMP/out/meta"
check "$T: host_note names the job's node" grep -q "^host_note: alpha Slurm job [0-9]* on node $SLURM_NODE$" "$TMP/out/meta"
check "$T: OUT/hostfile is the machines as parsed" [ "$(cat "$TMP/out/hostfile")" = "@alpha/ partition=$SLURM_PARTITION" ]
DIR=$(node_dir "$TMP/out/logs/alpha.log")
check "$T: the node's directory is removed, no job left" [ -n "$DIR" -a ! -e "$DIR" ]
check "$T: no job left in squeue, no slurmstepd" no_jobs
check "$T: progress per host" grep -q "^host alpha: done in .* (bpfsweep exited 0)" "$TMP/out.err"
step_time "$T: the Slurm engine's fleet"

# --partition alone (the issue's command): one machine, labelled by it
timeout 120 "$BPFSWEEP" fleet "$SPEC" --engine slurm --partition "$SLURM_PARTITION" --no-plots \
	-o "$TMP/part" >/dev/null 2>"$TMP/part.err"
check "$T: --partition alone: exit 0, the partition's label on every row" \
	[ $? = 0 -a "$(csv_col "$TMP/part/summary.csv" tag_fleet_host | sort -u)" = "$SLURM_PARTITION" ]
step_time "$T: --partition alone"

# Four points of half a second each, for what stops or fails mid-run
sed 's/^producers = .*/producers = 1 2 3 4/; s/^duration .*/duration = 500ms/' "$SPEC" > "$TMP/four.spec"

# Ctrl-C mid-run: the point it runs ends interrupted, what it finished comes back
"$BPFSWEEP" fleet "$TMP/four.spec" --engine slurm --hosts "$TMP/machines" --no-plots \
	-o "$TMP/int" >/dev/null 2>"$TMP/int.err" &
pid=$!
wait_line "$TMP/int/logs/alpha.log" '^\[1/4\].*: ok' || fail $T "Ctrl-C: the first point did not finish"
kill -INT $pid
wait $pid
st=$?
check "$T: Ctrl-C: exit 130" [ $st = 130 ]
check "$T: Ctrl-C: no job left in squeue, no slurmstepd" no_jobs
check "$T: Ctrl-C: meta says alpha was interrupted" grep -q "^host_interrupted: alpha its run stopped" "$TMP/int/meta"
check "$T: Ctrl-C: its first point came back ok, one point interrupted" \
	[ "$(csv_col "$TMP/int/hosts/alpha/summary.csv" status | head -1)" = ok -a \
	  "$(csv_col "$TMP/int/hosts/alpha/summary.csv" status | grep -c interrupted)" = 1 ]
check "$T: Ctrl-C: the way on is said, the partial result recorded" \
	[ -e "$TMP/int/remote/alpha" ] && grep -q -- "--resume $TMP/int\$" "$TMP/int.err"
DIR=$(node_dir "$TMP/int/logs/alpha.log")
check "$T: Ctrl-C: the node's directory is removed" [ -n "$DIR" -a ! -e "$DIR" ]
sed -n 2p "$TMP/int/hosts/alpha/summary.csv" > "$TMP/row0"
KEPT=$(csv_col "$TMP/int/hosts/alpha/summary.csv" status | grep -c '^ok$')
step_time "$T: Ctrl-C mid-run"

# --resume: the points left run in a new allocation, the first keeps its row
timeout 120 "$BPFSWEEP" fleet "$TMP/four.spec" --resume "$TMP/int" --no-plots >/dev/null 2>"$TMP/res.err"
st=$?
check "$T: resume: exit 0" [ $st = 0 ]
check "$T: resume: every point once, ok" \
	[ "$(csv_col "$TMP/int/summary.csv" point | tr '\n' ' ')" = "0 1 2 3 " -a \
	  "$(csv_col "$TMP/int/summary.csv" status | sort -u)" = ok ]
check "$T: resume: the $KEPT points that finished kept their rows on the node" \
	grep -q "$KEPT of 4 points keep their rows, $((4 - KEPT)) to run" "$TMP/int/logs/alpha.log"
check "$T: resume: the first point's row is the one that came back before" \
	grep -qxF -f "$TMP/row0" "$TMP/int/hosts/alpha/summary.csv"
check "$T: resume: no interruption left in meta, its record gone, no job left" \
	[ -z "$(grep '^host_interrupted' "$TMP/int/meta")" -a ! -e "$TMP/int/remote/alpha" ] && no_jobs
step_time "$T: --resume"

# SIGTERM while the allocation is pending (the node drained): revoked, as by Ctrl-C
scontrol update NodeName="$SLURM_NODE" State=DRAIN Reason=bpfsweep-test
"$BPFSWEEP" fleet "$SPEC" --engine slurm --hosts "$TMP/machines" --no-plots \
	-o "$TMP/pend" >/dev/null 2>"$TMP/pend.err" &
pid=$!
wait_line "$TMP/pend/logs/alpha.log" "Pending job allocation" || fail $T "pending: salloc did not wait"
check "$T: pending: squeue holds the job, pending" [ "$(slurm_jobs | awk '{print $2}')" = PENDING ]
kill -TERM $pid
wait $pid
st=$?
check "$T: pending: SIGTERM: exit 143, no job left" [ $st = 143 ] && no_jobs
check "$T: pending: interrupted before its run" grep -q "^host_interrupted: alpha interrupted before its run" "$TMP/pend/meta"
scontrol update NodeName="$SLURM_NODE" State=RESUME
slurm_wait_idle 100 || fail $T "the node is not idle again"
step_time "$T: SIGTERM while pending"

# A node that goes down mid-run: its points fail with the reason, the job is gone
"$BPFSWEEP" fleet "$TMP/four.spec" --engine slurm --hosts "$TMP/machines" --no-plots \
	-o "$TMP/down" >/dev/null 2>"$TMP/down.err" &
pid=$!
wait_line "$TMP/down/logs/alpha.log" '^\[1/4\].*: ok' || fail $T "down: the first point did not finish"
scontrol update NodeName="$SLURM_NODE" State=DOWN Reason=bpfsweep-test
timeout 60 tail --pid=$pid -f /dev/null
wait $pid
st=$?
check "$T: node down: exit 1" [ $st = 1 ]
check "$T: node down: host_failed says the run failed" grep -q "^host_failed: alpha the run failed" "$TMP/down/meta"
check "$T: node down: a row per point, the ones it did not finish failed with the reason" \
	[ "$(csv_col "$TMP/down/summary.csv" point | tr '\n' ' ')" = "0 1 2 3 " -a \
	  "$(csv_col "$TMP/down/summary.csv" status | grep -c failed)" -ge 2 ]
check "$T: node down: no job left" no_jobs
# slurmd registers again at once (ReturnToService=2): the node may be idle already
scontrol update NodeName="$SLURM_NODE" State=RESUME 2>/dev/null
slurm_wait_idle 100 || fail $T "the node is not idle again after it was down"
step_time "$T: a node that goes down"

# A bad machine file: a located error, nothing started
# shellcheck disable=SC2016  # a $(...) the machine file must refuse, not run
printf '@a/ partition=debug\n@b/ partition=$(id) --exclusive\n' > "$TMP/bad"
"$BPFSWEEP" fleet "$SPEC" --engine slurm --hosts "$TMP/bad" -o "$TMP/bad.out" 2>"$TMP/bad.err"
check "$T: bad machine file: exit 2, located, no OUT" \
	[ $? = 2 -a ! -e "$TMP/bad.out" ] && grep -q "bad:2:15: error: partition: a character Slurm does not take there" "$TMP/bad.err"
check "$T: no job left at the end" no_jobs
