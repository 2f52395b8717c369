#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A Debian kernel to boot under qemu: by default the newest cloud kernel
# of 6.19 or later (tests that the host's kernel cannot serve: lockdown,
# no kprobes), or any version the archive has, by name, for a before and
# after on two real kernels:
#
#   vm-kernel.sh [--update] [--modules]   the newest cloud kernel >= 6.19
#   vm-kernel.sh [--update] VERSION       6.12, 6.1.158, or a release such as
#                                         6.1.0-41-cloud-amd64: the newest match,
#                                         the cloud flavour before the generic one
#   vm-kernel.sh --list                   every version in the suites below:
#                                         version, release, suite, cached or
#                                         not, image-only (its modules and
#                                         config are gone: vmlinuz alone)
#
# The suites: bullseye, bookworm, trixie, their -updates and -security,
# and the -backports of bookworm and trixie.
# Nothing is installed: a private apt configuration under the cache
# downloads the release's packages (linux-binary-, linux-base- and
# linux-modules-REL where the archive splits them, linux-image-REL where it
# does not), checked against the host's Debian archive keyring, and
# dpkg-deb -x unpacks them; $CACHE/REL/ keeps vmlinuz, config and
# System.map.  The host's apt lists, apt cache and dpkg database are not
# touched.
#
# A backport's linux-base (config, System.map) and linux-modules leave the
# archive with its next upload; its linux-binary (vmlinuz) stays.  Such a
# release is image-only: vmlinuz alone boots as a guest (Debian builds
# virtio-pci, virtio-fs and FUSE in since 6.12), without a NIC and with its
# config unknown.  A version argument takes one where no whole release
# matches; the default kernel and --modules never do.
#
# Of the modules only a few are kept.  The guest's NIC: virtio_net and
# what it depends on, in REL/modules/, REL/modules/load naming them in the
# order insmod takes them (no Debian flavour has a network driver built
# in).  And where the config has virtio-pci, virtio-fs or FUSE as modules
# (6.1), the guest could not mount its root: REL/initrd.cpio is then a
# minimal initramfs, a static init (vm-initrd-init.c, gcc -static) that
# loads those modules and mounts the root, with the modules beside it;
# bpfsweep boots an image with the initrd.cpio beside it (docs/kernel.md).
#
# Prints one line on stdout: the absolute path of vmlinuz (config beside
# it).  Once a version is in the cache, a call without --update uses the
# newest complete one that matches and does not reach the network.
#
#   VM_KERNEL_CACHE    cache directory (default <repo>/.cache/vm-kernel)
#   VM_KERNEL_VERSION  a release to use, e.g. 7.3.4+deb13-cloud-amd64
#   --update           look for a newer kernel in the archive (the suites'
#                      lists read again, however fresh)
#   --modules          only a release with the NIC modules will do: one
#                      fetched before they were kept is fetched again
set -eu

MIN_VERSION=6.19
DEFAULT_SUITE=trixie-backports
MIRROR=http://deb.debian.org/debian
SECURITY=http://deb.debian.org/debian-security
# Every suite a version may be in.  bullseye (5.10) has no -backports on
# the mirror any more (it moved to archive.debian.org with buster, which
# this machine cannot resolve): its three suites are named one by one.
ALL_SUITES_LIST="bullseye bullseye-updates bullseye-security
	bookworm bookworm-updates bookworm-backports bookworm-security
	trixie trixie-updates trixie-backports trixie-security"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# A release of the default kind, the cloud flavour: 7.3.4+deb13-cloud-amd64
RELEASE_RE='^[0-9]+(\.[0-9]+)+\+deb[0-9]+-cloud-amd64$'
# Any amd64 release of the cloud or generic flavour: 6.1.0-41-cloud-amd64,
# 6.12.57+deb13-amd64, 6.12.12+bpo-cloud-amd64 (not rt, not a debug package)
ANY_RELEASE_RE='^[0-9]+(\.[0-9]+)+(-[0-9]+|\+[a-z0-9]+)+-(cloud-)?amd64$'
# The guest's NIC under qemu (virtio-net-pci), kept with its dependencies
NET_MODULE=virtio_net
# What the guest needs to mount its root: when any is a module, an initramfs
INITRD_CONFIGS="VIRTIO_PCI FUSE_FS VIRTIO_FS"
INITRD_MODULES="virtio_pci virtiofs"

