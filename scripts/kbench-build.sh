#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel selftests' `bench`, its ring buffer benches only (rb-libbpf,
# rb-custom, pb-libbpf, pb-custom), built from Debian's linux-source-6.1
# for the exec workload (docs/exec.md, specs/kbench_ringbuf.spec).
#
# Nothing is installed and no kernel source enters the repository:
# `apt-get download` fetches the package into the cache, dpkg-deb -x
# unpacks it there, and only the files the bench needs are taken out of
# its tarball.  The programs are built as the selftests build them
# (clang -target bpf -mcpu=v3, bpftool gen skeleton), the bench against
# the system's libbpf, with its table of benches cut down to the ring
# buffer ones; the benches' code is the kernel's, unmodified.
#
# With --rawtp it builds a second binary, bench-rawtp, for a kernel that
# refuses fentry (lockdown, no ftrace direct calls): the same benches with
# their programs' `SEC("fentry/..sys_getpgid")` rewritten in the cache to
# `SEC("raw_tp/sys_enter")` and a first statement that returns unless the
# syscall is getpgid.  That is how the kernel bench was compared with
# bpfsweep on such a host (docs/fidelity.md); it is not the kernel's
# bench any more, and its name says so.
#
# With --source VER it builds bench-VER from Debian's linux-source-VER
# instead: --source 7.3 (trixie-backports), whose bench has overwrite mode
# (--rb-overwrite --rb-bench-producer).  The host's apt lists (bookworm)
# do not have it: a private apt configuration in the cache reads trixie and
# trixie-backports, checked against Debian's archive keyring; the host's
# lists, apt cache and dpkg database are not touched.  That bench needs a
# libbpf newer than the host's, so it is built as the selftests build it:
# with the source tree's libbpf, static, whose headers the BPF programs use
# too.  It runs where the host's userland does, e.g. in the guest that
# boots on the host's root (docs/kernel.md).  Tested with 7.3.
#
# Prints the bench's path on stdout.  Where it cannot it says why on
# stderr and exits 3 when the package could not be fetched (no network,
# the archive unreachable, no such package), 1 on any other error (a build
# error, a tool missing); every step is bounded in time.
#
#   KBENCH_CACHE  cache directory (default <repo>/.cache/kbench)
set -eu

TIMEOUT=600		# seconds for the download, and for the unpacking
MIRROR=http://deb.debian.org/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${KBENCH_CACHE:-$ROOT/.cache/kbench}

die() {
	echo "kbench-build: $*" >&2
	exit 1
}

# The package could not be had: callers skip rather than fail.
unreachable() {
	echo "kbench-build: $*" >&2
	exit 3
}

need() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || die "$t not found (scripts/deps.sh installs it)"
	done
}

# apt-get or apt-cache ($1) on the private configuration in $CACHE/apt
# only, bounded in time.
apt_private() {
	tool=$1
	shift
	timeout "$TIMEOUT" "$tool" -q \
		-o Dir::Etc::SourceList="$CACHE/apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$CACHE/apt/lists" \
		-o Dir::Cache="$CACHE/apt/cache" \
		-o APT::Get::List-Cleanup=0 \
		-o APT::Sandbox::User=root \
		"$@"
}

# 6.1 is in the host's (bookworm) lists; a newer source comes from trixie
# or trixie-backports, read into the private lists.  signed-by: only
# Debian's archive keys vouch for them (the bookworm keyring has trixie's).
download() {
	if [ "$VER" = 6.1 ]; then
		(cd "$CACHE" && timeout "$TIMEOUT" apt-get download "$PKG" >&2)
		return
	fi
	[ -r "$KEYRING" ] || die "$KEYRING missing (package debian-archive-keyring)"
	mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial"
	for suite in trixie trixie-backports; do
		echo "deb [arch=amd64 signed-by=$KEYRING] $MIRROR $suite main"
	done >"$CACHE/apt/sources.list"
	apt_private apt-get update --error-on=any >&2 &&
		(cd "$CACHE" && apt_private apt-get download "$PKG" >&2)
}

