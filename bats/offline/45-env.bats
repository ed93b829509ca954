#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl env on fixture trees captured in the bed: the values against the GID
# table (gids -j's recommended index, the oracle's ip addresses), the three
# formats against each other, and the errors.

setup() {
	load ../helpers
	F=$TOP/bats/fixtures/two-netdevs
	E=$TOP/bats/fixtures/no-rdma
}

@test "env: rxe0's variables, as gids marks its index, evaluated by a shell" {
	run -0 rdmactl --sysfs-root "$F" env rxe0
	assert_line --index 0 '# rdmactl env: rxe0 port 1 on veth0, 10.11.11.251, GID index 1'
	want=$(rdmactl --sysfs-root "$F" -j gids rxe0 | jq -r '.[] | select(.recommended) | .index')
	# shellcheck disable=SC2030,SC2031
	got=$(eval "$output"; echo "$RDMA_DEVICE $RDMA_PORT $RDMA_NETDEV $RDMA_ADDRESS $RDMA_GID_INDEX $UCX_NET_DEVICES $UCX_IB_GID_INDEX $NCCL_IB_HCA $NCCL_IB_GID_INDEX $NCCL_SOCKET_IFNAME $FI_VERBS_DEVICE_NAME $FI_VERBS_IFACE $FI_VERBS_GID_IDX $OMPI_MCA_pml")
	assert_equal "$got" "rxe0 1 veth0 10.11.11.251 $want rxe0:1 $want =rxe0:1 $want =veth0 rxe0 veth0 $want ucx"
	got=$(eval "$output"; echo "$UCX_TLS $UCX_UD_ETH_DGID_CHECK $FI_UNIVERSE_SIZE")
	assert_equal "$got" "self,rc_verbs,ud_verbs n 127"
	got=$(eval "$output"; echo "$RDMA_EXAMPLE_ARGS|$RDMA_PERFTEST_ARGS|$RDMA_GID")
	assert_equal "$got" "-d rxe0 -i 1 -g $want|-d rxe0 -i 1 -x $want|0000:0000:0000:0000:0000:ffff:0a0b:0bfb"
	# The address is one the netdev had when the fixture was captured.
	jq -e '.[] | select(.ifname == "veth0") | .addr_info[] | select(.local == "10.11.11.251")' \
		"$F/oracle/ip-addr.json" >/dev/null
}

@test "env: --family ipv6 gives the global IPv6 address's GID, never fe80::" {
	run -0 rdmactl --sysfs-root "$F" -j env --family ipv6 rxe0
	assert_equal "$(jq -r '"\(.family) \(.address) \(.gid_index) \(.env.UCX_IB_GID_INDEX)"' <<<"$output")" 'ipv6 2001:db8:11::1 3 3'
	run -0 rdmactl --sysfs-root "$F" -j env --family ipv6 rxe1
	assert_equal "$(jq -r '"\(.address) \(.gid_index)"' <<<"$output")" 'fd00:13::1 2'
}

@test "env: sh, github and JSON say the same variables; JSON keeps its contract" {
	run -0 rdmactl --sysfs-root "$F" -j env rxe1
	assert_json_contract --exact env <<<"$output"
	json=$(jq -r '.env | to_entries[] | "\(.key)=\(.value)"' <<<"$output")
	run -0 rdmactl --sysfs-root "$F" env --format github rxe1
	assert_equal "$output" "$json"
	run -0 rdmactl --sysfs-root "$F" env rxe1
	assert_equal "$(grep -v '^#' <<<"$output" | sed "s/^export \([A-Za-z_]*\)='\(.*\)'\$/\1=\2/")" "$json"
}

@test "env: two candidates, an unknown device, a bad option, no RDMA: each said, nothing printed on stdout" {
	# DEV is wanted: a usage error, with no errno after it.
	run --separate-stderr rdmactl --sysfs-root "$F" env
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "rdmactl: env: 2 rxe devices could serve (rxe0, rxe1): name one, as 'rdmactl env DEV'; try 'rdmactl help env'"
	run --separate-stderr rdmactl --sysfs-root "$F" env rxe9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: there is no RDMA device named rxe9 ('rdmactl link' lists them) (ENODEV: No such device)"
	run --separate-stderr rdmactl --sysfs-root "$F" env --format yaml rxe0
	assert_failure 2
	run --separate-stderr rdmactl --sysfs-root "$E" env
	assert_failure 1
	assert_output ''
	[[ $stderr == rdmactl:* ]] || fail "$stderr"
}