die() {
	echo "vm-kernel: $*" >&2
	exit 1
}

usage() {
	echo "usage: $0 [--update] [--modules] [VERSION] | --list" >&2
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

any_release() {
	printf '%s\n' "$1" | grep -Eq "$ANY_RELEASE_RE"
}

# The upstream version of a Debian package version: 6.1.158-1 -> 6.1.158.
upstream() {
	echo "${1%%-*}"
}

# Upstream version $1 is what VERSION ($WANT) names: itself or a release of it.
matches() {
	case $1 in
	"$WANT" | "$WANT".*) return 0 ;;
	esac
	return 1
}

# The cloud flavour sorts first: 0 cloud, 1 generic.
flavour_rank() {
	case $1 in
	*-cloud-amd64) echo 0 ;;
	*) echo 1 ;;
	esac
}

# Release $1's config has a driver the root needs as a module (an
# image-only release has no config: Debian built those in).
needs_initrd() {
	for c in $INITRD_CONFIGS; do
		grep -sqx "CONFIG_$c=m" "$1/config" && return 0
	done
	return 1
}

# Release $1 is in the cache whole (with its NIC modules, under --modules;
# with its initramfs where its config needs one).
usable() {
	[ -f "$CACHE/$1/.complete" ] || return 1
	[ "$MODULES" -eq 0 ] || [ -s "$CACHE/$1/modules/load" ] || return 1
	! needs_initrd "$CACHE/$1" || [ -s "$CACHE/$1/initrd.cpio" ]
}

# The upstream version a cached release was fetched as (its .complete).
cached_version() {
	v=$(sed -n 's/^Package: linux-[bi][a-z]*-[^ ]* Version: \([^ ]*\)$/\1/p' \
		"$CACHE/$1/.complete" | head -n1)
	upstream "$v"
}

# The best usable release in the cache for what was asked (the pinned one,
# VERSION, or the newest cloud >= MIN_VERSION), or nothing.
cached_release() {
	if [ -n "$PIN" ]; then
		! usable "$PIN" || echo "$PIN"
		return 0
	fi
	for d in "$CACHE"/*/.complete; do
		[ -f "$d" ] || continue
		r=${d%/.complete}
		r=${r##*/}
		usable "$r" || continue
		# an image-only release (no config) ranks after the whole ones
		rank=$(flavour_rank "$r")
		[ -f "$CACHE/$r/config" ] || rank=$((rank + 2))
		if [ -n "$WANT" ]; then
			any_release "$r" || continue
			v=$(cached_version "$r")
			[ "$r" = "$WANT" ] || matches "$v" || continue
			echo "$rank $v $r"
		elif valid_release "$r" && new_enough "$r" && [ "$rank" -eq 0 ]; then
			echo "0 ${r%%+*} $r"
		fi
	done | pick_best
}

# Of "RANK VERSION RELEASE" lines: the lowest rank, then the newest
# version, then the newest release of it (6.1.0-57 after 6.1.0-55).
pick_best() {
	sort -k1,1n -k2,2Vr -k3,3Vr | head -n1 | cut -d' ' -f3
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
		-o Dir::Cache::pkgcache=pkgcache.bin \
		-o Dir::Cache::srcpkgcache=srcpkgcache.bin \
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

# The default needs trixie-backports only; a version may be in any suite.
# The lists of the other suites are kept: a later call reads them again.
setup_apt() {
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
	# signed-by: only Debian's archive keys vouch for this source, not
	# every key the host trusts.  The bookworm keyring has bullseye's
	# and trixie's.
	[ -r "$KEYRING" ] || die "$KEYRING missing (package debian-archive-keyring)"
	src="deb [arch=amd64 signed-by=$KEYRING]"
	if [ "$ALL_SUITES" -eq 0 ]; then
		SUITES=$DEFAULT_SUITE
		echo "$src $MIRROR $DEFAULT_SUITE main" > "$APTDIR/sources.list"
	else
		SUITES=$(echo $ALL_SUITES_LIST)
		for suite in $SUITES; do
			case $suite in
			*-security) echo "$src $SECURITY $suite main" ;;
			*) echo "$src $MIRROR $suite main" ;;
			esac
		done > "$APTDIR/sources.list"
	fi
	choose_sandbox
}

