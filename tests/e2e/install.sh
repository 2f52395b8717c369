#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# "Installed like a real tool": `make install DESTDIR=` writes exactly the
# files of install.files; the installed binary, run away from the checkout,
# finds its specs and chart template; both man pages render without a
# warning and document every option --help lists; the bash completion,
# sourced as bash-completion would, completes commands, options, spec
# files, result directories, workloads and parameters.  No root needed.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DEST=$TMP/dest
USR=$DEST/usr
BIN=$USR/bin/bpfsweep
DATA=$USR/share/bpfsweep

# --- a bare make without the tools: one line naming make deps ---------
make -s --no-print-directory OUTPUT="$TMP/bare" BIN="$TMP/bare/bpfsweep" BPFTOOL=no-such-bpftool all \
	>"$TMP/bare.out" 2>&1
check install/bare-make-fails [ $? != 0 ]
check install/bare-make-names-deps grep -qx \
	"error: no-such-bpftool not found: 'make deps' installs what bpfsweep needs (Debian 12; docs/dependencies.md)" \
	"$TMP/bare.out"
check install/bare-make-built-nothing [ ! -e "$TMP/bare/vmlinux.h" ]

# --- make install / uninstall ------------------------------------------

# -o bpfsweep: install the binary under test as it is, never rebuild it here
if ! make -s --no-print-directory -o bpfsweep install DESTDIR="$DEST" PREFIX=/usr \
	>"$TMP/make.out" 2>&1; then
	fail install/make "make install failed: $(tail -n 3 "$TMP/make.out")"
	exit 0
fi
# "MODE PATH" of every file, as install.files lists them
installed_files() { (cd "$1" && find . \( -type f -o -type l \) -printf '%m %P\n' | LC_ALL=C sort -k2); }
installed_files "$DEST" >"$TMP/files"
grep -v '^#' tests/e2e/install.files >"$TMP/expected"
if diff -u "$TMP/expected" "$TMP/files" >"$TMP/files.diff"; then
	pass install/file-list
else
	fail install/file-list "installed files differ from tests/e2e/install.files: $(tr '\n' ' ' <"$TMP/files.diff")"
fi
check install/same-binary cmp -s ./bpfsweep "$BIN"
check install/same-completion cmp -s completions/bpfsweep.bash "$USR/share/bash-completion/completions/bpfsweep"
# uninstall removes what install wrote, and nothing else of DATADIR
touch "$DATA/specs/mine.spec"
make -s --no-print-directory uninstall DESTDIR="$DEST" PREFIX=/usr >"$TMP/make.out" 2>&1
check install/uninstall test "$(find "$DEST" ! -type d)" = "$DATA/specs/mine.spec"
rm "$DATA/specs/mine.spec"
make -s --no-print-directory -o bpfsweep install DESTDIR="$DEST" PREFIX=/usr >"$TMP/make.out" 2>&1

# The installed binary, in a directory with no plots/ or specs/ of its own:
# whatever it finds comes from $DATA.
WORK=$TMP/work
mkdir -p "$WORK"
check install/version bash -c "cd '$WORK' && '$BIN' --version | grep -q '^bpfsweep [0-9]'"
out=$(cd "$WORK" && "$BIN" check "$DATA/specs/ringbuf.spec" 2>&1)
check install/check-installed-spec grep -q 'ok: workload ringbuf' <<<"$out"
# by name, as the README's commands give it: the staged binary looks in
# ../share/bpfsweep/specs beside itself (here DESTDIR's, not /usr's)
out=$(cd "$WORK" && "$BIN" check ringbuf_counting 2>&1)
check install/spec-by-name-beside-binary grep -q "^$DATA/specs/ringbuf_counting.spec: ok" <<<"$out"

cat >"$WORK/tiny.spec" <<'SPEC'
[sweep]
workload = null
warmup   = 10ms
duration = 200ms
interval = 100ms

[params]
producers = 1 2

[report]
plot = producers vs hits
SPEC
if ! command -v gnuplot >/dev/null; then
	skip install/chart-template "gnuplot not installed"