fetch() {
	deb=$(ls "$CACHE"/${PKG}_*_all.deb 2>/dev/null | tail -n1 || true)
	if [ -z "$deb" ]; then
		download || unreachable "apt-get download $PKG failed (no network, or no such package)"
		deb=$(ls "$CACHE"/${PKG}_*_all.deb 2>/dev/null | tail -n1 || true)
		[ -n "$deb" ] || unreachable "apt-get download $PKG left no package in $CACHE"
	fi
}

# Only what the ring buffer benches need out of the 140-170 MB tarball;
# from a newer source also libbpf and what its Makefile includes.
unpack() {
	[ -f "$SELF/bench.c" ] && return 0
	rm -rf "$CACHE/deb"
	dpkg-deb -x "$deb" "$CACHE/deb" || die "dpkg-deb -x $deb failed"
	tarball=$(ls "$CACHE"/deb/usr/src/$PKG.tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] || die "$deb holds no /usr/src/$PKG.tar.*"
	t=$PKG/tools
	s=$t/testing/selftests/bpf
	set --
	[ "$VER" = 6.1 ] ||
		set -- "$t/lib/bpf/*" "$t/build/*" "$t/scripts/*" "$PKG/scripts/bpf_doc.py"
	(cd "$CACHE" && timeout "$TIMEOUT" tar -xaf "$tarball" --wildcards \
		"$s/bench.c" "$s/bench.h" "$s/benchs/bench_ringbufs.c" "$s/bpf_util.h" \
		"$s/testing_helpers.c" "$s/testing_helpers.h" "$s/progs/bpf_misc.h" \
		"$s/progs/ringbuf_bench.c" "$s/progs/perfbuf_bench.c" \
		"$t/include/*" "$t/arch/x86/include/*" "$@") || die "unpacking $tarball failed"
	rm -rf "$CACHE/deb"
}

# The source tree's libbpf, static, and its headers in $OUT/libbpf/include,
# for a source newer than the host's libbpf (6.1 uses the host's).
libbpf() {
	LIBBPF=""
	[ "$VER" = 6.1 ] && return 0
	LIBBPF=$OUT/libbpf
	[ -f "$LIBBPF/libbpf.a" ] && [ -f "$LIBBPF/include/bpf/libbpf.h" ] && return 0
	mkdir -p "$LIBBPF"
	make -s -j"$(nproc)" -C "$SRC/tools/lib/bpf" OUTPUT="$LIBBPF/" DESTDIR="$LIBBPF" prefix= \
		"$LIBBPF/libbpf.a" install_headers >&2 || die "make: the source's libbpf failed"
}

# bench.c lists every bench of the tree: keep the ring buffer ones, whose
# sources are the only ones taken.
bench_main() {
	awk '/^extern const struct bench bench_/ && !/bench_(rb|pb)_/ { next }
	     /^\t&bench_/ && !/&bench_(rb|pb)_/ { next }
	     /^\t\{ &bench_.*_argp/ && !/bench_ringbufs_argp/ { skip = 1 }
	     skip { if (/\},$/) skip = 0; next }
	     { print }' "$SELF/bench.c" >"$OUT/bench_rb.c"
	grep -q '&bench_rb_libbpf' "$OUT/bench_rb.c" || die "bench.c: no rb-libbpf in its table"
	# parse_num_list() (--prod-affinity), without the rest of testing_helpers.c,
	# whose header pulls in all of test_progs
	{
		printf '#include <errno.h>\n#include <stdbool.h>\n#include <stdio.h>\n'
		printf '#include <stdlib.h>\n#include <string.h>\n'
		awk '/^int parse_num_list\(/ { p = 1 } p { print } p && /^}/ { exit }' \
			"$SELF/testing_helpers.c"
	} >"$OUT/num_list.c"
	grep -q parse_num_list "$OUT/num_list.c" || die "testing_helpers.c: no parse_num_list()"
}