# Reads the suites' lists again, unless the same suites were read less
# than FRESH_MIN minutes ago (a bisect's steps fetch one kernel each, a
# second apart; --update always reads).  $APTDIR/updated holds the
# sources.list the last update read.
FRESH_MIN=15
apt_update() {
	if [ "$UPDATE" -eq 0 ] && cmp -s "$APTDIR/sources.list" "$APTDIR/updated" &&
	   [ -n "$(find "$APTDIR/updated" -mmin -"$FRESH_MIN")" ]; then
		return 0
	fi
	rm -f "$APTDIR/updated"
	echo "vm-kernel: reading$(echo " $SUITES" | tr -s ' ' ' ') from deb.debian.org" >&2
	apt_private apt-get update --error-on=any >&2 ||
		die "apt-get update of $SUITES failed (no network? set http_proxy)"
	cp "$APTDIR/sources.list" "$APTDIR/updated"
}

# "RELEASE MARK" for the releases the archive splits but no longer has
# whole: image-only where linux-binary (vmlinuz) stayed and linux-base or
# linux-modules left, incomplete where linux-binary itself is gone (it
# cannot be fetched).
partial_releases() {
	apt_private apt-cache pkgnames linux- | awk '
		sub(/^linux-binary-/, "") { bin[$0] = 1; next }
		sub(/^linux-modules-/, "") { part[$0] = 1; mod[$0] = 1; next }
		sub(/^linux-base-/, "") { part[$0] = 1; base[$0] = 1 }
		END {
			for (r in bin) if (!(r in mod) || !(r in base)) print r, "image-only"
			for (r in part) if (!(r in bin)) print r, "incomplete"
		}'
}

# "VERSION RELEASE SUITE" for every amd64 kernel of the lists, one per
# release (its newest version), with its mark (above) after a release not
# whole: linux-binary-REL where the archive splits the image from its
# modules, linux-image-REL where it does not.
archive_kernels() {
	names=$(apt_private apt-cache pkgnames linux- |
		sed -n 's/^linux-\(binary\|image\)-//p' | sort -u | grep -E "$ANY_RELEASE_RE" |
		sed 's/.*/linux-image-& linux-binary-&/')
	[ -n "$names" ] || return 0
	# shellcheck disable=SC2086 # the package names, split on purpose
	apt_private apt-cache madison $names 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); split($3, s, " ");
			sub(/\/.*/, "", s[2]); sub(/^linux-(binary|image)-/, "", $1);
			print $2, $1, s[2] }' |
		sort -k2,2 -k1,1Vr | awk '!seen[$2]++ { sub(/-[^-]*$/, "", $1); print }' |
		awk -v part="$(partial_releases)" 'BEGIN { n = split(part, a, "\n")
			for (i = 1; i <= n; i++) { split(a[i], f, " "); mark[f[1]] = f[2] } }
			{ print $0 ($2 in mark ? " " mark[$2] : "") }'
}

# The release VERSION ($WANT) names in the archive, or nothing: a whole
# one before an image-only one (rank 2 and 3), none of those under
# --modules.
archive_release() {
	archive_kernels | while read -r v r s mark; do
		rank=$(flavour_rank "$r")
		case $mark in
		incomplete) continue ;;
		image-only)
			[ "$MODULES" -eq 0 ] || continue
			rank=$((rank + 2))
			;;
		esac
		if [ "$r" = "$WANT" ] || matches "$v"; then
			echo "$rank $v $r"
		fi
	done | pick_best
}