# The copy of a fixture F with rxe0's netdev (veth0, or the name given
# before) named NAME, where the kernel shows a netdev's name: its
# directory, rxe0's parent, and its GIDs' netdev.
set_netdev() {
	local f=$1 name=$2 g
	mv "$f/sys/class/net/$(cat "$f/sys/class/infiniband/rxe0/parent")" "$f/sys/class/net/$name"
	printf '%s\n' "$name" >"$f/sys/class/infiniband/rxe0/parent"
	for g in 0 1 2 3; do printf '%s\n' "$name" >"$f/sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/$g"; done
}

@test "env: every netdev name the kernel takes comes back exact through eval, runs nothing, prints as ASCII" {
	local f=$BATS_TEST_TMPDIR/fx b name got tried=0
	cp -r "$F" "$f"
	# The kernel's rule for a netdev name: 1 to 15 bytes, no '/', ':' or
	# white space, not '.' or '..'. Every other byte, 13 to a name, and
	# names that end in a quote, a backslash, or a dollar.
	names=() name=
	for b in $(seq 1 255); do
		case $b in 9 | 10 | 11 | 12 | 13 | 32 | 47 | 58) continue ;; esac
		name+=$(printf "\\$(printf %03o "$b")")
		[ "${#name}" -lt 13 ] || { names+=("$name"); name=; }
	done
	[ -z "$name" ] || names+=("$name")
	names+=("a'" 'a\' 'a$(id)' '$HOME' 'é' "a\"b" '`id`x' "''" '%s%n')
	for name in "${names[@]}"; do
		set_netdev "$f" "$name"
		run -0 rdmactl --sysfs-root "$f" env rxe0
		# Printable ASCII alone on the terminal, one comment line.
		LC_ALL=C grep -q '[^[:print:]]' <<<"$output" && fail "a byte beyond printable ASCII printed for $(printf %q "$name")"
		[ "$(grep -c '^#' <<<"$output")" = 1 ] || fail "the comment broke for $(printf %q "$name"): $output"
		# shellcheck disable=SC2030,SC2031
		got=$(PATH=/nonexistent; eval "$output"; printf '%s|%s' "$RDMA_NETDEV" "$FI_VERBS_IFACE")
		[ "$got" = "$name|$name" ] || fail "$(printf %q "$name") came back as $(printf %q "$got")"
		tried=$((tried + 1))
	done
	[ "$tried" -gt 25 ] || fail "only $tried names tried"
}

@test "env: --format github refuses a name it would write as more than one line or raw, saying why" {
	local f=$BATS_TEST_TMPDIR/fx g
	cp -r "$F" "$f"
	set_netdev "$f" $'v\033x'
	run --separate-stderr rdmactl --sysfs-root "$f" env --format github rxe0
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "rdmactl: --format github: the name of rxe0 or of its netdev v\\x1bx holds a byte outside printable ASCII, which GitHub's environment file would take as it is (a newline starts a variable of its own): rename it, or use the sh format, which escapes it (EINVAL: Invalid argument)"
}

@test "env --family ipv6 takes the link-local GID where no global one is, and says it reaches that link only" {
	cp -a "$TOP/bats/fixtures/two-netdevs" "$BATS_TEST_TMPDIR/f"
	p=$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe1/ports/1
	# rxe1's one global IPv6 address gone, as its empty slot reads.
	cat "$p/gids/5" >"$p/gids/2"
	rm "$p/gid_attrs/types/2" "$p/gid_attrs/ndevs/2"
	run --separate-stderr rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" env --family ipv6 rxe1
	assert_success
	assert_line "export RDMA_GID_INDEX='0'"
	assert_line --regexp "^export RDMA_ADDRESS='fe80::"
	assert_equal "$stderr" "rdmactl: note: veth1 has no global IPv6 address: its link-local GID is the one, and it reaches peers on veth1's link only"
	# A global one, where there is one, is still first.
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" env --family ipv6 rxe0
	assert_line "export RDMA_ADDRESS='2001:db8:11::1'"
}

# The fixture $1 with rxe0 named $2 (four bytes, rxe0's length, so that the
# captured netlink answers keep their lengths) and rxe1's port down, so that
# env without DEV takes the renamed device.
set_rdma_name() {
	local f=$1
	python3 - "$f/netlink/rdma" "$2" <<-'PY'
		import sys
		p, name = sys.argv[1], sys.argv[2].encode('latin-1', 'surrogateescape')
		data = open(p, 'rb').read()
		assert data.count(b'rxe0\0') >= 1 and len(name) == 4
		open(p, 'wb').write(data.replace(b'rxe0\0', name + b'\0'))
	PY
	mv "$f/sys/class/infiniband/rxe0" "$f/sys/class/infiniband/$2"
	printf '%s\n' "$2" >"$f/sys/class/infiniband_verbs/uverbs0/ibdev"
	echo '1: DOWN' >"$f/sys/class/infiniband/rxe1/ports/1/state"
}