# The rawtp variant's program source: the fentry section becomes a raw
# tracepoint on sys_enter, and the program's first statement returns
# unless the syscall (args[1]) is getpgid, the producers' trigger.
to_rawtp() {
	awk -v nr="$GETPGID_NR" '
	     /^SEC\("fentry\/" SYS_PREFIX "sys_getpgid"\)$/ { print "SEC(\"raw_tp/sys_enter\")"; sec = 1; n++; next }
	     sec && /^\{$/ { print; print "\tif (((struct bpf_raw_tracepoint_args *)ctx)->args[1] != " nr ")\n\t\treturn 0;"; sec = 0; next }
	     { print }
	     END { if (n != 1) exit 1 }' "$1" >"$2" || die "$1: no fentry getpgid section to rewrite"
}

# $1: the directory for the objects and skeletons; $2: the programs'
# sources (the kernel's, or their rawtp rewrites); $3: the bench's path.
build() {
	mkdir -p "$1" "$OUT/inc/gnu"
	# glibc's headers pick the 32-bit stubs for the BPF target
	: >"$OUT/inc/gnu/stubs-32.h"
	multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
	for p in ringbuf_bench perfbuf_bench; do
		clang -g -O2 -mcpu=v3 -target bpf -D__TARGET_ARCH_x86 -I"$OUT/inc" \
			${LIBBPF:+-I"$LIBBPF/include" -I"$SRC/tools/include/uapi"} -I"$SELF" \
			-I"$SELF/progs" -I"/usr/include/$multiarch" -c "$2/$p.c" -o "$1/$p.bpf.o" ||
			die "clang: $p.c failed"
		bpftool gen skeleton "$1/$p.bpf.o" name "$p" >"$1/$p.skel.h" ||
			die "bpftool gen skeleton $p failed"
	done
	bench_main
	# the source's libbpf, static: the guest it runs in has the host's libraries
	libs=$(pkg-config --libs libbpf)
	[ -z "$LIBBPF" ] || libs="-lelf -lz"
	gcc -O2 -g -I"$1" ${LIBBPF:+-I"$LIBBPF/include"} -I"$SELF" -I"$SRC/tools/include" \
		${LIBBPF:+-I"$SRC/tools/include/uapi"} -I"$SRC/tools/arch/x86/include" -o "$1/bench" \
		"$OUT/bench_rb.c" "$SELF/benchs/bench_ringbufs.c" "$OUT/num_list.c" \
		${LIBBPF:+"$LIBBPF/libbpf.a"} $libs -lpthread -lm || die "gcc: the bench failed to build"
	mv "$1/bench" "$3"
}

build_rawtp() {
	mkdir -p "$OUT/rawtp-src"
	for p in ringbuf_bench perfbuf_bench; do
		to_rawtp "$SELF/progs/$p.c" "$OUT/rawtp-src/$p.c"
	done
	build "$OUT/rawtp" "$OUT/rawtp-src" "$CACHE/bench-rawtp"
}

GETPGID_NR=121		# __NR_getpgid on x86_64, the only arch handled

usage() {
	die "usage: $0 [--rawtp | --source VERSION]"
}

[ "$(uname -m)" = x86_64 ] || die "only x86_64 is handled (the bench's headers are the arch's)"
VER=6.1
case "${1-}" in
"") bench=$CACHE/bench ;;
--rawtp) bench=$CACHE/bench-rawtp ;;
--source)
	VER=${2-}
	printf '%s\n' "$VER" | grep -Eqx '[0-9]+\.[0-9]+' || usage
	bench=$CACHE/bench-$VER
	[ "$VER" != 6.1 ] || bench=$CACHE/bench
	;;
*) usage ;;
esac
PKG=linux-source-$VER
SRC=$CACHE/$PKG
SELF=$SRC/tools/testing/selftests/bpf
OUT=$CACHE/out
[ "$VER" = 6.1 ] || OUT=$CACHE/out-$VER
need apt-get dpkg-deb tar timeout clang bpftool gcc pkg-config awk make flock
# the source's libbpf generates its bpf_helper_defs.h with a python script
[ "$VER" = 6.1 ] || need python3
mkdir -p "$CACHE" "$OUT"
if [ ! -x "$bench" ]; then
	# one build at a time per cache; a caller that waited finds it built
	exec 9>"$CACHE/.lock"
	flock 9
fi
if [ ! -x "$bench" ]; then
	fetch
	unpack
	libbpf
	if [ "$bench" = "$CACHE/bench-rawtp" ]; then
		build_rawtp
	else
		build "$OUT" "$SELF/progs" "$bench"
	fi
fi
echo "$bench"
