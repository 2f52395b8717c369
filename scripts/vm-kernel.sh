#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A kernel newer than 6.19 to boot under qemu, for tests that the host's
# kernel cannot serve (lockdown, no kprobes): Debian's cloud flavour from
# trixie-backports, which has virtio-fs, virtio-pci, BPF and BTF built in,
# so the image alone boots with no modules and no initramfs.
#
# Nothing is installed: a private apt configuration under the cache
# downloads linux-binary-VER (vmlinuz), linux-base-VER (config,
# System.map) and linux-modules-VER, checked against the host's Debian
# archive keyring, and dpkg-deb -x unpacks them into $CACHE/VER/.  Of the
# modules only the guest's NIC is kept: virtio_net and what it depends on,
# in VER/modules/, with VER/modules/load naming them in the order insmod
# takes them (the cloud kernel has no network driver built in).  The
# host's apt lists, apt cache and dpkg database are not touched.
#
# Prints one line on stdout: the absolute path of vmlinuz (config beside
# it).  Once a version is in the cache, a call without --update uses the
# newest complete one and does not reach the network.
#
#   VM_KERNEL_CACHE    cache directory (default <repo>/.cache/vm-kernel)
#   VM_KERNEL_VERSION  a kernel release to use, e.g. 7.3.4+deb13-cloud-amd64
#   --update           look for a newer kernel in the archive
#   --modules          only a release with the NIC modules will do: one
#                      fetched before they were kept is fetched again
set -eu

MIN_VERSION=6.19
SUITE=trixie-backports
MIRROR=http://deb.debian.org/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# A release of the cloud flavour: 7.3.4+deb13-cloud-amd64
RELEASE_RE='^[0-9]+(\.[0-9]+)+\+deb[0-9]+-cloud-amd64$'
# The guest's NIC under qemu (virtio-net-pci), kept with its dependencies
NET_MODULE=virtio_net

die() {
	echo "vm-kernel: $*" >&2
	exit 1
}

usage() {
	echo "usage: $0 [--update] [--modules]" >&2
	exit 2
}

# At least MIN_VERSION: the upstream part of a release, before '+'.
new_enough() {
	oldest=$(printf '%s\n%s\n' "$MIN_VERSION" "${1%%+*}" | sort -V | head -n1)
	[ "$oldest" = "$MIN_VERSION" ]
}

valid_release() {
	printf '%s\n' "$1" | grep -Eq "$RELEASE_RE"
}

# Release $1 is in the cache whole (with its NIC modules, under --modules).
usable() {
	[ -f "$CACHE/$1/.complete" ] || return 1
	[ "$MODULES" -eq 0 ] || [ -s "$CACHE/$1/modules/load" ]
}

# The newest usable release in the cache (or the pinned one), or nothing.
cached_release() {
	if [ -n "$PIN" ]; then
		! usable "$PIN" || echo "$PIN"
		return 0
	fi
	for d in "$CACHE"/*/.complete; do
		[ -f "$d" ] || continue
		r=${d%/.complete}
		r=${r##*/}
		valid_release "$r" && new_enough "$r" && usable "$r" && echo "$r"
	done | sort -V | tail -n1
}

# Runs apt-get or apt-cache ($1) on the private configuration only.
apt_private() {
	tool=$1
	shift
	"$tool" -q \
		-o Dir::Etc::SourceList="$APTDIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$APTDIR/lists" \
		-o Dir::Cache="$APTDIR/cache" \
		-o APT::Get::List-Cleanup=0 \
		-o APT::Sandbox::User="$SANDBOX_USER" \
		"$@"
}

# As root, apt downloads as the user _apt, who must then be able to write
# where the files go.  Where _apt cannot reach the cache (a repository
# under /root), apt would fall back to root with a warning: say so once
# and choose root.  Other users download as themselves.
choose_sandbox() {
	SANDBOX_USER=_apt
	DL_OWNER=""
	[ "$(id -u)" -eq 0 ] || return 0
	if id _apt >/dev/null 2>&1 && chown _apt "$APTDIR/lists/partial" &&
	   runuser -u _apt -- test -w "$APTDIR/lists/partial"; then
		DL_OWNER=_apt
		return 0
	fi
	echo "vm-kernel: _apt cannot write $APTDIR: downloading as root" >&2
	SANDBOX_USER=root
}

setup_apt() {
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
	# signed-by: only Debian's archive keys vouch for this source, not
	# every key the host trusts.  The bookworm keyring has trixie's.
	[ -r "$KEYRING" ] || die "$KEYRING missing (package debian-archive-keyring)"
	echo "deb [arch=amd64 signed-by=$KEYRING] $MIRROR $SUITE main" \
		> "$APTDIR/sources.list"
	choose_sandbox
}

