# fish completion for cudx: installed as share/fish/vendor_completions.d/cudx.fish.

set -l commands check why tree arch probe explain kb compare run
complete -c cudx -f
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a check -d 'diagnose this machine (the default)'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a why -d 'how the loader looks for a library'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a tree -d 'dependency tree with how each library is found'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a arch -d 'GPU code inside binaries'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a probe -d 'the live smoke test alone'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a explain -d 'read an error message and diagnose it'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a kb -d 'query the knowledge base'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a compare -d 'compare the reports of many nodes'
complete -c cudx -n "not __fish_seen_subcommand_from $commands" -a run -d 'run a program and watch what it loads'

# options of every command
complete -c cudx -l json -d 'machine-readable output'
complete -c cudx -l prom -d 'Prometheus text format (check only)'
complete -c cudx -l root -x -a '(__fish_complete_directories)' -d 'analyse a tree'
complete -c cudx -l env -r -F -d 'environment of the target'
complete -c cudx -l pid -x -a '(__fish_complete_pids)' -d 'use a running process'
complete -c cudx -l driver -x -d 'simulate this NVIDIA driver version'
complete -c cudx -l gpu -x -d 'simulate this GPU (sm_86, 8.6, name)'
complete -c cudx -l python -x -a '(__fish_complete_directories)' -d 'also inspect this Python environment'
complete -c cudx -l os -x -a 'linux windows' -d 'the target OS'
complete -c cudx -l no-probe -d 'skip the live smoke test'
complete -c cudx -l probe-timeout -x -d 'time limit of the live probe (seconds)'
complete -c cudx -l color -d 'force colour'
complete -c cudx -l no-color -d 'disable colour'
complete -c cudx -s v -d 'more detail'
complete -c cudx -s h -l help -d 'print the commands and options'
complete -c cudx -l version -d 'print the version'

# options and arguments of one command
complete -c cudx -n '__fish_seen_subcommand_from check' -l app -r -F -d 'also judge what this application loads'
complete -c cudx -n '__fish_seen_subcommand_from run' -l timeout -x -d 'end the command after (seconds)'
complete -c cudx -n '__fish_seen_subcommand_from run' -l sandbox -d 'least privilege, /dev read-only'
complete -c cudx -n '__fish_seen_subcommand_from why' -l from -r -F -d 'resolve as this object would'
complete -c cudx -n '__fish_seen_subcommand_from tree' -l no-dlopen -d 'leave out run-time loads'
complete -c cudx -n '__fish_seen_subcommand_from probe' -l stages -x -a 'driver nvml runtime ptx cublas cudnn' -d 'stages to run'
complete -c cudx -n '__fish_seen_subcommand_from probe' -l cudart -r -F -d 'also probe this runtime'
complete -c cudx -n '__fish_seen_subcommand_from explain' -l file -r -F -d 'read the message from a file'
complete -c cudx -n '__fish_seen_subcommand_from explain' -l app -r -F -d 'the program that printed the message'
complete -c cudx -n '__fish_seen_subcommand_from kb' -l cuda -x -d 'CUDA major'
complete -c cudx -n '__fish_seen_subcommand_from kb' -l api -x -a 'cudart cu cudnn8 cudnn9 cublas nvml' -d 'API of an error code'
complete -c cudx -n '__fish_seen_subcommand_from kb; and not __fish_seen_subcommand_from driver gpu arch lib cudnn framework error' -a 'driver gpu arch lib cudnn framework error'
complete -c cudx -n '__fish_seen_subcommand_from tree arch compare explain' -F