# The newest whole cloud release in trixie-backports's list, at least
# MIN_VERSION.
newest_release() {
	partial=$(partial_releases | cut -d' ' -f1)
	apt_private apt-cache search --names-only '^linux-binary-' |
		sed -n 's/^linux-binary-\([^ ]*\) - .*/\1/p' |
		while read -r r; do
			valid_release "$r" && new_enough "$r" || continue
			printf '%s\n' "$partial" | grep -qxF "$r" || echo "$r"
		done | sort -V | tail -n1
}

# --list: every kernel of the suites, oldest first, and whether it is cached.
list_kernels() {
	archive_kernels | sort -k1,1V -k2,2 | while read -r v r s mark; do
		c=$mark
		[ ! -f "$CACHE/$r/.complete" ] || c=cached${mark:+ $mark}
		printf '%-10s %-28s %-20s %s\n' "$v" "$r" "$s" "$c"
	done
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
	[ -n "$4" ] || die "no module $3 in the modules of $rel"
	for d in $(PATH=$PATH:/sbin:/usr/sbin modinfo -F depends "$4" | tr , ' '); do
		keep_module "$1" "$2" "$d"
	done
	cp "$4" "$2/"
	echo "${4##*/}" >> "$2/load"
}

# newc cpio, as the kernel unpacks an initramfs (no cpio(1) needed): one
# entry, $1 name, $2 mode, $3 size, $4 $5 device numbers, $6 the file.
pad4() {
	n=$(((4 - $1 % 4) % 4))
	[ "$n" -eq 0 ] || head -c "$n" /dev/zero
}
cpio_entry() {
	INO=$((INO + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$INO" "$2" 0 0 1 0 "$3" 0 0 "$4" "$5" $((${#1} + 1)) 0
	printf '%s\000' "$1"
	pad4 $((110 + ${#1} + 1))
	[ -z "${6:-}" ] || { cat "$6"; pad4 "$3"; }
}
cpio_file() {
	cpio_entry "$1" $((0100000 | $2)) "$(stat -c %s "$3")" 0 0 "$3"
}

# $2/initrd.cpio for the unpacked modules tree $1: /init (the static init,
# built here), /dev/console, and the modules the root needs in /modules,
# decompressed (finit_module takes a compressed one only where the kernel
# can decompress), with /modules/load their order.
pack_initrd() {
	w=$2/initrd.work
	mkdir -p "$w/keep" "$w/modules"
	for m in $INITRD_MODULES; do
		keep_module "$1" "$w/keep" "$m"
	done
	while read -r m; do
		case $m in
		*.ko.xz) xz -dc "$w/keep/$m" > "$w/modules/${m%.xz}" ;;
		*.ko.zst) zstd -qdc "$w/keep/$m" > "$w/modules/${m%.zst}" ;;
		*.ko.gz) gzip -dc "$w/keep/$m" > "$w/modules/${m%.gz}" ;;
		*) cp "$w/keep/$m" "$w/modules/$m" ;;
		esac
		echo "${m%.ko*}.ko" >> "$w/modules/load"
	done < "$w/keep/load"
	${CC:-gcc} -static -Os -Wall -o "$w/init" "$REPO/scripts/vm-initrd-init.c" >&2 ||
		die "cannot build the initramfs's init (gcc -static: libc6-dev)"
	INO=0
	{
		cpio_entry dev $((040755)) 0 0 0
		cpio_entry dev/console $((020600)) 0 5 1
		cpio_entry proc $((040555)) 0 0 0
		cpio_entry root $((040755)) 0 0 0
		cpio_file init 0755 "$w/init"
		cpio_entry modules $((040755)) 0 0 0
		for f in "$w"/modules/*; do
			cpio_file "modules/${f##*/}" 0644 "$f"
		done
		cpio_entry TRAILER!!! 0 0 0 0
	} > "$2/initrd.cpio"
	rm -rf "$w"
}

# The packages of release $1: the split ones where the archive has them,
# linux-binary alone where its linux-base and linux-modules left (image-only).
release_packages() {
	if ! apt_private apt-cache show "linux-binary-$1" >/dev/null 2>&1; then
		echo "linux-image-$1"
	elif partial_releases | grep -qxF "$1 image-only"; then
		echo "linux-binary-$1"
	else
		echo "linux-binary-$1 linux-base-$1 linux-modules-$1"
	fi
}

