# SPDX-License-Identifier: GPL-2.0
# bash completion for bpfsweep(1): commands, each command's options, spec
# files, result directories, and the workload and parameter names, which
# are read at completion time from `bpfsweep list` (so a new workload or
# parameter needs no change here).  Self-contained: it uses no function of
# the bash-completion package, which loads it from
# PREFIX/share/bash-completion/completions/bpfsweep; without that package,
# `source` it from ~/.bashrc.
#
# Keep the option lists in step with `bpfsweep CMD --help` (sweep/cli/cliopt.c):
# tests/cli/options.sh checks that each command's list here is exactly the
# options its help lists, and which of them take an argument.

_bpfsweep_cmds="run check expand list report compare merge import fleet bisect system vm"

# The options of command $1 (run also stands for `bpfsweep SPEC`).
_bpfsweep_opts()
{
	local common="-s --set -q --quick -h --help -V --version"
	local bench="-w --warmup -d --duration -p --producers -c --consumers -a --affinity"
	local draw="--no-plots --plot-timeout -f --format"

	bench+=" --save-spec --kernel --profile"
	case $1 in
	run)		echo "$common $bench -o --output -t --tag --resume --only --shard --by $draw
			      --no-html --quiet-warning" ;;
	check|expand)	echo "$common $bench --only" ;;
	report)		echo "-s --set -h --help -V --version -o --output --spec --by --normalize
			      --per --profile $draw --html" ;;
	merge)		echo "-s --set -h --help -V --version -o --output --spec --by --normalize
			      --per $draw" ;;
	compare)	echo "-a --alpha --decide -e --metrics -f --format --fail-above -i --ignore
			      --paired --profile --allow-tcg --html --all-programs -h --help" ;;
	import)		echo "-h --help -V --version -o --output -t --tag --label" ;;
	fleet)		echo "$common --hosts --ssh-config --engine --partition --constraint --nodelist
			      --time-limit -o --output -t --tag --only --shard
			      --shard-mixed --resume --by $draw --no-html --quiet-warning" ;;
	bisect)		echo "$common --kernel --good --bad --old --new --step --allow-tcg -o --output
			      --resume --only" ;;
	vm)		echo "-s --set -o --output --probe-accel -h --help" ;;
	list|system)	echo "-h --help -V --version" ;;
	esac
}

# Whether option $2 of command $1 takes an argument (the next word).
_bpfsweep_takes_arg()
{
	case $2 in
	-s|--set|-o|--output|-t|--tag|--plot-timeout|--resume|--only|--kernel|--spec|--by| \
	--normalize|--per|--label|-w|--warmup|-d|--duration|-p|--producers|-c|--consumers| \
	--save-spec|-f|--format|--alpha|--decide|--fail-above|-i|--ignore|--hosts|--ssh-config| \
	--engine|--partition|--constraint|--nodelist|--time-limit|--quiet-warning|-e|--metrics| \
	--good|--bad|--old|--new|--step)
		return 0 ;;
	-a)	[[ $1 == compare ]] ;;	# compare's --alpha; elsewhere --affinity
	--shard) [[ $1 != fleet ]] ;;	# run's I/N; fleet's takes none
	*)	return 1 ;;
	esac
}

