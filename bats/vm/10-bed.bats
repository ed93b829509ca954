#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the test bed: real rdma_rxe on Debian's kernel, proven with rdma-core's
# own tools as the oracles.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	modprobe ib_uverbs
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
}

teardown() {
	rdma link delete rxe0 2>/dev/null || true
}

# bats test_tags=kernels
@test "bed: the guest runs Debian's kernel with rdma_rxe available" {
	run uname -r
	assert_output --regexp '^[5-7]\.[0-9]+\.[0-9]+(-[0-9]+|\+deb[0-9]+)-amd64$'
	run modinfo -F filename rdma_rxe
	assert_success
	assert_output --partial "/lib/modules/$(uname -r)/"
}

# bats test_tags=kernels
@test "bed: rdma link add creates an rxe device on the bed's netdev, ACTIVE" {
	run rdma link add rxe0 type rxe netdev "$RXE_VM_NETDEV"
	assert_success
	run rdma -j link show rxe0/1
	assert_success
	run jq -r '.[0] | "\(.ifname) \(.state) \(.physical_state) \(.netdev)"' <<<"$output"
	assert_output "rxe0 ACTIVE LINK_UP $RXE_VM_NETDEV"
}

# bats test_tags=kernels
@test "bed: ibv_devinfo sees the port PORT_ACTIVE with RoCE v2 GIDs" {
	rdma link add rxe0 type rxe netdev "$RXE_VM_NETDEV"
	run ibv_devinfo -d rxe0 -v
	assert_success
	assert_output --regexp 'state:[[:space:]]+PORT_ACTIVE'
	assert_output --regexp 'link_layer:[[:space:]]+Ethernet'
	assert_output --regexp "GID\[  1\]:[[:space:]]+::ffff:$RXE_VM_ADDR, RoCE v2"
}

# bats test_tags=kernels
@test "bed: a loopback ibv_rc_pingpong over GID 1 passes" {
	rdma link add rxe0 type rxe netdev "$RXE_VM_NETDEV"
	stock_rc_pingpong 18515 200
	assert_output --partial "GID ::ffff:$RXE_VM_ADDR"
}
