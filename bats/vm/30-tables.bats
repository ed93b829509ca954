#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# show, gids, netdevs on live rxe devices, against ibv_devinfo -v and rdma.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	modprobe ib_uverbs
	modprobe rdma_rxe
	ip addr add 10.11.11.252/24 dev veth0
	ip addr add 2001:db8:11::1/64 dev veth0 nodad
	ip addr add 10.11.13.1/24 dev veth1
	ip addr add fd00:13::1/64 dev veth1 nodad
	for d in $(rdma -j link show | jq -r '.[].ifname'); do rdma link delete "$d"; done
	rdma link add rxe0 type rxe netdev veth0
	rdma link add rxe1 type rxe netdev veth1
}

teardown_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	rdma link delete rxe0 || true
	rdma link delete rxe1 || true
	ip addr del 10.11.11.252/24 dev veth0 || true
	ip addr del 2001:db8:11::1/64 dev veth0 || true
	ip addr flush dev veth1 scope global || true
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
}

# GIDs follow address changes through a kernel work item: wait for the table.
wait_gid() {
	local want=$1 present=$2
	for _ in $(seq 50); do
		if rdmactl -j gids | jq -e --arg a "$want" 'any(.[]; .address == $a)' >/dev/null; then
			[ "$present" = yes ] && return 0
		else
			[ "$present" = no ] && return 0
		fi
		sleep 0.1
	done
	return 1
}

# bats test_tags=kernels
@test "tables live: every GID and type matches ibv_devinfo -v" {
	run rdmactl -j gids
	assert_success
	got=$(rdmactl_gids_as_devinfo <<<"$output" | sort)
	want=$(ibv_devinfo -v | devinfo_gids | sort)
	assert_equal "$got" "$want"
	[ "$(wc -l <<<"$got")" -eq 7 ]
}

# bats test_tags=kernels
@test "tables live: port fields, MTUs included, match ibv_devinfo -v" {
	run rdmactl -j show
	assert_success
	got=$(rdmactl_ports_as_devinfo <<<"$output" | sort)
	want=$(ibv_devinfo -v | devinfo_ports | sort)
	assert_equal "$got" "$want"
	run jq -r '.[0].ports[0] | "\(.max_mtu) \(.active_mtu)"' <<<"$output"
	assert_output '4096 1024'
}

# bats test_tags=kernels
@test "tables live: devices and netdevs match rdma dev show and rdma link show" {
	run rdmactl -j show
	got=$(jq -c '[.[] | {ifname, node_type, node_guid, sys_image_guid}]' <<<"$output")
	want=$(rdma -j dev show | jq -c '[.[] | {ifname, node_type, node_guid, sys_image_guid}]')
	assert_equal "$got" "$want"
	run rdmactl -j netdevs
	got=$(jq -c '[.[] | {ifname, port, netdev}]' <<<"$output")
	want=$(rdma -j link show | jq -c '[.[] | {ifname, port, netdev}]')
	assert_equal "$got" "$want"
	run rdmactl netdevs
	assert_line 'rxe0 port 1 ==> veth0 (Up)'
	ip link set veth1 down
	run rdmactl netdevs
	ip link set veth1 up
	assert_line 'rxe1 port 1 ==> veth1 (Down)'
}

@test "tables live: an address added and removed: the GID table follows" {
	ip addr add 10.11.11.253/24 dev veth0
	wait_gid 10.11.11.253 yes || fail "no GID for 10.11.11.253"
	run rdmactl -j gids rxe0
	got=$(rdmactl_gids_as_devinfo <<<"$output" | sort)
	want=$(ibv_devinfo -v -d rxe0 | devinfo_gids | sort)
	assert_equal "$got" "$want"
	ip addr del 10.11.11.253/24 dev veth0
	wait_gid 10.11.11.253 no || fail "the GID of 10.11.11.253 stayed"
	run rdmactl -j gids rxe0
	refute_output --partial 10.11.11.253
	# The recommended index stays the first IPv4 address's.
	run jq -r '.[] | select(.recommended) | "\(.index) \(.address)"' <<<"$output"
	assert_output "1 $RXE_VM_ADDR"
}

@test "tables live: an MTU change shows in show's active MTU as in ibv_devinfo" {
	ip link set veth0 mtu 9000
	run rdmactl -j show rxe0
	ip link set veth0 mtu 1500
	run jq -r '.[0].ports[0].active_mtu' <<<"$output"
	assert_output 4096
}

@test "tables live: show, gids and netdevs work without privileges" {
	for cmd in show gids netdevs; do
		run as_nobody "$RDMACTL" -j $cmd
		assert_success
		[ "$(jq length <<<"$output")" -ge 2 ] || fail "$cmd as nobody: $output"
	done
}