# The bpfsweep being completed for: the word typed, found as bash would run it.
_bpfsweep_bin()
{
	local w=${COMP_WORDS[0]}

	w=${w/#\~/$HOME}
	if [[ $w == */* ]]; then
		[[ -x $w ]] && printf '%s\n' "$w"
	else
		type -P "$w"
	fi
}

# Workload names: the unindented "name: help" lines of `bpfsweep list`.
_bpfsweep_workloads()
{
	local bin line

	bin=$(_bpfsweep_bin) || return
	"$bin" list 2>/dev/null | while IFS= read -r line; do
		[[ $line =~ ^([A-Za-z0-9_]+):\  ]] && printf '%s\n' "${BASH_REMATCH[1]}"
	done
}

# "name type" of the parameters of workload $1, or of every workload
# without $1: the lines under "  parameters:" in `bpfsweep list`, whose
# name is indented by four blanks (their help lines by more).
_bpfsweep_params()
{
	local bin line in_params=0

	bin=$(_bpfsweep_bin) || return
	"$bin" list ${1:+"$1"} 2>/dev/null | while IFS= read -r line; do
		if [[ $line == "  parameters:" ]]; then
			in_params=1
		elif [[ $line != "    "* ]]; then
			in_params=0
		elif ((in_params)) && [[ $line =~ ^\ {4}([A-Za-z0-9_]+)\ +([^ ,]+) ]]; then
			printf '%s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
		fi
	done
}

# The directories whose specs run by name, as bpfsweep looks for them:
# ./specs (a checkout), specs/ beside the binary, and the installed ones
# beside it as `make install` lays them out.
_bpfsweep_specdirs()
{
	local bin

	printf '%s\n' specs
	bin=$(_bpfsweep_bin) || return
	bin=$(readlink -f "$bin") || return
	printf '%s\n' "${bin%/*}/specs" "${bin%/*}/../share/bpfsweep/specs"
}

# The spec file a name stands for, in the first directory that has it.
_bpfsweep_find_spec()
{
	local dir

	[[ -n $1 && $1 != */* ]] || return
	while IFS= read -r dir; do
		[[ -f $dir/${1%.spec}.spec ]] && printf '%s\n' "$dir/${1%.spec}.spec" && return
	done <<<"$(_bpfsweep_specdirs)"
}

# The workload of spec file $1: `workload =` in its [sweep] section.
_bpfsweep_spec_workload()
{
	local line section=

	# bpfsweep reads no spec above 1 MiB: neither does a TAB
	[[ -f $1 && -r $1 ]] && (($(stat -c %s -- "$1") <= 1048576)) || return
	while IFS= read -r line; do
		line=${line%$'\r'}
		if [[ $line =~ ^[[:space:]]*\[([A-Za-z0-9_-]+) ]]; then
			section=${BASH_REMATCH[1]}
		elif [[ $section == sweep &&
			$line =~ ^[[:space:]]*workload[[:space:]]*=[[:space:]]*([A-Za-z0-9_]+) ]]; then
			printf '%s\n' "${BASH_REMATCH[1]}"
			return
		fi
	done < "$1"
}

# The workload a command's positional argument $1 names, in the order
# bpfsweep resolves it: a spec file, a workload (an ad hoc run), a spec by
# name; or a result directory's, from the spec it ran (report, merge).
_bpfsweep_arg_workload()
{
	local arg=$1 spec wl

	[[ -n $arg ]] || return
	if [[ -f $arg ]]; then
		_bpfsweep_spec_workload "$arg"
		return
	elif [[ -d $arg ]]; then
		_bpfsweep_spec_workload "$arg/spec"
		return
	fi
	for wl in $(_bpfsweep_workloads); do
		[[ $wl == "$arg" ]] && printf '%s\n' "$wl" && return
	done
	spec=$(_bpfsweep_find_spec "$arg")
	[[ -n $spec ]] && _bpfsweep_spec_workload "$spec"
}

# Lists are read whole ("$(...)") before a loop over them may return early:
# a writer left on a closed pipe says "write error: Broken pipe" where
# SIGPIPE is ignored.

# The words of $1 (blank or newline separated) that start with $2, each
# followed by $3.  Matched here rather than by compgen -W, which would
# expand a '$(...)' in a word.
_bpfsweep_add_words()
{
	local -a list
	local w IFS=$' \t\n'

	read -d '' -ra list <<<"$1"	# split on blanks and newlines, no globbing
	for w in "${list[@]}"; do
		[[ $w == "$2"* ]] && COMPREPLY+=("$w$3")
	done
}

# What SPEC may be: spec files and directories to find them in, specs by
# name, and workloads (an ad hoc run).
_bpfsweep_add_specs()
{
	local cur=$1 dir f IFS=$'\n'

	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -f -X '!*.spec' -- "$cur") $(compgen -d -- "$cur"))
	[[ $cur == */* ]] && return
	_bpfsweep_add_words "$(_bpfsweep_workloads)" "$cur"
	while IFS= read -r dir; do
		for f in "$dir"/*.spec; do
			[[ -f $f ]] || continue
			f=${f##*/}
			f=${f%.spec}
			[[ $f == "$cur"* ]] && COMPREPLY+=("$f")
		done
	done <<<"$(_bpfsweep_specdirs)"
}

_bpfsweep_add_dirs()
{
	local IFS=$'\n'

	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -d -- "$1"))
}

