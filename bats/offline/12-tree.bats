#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The tree keeps its written rules: the README's layout is the tree's, every
# file says what it is for, and the layers' boundaries hold.

setup() {
	load ../helpers
}

# The paths README.md's layout names: its indented lines, the words with a
# slash (and the Makefile), their trailing punctuation cut.
layout_paths() {
	sed -n '/^## Layout$/,/^## /{/^    /p}' "$TOP/README.md" |
		grep -oE "(\.?[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]*|^ {4}Makefile" |
		sed -E 's/^ +//; s/[.,]+$//' | sort -u
}

@test "tree: every path the README's layout names exists" {
	run layout_paths
	assert_success
	[ "${#lines[@]}" -gt 40 ] || fail "the layout names only ${#lines[@]} paths: $output"
	for p in "${lines[@]}"; do
		[ -e "$TOP/$p" ] || fail "README.md's layout names $p, which is not in the tree"
	done
}

@test "tree: the README's layout names every folder of src, bats and tools, and every doc" {
	local named want=()
	named=$(layout_paths)
	for d in "$TOP"/src/*/ "$TOP"/bats/*/ "$TOP"/tools/*/; do
		want+=("${d#"$TOP"/}")
	done
	for f in "$TOP"/docs/*.md "$TOP"/docs/*.scd*; do
		want+=("${f#"$TOP"/}")
	done
	for p in "${want[@]}"; do
		grep -qxF "$p" <<<"$named" || fail "$p is in the tree but not in README.md's layout"
	done
}

@test "tree: every C file opens with its licence and what it is for, in at most 500 lines" {
	local f n
	while IFS= read -r f; do
		n=$(wc -l <"$f")
		[ "$n" -le 500 ] || fail "$f has $n lines: split it by what its parts do"
		sed -n 1p "$f" | grep -qE '^(//|/\*) SPDX-License-Identifier: ' || fail "$f: no SPDX line first"
		sed -n 2p "$f" | grep -qE '^/\*' || fail "$f: no comment saying what it is for on line 2"
	done < <(find "$TOP/src" "$TOP/tools" -name '*.[ch]')
}

# A file's opening comment, its lines joined: what the file says it is for.
opening() {
	awk 'NR >= 2 { print; if (index($0, "*/")) exit }' "$1" | tr -s ' \n\t' ' '
}

@test "tree: no two C files of different names open with the same words" {
	local f seen=()
	declare -A by=()
	while IFS= read -r f; do
		local key base=${f%.[ch]}
		key=$(opening "$f")
		[ -z "${by[$key]-}" ] || [ "${by[$key]}" = "$base" ] ||
			fail "${by[$key]#"$TOP"/} and ${f#"$TOP"/} open with the same words: $key"
		by[$key]=$base
	done < <(find "$TOP/src" -name '*.[ch]' | sort)
}

@test "tree: one netlink socket path, no attributes built above kernel/, no layer looks up" {
	cd "$TOP/src"
	run grep -rln 'mnl_socket_open' --include='*.c' .
	assert_output './kernel/nl.c'
	run grep -rlE 'mnl_attr_put|mnl_nlmsg_put' --include='*.c' cmd ops checks model views selftest cli rdmactl
	assert_output ''
	run grep -rlE '#include "(ops|cmd|views|checks)/' kernel model cli
	assert_output ''
	run grep -rlE '#include "(ops|cmd|views)/' checks
	assert_output ''
}
