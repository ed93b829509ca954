#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl lab: N RDMA nodes on one machine as network namespaces on a bridge.
# ip, rdma and /proc/net/udp are the oracles for what is made and what is left.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	"$BATS_TEST_DIRNAME/../../rdmactl" start >/dev/null
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	rdma_links_clear
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	"$RDMACTL" lab del >/dev/null 2>&1 || true
	ip netns del rdmactl-probe 2>/dev/null || true
	ip link del rdlab3-h 2>/dev/null || true
	rdma_links_clear
}

# Whether this kernel's rxe opens its UDP 4791 socket in a namespace (7.1 on),
# asked with ip and rdma alone: a namespace, a veth end in it, a link, its table.
rxe_in_namespaces() {
	local ok=1
	ip netns add rdmactl-probe
	ip link add rdmactl-p0 type veth peer name rdmactl-p1
	ip link set rdmactl-p0 netns rdmactl-probe
	ip -n rdmactl-probe link set rdmactl-p0 up
	ip netns exec rdmactl-probe rdma link add rdmactl-p type rxe netdev rdmactl-p0
	ip netns exec rdmactl-probe awk 'NR > 1 && $2 ~ /:12B7$/ { f = 1 } END { exit !f }' /proc/net/udp || ok=0
	ip netns exec rdmactl-probe rdma link del rdmactl-p
	ip netns del rdmactl-probe
	ip link del rdmactl-p1 2>/dev/null || true
	[ "$ok" = 1 ]
}

# Nothing of a lab named rdlab is left: no namespace, bridge, veth or rxe device.
assert_no_lab() {
	run ip netns list
	refute_output --partial rdlab
	run ip -o link show
	refute_output --partial rdlab
	run rdma dev
	refute_output --partial rdlab
	[ ! -e /run/netns/rdlab1 ] || fail "/run/netns/rdlab1 is left"
}

# bats test_tags=kernels
@test "lab: 8 nodes made, proven all-pairs, removed without a trace; refused and undone where rxe has no namespace socket" {
	if ! rxe_in_namespaces; then
		run --separate-stderr rdmactl lab add 2
		assert_failure 1
		[[ $stderr == *"rdma_rxe of this kernel ($(uname -r)) carries no traffic from a network namespace but the initial one"*"needs Linux 7.1 or later"* ]] || fail "$stderr"
		assert_no_lab
		return
	fi
	start=$(date +%s%N)
	run -0 rdmactl -j lab add 8
	made=$(date +%s%N)
	assert_json_contract --exact lab <<<"$output"
	assert_equal "$(jq -r '[.[] | "\(.node)=\(.address)"] | join(" ")' <<<"$output")" \
		"$(for i in $(seq 8); do printf 'rdlab%s=10.78.0.%s ' "$i" "$i"; done | sed 's/ $//')"
	# What ip and rdma see in each node: its address on eth0, its rxe link ACTIVE on it.
	for i in $(seq 8); do
		assert_equal "$(ip -n "rdlab$i" -j addr show eth0 | jq -r '.[0].addr_info[] | select(.family == "inet") | "\(.local)/\(.prefixlen)"')" "10.78.0.$i/24"
		assert_equal "$(ip netns exec "rdlab$i" rdma -j link show "rdlab$i/1" | jq -r '.[0] | "\(.state) \(.netdev)"')" 'ACTIVE eth0'
	done
	assert_equal "$(rdmactl lab | wc -l)" 8
	run -0 rdmactl -j lab test
	tested=$(date +%s%N)
	assert_json_contract --exact 'lab test' <<<"$output"
	assert_equal "$(jq -c '[.nodes, (.pairs | length), .failed, .passed]' <<<"$output")" '[8,56,0,true]'
	# Every ordered pair once, none with itself.
	assert_equal "$(jq -r '[.pairs[] | "\(.from)>\(.to)"] | unique | length' <<<"$output")" 56
	assert_equal "$(jq '[.pairs[] | select(.from == .to)] | length' <<<"$output")" 0
	run -0 rdmactl lab test
	assert_line --regexp '^client +rdlab1 +rdlab2 .* rdlab8 *$'
	assert_line --regexp '^rdlab8 +pass +pass +pass +pass +pass +pass +pass +- *$'
	run -0 rdmactl -j lab del
	removed=$(date +%s%N)
	assert_json_contract --exact 'lab del' <<<"$output"
	assert_equal "$(jq .nodes <<<"$output")" 8
	assert_no_lab
	echo "# lab of 8 on $(uname -r): add $(((made - start) / 1000000)) ms, test $(((tested - made) / 1000000)) ms, del $(((removed - tested) / 1000000)) ms" >&3
}

@test "lab: bad input is refused with exit 2 before anything is made" {
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		run --separate-stderr rdmactl lab add $args
		assert_failure 2
		[[ $stderr == *"$want"* ]] || fail "lab add $args: $stderr"
	done <<-'EOF'
	0|N is a number of nodes from 1 to 64, not '0'
	65|N is a number of nodes from 1 to 64, not '65'
	x|N is a number of nodes from 1 to 64, not 'x'
	2 --subnet 10.1.2.3|--subnet takes an IPv4 subnet A.B.C.D/P with P from 8 to 30, not '10.1.2.3'
	2 --subnet 10.1.2.0/31|--subnet takes an IPv4 subnet A.B.C.D/P with P from 8 to 30, not '10.1.2.0/31'
	8 --subnet 10.1.2.0/30|10.1.2.0/30 has room for 2 nodes, not 8
	2 --name A1|--name 'A1': a lab's name is 1 to 8 lower-case letters
	2 --name toolongname|--name 'toolongname': a lab's name is 1 to 8 lower-case letters
	EOF
	assert_no_lab
	run --separate-stderr rdmactl lab del
	assert_failure 1
	assert_equal "$stderr" 'rdmactl: there is no lab named rdlab (no namespace rdlab1..., no bridge rdlab) (ENOENT: No such file or directory)'
}

# bats test_tags=kernels
@test "lab: a failure at the third node removes the first two and the bridge, and leaves what was not its own" {
	rxe_in_namespaces || skip "rdma_rxe of $(uname -r) has no socket in a namespace: lab add is refused at the first node (tested above)"
	ip link add rdlab3-h type dummy
	run --separate-stderr rdmactl lab add 4
	assert_failure 1
	[[ $stderr == *'a network device named rdlab3-h exists already'* ]] || fail "$stderr"
	run ip netns list
	refute_output --partial rdlab
	run rdma dev
	refute_output --partial rdlab
	run ip -o link show
	assert_output --partial 'rdlab3-h'
	refute_output --regexp 'rdlab[124]|rdlab:'
}
