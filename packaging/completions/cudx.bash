# bash completion for cudx                                       -*- shell-script -*-
# Installed as share/bash-completion/completions/cudx (bash-completion loads it on demand).

_cudx()
{
	local cur prev words cword
	_init_completion || return

	local commands="check why tree arch probe explain kb compare run"
	local global="--json --prom --root --env --pid --driver --gpu --python --os --no-probe
		--probe-timeout --color --no-color -v --help --version"

	case $prev in
	--root | --python)
		_filedir -d
		return
		;;
	--env | --file | --cudart | --from | --app)
		_filedir
		return
		;;
	--os)
		COMPREPLY=($(compgen -W "linux windows" -- "$cur"))
		return
		;;
	--pid)
		_pids
		return
		;;
	--stages)
		COMPREPLY=($(compgen -W "driver nvml runtime ptx cublas cudnn" -- "$cur"))
		return
		;;
	--driver | --gpu | --probe-timeout | --cuda | --api | --timeout)
		return
		;;
	esac

	# the command: the first word that is not an option or an option's value
	local i cmd=""
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--root | --env | --pid | --driver | --gpu | --python | --os | --probe-timeout) ((i++)) ;;
		-*) ;;
		*)
			cmd=${words[i]}
			break
			;;
		esac
	done

	local own=""
	case $cmd in
	check) own="--app" ;;
	why) own="--from" ;;
	tree) own="--no-dlopen" ;;
	probe) own="--stages --cudart" ;;
	explain) own="--file --app" ;;
	kb) own="--cuda --os --api" ;;
	run) own="--timeout --sandbox" ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$global $own" -- "$cur"))
		return
	fi
	case $cmd in
	"")
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		;;
	kb)
		[[ $prev == kb ]] && COMPREPLY=($(compgen -W "driver gpu arch lib cudnn framework error" -- "$cur"))
		;;
	tree | arch | compare | explain)
		_filedir
		;;
	run)
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	esac
}
complete -F _cudx cudx