# The newest cloud release in the archive's lists, at least MIN_VERSION.
newest_release() {
	apt_private apt-cache search --names-only '^linux-binary-' |
		sed -n 's/^linux-binary-\([^ ]*\) - .*/\1/p' |
		while read -r r; do
			valid_release "$r" && new_enough "$r" && echo "$r"
		done | sort -V | tail -n1
}

# Keeps module $3 of the unpacked tree $1 in $2/, after what it depends
# on (modinfo's depends: the package has no modules.dep, depmod makes it
# on install), and appends its file name to $2/load: the order insmod
# takes them in.  Its file is $4: positional parameters are a function's
# own in sh, and the calls recurse.
keep_module() {
	grep -qx "$3\.ko.*" "$2/load" 2>/dev/null && return 0
	set -- "$1" "$2" "$3" "$(find "$1/kernel" -name "$3.ko*" -o \
		-name "$(echo "$3" | tr _ -).ko*" | head -n1)"
	[ -n "$4" ] || die "no module $3 in linux-modules-$rel"
	for d in $(PATH=$PATH:/sbin:/usr/sbin modinfo -F depends "$4" | tr , ' '); do
		keep_module "$1" "$2" "$d"
	done
	cp "$4" "$2/"
	echo "${4##*/}" >> "$2/load"
}

# Downloads and unpacks release $1 into $CACHE/$1, which appears whole or
# not at all: unpacked in a temporary directory, marked complete, renamed.
fetch() {
	rel=$1
	tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX")
	chmod 755 "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir "$tmp/deb" "$tmp/root" "$tmp/out"
	[ -z "$DL_OWNER" ] || chown "$DL_OWNER" "$tmp/deb"
	(cd "$tmp/deb" && apt_private apt-get download \
		"linux-binary-$rel" "linux-base-$rel" "linux-modules-$rel") >&2 ||
		die "could not download linux-binary-$rel, linux-base-$rel and linux-modules-$rel"
	for deb in "$tmp"/deb/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	mod="$tmp/root/usr/lib/modules/$rel"
	for f in vmlinuz config System.map; do
		[ -f "$mod/$f" ] || die "no usr/lib/modules/$rel/$f in the packages"
		mv "$mod/$f" "$tmp/out/$f"
	done
	mkdir "$tmp/out/modules"
	keep_module "$mod" "$tmp/out/modules" "$NET_MODULE"
	# Which packages these files came from, written last.
	for deb in "$tmp"/deb/*.deb; do
		dpkg-deb -f "$deb" Package Version | paste -sd ' '
	done > "$tmp/out/.complete"
	rm -rf "${CACHE:?}/$rel"
	mv "$tmp/out" "$CACHE/$rel"
	rm -rf "$tmp"
	trap - EXIT
}

UPDATE=0
MODULES=0
for arg in "$@"; do
	case $arg in
	--update) UPDATE=1 ;;
	--modules) MODULES=1 ;;
	*) usage ;;
	esac
done

arch=$(uname -m)
if [ "$arch" != x86_64 ]; then
	echo "vm-kernel: no Debian cloud kernel for $arch; give kernel = <your image>" >&2
	exit 2
fi

REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${VM_KERNEL_CACHE:-$REPO/.cache/vm-kernel}
PIN=${VM_KERNEL_VERSION:-}
if [ -n "$PIN" ] && ! valid_release "$PIN"; then
	die "VM_KERNEL_VERSION=$PIN is not a cloud kernel release like 7.3.4+deb13-cloud-amd64"
fi
if [ -n "$PIN" ] && ! new_enough "$PIN"; then
	die "VM_KERNEL_VERSION=$PIN is older than $MIN_VERSION"
fi
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
APTDIR=$CACHE/apt

rel=""
[ "$UPDATE" -eq 1 ] || rel=$(cached_release)
if [ -z "$rel" ]; then
	# One fetch at a time per cache; a caller that waited may then find
	# the release the other one fetched.
	exec 9> "$CACHE/.lock"
	flock 9
	[ "$UPDATE" -eq 1 ] || rel=$(cached_release)
fi
if [ -z "$rel" ]; then
	setup_apt
	echo "vm-kernel: reading $SUITE from $MIRROR" >&2
	apt_private apt-get update --error-on=any >&2 ||
		die "apt-get update of $SUITE failed (no network? set http_proxy)"
	rel=$PIN
	[ -n "$rel" ] || rel=$(newest_release)
	[ -n "$rel" ] || die "no linux-binary-*-cloud-amd64 >= $MIN_VERSION in $SUITE"
	if ! usable "$rel"; then
		echo "vm-kernel: fetching $rel" >&2
		fetch "$rel"
	fi
fi
echo "$CACHE/$rel/vmlinuz"
