# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the tests of the seed specs (csum_diff.sh, trigger.sh,
# kernel.sh): a table block's rows, and whether they are the seed's rows,
# line by line: the seed's names in its order, each in a label column of
# the kernel scripts' width (printf "%-20s "), then the seed's columns.

# block_rows TABLE TITLE: the rows of the block whose title line starts with
# TITLE, one per line, without the underline, the flags' legend ([cv=N%] ...)
# and notes
block_rows() {
	awk -v t="$2" '
		!found && index($0, t) == 1 { found = 1; getline; next }
		found && (/^$/ || /^\[[a-z]+[]=]/ || /^note: /) { exit }
		found { print }' "$1"
}

# rows_are ROWS REGEX NAME...: the file ROWS has one line per NAME, in order,
# each NAME padded to 20 columns and a space, the rest matching REGEX (grep
# -E); a line that is not says so on a "# " line
rows_are() {
	local rows=$1 re=$2 want line i=0 bad=0
	shift 2
	local names=("$@")
	while IFS= read -r line; do
		printf -v want '%-20s ' "${names[i]:-(none)}"
		if [ "${line:0:21}" != "$want" ] || ! grep -Eq -- "$re" <<<"${line:21}"; then
			echo "# row $((i + 1)), expected ${names[i]:-none}: $line"
			bad=1
		fi
		i=$((i + 1))
	done <"$rows"
	[ "$i" = "${#names[@]}" ] || { echo "# $i rows, expected ${#names[@]}"; bad=1; }
	[ "$bad" = 0 ]
}
