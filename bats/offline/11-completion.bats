#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion rdmactl generates from its command tree: what it offers
# is what the parser takes.

setup() {
	load ../helpers
}

# The generated completion, sourced; complete_words WORD... completes the
# last word (one a line) as bash would after the others.
load_completion() {
	rdmactl help --format bash >"$BATS_TEST_TMPDIR/c.bash"
	# shellcheck source=/dev/null
	source "$BATS_TEST_TMPDIR/c.bash"
}

complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rdmactl || true	# compgen fails where nothing matches: no error to bash
	printf "%s\n" "${COMPREPLY[@]}"
}

@test "bash completion, generated from the command tree, completes words, verbs and options" {
	load_completion
	complete_words() {	# one line, as the assertions below spell them
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_rdmactl || true
		echo "${COMPREPLY[*]}"
	}
	assert_equal "$(complete_words rdmactl st)" 'status start stop stat'
	assert_equal "$(complete_words rdmactl persist '')" 'list show add del remove delete wants'
	assert_equal "$(complete_words rdmactl link add --p)" '--persist --pretty'
	assert_equal "$(complete_words rdmactl selftest client --b)" '--bench'
	assert_equal "$(complete_words rdmactl -j selftest '')" 'loopback server client'
	assert_equal "$(complete_words rdmactl help --format '')" 'text bash scdoc'
	assert_equal "$(complete_words rdmactl help se)" 'selftest'
	# Lists: the word after the last comma, check ids from 'check --list'.
	assert_equal "$(complete_words rdmactl check --only mo)" 'modules'
	assert_equal "$(complete_words rdmactl check --only kernel,uv)" 'kernel,uverbs'
	assert_equal "$(complete_words rdmactl selftest --transport rc,s)" 'rc,srq'
	assert_equal "$(complete_words rdmactl selftest client --transport u)" 'uc ud'
	assert_equal "$(complete_words rdmactl --sysfs-root /x show -)" \
		'--stats -s --json -j --pretty -p --sysfs-root --config --netns -n --debug --help -h --version -V'
	# Each argument by its place: a setting and its words, a command's verbs after help.
	assert_equal "$(complete_words rdmactl system set '')" 'netns'
	assert_equal "$(complete_words rdmactl system set netns '')" 'shared exclusive'
	assert_equal "$(complete_words rdmactl system set netns shared '')" ''
	assert_equal "$(complete_words rdmactl help lab '')" 'show list add test del remove delete'
	assert_equal "$(complete_words rdmactl help lab add '')" ''
	# A word the parser takes, though help leaves it out.
	assert_equal "$(complete_words rdmactl de)" 'del delete dev'
	# The fixture's devices, not this host's; bash makes '=' a word of its own.
	F=$TOP/bats/fixtures/two-netdevs
	assert_equal "$(complete_words rdmactl --sysfs-root "$F" gids '')" 'rxe0 rxe1'
	assert_equal "$(complete_words rdmactl --sysfs-root = "$F" show -s r)" 'rxe0 rxe1'
	assert_equal "$(RDMACTL_SYSFS_ROOT=$F complete_words rdmactl qp '')" 'rxe0 rxe1'
	assert_equal "$(complete_words rdmactl --sysfs-root "$F" show rxe0 '')" ''
	# An optional value after its '=': --bench=lat.
	assert_equal "$(complete_words rdmactl selftest --bench = '')" 'all lat bw'
	assert_equal "$(complete_words rdmactl selftest client --bench = l)" 'lat'
	assert_equal "$(complete_words rdmactl selftest --bench =)" 'all lat bw'	# the cursor on the =
	# A namespace after link move's device (ip netns list's names).
	if [ "$(id -u)" = 0 ] && ip netns add rdmactl-compl 2>/dev/null; then
		out=$(complete_words rdmactl link move rxe0 rdmactl-co)
		ip netns del rdmactl-compl
		assert_equal "$out" 'rdmactl-compl'
	fi
	# A file name with a space is one word.
	mkdir "$BATS_TEST_TMPDIR/a dir" && touch "$BATS_TEST_TMPDIR/a dir/m 1.ko"
	compopt() { :; }
	COMP_WORDS=(rdmactl check --module-file "$BATS_TEST_TMPDIR/a dir/m")
	COMP_CWORD=3 COMPREPLY=()
	_rdmactl
	assert_equal "${#COMPREPLY[@]}: ${COMPREPLY[0]}" "1: $BATS_TEST_TMPDIR/a dir/m 1.ko"
}