_bpfsweep_add_files()
{
	local IFS=$'\n'

	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -f -- "$1"))
}

# --set KEY=: the spec's own keys and the workload's parameters, with "=".
_bpfsweep_add_set_keys()
{
	local cur=$1 wl=$2 keys name type

	keys="title warmup duration interval repeat affinity max_cv retry_noisy bpf_stats"
	keys+=" profile profile_hz"
	keys+=" precision max_repeat max_time"
	keys+=" label values worker_rows baseline group plot logx"
	while read -r name type; do
		[[ " $keys " == *" $name "* ]] || keys+=" $name"	# once, of all workloads
	done <<<"$(_bpfsweep_params "$wl")"
	_bpfsweep_add_words "$keys" "$cur" =
	compopt -o nospace 2>/dev/null
}

# --set KEY=VALUE: the values of an on/off or choice parameter.
_bpfsweep_add_set_values()
{
	local key=$1 cur=$2 wl=$3 name type

	case $key in
	affinity|worker_rows|profile) _bpfsweep_add_words "on off" "$cur"; return ;;
	logx) _bpfsweep_add_words "auto on off" "$cur"; return ;;
	esac
	while read -r name type; do
		[[ $name == "$key" ]] || continue
		case $type in
		on/off)	_bpfsweep_add_words "on off" "$cur" ;;
		*\|*)	_bpfsweep_add_words "${type//|/ }" "$cur" ;;
		esac
		return
	done <<<"$(_bpfsweep_params "$wl")"
}

# The argument of option $2 of command $1; $4 is the positional argument.
_bpfsweep_add_optarg()
{
	local cmd=$1 opt=$2 cur=$3 wl

	case $opt in
	-s|--set)
		[[ $cmd == vm ]] &&
			{ _bpfsweep_add_words "vm_accel= vm_cpus= vm_mem= vm_boot_timeout= vm_ssh_port=" "$cur";
			  compopt -o nospace 2>/dev/null; return; }
		_bpfsweep_add_set_keys "$cur" "$(_bpfsweep_arg_workload "$4")" ;;
	-o|--output|--resume)	_bpfsweep_add_dirs "$cur" ;;
	--spec)			_bpfsweep_add_specs "$cur" ;;
	--save-spec|--hosts|--ssh-config) _bpfsweep_add_files "$cur" ;;
	--kernel)		_bpfsweep_add_words host "$cur"; _bpfsweep_add_files "$cur" ;;
	-f|--format)		_bpfsweep_add_words "text markdown csv json" "$cur" ;;
	--engine)		_bpfsweep_add_words "ssh slurm" "$cur" ;;
	--normalize)		_bpfsweep_add_words first "$cur" ;;
	# the system check's names (sweep/system/syscheck.c, syscheck_names[])
	--quiet-warning)
		_bpfsweep_add_words "load governor boost virtualised bpf_jit_enable bpf_jit_harden
				     bpf_stats_enabled bpf_stats_active bpf_hooks
				     perf_event_max_sample_rate irqbalance irq_affinity rcu_nocbs" \
				    "$cur" ;;
	--by)
		_bpfsweep_add_words "host arch cpu_model kernel_release kernel executor accel tag:" \
				    "$cur"
		compopt -o nospace 2>/dev/null ;;
	--per|-i|--ignore)
		wl=$(_bpfsweep_arg_workload "$4")
		_bpfsweep_add_words "$(_bpfsweep_params "$wl" | while read -r n t; do echo "$n"; done)" \
				    "$cur" ;;
	esac
}

