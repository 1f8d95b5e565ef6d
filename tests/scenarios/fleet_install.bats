#!/usr/bin/env bats
# `make install` (PREFIX, DESTDIR) into a temp dir: the binary runs from there, the man page is
# lint-clean, the bash/zsh/fish completions parse, cover every command and option `cudx --help`
# lists, and complete as their shells would.

load lib/cudx

setup_file() {
	# the status is kept for the tests to judge, not fatal here
	local rc=0
	export INST="$BATS_FILE_TMPDIR/inst"
	[ -x "$CUDX_SRC/build/cudx" ] || return 0 # setup() skips
	make -s -C "$CUDX_SRC" install DESTDIR="$INST" PREFIX=/opt/cudx >"$BATS_FILE_TMPDIR/install.log" 2>&1 || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/install.status"
}

setup() {
	[ -x "$CUDX_SRC/build/cudx" ] || skip_fixture "make install installs the release build: make build first"
	P=$INST/opt/cudx
	COMP=$CUDX_SRC/packaging/completions
}

# the commands and the options `cudx --help` lists
help_commands() { "$CUDX" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z]\+\).*/\1/p'; }
help_options() { "$CUDX" --help | sed -n '/^options/,$p' | grep -oE -- '^  -[-a-z]+(, -[-a-z]+)*' | tr ',' '\n' | tr -d ' ' | sort -u; }
# before a check that every listed one is somewhere: cudx answered (a broken binary lists none)
help_answered() { [ "$(help_commands | wc -l)" -ge 8 ] && [ "$(help_options | wc -l)" -ge 10 ]; }

@test "make install honours PREFIX and DESTDIR and installs a working binary" {
	cat "$BATS_FILE_TMPDIR/install.log"
	[ "$(cat "$BATS_FILE_TMPDIR/install.status")" -eq 0 ]
	[ "$("$P/bin/cudx" --version)" = "cudx $("$CUDX" --version | cut -d' ' -f2)" ]
	for f in share/man/man1/cudx.1 share/bash-completion/completions/cudx share/zsh/site-functions/_cudx \
		share/fish/vendor_completions.d/cudx.fish lib/cudx/cudx-textfile; do
		[ -f "$P/$f" ] || { echo "missing $P/$f"; return 1; }
	done
	[ -x "$P/lib/cudx/cudx-textfile" ]
	# nothing outside PREFIX
	[ "$(ls "$INST")" = opt ]
	# the helper finds the cudx of its own installation
	mkdir -p "$BATS_TEST_TMPDIR/tf" "$BATS_TEST_TMPDIR/root/etc"
	"$P/lib/cudx/cudx-textfile" "$BATS_TEST_TMPDIR/tf" --root "$BATS_TEST_TMPDIR/root"
	grep -q '^cudx_findings{severity="error"} 0$' "$BATS_TEST_TMPDIR/tf/cudx.prom"
}

@test "the audit library goes to PREFIX/lib/cudx when the build has it" {
	grep -q 'cudx_audit' "$CUDX_SRC/build/Makefile" 2>/dev/null || skip "this build has no cudx_audit target (cudx run's LD_AUDIT library)"
	ls "$P"/lib/cudx/*audit*.so*
}

@test "the man page is mandoc -Tlint clean and names every command and option" {
	command -v mandoc >/dev/null || skip_fixture "mandoc missing (apt-get install mandoc)"
	# Whether an .Xr target exists depends on the manuals this host has (and how fresh its
	# mandoc.db is), not on the page: those two messages are left out, every other one fails.
	run sh -c 'mandoc -Tlint "$1" 2>&1 | grep -v -e "outdated mandoc.db" -e "referenced manual not found"' sh \
		"$P/share/man/man1/cudx.1"
	echo "$output"
	[ -z "$output" ]
	printf '.Dd x\n.Dt X 1\n.Os\n.Sh NAME\n.Bl -tag\n' >"$BATS_TEST_TMPDIR/bad.1"
	[ -n "$(mandoc -Tlint "$BATS_TEST_TMPDIR/bad.1" 2>&1)" ] # the check can fail
	page=$(mandoc -Tascii "$P/share/man/man1/cudx.1" | col -b)
	help_answered
	for c in $(help_commands); do grep -q "cudx $c" <<<"$page" || { echo "command $c not in cudx.1"; return 1; }; done
	for o in $(help_options); do grep -qe "$o" <<<"$page" || { echo "option $o not in cudx.1"; return 1; }; done
}

@test "the completions parse in their shells and know every command and option" {
	bash -n "$COMP/cudx.bash"
	if command -v zsh >/dev/null; then zsh -n "$COMP/_cudx"; else echo "# zsh missing: not parsed" >&3; fi
	if command -v fish >/dev/null; then fish -n "$COMP/cudx.fish"; else echo "# fish missing: not parsed" >&3; fi
	help_answered
	for f in cudx.bash _cudx cudx.fish; do
		for c in $(help_commands); do
			grep -qw -- "$c" "$COMP/$f" || { echo "$f lacks the command $c: add it"; return 1; }
		done
		for o in $(help_options); do
			pat=$o
			if [ "$f" = cudx.fish ]; then # fish spells them -l NAME / -s X
				case $o in
				--*) pat="-l ${o#--}( |\$)" ;;
				*) pat="-s ${o#-}( |\$)" ;;
				esac
			fi
			grep -qE -- "$pat" "$COMP/$f" || { echo "$f lacks the option $o: add it"; return 1; }
		done
	done
}

@test "bash completes commands, options and their values" {
	[ -r /usr/share/bash-completion/bash_completion ] || skip_fixture "bash-completion missing"
	run bash -c '
		. /usr/share/bash-completion/bash_completion
		. "$1/cudx.bash"
		comp() {
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			read -ra COMP_WORDS <<<"$COMP_LINE"; [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _cudx; echo "${COMPREPLY[*]}"
		}
		comp "cudx co"; comp "cudx --json kb d"; comp "cudx probe --st"; comp "cudx --os w"; comp "cudx --no-p"' sh "$COMP"
	echo "$output"
	[ "${lines[0]}" = compare ]
	[ "${lines[1]}" = driver ]
	[ "${lines[2]}" = --stages ]
	[ "${lines[3]}" = windows ]
	[ "${lines[4]}" = --no-probe ]
}

@test "fish completes commands and option values" {
	command -v fish >/dev/null || skip_fixture "fish missing"
	run fish -c "source $COMP/cudx.fish; complete -C 'cudx comp'; complete -C 'cudx probe --stages '; complete -C 'cudx --os '"
	echo "$output"
	[[ "${lines[0]}" == compare* ]]
	[[ "$output" == *"cudnn"*"runtime"* ]]
	[[ "$output" == *"linux"*"windows"* ]]
}