@test "env: an RDMA device's name the kernel takes comes back exact through eval and runs nothing" {
	local f=$BATS_TEST_TMPDIR/fx name got
	# The kernel refuses only '%' and the empty name for an RDMA device:
	# a newline, quotes, a command substitution, an escape are all taken.
	for name in $'r\ne0' '$(x)' '`x`;' "a'b'" $'\e[2J' 'a\nb'; do
		rm -rf "$f" && cp -r "$F" "$f"
		set_rdma_name "$f" "$name"
		run -0 rdmactl --sysfs-root "$f" env
		LC_ALL=C grep -q '[^[:print:]]' <<<"$output" && fail "a byte beyond printable ASCII printed for $(printf %q "$name")"
		[ "$(grep -c '^#' <<<"$output")" = 1 ] || fail "the comment broke for $(printf %q "$name"): $output"
		# shellcheck disable=SC2030,SC2031
		got=$(PATH=/nonexistent; x() { echo RAN; }; eval "$output"; printf '%s|%s' "$RDMA_DEVICE" "$NCCL_IB_HCA")
		[ "$got" = "$name|=$name:1" ] || fail "$(printf %q "$name") came back as $(printf %q "$got")"
		# And every table and message shows it escaped the one way the man page
		# says (\xNN, a backslash doubled), and nothing beyond printable ASCII.
		esc=$(python3 -c 'import sys; print("".join(c if " " <= c <= "~" and c != "\\" else
			"\\\\" if c == "\\" else "\\x%02x" % ord(c) for c in sys.argv[1]))' "$name")
		run -0 rdmactl --sysfs-root "$f" link show
		assert_line --partial "$esc/1 state ACTIVE"
		for cmd in 'link show' show gids netdevs qp check 'show nosuch'; do
			# shellcheck disable=SC2086 # the command's words
			"$RDMACTL" --sysfs-root "$f" $cmd >"$BATS_TEST_TMPDIR/out" 2>&1 || true
			! LC_ALL=C grep -q '[^[:print:][:space:]]' "$BATS_TEST_TMPDIR/out" ||
				fail "$cmd printed $(printf %q "$name") raw: $(cat -v "$BATS_TEST_TMPDIR/out")"
		done
	done
}

# The rules of GitHub's environment file, as its runner reads one: each line
# not empty is NAME=VALUE, its first '=' before any '<<' (else it is a
# NAME<<DELIMITER heredoc, which env never writes), NAME not empty; a line
# with neither fails the step ("Invalid format").
github_env_ok() {
	local line n=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		[[ $line == *=* ]] || { echo "no '=': $line"; return 1; }
		[[ ${line%%=*} != *'<<'* ]] || { echo "read as a heredoc: $line"; return 1; }
		[[ ${line%%=*} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "no variable's name: $line"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || { echo "no variable at all"; return 1; }
}

@test "env: every format of every device and family read back by its consumer, the same variables" {
	local f dev fam tried=0
	for f in "$TOP"/bats/fixtures/*/; do
		[ -d "$f/sys/class/infiniband" ] || continue
		for dev in $(ls "$f/sys/class/infiniband"); do
			for fam in ipv4 ipv6; do
				run --separate-stderr rdmactl --sysfs-root "$f" -j env --family "$fam" "$dev"
				[ "$status" = 0 ] || continue	# no GID of that family: said, tested above
				json=$(jq -r '.env | to_entries[] | "\(.key)=\(.value)"' <<<"$output")
				# The --format's unique prefix, as a CI job may type it.
				run -0 rdmactl --sysfs-root "$f" env --format g --family "$fam" "$dev"
				github_env_ok <<<"$output" || fail "$f $dev $fam: GitHub would refuse: $(github_env_ok <<<"$output")"
				assert_equal "$output" "$json"
				run -0 rdmactl --sysfs-root "$f" env --fam "$fam" "$dev"
				sh -n <<<"$output" || fail "$f $dev $fam: sh -n refuses it"
				got=$(env -i sh -c "$output"'
					env | grep -E "^(RDMA|UCX|NCCL|FI|OMPI)_" | sort')
				assert_equal "$got" "$(sort <<<"$json")"
				tried=$((tried + 1))
			done
		done
	done
	[ "$tried" -ge 8 ] || fail "only $tried tried"
}
