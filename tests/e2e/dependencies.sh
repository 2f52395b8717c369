#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# docs/dependencies.md against the tree, so that its measured reasons do
# not go stale: every "`PATH` (N lines" it gives is within 10% of wc -l
# (a folder's: of its *.c and *.h), the spec parser's among them; json-c's
# row names exactly the files that include json-c; and no library of
# "Considered and not used" is included or linked.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

DOC=docs/dependencies.md

# lines PATH: wc -l of a file, or of a folder's *.c and *.h together
lines() {
	if [ -d "$1" ]; then cat "$1"/*.[ch]; else cat "$1"; fi | wc -l
}

# every "`PATH` (N lines" of the doc: "PATH N" per line
counts() {
	grep -o '`[^`]*` ([0-9]* lines' "$DOC" | sed 's/^`\([^`]*\)` (\([0-9]*\) lines$/\1 \2/'
}

# counts_hold: each count within 10% of the tree's (a missing path fails)
counts_hold() {
	local path n have ok=0
	while read -r path n; do
		have=$( [ -e "$path" ] && lines "$path" || echo -1)
		if [ $((have * 10)) -lt $((n * 9)) ] || [ $((have * 10)) -gt $((n * 11)) ]; then
			echo "$DOC: $path: $n lines, the tree has $have" >&2
			ok=1
		fi
	done < <(counts)
	return $ok
}
check deps/spec-parser-counted grep -q '^sweep/spec/spec.c ' <(counts)
check deps/line-counts-current counts_hold

# json-c's row names the files that include it, no more, no fewer
json_users() {
	diff <(grep -rl '#include <json-c/' sweep adapters workloads | sort) \
	     <(grep '^| libjson-c-dev |' "$DOC" | grep -o '`\(sweep\|workloads\)/[^`]*\.c`' |
	       tr -d '`' | sort -u)
}
check deps/json-c-users-named json_users

# not used: no header of theirs included, no library linked, no program run
not_used() {
	local hits
	hits=$(grep -rlE -e '#include <(ini\.h|pcre2\.h|hwloc\.h|libxml/|sys/capability\.h|glib\.h)' \
		sweep adapters workloads tests/unit tests/integ; grep -nE -e \
		'-l(inih|pcre2|hwloc|xml2|cap)\b|glib-2\.0|hwloc|libxml' Makefile;
		grep -rn '"parallel"' sweep adapters workloads)
	[ -z "$hits" ] || { echo "$hits" >&2; return 1; }
}
check deps/not-used-unused not_used
for lib in libinih PCRE2 hwloc libxml2 libcap GLib "GNU parallel"; do
	check "deps/not-used-lists-$lib" grep -q "^| $lib (" "$DOC"
done
