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
	local files
	mapfile -t files < <(find "$TOP/src" "$TOP/tools" -name '*.[ch]')
	[ "${#files[@]}" -gt 50 ] || fail "only ${#files[@]} C files found"
	# One pass over them all: a process a file made this test slow.
	run awk '
		FNR == 1 && !/^(\/\/|\/\*) SPDX-License-Identifier: / { print FILENAME ": no SPDX line first" }
		FNR == 2 && !/^\/\*/ { print FILENAME ": no comment saying what it is for on line 2" }
		FNR == 501 { print FILENAME ": more than 500 lines: split it by what its parts do" }
	' "${files[@]}"
	assert_success
	assert_output ''
}

@test "tree: no two C files of different names open with the same words" {
	local f key line
	declare -A by=()
	# Each file's opening comment, its lines joined: what it says it is for.
	while IFS=$'\t' read -r f key; do
		f=${f%.[ch]}
		[ -z "${by[$key]-}" ] || [ "${by[$key]}" = "$f" ] ||
			fail "${by[$key]#"$TOP"/} and ${f#"$TOP"/} open with the same words: $key"
		by[$key]=$f
	done < <(find "$TOP/src" -name '*.[ch]' | sort | xargs awk '
		FNR == 1 { if (key != "") print name "\t" key; name = FILENAME; key = ""; open = 1 }
		FNR >= 2 && open { line = $0; gsub(/[ \t]+/, " ", line); key = key " " line; if (index($0, "*/")) open = 0 }
		END { if (key != "") print name "\t" key }')
	[ "${#by[@]}" -gt 20 ] || fail "only ${#by[@]} openings read"
}

@test "tree: one netlink socket path, no attributes built above kernel/, each layer looks down only" {
	cd "$TOP/src"
	run grep -rln 'mnl_socket_open' --include='*.c' .
	assert_output './kernel/nl.c'
	run grep -rlE 'mnl_attr_put|mnl_nlmsg_put' --include='*.c' cmd ops checks model views selftest cli rdmactl
	assert_output ''
	# The whole order, each folder naming only those below it: kernel and
	# lazy at the bottom, the model, what names causes from it (diag), then
	# what acts (ops), the checks and the selftest, views, and the commands;
	# cli's grammar and output serve them all and look down at the kernel
	# alone.
	declare -A below=([kernel]='kernel|lazy' [lazy]='lazy' [model]='model|kernel|lazy'
		[diag]='diag|model|kernel|lazy'
		[checks]='checks|diag|model|kernel|lazy' [selftest]='selftest|model|kernel|lazy'
		[ops]='ops|selftest|model|kernel|lazy' [cli]='cli|kernel|lazy'
		[views]='views|cli|ops|checks|selftest|diag|model|kernel|lazy')
	for d in "${!below[@]}"; do
		run grep -rnE '#include "[a-z]+/' "$d"
		bad=$(grep -vE "#include \"(${below[$d]})/" <<<"$output" || true)
		[ -z "$bad" ] || fail "$d/ looks up: $bad"
	done
	# Above them: cmd, and main (rdmactl); beside: the tests and fuzz targets.
	[ "$(ls -d */ | wc -l)" -eq 13 ] || fail "a folder of src/ the order does not name: $(ls -d */)"
}

# The layers docs/hacking.md's "Where code goes" lists, top first: its
# indented lines' src/ folders.
hacking_layers() {
	sed -n '/^## Where code goes$/,/^## /{/^    src\/[a-z]*\//p}' "$TOP/docs/hacking.md" |
		sed -E 's|^ +src/([a-z]+)/.*|\1|'
}

@test "tree: docs/hacking.md's layers are src's folders, each including only those it lists below it" {
	local layers=() d i k ok bad
	mapfile -t layers < <(hacking_layers)
	[ "${#layers[@]}" -ge 10 ] || fail "docs/hacking.md lists ${#layers[@]} layers: ${layers[*]}"
	# Every folder of src/ is a layer it names, but the tests and fuzz targets.
	for d in "$TOP"/src/*/; do
		d=$(basename "$d")
		case $d in tests | fuzz) continue ;; esac
		printf '%s\n' "${layers[@]}" | grep -qxF "$d" || fail "src/$d/ is not among docs/hacking.md's layers"
	done
	for ((i = 0; i < ${#layers[@]}; i++)); do
		d=${layers[i]}
		[ -d "$TOP/src/$d" ] || fail "docs/hacking.md names src/$d/, which is not in the tree"
		# Itself and what the list puts below it.
		ok=$d
		for ((k = i + 1; k < ${#layers[@]}; k++)); do ok+="|${layers[k]}"; done
		bad=$(grep -rnE '#include "[a-z]+/' "$TOP/src/$d" | grep -vE "#include \"($ok)/" || true)
		[ -z "$bad" ] || fail "src/$d/ includes a layer docs/hacking.md puts above it: ${bad#"$TOP"/}"
	done
}

@test "tree: each file of model/ exports model_ names, as docs/hacking.md says" {
	cd "$TOP/src/model"
	# A function defined at the start of a line, not static: an export.
	run awk 'FNR == 1 { body = 0 }
		/^[a-z][^(;=]*[ *][a-z_0-9]+\(/ && !/^static / {
			line = $0; sub(/\(.*/, "", line); n = split(line, w, /[ *]+/)
			if (w[n] !~ /^model_/) print FILENAME ": " w[n]
		}' ./*.c
	assert_success
	assert_output ''
}

@test "tree: cmd/ writes no record of its own: it prints through views/, as docs/hacking.md says" {
	cd "$TOP/src/cmd"
	# out.h's record makers; a command keeps the stream's (out_new, out_finish, ...).
	run grep -nE '\<out_(obj_open|obj_close|arr_open|arr_close|str|u64|s64|dbl|bool|text|nl|sh_export)\(' ./*.c
	assert_output ''
}

@test "tree: every script and bats file in at most 500 lines, as docs/hacking.md says of a file" {
	local files=() f
	# The scripts: what starts with #! or is sourced (.bash, .sh), and the bats files.
	while IFS= read -r f; do
		case $f in bats/fixtures/*) continue ;; esac
		case $f in
		*.bats | *.bash | *.sh) files+=("$TOP/$f") ;;
		*) [ "$(head -c 2 "$TOP/$f")" != '#!' ] || files+=("$TOP/$f") ;;
		esac
	done < <(cd "$TOP" && { git ls-files tools bats ci .ci 2>/dev/null || find tools bats ci .ci -type f; })
	[ "${#files[@]}" -gt 50 ] || fail "only ${#files[@]} scripts found"
	run awk 'FNR == 501 { print FILENAME ": more than 500 lines: split it by what its parts do" }' "${files[@]}"
	assert_success
	assert_output ''
}

@test "tree: every function of the program and of the bed's init in at most 80 lines" {
	local files
	mapfile -t files < <(find "$TOP/src" "$TOP/tools/vm" -name '*.c' -not -path '*/tests/*' \
		-not -path '*/fuzz/*' -not -name '*.bpf.c')
	[ "${#files[@]}" -gt 50 ] || fail "only ${#files[@]} C files found"
	# A definition opens at the start of a line and ends at the first '}' there.
	run awk '
		FNR == 1 { start = 0 }
		/^[a-z].*\(/ && !/;$/ { name = $0; start = FNR }
		/^}/ && start { if (FNR - start > 80) { sub(/\(.*/, "", name); print FILENAME ": " name ": " FNR - start " lines" } start = 0 }
	' "${files[@]}"
	assert_success
	assert_output ''
}
