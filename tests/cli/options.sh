#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Which command takes which option, seen three ways that must agree:
#  - what `bpfsweep CMD --help` lists (and which options take a value),
#  - what completions/bpfsweep.bash offers after CMD (and lets take one),
#  - what CMD accepts: each option its help lists parses (whatever the
#    command then says of the missing operand), and each option that only
#    other commands' help lists is refused, exit 2, in one line ("applies
#    to") and a pointer to `bpfsweep CMD --help`.
# main.c's commands, vm and compare take their options from one table
# (sweep/cli/cliopt.c); tests/unit/test_cliopt.c checks the table's rows
# themselves.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

CMDS="run check expand list report compare merge import fleet bisect system vm"
COMPLETION=completions/bpfsweep.bash
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# help_opts CMD: "OPTION 1" (takes a value) or "OPTION 0" per option that
# `bpfsweep CMD --help` lists, sorted.  An item starts "  -x, --name ARG" or
# "      --name ARG"; its head ends at the description's two blanks (or is
# followed by one only, as in "--save-spec FILE write ..."): the first word
# after the options, if any, is their value.
help_opts() {
	"$BPFSWEEP" "$1" --help | grep -E '^(  -[A-Za-z]|      --[a-z])' |
		sed 's/^ *//;s/  \+[^ ].*//' | while read -r -a words; do
			local opts=() arg=0 w
			for w in "${words[@]}"; do
				if [[ $w =~ ^--?[A-Za-z][-A-Za-z]*,?$ ]]; then
					opts+=("${w%,}")
				else
					arg=1
					break
				fi
			done
			for w in "${opts[@]}"; do
				echo "$w $arg"
			done
		done | LC_ALL=C sort -u
}

# completion_opts CMD: the same from the completion script's lists.
completion_opts() {
	bash -c '
		source "$1"
		for o in $(_bpfsweep_opts "$2"); do
			_bpfsweep_takes_arg "$2" "$o" && echo "$o 1" || echo "$o 0"
		done' completion "$COMPLETION" "$1" | LC_ALL=C sort -u
}

for c in $CMDS; do
	help_opts "$c" >"$TMP/help.$c"
	completion_opts "$c" >"$TMP/comp.$c"
	if [ ! -s "$TMP/help.$c" ]; then
		fail "options/$c-help-lists-options" "no option in 'bpfsweep $c --help'"
	elif ! diff "$TMP/help.$c" "$TMP/comp.$c" >"$TMP/diff"; then
		fail "options/$c-completion-is-help" \
			"< help, > completion: $(grep '^[<>]' "$TMP/diff" | tr '\n' ' ')"
	else
		pass "options/$c-completion-is-help"
	fi
done

# The checks below run bpfsweep some 600 times: each reads what it printed
# with bash's own read and [[ =~ ]] (POSIX extended expressions, as grep
# -E), not a grep, wc, head and tail each, which took two thirds of the
# test's 45 s of CPU.
# read_err: ERR is $TMP/err whole, NL how many lines it ends (as wc -l counts)
read_err() {
	local nl
	IFS= read -r -d '' ERR <"$TMP/err"
	nl=${ERR//[!$'\n']/}
	NL=${#nl}
}

# accepts CMD OPT ARG: the option parses; what follows (the missing SPEC,
# DIR or FILE, or a value that is not one) is the command's business.
accepts() {
	local c=$1 o=$2 a=$3
	"$BPFSWEEP" "$c" "$o" ${a:+x} </dev/null >/dev/null 2>"$TMP/err"
	read_err
	! [[ $ERR =~ applies\ to|unknown\ option|is\ ambiguous|needs\ a\ value|takes\ no\ value ]]
}

# refuses CMD OPT ARG: exit 2, the error and the pointer to CMD --help, no more.
refuses() {
	local c=$1 o=$2 a=$3 status want last
	"$BPFSWEEP" "$c" "$o" ${a:+x} </dev/null >"$TMP/out" 2>"$TMP/err"
	status=$?
	want="$o/--[-a-z]+ applies to [a-z, ]+, not to $c"
	[[ $o == --* ]] && want="(-[A-Za-z]/)?$o applies to [a-z, ]+, not to $c"
	want="^bpfsweep: error: $want\$"
	read_err
	# the first line (as head -n 1 has it) the error, the last (tail -n 1) the pointer
	last=${ERR%$'\n'}
	last=${last##*$'\n'}
	[ "$status" = 2 ] && [ ! -s "$TMP/out" ] && [ "$NL" = 2 ] &&
		[[ ${ERR%%$'\n'*} =~ $want ]] &&
		[ "$last" = "try 'bpfsweep $c --help' for the options" ]
}

# every option of any of the commands the table has, with whether it takes a value
LC_ALL=C sort -u "$TMP"/help.{run,check,expand,list,report,compare,merge,import,fleet,vm} >"$TMP/all"
for c in $CMDS; do
	bad=
	# CMD's help lines ("OPTION TAKES") and options, to look up
	unset -v listed named
	declare -A listed=() named=()
	while read -r o a; do
		listed["$o $a"]=1
		named["$o"]=1
	done <"$TMP/help.$c"
	while read -r o a; do
		[ "$o" = -h ] || [ "$o" = --help ] && continue	# prints the help, exit 0
		[ "$a" = 1 ] || a=
		if [ -n "${listed["$o ${a:-0}"]-}" ]; then
			accepts "$c" "$o" "$a" || bad+=" $o(refused: $(head -n 1 "$TMP/err"))"
		elif [ -n "${named["$o"]-}" ]; then
			continue	# fleet's --shard takes no value, run's does: checked above
		else
			refuses "$c" "$o" "$a" || bad+=" $o(accepted: $(head -n 1 "$TMP/err"))"
		fi
	done <"$TMP/all"
	if [ -n "$bad" ]; then
		fail "options/$c-takes-what-its-help-lists" "$bad"
	else
		pass "options/$c-takes-what-its-help-lists"
	fi
done
