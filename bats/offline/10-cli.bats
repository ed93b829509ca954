#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The CLI skeleton on a host without RDMA: help, version, usage errors.

setup() {
	load ../helpers
}

@test "help exits 0 and lists commands and options on a kernel without RDMA" {
	run --separate-stderr rdmactl help
	assert_success
	assert_output --partial 'Usage: rdmactl [OPTIONS] COMMAND [ARGS]'
	assert_output --partial '--json'
	assert_output --partial '--sysfs-root DIR'
	assert_output --partial 'Exit status: 0 success, 1 failure, 2 usage error.'
	assert_equal "$stderr" ''
}

@test "-h and --help print the same help as 'help'" {
	want=$(rdmactl help)
	run rdmactl -h
	assert_success
	assert_output "$want"
	run rdmactl --help
	assert_success
	assert_output "$want"
}

@test "--version and -V print the version, -j version gives JSON" {
	run rdmactl --version
	assert_success
	assert_output --regexp '^rdmactl [0-9]+\.[0-9]+\.[0-9]+$'
	run rdmactl -V
	assert_output --regexp '^rdmactl [0-9]+\.[0-9]+\.[0-9]+$'
	run rdmactl -j version
	assert_success
	run jq -e '.version | test("^[0-9]+\\.[0-9]+\\.[0-9]+$")' <<<"$output"
	assert_success
}

# The libraries the dynamic linker loaded for COMMAND..., one a line (glibc's LD_DEBUG).
libs_loaded() {
	LD_DEBUG=files "$RDMACTL" "$@" 2>&1 >/dev/null | sed -n 's/.*file=\(lib[^ ]*\) .*/\1/p' | sort -u
}

@test "a command loads only the libraries it uses: verbs, rdma_cm, kmod, json-c and zlib when it needs them" {
	F=$TOP/bats/fixtures/two-netdevs
	for cmd in --version help "link show" "--sysfs-root $F show"; do
		# shellcheck disable=SC2086 # the command's words
		run libs_loaded $cmd
		refute_line --regexp '^lib(ibverbs|rdmacm|kmod|nl|crypto|lzma|zstd|json-c|z\.)'
		assert_line libmnl.so.0
	done
	run libs_loaded -j version
	assert_line libjson-c.so.5
	refute_line --regexp '^lib(ibverbs|rdmacm|kmod|z\.)'
	run libs_loaded selftest loopback rxe0
	assert_line libibverbs.so.1
	refute_line --regexp '^lib(rdmacm|kmod|crypto)'
	run libs_loaded selftest client 127.0.0.1 --cm --timeout 1
	assert_line librdmacm.so.1
	run libs_loaded check
	assert_line libkmod.so.2
	# zlib only to read /proc/config.gz: on a kernel without RDMA, to say so.
	if [ ! -d /sys/class/infiniband ] && [ -e /proc/config.gz ]; then
		run libs_loaded show
		assert_line libz.so.1
	fi
}

@test "an unknown command exits 2 with a one-line hint on stderr only" {
	run --separate-stderr rdmactl nosuchcommand
	assert_failure 2
	assert_equal "$output" ''
	assert_equal "$stderr" "rdmactl: unknown command 'nosuchcommand'; try 'rdmactl help'"
}

@test "no command prints the usage on stderr and exits 2" {
	run --separate-stderr rdmactl
	assert_failure 2
	assert_equal "$output" ''
	[[ $stderr == *'Usage: rdmactl'* ]]
}

@test "an unknown option exits 2" {
	run --separate-stderr rdmactl --bogus help
	assert_failure 2
	assert_equal "$stderr" "rdmactl: unknown option '--bogus'; try 'rdmactl help'"
}

@test "a unique prefix runs its command" {
	run rdmactl vers
	assert_success
	assert_output --regexp '^rdmactl [0-9.]+$'
}

@test "help COMMAND and COMMAND --help print that command's synopsis" {
	for c in $(help_commands); do
		run rdmactl help "$c"
		assert_success
		assert_line --index 0 --regexp "^Usage: rdmactl $c( |$)"
		want=$output
		run rdmactl "$c" --help
		assert_success
		assert_output "$want"
	done
}

@test "help of an unknown command exits 2" {
	run --separate-stderr rdmactl help nosuch
	assert_failure 2
	[[ $stderr == *"unknown command 'nosuch'"* ]]
}