else
	(cd "$WORK" && "$BIN" run tiny.spec -o out >"$TMP/run.out" 2>&1)
	check install/chart-template is_png "$(ls "$WORK"/out/plots/*.png 2>/dev/null | head -n 1)"
	# and the template did come from $DATA: without it, no chart
	mv "$DATA/plots" "$TMP/plots.away"
	(cd "$WORK" && "$BIN" run tiny.spec -o out2 >"$TMP/run2.out" 2>&1)
	check install/chart-template-from-datadir grep -q 'chart template lines.gp not found' "$TMP/run2.out"
	mv "$TMP/plots.away" "$DATA/plots"
fi

# --- man pages ---------------------------------------------------------

for page in "$USR/share/man/man1/bpfsweep.1" "$USR/share/man/man5/bpfsweep-spec.5"; do
	name=${page##*/}
	if ! command -v man >/dev/null; then
		skip "man/$name" "man not installed (man-db)"
		continue
	fi
	LC_ALL=C MANWIDTH=80 man --warnings -l "$page" >"$TMP/$name.txt" 2>"$TMP/$name.err"
	if [ -s "$TMP/$name.err" ]; then
		fail "man/$name-warnings" "$(head -n 3 "$TMP/$name.err" | tr '\n' ' ')"
	else
		pass "man/$name-warnings"
	fi
	check "man/$name-renders" grep -q '^SEE ALSO' "$TMP/$name.txt"
done

# help_opts [CMD]: the options `bpfsweep [CMD] --help` lists: on each line
# that starts with an option, the words before the description column.
help_opts() {
	"$BIN" ${1:+"$1"} --help | sed -n 's/^ *\(-.*\)/\1/p' | sed 's/  .*//' |
		grep -oE '(^|[ ,])--?[A-Za-z][-A-Za-z]*' | tr -d ' ,' | sort -u
}
CMDS="run check expand list report compare merge import fleet vm"

if [ -s "$TMP/bpfsweep.1.txt" ]; then
	# an option is documented where it heads an item: "       -s, --set KEY=VALUE"
	grep -E '^ {7}-' "$TMP/bpfsweep.1.txt" >"$TMP/tags"
	missing=
	for c in "" $CMDS; do
		for o in $(help_opts "$c"); do
			grep -qE -e "(^|[ ,])$o([ ,]|\$)" "$TMP/tags" || missing+=" ${c:-(none)}:$o"
		done
	done
	check man/every-option-documented test -z "$missing"
	[ -n "$missing" ] && echo "  not in bpfsweep(1):$missing"
	missing=
	for c in $CMDS; do
		grep -q "^       $c " "$TMP/bpfsweep.1.txt" || missing+=" $c"
	done
	check man/every-command-documented test -z "$missing"
	[ -n "$missing" ] && echo "  not in bpfsweep(1):$missing"
fi

# --- bash completion ---------------------------------------------------

# complete WORD... : what the installed completion offers for the command
# line WORD..., the last word being completed, one per line, sorted.
# Words split as bash splits them (COMP_WORDBREAKS): "--set" "k" "=" "v".
complete_words() {
	bash -c '
		trap "" PIPE	# as in a shell started with SIGPIPE ignored (by python, an IDE)
		source "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_bpfsweep
		printf "%s\n" "${COMPREPLY[@]}"' \
		complete "$USR/share/bash-completion/completions/bpfsweep" "$BIN" "$@" \
		2>>"$TMP/complete.err" | LC_ALL=C sort
}
# offers WORD EXPECTED... -- LINE... : the completion of LINE includes every EXPECTED
offers() {
	local got want=() w
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	got=$(cd "$COMPDIR" && complete_words "$@")
	for w in "${want[@]}"; do
		grep -qxF -- "$w" <<<"$got" || { echo "  '$*' offers no '$w': $(tr '\n' ' ' <<<"$got")"; return 1; }
	done
}
# offers_only EXPECTED... -- LINE... : exactly EXPECTED
offers_only() {
	local got want=()
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	got=$(cd "$COMPDIR" && complete_words "$@")
	[ "$got" = "$(printf '%s\n' "${want[@]}" | LC_ALL=C sort -u)" ] ||
		{ echo "  '$*' offers: $(tr '\n' ' ' <<<"$got")"; return 1; }
}

# lacks UNEXPECTED -- LINE... : the completion of LINE does not include UNEXPECTED
lacks() {
	local w=$1
	shift 2
	! (cd "$COMPDIR" && complete_words "$@") | grep -qxF -- "$w"
}

# a directory with a spec, a file that is no spec, a result directory
COMPDIR=$TMP/comp
mkdir -p "$COMPDIR/results/run1" "$COMPDIR/sub"
cp "$DATA/specs/ringbuf.spec" "$COMPDIR/rb.spec"
printf '[sweep]\nworkload = count\n' >"$COMPDIR/cnt.spec"
touch "$COMPDIR/notes.txt"

check complete/commands offers run check expand list report compare merge import vm -- ""
check complete/options offers_only --format -- run rb.spec --fo
check complete/command-prefix offers_only check -- ch
# SPEC: spec files, directories, the installed specs by name and the
# workloads (an ad hoc run); no other file
installed_specs=$(cd "$DATA/specs" && ls *.spec | sed 's/\.spec$//')
workloads=$("$BIN" list | sed -n 's/^\([A-Za-z0-9_]*\): .*/\1/p')
check complete/spec-files offers_only cnt.spec rb.spec results sub $installed_specs $workloads \
	-- check ""
check complete/bare-spec-or-command offers rb.spec check ringbuf_overwrite null -- ""
check complete/installed-spec-by-name offers_only ringbuf_overwrite -- check ringbuf_o
check complete/result-dirs offers_only results sub -- report ""
check complete/result-dirs-nested offers_only results/run1 -- compare results/
check complete/format offers_only json -- run rb.spec --format j
check complete/format-eq offers_only json -- run rb.spec --format = j

# every option each command's --help lists
missing=
for c in $CMDS; do
	got=$(cd "$COMPDIR" && complete_words "$c" -)
	for o in $(help_opts "$c"); do
		grep -qxF -- "$o" <<<"$got" || missing+=" $c:$o"
	done
done
got=$(cd "$COMPDIR" && complete_words -)
for o in $(help_opts); do
	grep -qxF -- "$o" <<<"$got" || missing+=" (none):$o"
done
check complete/every-option test -z "$missing"
[ -n "$missing" ] && echo "  not completed:$missing"

# workloads: each one `bpfsweep list` accepts, as many as it lists
wls=$(cd "$COMPDIR" && complete_words list "")
n=$("$BIN" list | grep -c '^  parameters:')
check complete/workloads-count test "$(wc -l <<<"$wls")" -eq "$n" -a "$n" -gt 1
bad=
for w in $wls; do "$BIN" list "$w" >/dev/null 2>&1 || bad+=" $w"; done
check complete/workloads-valid test -z "$bad"
check complete/workloads-ringbuf offers ringbuf null -- list ""
check complete/run-workload offers ringbuf -- run ring

# --set: parameters of the spec's workload, with '='; values of a choice
check complete/set-param-of-spec offers_only producers= -- run rb.spec --set prod
check complete/set-param-of-installed-spec offers_only producers= -- ringbuf_overwrite -s prod
check complete/set-param-of-workload offers_only producers= -- run ringbuf --set prod
check complete/set-sweep-key offers profile= profile_hz= -- run rb.spec --set prof
check complete/set-param-of-count offers producers= repeat= -- cnt.spec --set ""
check complete/set-not-other-workload lacks rate= -- cnt.spec --set ""
check complete/set-choice-values offers_only rb-custom -- run rb.spec --set bench = rb-c
check complete/set-onoff-values offers_only off on -- run rb.spec --set overwrite =
check complete/list-param offers producers= batch_cnt= -- check rb.spec --set ""

# a result directory's parameters, from the spec it ran
cp "$COMPDIR/cnt.spec" "$COMPDIR/results/run1/spec"
check complete/per-param-of-result offers_only producers -- report results/run1 --per ""
check complete/set-param-of-result offers_only producers= -- report results/run1 --set prod

# nothing on the terminal but the completions (no "Broken pipe", no error)
check complete/no-stderr test ! -s "$TMP/complete.err"
[ -s "$TMP/complete.err" ] && head -n 3 "$TMP/complete.err"

# a spec's text is matched, never expanded or run
printf '[sweep]\nworkload = count$(touch pwned)\n' >"$COMPDIR/evil.spec"
check complete/spec-of-evil offers producers= -- run evil.spec --set ""
(cd "$COMPDIR" && complete_words run evil.spec --set producers = >/dev/null)
check complete/spec-text-inert test ! -e "$COMPDIR/pwned"