@test "completion offers only what the parser takes: every completed word, fed back, parses" {
	# Whether completion and the parser agree does not hang on the build;
	# under ASan the walk's 300 runs took 37 s, and the parser runs under
	# it in every other test of that tier.
	[ "$RDMACTL" = "$TOP/rdmactl" ] || skip "the walk is the offline tier's, not again here"
	load_completion
	parses() {	# the words after rdmactl, then -h: a usage error exits 2
		"$RDMACTL" "$@" -h >/dev/null 2>"$BATS_TEST_TMPDIR/err" ||
			fail "'rdmactl $*' does not parse: $(cat "$BATS_TEST_TMPDIR/err")"
		checked=$((checked + 1))
	}
	# Walks the tree as a user would: at each command, every word offered
	# (a verb, an alias, an argument) and every option, with each value
	# offered for it (or, where none is, a number the option takes).
	# offer WORD...: what completion offers for the last word, into
	# $offered, in this shell (a subshell a word made this test slow).
	offer() {
		COMP_WORDS=(rdmactl "$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_rdmactl || true
		offered=("${COMPREPLY[@]}")
	}
	walk() {
		local path=$1 w o words names dflt opts valued kind offered
		shift
		_rdmactl_node "$path"
		local here_words=" $words " here_names=($names) here_words_a=($words)
		offer "$@" ''
		for w in "${offered[@]}"; do
			[ -n "$w" ] || continue
			parses "$@" "$w"
			if [[ $here_words == *" $w "* ]] && [ ${#@} -lt 3 ]; then
				for i in "${!here_words_a[@]}"; do
					[ "${here_words_a[i]}" = "$w" ] &&
						walk "${path:+$path }${here_names[i]}" "$@" "$w"
				done
			fi
		done
		offer "$@" -
		local opts_offered=("${offered[@]}")
		for o in "${opts_offered[@]}"; do
			[ -n "$o" ] || continue
			# The global options once at the top and once under a verb
			# deep in the tree, not again at every command: the parser
			# takes them the same wherever they come.
			[ ${#@} -eq 0 ] || [ "$path" = 'selftest client' ] ||
				[[ $globals != *" $o "* ]] || continue
			_rdmactl_node "$path"
			if [[ " $valued --sysfs-root --config --netns -n " == *" $o "* ]]; then
				offer "$@" "$o" ''
				parses "$@" "$o" "${offered[0]:-1}"
			else
				parses "$@" "$o"
			fi
		done
	}
	checked=0
	globals=" $(complete_words rdmactl - | tr '\n' ' ') "
	walk ''
	# Enough was tried to mean something: every command and its options.
	[ "$checked" -gt 250 ] || fail "only $checked words checked"
	# The aliases are offered, and a word after one completes as after its verb.
	assert_equal "$(complete_words rdmactl link '' | tr '\n' ' ')" 'show list add del remove delete move '
	assert_equal "$(complete_words rdmactl link re)" 'remove'
	assert_equal "$(complete_words rdmactl persistent '' | tr '\n' ' ')" 'list show add del remove delete wants '
	assert_equal "$(complete_words rdmactl link remove --netd)" '--netdev'
	# An optional value is never offered as a word of its own: --bench=lat, not --bench lat.
	assert_equal "$(complete_words rdmactl selftest --bench '' | tr '\n' ' ')" \
		'loopback server client '
}
