#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-includes.py: this tree's includes and calls run one way (no
# cycle between modules, no folder including a header of, or calling a
# function of, one above it in docs/architecture.md's Layers line), and the
# check does fail on small trees that break each rule.  The calls are read
# from the build's objects (nm): a few tenths of a second.
#
# scripts/check-sizes.py: no C file over 800 lines, no function over 60
# (tens of milliseconds), and it fails on small trees that break each.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CHECK=scripts/check-includes.py

# tree NAME LAYERS FILE=INCLUDE...: a tree with a Layers line and files each
# including the named header (or nothing when INCLUDE is empty)
tree() {
	local dir=$TMP/$1 layers=$2 spec
	shift 2
	mkdir -p "$dir/docs" "$dir/sweep" "$dir/workloads"
	echo "Layers: $layers" > "$dir/docs/architecture.md"
	for spec; do
		mkdir -p "$dir/$(dirname "${spec%%=*}")"
		echo "${spec#*=}" | sed -n 's/^\(..*\)$/#include "\1"/p' > "$dir/${spec%%=*}"
	done
}

tree clean "cli > run > util" sweep/cli/main.c=run.h sweep/run/run.c=util.h \
	sweep/run/run.h= sweep/util/util.h= sweep/util/util.c=util.h
check includes/clean-tree-passes quiet python3 $CHECK "$TMP/clean"

tree cycle "cli > run > util" sweep/run/a.c=b.h sweep/run/a.h= sweep/run/b.c=a.h sweep/run/b.h=
check includes/cycle-fails not quiet python3 $CHECK "$TMP/cycle"
check includes/cycle-named [ "$(python3 $CHECK "$TMP/cycle" 2>&1)" = \
	"check-includes: cycle: sweep/run/a sweep/run/b" ]

tree up "cli > run > util" sweep/util/u.c=r.h sweep/run/r.h=
check includes/upward-fails not quiet python3 $CHECK "$TMP/up"
check includes/upward-named grep -q 'sweep/util/u.c includes sweep/run/r.h: run is not below util' \
	<(python3 $CHECK "$TMP/up" 2>&1)

tree siblings "cli > compare, import > util" sweep/compare/c.c=i.h sweep/import/i.h=
check includes/sibling-fails not quiet python3 $CHECK "$TMP/siblings"

tree stray "cli > util" sweep/render/r.c= sweep/util/u.h=
check includes/unlisted-folder-fails grep -q 'render/ is not in the Layers line' \
	<(python3 $CHECK "$TMP/stray" 2>&1)

tree twice "cli > util" sweep/cli/x.h= sweep/util/x.h=
check includes/same-header-name-fails not quiet python3 $CHECK "$TMP/twice"

# calls: NAME/build's objects of a tree's .c files, each a line of C
calls_tree() {
	local dir=$TMP/$1 layers=$2 spec f
	shift 2
	mkdir -p "$dir/docs"
	echo "Layers: $layers" > "$dir/docs/architecture.md"
	for spec; do
		f=${spec%%=*}
		mkdir -p "$dir/$(dirname "$f")" "$dir/build/$(dirname "$f")"
		printf '%s\n' "${spec#*=}" > "$dir/$f"
		cc -c "$dir/$f" -o "$dir/build/${f%.c}.o"
	done
}

# util's u() calls run's r(): no #include shows it (the prototype is u.c's own); and a
# source without its object (a stale build) is said, not passed over
calls_tree callup "cli > run > util" 'sweep/run/r.c=int r(void) { return 1; }' \
	'sweep/util/u.c=int r(void); int u(void) { return r(); }' 'sweep/util/v.c=int v;'
rm "$TMP/callup/build/sweep/util/v.o"
python3 $CHECK "$TMP/callup" --objects build 2>"$TMP/callup.err"
check includes/upward-call-fails [ $? = 1 ]
check includes/upward-call-named grep -qx \
	'check-includes: sweep/util/u.c calls r of sweep/run/r.c: run is not below util' \
	"$TMP/callup.err"
check includes/object-missing-said grep -q 'sweep/util/v.c: no object' "$TMP/callup.err"

# and this tree, whose calls run down, passes: its includes and its calls
check includes/this-tree-runs-one-way python3 $CHECK . --objects "${BUILD:-build}"

# scripts/check-sizes.py: no C file over 800 lines, no function body over 60
SIZES=scripts/check-sizes.py

# sized NAME FILE BODY: a tree with FILE holding a function of BODY body lines
sized() {
	local dir=$TMP/$1 f=$TMP/$1/$2
	mkdir -p "$(dirname "$f")"
	{
		printf 'SEC("xdp")\nstatic int long_one(int a,\n\t\t    int b)\n{\n'
		for ((i = 0; i < $3; i++)); do printf '\ta += b;\n'; done
		printf '}\n'
	} > "$f"
}

sized fits sweep/run/f.c 60
check sizes/60-line-function-passes quiet python3 $SIZES "$TMP/fits"
sized toolong workloads/w.c 61
python3 $SIZES "$TMP/toolong" 2>"$TMP/toolong.err"
check sizes/61-line-function-fails [ $? = 1 ]
check sizes/long-function-named grep -qx \
	'check-sizes: workloads/w.c:4: long_one() has 61 lines, over 60' "$TMP/toolong.err"
mkdir -p "$TMP/longfile/adapters"
seq 801 > "$TMP/longfile/adapters/a.h"
check sizes/801-line-file-fails grep -qx 'check-sizes: adapters/a.h:1: 801 lines, over 800' \
	<(python3 $SIZES "$TMP/longfile" 2>&1)

check sizes/this-tree-fits python3 $SIZES .