@test "extra arguments are usage errors" {
	run rdmactl version extra
	assert_failure 2
	run rdmactl help help extra
	assert_failure 2
}

@test "the man page documents every command and global option" {
	# Its synopses are generated from the command tree, in place of @PATH@.
	man=$TOP/build/rdmactl.8.scd
	[ -s "$man" ] || fail "make did not generate $man"
	cmds=$(help_commands)
	[ -n "$cmds" ]
	for c in $cmds; do
		grep -q "^\*$c[* ]" "$man" || fail "command '$c' is missing from the man page"
	done
	run grep -c '^@' "$man"
	assert_output 0
	for o in --json --pretty --sysfs-root --config --help --version; do
		grep -q -- "\*$o\*" "$man" || fail "option '$o' is missing from the man page"
	done
	# Every option a command's help names is in the man page too.
	for c in $cmds; do
		for o in $(rdmactl help "$c" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
			grep -q -- "\*$o\*" "$man" || fail "'$c $o' is missing from the man page"
		done
	done
	# Each "Defaults:" line stands under its own command: the options it names
	# are in a synopsis of the command of the heading above it.
	run awk '/^\*[a-z]/ { cmd = substr($1, 2); sub(/\*$/, "", cmd); syn[cmd] = syn[cmd] $0 }
		/^\tDefaults:/ { n = split($0, w, "*"); for (i = 2; i <= n; i += 2)
			if (w[i] ~ /^--/ && index(syn[cmd], "*" w[i] "*") == 0)
				print w[i] " under " cmd }' "$man"
	assert_output ''
	[ -s "$TOP/docs/rdmactl.8" ] || fail "make did not build docs/rdmactl.8"
	run man -l "$TOP/docs/rdmactl.8"
	assert_success
	assert_output --partial 'EXIT STATUS'
}

@test "help is wrapped to the terminal and never cut" {
	# Every node of the tree: the top, each command, each verb.
	mapfile -t paths < <(echo; rdmactl -j help | jq -r '.[].command | split(" ") | (.[0], join(" "))' | sort -u)
	# 60 and more: an option's bracketed group ("[--source TARBALL|DIR]") is
	# never broken, and under its column it needs that much.
	widths='60 80'
	[ "$RDMACTL" = "$TOP/rdmactl" ] || widths=80	# under ASan: the same code, one width
	for w in $widths; do
		for p in "${paths[@]}"; do
			# shellcheck disable=SC2086 # the path's words
			COLUMNS=$w run rdmactl help $p
			assert_success
			while IFS= read -r line; do
				# Only a word longer than a line may pass the width; no line ends in a space.
				t=${line#"${line%%[! ]*}"}
				[ ${#line} -le $w ] || [[ $t != *' '* ]] || fail "$w, help $p: '$line'"
				[[ $line != *' ' ]] || fail "$w, help $p: a trailing space: '$line'"
			done <<<"$output"
		done
		COLUMNS=$w run rdmactl help selftest client
		assert_output --partial '[--depth N]'
		assert_output --partial '[--bench[=WHAT]]'
	done
}

@test "a library a command needs but cannot load is said once, stdout left empty, exit 1" {
	[ "$(id -u)" = 0 ] && command -v unshare >/dev/null || skip "needs root and unshare (a private mount namespace)"
	lib=$(ls /usr/lib/*/libjson-c.so.5 2>/dev/null | head -n 1)
	[ -n "$lib" ] || skip "no libjson-c.so.5 to hide"
	# In a mount namespace of its own, json-c is an empty file: dlopen fails.
	run --separate-stderr unshare -m sh -c "mount --bind /dev/null '$lib' &&
		exec '$RDMACTL' -j --sysfs-root '$TOP/bats/fixtures/two-netdevs' link"
	assert_failure 1
	assert_output ''
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[0]%%:*}" 'rdmactl'
	[[ ${stderr_lines[0]} == "rdmactl: this command needs libjson-c.so.5, which cannot be loaded: "* ]] ||
		fail "first line: ${stderr_lines[0]}"
	assert_equal "${stderr_lines[1]}" 'rdmactl: hint: apt-get install libjson-c5'
	# Without -j the same command needs no json-c at all.
	run unshare -m sh -c "mount --bind /dev/null '$lib' &&
		exec '$RDMACTL' --sysfs-root '$TOP/bats/fixtures/two-netdevs' link"
	assert_success
	assert_line --partial 'rxe0/1 state ACTIVE'
}

@test "one rule for extra words and option values: -V extra and --help bogus are refused as 'version extra' and 'help bogus'" {
	for args in "-V extra" "--help bogus" "version extra" "help bogus"; do
		eval "run --separate-stderr '$RDMACTL' $args"
		[ "$status" = 2 ] || fail "rdmactl $args: status $status"
	done
	run rdmactl -V
	assert_success
	# A flag given a value says so, naming the option (not "-?").
	for args in "--json=1 help" "--pretty=yes help" "gids --all=1"; do
		eval "run --separate-stderr '$RDMACTL' $args"
		assert_failure 2
		[[ $stderr == *"that option takes no value"* ]] || fail "rdmactl $args: $stderr"
	done
}

@test "an output that cannot be written is named as it is: ENOSPC, EBADF; a reader gone is no error" {
	F=$TOP/bats/fixtures/two-netdevs
	run --separate-stderr sh -c "'$RDMACTL' --sysfs-root '$F' link >/dev/full"
	assert_failure 1
	assert_equal "$stderr" 'rdmactl: cannot write the output (ENOSPC: No space left on device)'
	run --separate-stderr sh -c "'$RDMACTL' --sysfs-root '$F' -j link >/dev/full"
	assert_failure 1
	assert_equal "$stderr" 'rdmactl: cannot write the output (ENOSPC: No space left on device)'
	run --separate-stderr sh -c "'$RDMACTL' --sysfs-root '$F' link >&-"
	assert_failure 1
	assert_equal "$stderr" 'rdmactl: cannot write the output (EBADF: Bad file descriptor)'
	# A reader that has gone, SIGPIPE ignored or not (a Python parent
	# ignores it): the output ends there, as monitor's and capture's do.
	for j in '' -j; do
		run --separate-stderr bash -c "trap '' PIPE; '$RDMACTL' --sysfs-root '$F' $j gids --all | true; exit \${PIPESTATUS[0]}"
		assert_success
		assert_equal "$stderr" ''
	done
}

@test "module --kernel takes a kernel release, selftest --bind an address: anything else is a usage error" {
	for k in 'a b' '../../../etc' $'\e[2J' 'rxé' -1 amd64 6; do
		run --separate-stderr rdmactl module status --kernel "$k"
		assert_failure 2
		[[ $stderr == "rdmactl: module status: --kernel '"* ]] || fail "--kernel '$k': $stderr"
		[[ $stderr != *linux-headers* ]] || fail "--kernel '$k' was taken for a kernel"
	done
	run --separate-stderr rdmactl selftest server --cm --bind notanaddr
	assert_failure 2
	assert_equal "$stderr" "rdmactl: selftest server: --bind takes an IPv4 or IPv6 address, not 'notanaddr'; try 'rdmactl help selftest server'"
}

@test "what came from outside is escaped alike in output and messages: no control byte reaches a terminal, distinct inputs print distinctly" {
	run --separate-stderr rdmactl selftest client $'\e[2J' rxe0
	[[ $output == *'peer \x1b[2J port'* ]] || fail "$output"
	[[ $output != *$'\e'* ]] || fail "a raw ESC on stdout"
	run --separate-stderr rdmactl add $'rx\x01e0' eth0
	assert_equal "$stderr" "rdmactl: add: device name 'rx\\x01e0': contains a control character; try 'rdmactl help add'"
	run --separate-stderr rdmactl add $'rx\x02e0' eth0
	assert_equal "$stderr" "rdmactl: add: device name 'rx\\x02e0': contains a control character; try 'rdmactl help add'"
	# A fixture's values too: a firmware version with an escape sequence in it.
	cp -a "$TOP/bats/fixtures/two-netdevs" "$BATS_TEST_TMPDIR/f"
	printf '1.0\e[31m\n' >"$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe0/fw_ver"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" show rxe0
	assert_success
	assert_line --partial 'fw 1.0\x1b[31m driver rxe'
	[[ $output != *$'\e'* ]] || fail "a raw ESC from sysfs on stdout"
	# And what a table prints as text: a counter whose name is an escape sequence.
	c=$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe0/ports/1/hw_counters
	[ -d "$c" ] || fail "the fixture has no hw_counters for rxe0"
	echo 7 >"$c/"$'\e[2Jx'
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" show -s rxe0
	assert_success
	assert_output --regexp '\\x1b\[2Jx +7'
	[[ $output != *$'\e'* ]] || fail "a raw ESC from a counter's name on stdout"
}

@test "-n NETNS: a malformed or missing namespace, or one with a fixture, is a usage error before anything is done" {
	run --separate-stderr rdmactl -n '' link
	assert_failure 2
	assert_equal "$stderr" "rdmactl: --netns takes NETNS, not an empty word; try 'rdmactl help'"
	for ns in a/b .. ../x; do
		run --separate-stderr rdmactl -n "$ns" link
		assert_failure 2
		assert_equal "$stderr" "rdmactl: -n '$ns': give a network namespace's name ('ip netns list' lists them) or the PID of a process in it"
	done
	run --separate-stderr rdmactl -n rdmactl-no-such-ns link
	assert_failure 2
	assert_equal "$stderr" "rdmactl: -n rdmactl-no-such-ns: no network namespace has that name ('ip netns list' lists them) (/run/netns/rdmactl-no-such-ns does not exist)"
	run --separate-stderr rdmactl -n 2147483647 link
	assert_failure 2
	assert_equal "$stderr" "rdmactl: -n 2147483647: no process has that PID (/proc/2147483647/ns/net does not exist)"
	run --separate-stderr rdmactl --netns 1 --sysfs-root "$TOP/bats/fixtures/two-netdevs" link
	assert_failure 2
	assert_equal "$stderr" "rdmactl: -n 1: a fixture (--sysfs-root or RDMACTL_SYSFS_ROOT) has no network namespaces; leave one of them out"
}

@test "help with an ambiguous word lists what it could be, as the parser does; an unknown one says to try help" {
	run --separate-stderr rdmactl help l
	assert_failure 2
	assert_equal "$stderr" "rdmactl: help: ambiguous command 'l': link or lab"
	run --separate-stderr rdmactl help s
	assert_failure 2
	assert_equal "$stderr" "rdmactl: help: ambiguous command 's': status, start, stop, show, stat, system or selftest"
	# The parser's own words for the same: the candidates alike.
	run --separate-stderr rdmactl l
	assert_equal "$stderr" "rdmactl: ambiguous command 'l': link or lab"
	run --separate-stderr rdmactl help zz
	assert_failure 2
	assert_equal "$stderr" "rdmactl: help: unknown command 'zz'; try 'rdmactl help'"
}

@test "a choice's unique prefix does all its word does, for every choice option of the tree" {
	# Each option whose values are a fixed set, read from the generated
	# completion: its words and the command they belong to.
	F=$TOP/bats/fixtures/two-netdevs
	re="^	\"([a-z ]+)\\|--([a-z-]+)\"\\) _rdmactl_words '([a-z0-9 ]+)' 0 ;;\$"
	n=0
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		cmd=${BASH_REMATCH[1]} opt=${BASH_REMATCH[2]}
		read -ra words <<<"${BASH_REMATCH[3]}"
		args=()
		[ "$cmd" = env ] && args=(rxe0)
		for w in "${words[@]}"; do
			# The shortest prefix of W that no other word of the set begins.
			for ((len = 1; len <= ${#w}; len++)); do
				p=${w:0:len} others=0
				for o in "${words[@]}"; do
					[ "$o" != "$w" ] && [[ $o == "$p"* ]] && others=$((others + 1))
				done
				[ "$others" = 0 ] && break
			done
			[ "$p" != "$w" ] || continue
			# shellcheck disable=SC2086
			full=$(rdmactl --sysfs-root "$F" $cmd "--$opt=$w" "${args[@]}" 2>&1; echo "exit $?")
			# shellcheck disable=SC2086
			short=$(rdmactl --sysfs-root "$F" $cmd "--$opt=$p" "${args[@]}" 2>&1; echo "exit $?")
			[ "$short" = "$full" ] ||
				fail "rdmactl $cmd --$opt=$p is not --$opt=$w: $(diff <(echo "$full") <(echo "$short"))"
			n=$((n + 1))
		done
	done < <(rdmactl help --format bash)
	# stat's, env's, help's and selftest's choices at least, each tried.
	[ "$n" -ge 8 ] || fail "only $n prefixes tried"
}

@test "-j with a --format that is no JSON is refused, never ignored" {
	run --separate-stderr rdmactl -j help --format bash
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "rdmactl: help: --format bash is a file of its own, not JSON: leave out -j; try 'rdmactl help help'"
	run --separate-stderr rdmactl --sysfs-root "$TOP/bats/fixtures/two-netdevs" -j env --format g rxe0
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "rdmactl: env: -j prints JSON: --format github is for text, leave one out; try 'rdmactl help env'"
	run -0 rdmactl -j help --format text stat
	jq -e '.[0].command == "stat"' <<<"$output"
}

@test "a reader that goes (| head) ends any command's output quietly, status 0; a full disk does not" {
	F=$TOP/bats/fixtures/two-netdevs
	W=$TOP/bats/fixtures/packets
	while IFS= read -r c; do
		# true reads nothing and goes: rdmactl's writes fail with EPIPE.
		run bash -c "$RDMACTL $c 2>'$BATS_TEST_TMPDIR/err' | true; echo \${PIPESTATUS[0]}"
		assert_output 0
		assert_equal "$(cat "$BATS_TEST_TMPDIR/err")" ''
	done <<-EOC
		help
		-h
		help --format bash
		help --format scdoc
		--sysfs-root $F stat
		--sysfs-root $F -j stat
		--sysfs-root $F show -s
		--sysfs-root $F gids
		--sysfs-root $F check --only gid-index
		explain 12
		capture -r $W/write-bw.pcap
	EOC
	run bash -c "$RDMACTL --sysfs-root '$F' stat >/dev/full"
	assert_failure 1
	assert_output 'rdmactl: cannot write the output (ENOSPC: No space left on device)'
}

@test "on a kernel without RDMA, the message points to a kernel and to the test bed, as the README says" {
	[ ! -e /sys/class/infiniband ] || skip "this host has RDMA"
	run --separate-stderr rdmactl link
	assert_failure 1
	assert_output ''
	[[ $stderr == *'has no RDMA support'* ]] || fail "not said: $stderr"
	[[ $stderr == *"such as Debian's linux-image-amd64"* ]] || fail "no kernel named: $stderr"
	[[ $stderr == *"rxe-vm run -- rdmactl up veth0 (package rdmactl-testbed; tools/rxe-vm in the source)"* ]] ||
		fail "no test bed named: $stderr"
	grep -q 'points to a kernel' "$TOP/README.md"
}

@test "--debug: each netlink message asked of a fixture and its answer on stderr; stdout as ever" {
	Q=$TOP/bats/fixtures/qps
	run --separate-stderr rdmactl --sysfs-root "$Q" -j qp
	assert_success
	plain=$output
	assert_equal "$stderr" ''
	run --separate-stderr rdmactl --debug --sysfs-root "$Q" -j qp
	assert_success
	assert_equal "$output" "$plain"
	# The requests named with their flags, each answer's messages, the end of each dump.
	grep -qx 'netlink asked of the fixture: RDMA NLDEV_CMD_GET, flags REQUEST,ACK,DUMP, seq 1, port 0, 16 bytes' <<<"$stderr" ||
		fail "no device dump asked: $(head -3 <<<"$stderr")"
	grep -q '^netlink asked of the fixture: RDMA NLDEV_CMD_RES_QP_GET, flags REQUEST,ACK,DUMP, ' <<<"$stderr" ||
		fail "no QP dump asked"
	grep -q '^netlink replayed: NLMSG_DONE, flags MULTI, ' <<<"$stderr" || fail "no dump's end"
	# An attribute by its name in rdma_netlink.h, as a string read from its bytes.
	grep -qx '  attr 2 NLDEV_ATTR_DEV_NAME, 5 bytes: 72 78 65 30 00  "rxe0"' <<<"$stderr" ||
		fail "rxe0's name not laid out"
	# The nests opened: each QP's number inside its entry inside the QP list.
	grep -qx '  attr [0-9]* NLDEV_ATTR_RES_QP (nested), [0-9]* bytes:' <<<"$stderr" || fail "no QP list"
	grep -qx '    attr [0-9]* NLDEV_ATTR_RES_QP_ENTRY (nested), [0-9]* bytes:' <<<"$stderr" ||
		fail "no QP entry"
	for q in $(jq -r '.[].qpn' <<<"$plain"); do
		grep -qE "^      attr [0-9]+ NLDEV_ATTR_RES_LQPN, 4 bytes: .*  = $q\$" <<<"$stderr" ||
			fail "QP $q not laid out in its nest"
	done
	# Every line is one of those, and nothing in it is a control character.
	run grep -cvE '^(netlink (asked of the fixture|replayed): |( {2})+attr [0-9]+)' <<<"$stderr"
	assert_output 0
	run grep -c $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$stderr"
	assert_output 0
}
