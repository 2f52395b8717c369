#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-kernel.sh: which cached kernel it picks and that it then stays
# off the network (on a made-up cache), then the real kernel in the default
# cache (.cache/vm-kernel, fetched once and kept for the VM tests): a bzImage
# of the release its directory names, a config with what the VM needs, the
# NIC's modules in their load order, the same path again with no network,
# and the host's packages untouched.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

S=scripts/vm-kernel.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DEAD_PROXY=http://127.0.0.1:9

# offline CMD...: CMD with no route out where a network namespace can be
# had, and an unusable proxy in any case
offline() {
	if [ "$(id -u)" -eq 0 ] && unshare -n true 2>/dev/null; then
		http_proxy=$DEAD_PROXY unshare -n "$@"
	else
		http_proxy=$DEAD_PROXY "$@"
	fi
}

# run_s NAME [VAR=VALUE...] [ARGS...]: the script offline into $TMP/NAME.{out,err,rc}
run_s() {
	local name=$1
	shift
	offline env "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc_is() { [ "$(cat "$TMP/$1.rc")" = "$2" ]; }
out_is() { [ "$(cat "$TMP/$1.out")" = "$2" ]; }
err_has() { grep -qF -- "$2" "$TMP/$1.err"; }

# --- arguments and architecture: no cache needed
C=$TMP/cache
if setarch i686 true 2>/dev/null; then
	run_s arch VM_KERNEL_CACHE="$C" setarch i686 "$S"
	check vm-kernel/arch-exit-2 rc_is arch 2
	check vm-kernel/arch-no-path out_is arch ""
	check vm-kernel/arch-message err_has arch \
		"no Debian cloud kernel for i686; give kernel = <your image>"
else
	skip vm-kernel/arch "setarch i686 not available"
fi
run_s usage VM_KERNEL_CACHE="$C" "$S" --bogus
check vm-kernel/usage-exit-2 rc_is usage 2
run_s badpin VM_KERNEL_CACHE="$C" VM_KERNEL_VERSION=../../etc "$S"
check vm-kernel/bad-pin-refused rc_is badpin 1
check vm-kernel/bad-pin-no-path out_is badpin ""
# a release older than 6.19 may be pinned (not cached here, offline: no path)
run_s oldpin VM_KERNEL_CACHE="$C" VM_KERNEL_VERSION=6.12.5+deb13-cloud-amd64 "$S"
check vm-kernel/old-pin-not-refused-as-old not err_has oldpin "older than"
check vm-kernel/old-pin-offline-no-path out_is oldpin ""
run_s badver VM_KERNEL_CACHE="$C" "$S" 'six;rm'
check vm-kernel/bad-version-refused rc_is badver 1
check vm-kernel/bad-version-message err_has badver "is neither a version (6.12, 6.1.158) nor"
run_s listver VM_KERNEL_CACHE="$C" "$S" --list 6.1
check vm-kernel/list-takes-no-version rc_is listver 2
run_s twover VM_KERNEL_CACHE="$C" "$S" 6.1 6.12
check vm-kernel/one-version-only rc_is twover 2

# --- a made-up cache: the newest complete cloud release >= 6.19, by version
# (7.10 after 7.2), with no network
fake() {
	mkdir -p "$C/$1"
	: >"$C/$1/vmlinuz"
	[ "$2" = image-only ] || echo CONFIG_VIRTIO_FS=y >"$C/$1/config"
	[ "$2" = incomplete ] || : >"$C/$1/.complete"
}
fake 6.18.3+deb13-cloud-amd64 complete		# too old
fake 7.2.12+deb13-cloud-amd64 complete
fake 7.10.1+deb13-cloud-amd64 complete		# the newest complete
fake 7.20.1+deb13-cloud-amd64 incomplete	# a fetch that never finished
fake 7.30.1+deb13-cloud-amd64 image-only	# vmlinuz alone: no NIC, no config
echo "Package: linux-binary-7.30.1+deb13-cloud-amd64 Version: 7.30.1-1~bpo13+1" \
	>"$C/7.30.1+deb13-cloud-amd64/.complete"
fake 8.0.1+deb13-amd64 complete			# not the cloud flavour
run_s pick VM_KERNEL_CACHE="$C" "$S"
check vm-kernel/cached-newest-exit-0 rc_is pick 0
check vm-kernel/cached-newest out_is pick "$C/7.10.1+deb13-cloud-amd64/vmlinuz"
# an image-only release only when asked for by version
run_s image_only VM_KERNEL_CACHE="$C" "$S" 7.30
check vm-kernel/image-only-by-version out_is image_only "$C/7.30.1+deb13-cloud-amd64/vmlinuz"
run_s pinned VM_KERNEL_CACHE="$C" VM_KERNEL_VERSION=7.2.12+deb13-cloud-amd64 "$S"
check vm-kernel/cached-pinned out_is pinned "$C/7.2.12+deb13-cloud-amd64/vmlinuz"
# --modules: only a release with the NIC's modules will do; one without
# them is as good as absent (offline: no path), an older one with them wins
run_s nomods VM_KERNEL_CACHE="$C" "$S" --modules
check vm-kernel/modules-none-cached-fails not rc_is nomods 0
check vm-kernel/modules-none-cached-no-path out_is nomods ""
mkdir "$C/7.2.12+deb13-cloud-amd64/modules"
echo virtio_net.ko.xz >"$C/7.2.12+deb13-cloud-amd64/modules/load"
run_s mods VM_KERNEL_CACHE="$C" "$S" --modules
check vm-kernel/modules-cached out_is mods "$C/7.2.12+deb13-cloud-amd64/vmlinuz"
# a version by name, from the cache with no network: the newest release of
# it (6.1.0-57 over 6.1.0-55 of the same 6.1.192, over 6.1.190), the cloud
# flavour before the generic one, a generic one by its release name, and not
# one whose config needs an initramfs it does not have
fake_version() {	# RELEASE PACKAGE-VERSION [CONFIG-LINE]
	mkdir -p "$C/$1"
	: >"$C/$1/vmlinuz"
	echo "${3:-CONFIG_VIRTIO_FS=y}" >"$C/$1/config"
	echo "Package: linux-image-$1 Version: $2" >"$C/$1/.complete"
}
fake_version 6.1.0-54-cloud-amd64 6.1.190-1 CONFIG_VIRTIO_FS=m
echo 070701 >"$C/6.1.0-54-cloud-amd64/initrd.cpio"
fake_version 6.1.0-55-cloud-amd64 6.1.192-1 CONFIG_VIRTIO_FS=m
echo 070701 >"$C/6.1.0-55-cloud-amd64/initrd.cpio"
fake_version 6.1.0-57-cloud-amd64 6.1.192-1 CONFIG_VIRTIO_FS=m
echo 070701 >"$C/6.1.0-57-cloud-amd64/initrd.cpio"
fake_version 6.12.118+deb13-amd64 6.12.118-1
fake_version 6.12.117+deb13-cloud-amd64 6.12.117-1
fake_version 6.12.118+deb13-cloud-amd64 6.12.118-1 CONFIG_VIRTIO_FS=m	# no initrd.cpio
run_s v61 VM_KERNEL_CACHE="$C" "$S" 6.1
check vm-kernel/version-newest-release out_is v61 "$C/6.1.0-57-cloud-amd64/vmlinuz"
run_s v61190 VM_KERNEL_CACHE="$C" "$S" 6.1.190
check vm-kernel/version-exact out_is v61190 "$C/6.1.0-54-cloud-amd64/vmlinuz"
run_s v612 VM_KERNEL_CACHE="$C" "$S" 6.12
check vm-kernel/version-cloud-first-usable-only out_is v612 \
	"$C/6.12.117+deb13-cloud-amd64/vmlinuz"
run_s vgen VM_KERNEL_CACHE="$C" "$S" 6.12.118+deb13-amd64
check vm-kernel/version-by-release out_is vgen "$C/6.12.118+deb13-amd64/vmlinuz"
run_s v65 VM_KERNEL_CACHE="$C" "$S" 6.5
check vm-kernel/version-absent-offline-fails not rc_is v65 0
check vm-kernel/version-absent-no-path out_is v65 ""
# the suites it then asked for: bullseye's three too (5.10), security from
# the security mirror, and no bullseye-backports (gone from the mirror: its
# 404 would fail the update)
sources_has() { grep -qx "deb \[arch=amd64 signed-by=[^]]*\] $1 main" "$C/apt/sources.list"; }
check vm-kernel/suites-bullseye sources_has "http://deb.debian.org/debian bullseye"
check vm-kernel/suites-bullseye-security \
	sources_has "http://deb.debian.org/debian-security bullseye-security"
check vm-kernel/suites-no-bullseye-backports not grep -q bullseye-backports "$C/apt/sources.list"
check vm-kernel/suites-trixie-backports sources_has "http://deb.debian.org/debian trixie-backports"
# 5.10 by version, from the cache (bullseye's release names: 5.10.0-46-cloud-amd64)
fake_version 5.10.0-46-cloud-amd64 5.10.262-1 CONFIG_VIRTIO_FS=m
echo 070701 >"$C/5.10.0-46-cloud-amd64/initrd.cpio"
run_s v510 VM_KERNEL_CACHE="$C" "$S" 5.10
check vm-kernel/version-5.10 out_is v510 "$C/5.10.0-46-cloud-amd64/vmlinuz"
run_s vdefault VM_KERNEL_CACHE="$C" "$S"
check vm-kernel/default-still-newest-cloud-6.19 out_is vdefault "$C/7.10.1+deb13-cloud-amd64/vmlinuz"

# a pinned release not in the cache needs the network: a failure, no path,
# nothing half-made left behind
run_s absent VM_KERNEL_CACHE="$C" VM_KERNEL_VERSION=7.3.4+deb13-cloud-amd64 "$S"
check vm-kernel/absent-offline-fails not rc_is absent 0
check vm-kernel/absent-no-path out_is absent ""
check vm-kernel/absent-nothing-left [ ! -e "$C/7.3.4+deb13-cloud-amd64" ]
check vm-kernel/no-temp-left [ -z "$(find "$C" -maxdepth 1 -name '.fetch.*')" ]
# --update asks the archive: offline it fails rather than pass off the cache
run_s update VM_KERNEL_CACHE="$C" "$S" --update
check vm-kernel/update-offline-fails not rc_is update 0
check vm-kernel/update-no-path out_is update ""

# --- the real kernel, in the default cache
pkgs_snapshot() {
	md5sum /var/lib/dpkg/status
	ls -l --time-style=+%s /var/lib/apt/lists /var/cache/apt/archives 2>/dev/null
}
pkgs_snapshot >"$TMP/before"
# (--modules: a cache from before the NIC's modules were kept is fetched again)
if ! "$S" --modules >"$TMP/real.out" 2>"$TMP/real.err"; then
	skip vm-kernel/fetch "$(tail -n1 "$TMP/real.err")"
	exit 0
fi
K=$(cat "$TMP/real.out")
D=${K%/vmlinuz}
REL=${D##*/}
check vm-kernel/one-line [ "$(wc -l <"$TMP/real.out")" = 1 ]
check vm-kernel/in-default-cache [ "$D" = "$PWD/.cache/vm-kernel/$REL" ]
check vm-kernel/complete [ -f "$D/.complete" ]
new_enough() { [ "$(printf '6.19\n%s\n' "${1%%+*}" | sort -V | head -n1)" = 6.19 ]; }
check vm-kernel/release-at-least-6.19 new_enough "$REL"

# a bzImage: "HdrS" at 0x202; the version string it points to (0x20e, an
# offset from 0x200) starts with the release its directory is named after
bytes_at() { dd if="$1" bs=1 skip="$2" count="$3" 2>/dev/null; }
is_bzimage() { [ "$(bytes_at "$1" 514 4)" = HdrS ]; }
image_release() {
	local off
	off=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	bytes_at "$1" $((off + 512)) 256 | tr '\0' '\n' | head -n1 | cut -d' ' -f1
}
check vm-kernel/bzimage is_bzimage "$K"
check vm-kernel/image-is-release [ "$(image_release "$K")" = "$REL" ]
for opt in VIRTIO_FS VIRTIO_PCI BPF_SYSCALL DEBUG_INFO_BTF; do
	check "vm-kernel/config-$opt" grep -qx "CONFIG_$opt=y" "$D/config"
done

# the NIC's modules, virtio_net last after what it depends on, each kept
check vm-kernel/modules-load-order [ "$(tail -n1 "$D/modules/load")" = virtio_net.ko.xz -a \
	"$(wc -l <"$D/modules/load")" -ge 2 ]
modules_kept() {
	local m
	while read -r m; do [ -s "$D/modules/$m" ] || return 1; done <"$D/modules/load"
}
check vm-kernel/modules-kept modules_kept

# a second call stays off the network and names the same file
offline "$S" --modules >"$TMP/again.out" 2>"$TMP/again.err"
check vm-kernel/offline-exit-0 [ $? = 0 ]
check vm-kernel/offline-same-path out_is again "$K"

# nothing installed on the host, the host's apt state as it was
pkgs_snapshot >"$TMP/after"
check vm-kernel/host-apt-dpkg-untouched cmp -s "$TMP/before" "$TMP/after"
not_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" != installed ]
}
for p in linux-binary linux-base linux-image linux-modules; do
	check "vm-kernel/not-installed-$p" not_installed "$p-$REL"
done
check vm-kernel/dpkg-audit-clean [ -z "$(dpkg --audit 2>&1)" ]