_bpfsweep_complete()
{
	local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} cmd=run pos= nr_pos=0 i=1 w
	local -a words=("${COMP_WORDS[@]}")

	COMPREPLY=()
	if ((cword == 1)); then
		if [[ $cur == -* ]]; then
			_bpfsweep_add_words "$(_bpfsweep_opts run)" "$cur"
		else
			_bpfsweep_add_words "$_bpfsweep_cmds" "$cur"
			_bpfsweep_add_specs "$cur"
		fi
		return 0
	fi
	if [[ " $_bpfsweep_cmds " == *" ${words[1]} "* ]]; then
		cmd=${words[1]}
		i=2
	fi
	# Walk the words before the cursor: options, their arguments, the
	# positional arguments.  '=' is a word of its own (COMP_WORDBREAKS):
	# --format=json is "--format" "=" "json", --set k=v "--set" "k" "=" "v".
	while ((i < cword)); do
		w=${words[i]}
		if [[ $cmd == vm && $w == -- ]]; then
			compopt -o default 2>/dev/null	# the guest's command line
			return 0
		elif [[ $w == -* ]] && _bpfsweep_takes_arg "$cmd" "$w"; then
			((i++))
			[[ ${words[i]} == = ]] && ((i++))
			[[ ${words[i + 1]} == = ]] && ((i += 2))
		elif [[ $w != -* ]]; then
			[[ -z $pos ]] && pos=$w
			((nr_pos++))
		fi
		((i++))
	done

	# After an '=': the argument of --opt=, or the value of --set KEY=.
	local prev=${words[cword - 1]} left= optw=
	if [[ $cur == = ]]; then
		left=$prev optw=${words[cword - 2]} cur=
	elif [[ $prev == = ]]; then
		left=${words[cword - 2]} optw=${words[cword - 3]}
	fi
	if [[ $left == -* ]]; then
		_bpfsweep_add_optarg "$cmd" "$left" "$cur" "$pos"
		return 0
	elif [[ -n $left ]]; then
		[[ $cmd != vm ]] && [[ $optw == -s || $optw == --set ]] &&
			_bpfsweep_add_set_values "$left" "$cur" "$(_bpfsweep_arg_workload "$pos")"
		return 0
	fi
	if [[ $prev == -* ]] && _bpfsweep_takes_arg "$cmd" "$prev"; then
		_bpfsweep_add_optarg "$cmd" "$prev" "$cur" "$pos"
		return 0
	fi
	if [[ $cur == -* ]]; then
		_bpfsweep_add_words "$(_bpfsweep_opts "$cmd")" "$cur"
		return 0
	fi

	case $cmd in
	run|check|expand|fleet) ((nr_pos == 0)) && _bpfsweep_add_specs "$cur" ;;
	list)		((nr_pos == 0)) && _bpfsweep_add_words "$(_bpfsweep_workloads)" "$cur" ;;
	report|merge|compare) _bpfsweep_add_dirs "$cur" ;;
	import)		_bpfsweep_add_files "$cur" ;;
	vm)		((nr_pos == 0)) && _bpfsweep_add_files "$cur" ;;
	system)		((nr_pos == 0)) && _bpfsweep_add_words "show" "$cur" ;;
	esac
	return 0
}

# A name may come twice: a workload and the spec of the same name, a spec
# in ./specs and installed.
_bpfsweep_uniq()
{
	local -A seen=()
	local -a out=()
	local w

	for w in "${COMPREPLY[@]}"; do
		[[ -n $w && -z ${seen["$w"]} ]] || continue
		seen["$w"]=1
		out+=("$w")
	done
	COMPREPLY=("${out[@]}")
}

_bpfsweep()
{
	_bpfsweep_complete
	_bpfsweep_uniq
	return 0
}

complete -F _bpfsweep bpfsweep