# Moves file $3 of the unpacked tree $1 (release $rel) to $2/$3: under
# usr/lib/modules/REL/ in a split package, /boot/$3-REL in linux-image or
# linux-binary.  Returns 1 where the packages do not have it.
take() {
	for f in "$1/usr/lib/modules/$rel/$3" "$1/boot/$3-$rel"; do
		[ -f "$f" ] || continue
		mv "$f" "$2/$3"
		return 0
	done
	return 1
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
	pkgs=$(release_packages "$rel")
	# shellcheck disable=SC2086 # the package names, split on purpose
	(cd "$tmp/deb" && apt_private apt-get download $pkgs) >&2 ||
		die "could not download $pkgs"
	for deb in "$tmp"/deb/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	take "$tmp/root" "$tmp/out" vmlinuz || die "no vmlinuz of $rel in $pkgs"
	mkdir "$tmp/out/modules"
	case $pkgs in
	*" "* | linux-image-*)
		for f in config System.map; do
			take "$tmp/root" "$tmp/out" "$f" || die "no $f of $rel in $pkgs"
		done
		mod="$tmp/root/usr/lib/modules/$rel"
		[ -d "$mod" ] || mod="$tmp/root/lib/modules/$rel"
		keep_module "$mod" "$tmp/out/modules" "$NET_MODULE"
		! needs_initrd "$tmp/out" || pack_initrd "$mod" "$tmp/out"
		;;
	*) echo "vm-kernel: $rel is image-only: vmlinuz without config or modules (no NIC)" >&2 ;;
	esac
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
LIST=0
WANT=""
for arg in "$@"; do
	case $arg in
	--update) UPDATE=1 ;;
	--modules) MODULES=1 ;;
	--list) LIST=1 ;;
	-*) usage ;;
	*)
		[ -z "$WANT" ] || usage
		WANT=$arg
		;;
	esac
done
[ "$LIST" -eq 0 ] || [ -z "$WANT" ] || usage
if [ -n "$WANT" ] && ! printf '%s\n' "$WANT" | grep -Eq '^[0-9]+(\.[0-9]+)+$' &&
   ! any_release "$WANT"; then
	die "$WANT is neither a version (6.12, 6.1.158) nor a release like 6.1.0-41-cloud-amd64"
fi

arch=$(uname -m)
if [ "$arch" != x86_64 ]; then
	echo "vm-kernel: no Debian cloud kernel for $arch; give kernel = <your image>" >&2
	exit 2
fi

REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${VM_KERNEL_CACHE:-$REPO/.cache/vm-kernel}
PIN=${VM_KERNEL_VERSION:-}
if [ -n "$PIN" ] && ! any_release "$PIN"; then
	die "VM_KERNEL_VERSION=$PIN is not a kernel release like 7.3.4+deb13-cloud-amd64"
fi
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
APTDIR=$CACHE/apt
ALL_SUITES=0
[ -z "$WANT$PIN" ] && [ "$LIST" -eq 0 ] || ALL_SUITES=1

if [ "$LIST" -eq 1 ]; then
	exec 9> "$CACHE/.lock"
	flock 9
	setup_apt
	apt_update
	list_kernels
	exit 0
fi

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
	apt_update
	rel=$PIN
	if [ -z "$rel" ] && [ -n "$WANT" ]; then
		rel=$(archive_release)
		[ -n "$rel" ] || die "no kernel $WANT in$SUITES (vm-kernel.sh --list)"
	fi
	[ -n "$rel" ] || rel=$(newest_release)
	[ -n "$rel" ] || die "no linux-binary-*-cloud-amd64 >= $MIN_VERSION in $SUITES"
	if ! usable "$rel"; then
		echo "vm-kernel: fetching $rel" >&2
		fetch "$rel"
	fi
fi
echo "$CACHE/$rel/vmlinuz"
