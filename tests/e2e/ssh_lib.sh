# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the fleet tests (fleet.sh, fleet_vm.sh): the configuration
# files of their throwaway sshds and of the ssh that reaches them.  Both
# use $TMP: authorized_keys, id (the client key), known_hosts and home.
# And a free port (fleet_vm.sh, and kernel.sh for the guest it boots).

# sshd_conf FILE LISTEN HOSTKEY PIDFILE TMPDIR: Debian's sshd on the test's
# keys only; the remote shell reads none of root's dotfiles (HOME in $TMP)
sshd_conf() {
	cat > "$1" <<-CONF
		ListenAddress $2
		HostKey $3
		AuthorizedKeysFile $TMP/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		StrictModes no
		UsePAM no
		PidFile $4
		Subsystem sftp /usr/lib/openssh/sftp-server
		SetEnv TMPDIR=$5 HOME=$TMP/home
	CONF
}

# ssh_client_conf FILE [OPTION...]: every host as root with the test's key
# and known hosts, then each OPTION line ("ConnectTimeout 10")
ssh_client_conf() {
	local f=$1 o
	shift
	cat > "$f" <<-CONF
		Host *
			User root
			IdentityFile $TMP/id
			IdentitiesOnly yes
			UserKnownHostsFile $TMP/known_hosts
			StrictHostKeyChecking yes
	CONF
	for o in "$@"; do printf '\t%s\n' "$o" >> "$f"; done
}

# free_port FROM: the first port from FROM on that nothing listens on
free_port() {
	local p
	for p in $(seq "$1" $(($1 + 500))); do
		[ -z "$(ss -Htln "sport = :$p")" ] && echo "$p" && return 0
	done
	return 1
}
