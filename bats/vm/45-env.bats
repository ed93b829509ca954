#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl env's values pasted into each stack's own command line or
# environment: the stack is the oracle that they are right.

load rxe0

@test "env: the stock ibv_rc_pingpong and perftest's ib_write_bw run with env's arguments" {
	eval "$(rdmactl env)"
	assert_equal "$RDMA_DEVICE $RDMA_NETDEV" "rxe0 $N"
	# shellcheck disable=SC2086
	timeout 60 ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18780 >"$BATS_TEST_TMPDIR/pp" 2>&1 &
	pp=$!
	wait_listen 18780
	# shellcheck disable=SC2086
	run timeout 60 ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18780 "$RDMA_ADDRESS"
	assert_success
	assert_output --partial 'bytes in'
	wait "$pp" || fail "server: $(cat "$BATS_TEST_TMPDIR/pp")"
	# shellcheck disable=SC2086
	timeout 60 ib_write_bw $RDMA_PERFTEST_ARGS -p 18781 -n 100 >"$BATS_TEST_TMPDIR/bw" 2>&1 &
	bw=$!
	wait_listen 18781
	# shellcheck disable=SC2086
	run timeout 60 ib_write_bw $RDMA_PERFTEST_ARGS -p 18781 -n 100 "$RDMA_ADDRESS"
	assert_success
	assert_output --regexp "GID index[^0-9]*$RDMA_GID_INDEX"
	wait "$bw" || fail "server: $(cat "$BATS_TEST_TMPDIR/bw")"
}

@test "env: UCX and libfabric take env's variables under the names they know" {
	command -v ucx_info >/dev/null && command -v fi_info >/dev/null ||
		skip "ucx-utils or libfabric-bin is not in this userland"
	eval "$(rdmactl env)"
	run -0 ucx_info -cf
	assert_line "UCX_NET_DEVICES=rxe0:1"
	assert_line "UCX_IB_GID_INDEX=$RDMA_GID_INDEX"
	assert_line "UCX_TLS=self,rc_verbs,ud_verbs"
	# The UD transport of verbs inherits the setting for UD of any kind.
	assert_line "UCX_UD_VERBS_ETH_DGID_CHECK=n"
	# ofi_rxm's CQ: (128 + 128) per peer, within the device's max_cqe.
	max_cqe=$(ibv_devinfo -v -d "$RDMA_DEVICE" | awk '$1 == "max_cqe:" { print $2 }')
	[ $((FI_UNIVERSE_SIZE * 256)) -le "$max_cqe" ] || fail "FI_UNIVERSE_SIZE $FI_UNIVERSE_SIZE: over max_cqe $max_cqe"
	[ $(((FI_UNIVERSE_SIZE + 1) * 256)) -gt "$max_cqe" ] || fail "FI_UNIVERSE_SIZE $FI_UNIVERSE_SIZE: could be larger"
	# libfabric lists its verbs provider's variables: each name env sets is one.
	run -0 fi_info -e
	for v in FI_VERBS_DEVICE_NAME FI_VERBS_IFACE FI_VERBS_GID_IDX FI_UNIVERSE_SIZE; do
		assert_line --regexp "^# $v: "
	done
}

@test "env: a netdev whose name holds a quote comes back whole through eval, and nothing else runs" {
	ip link add "v'q;id>x" type veth peer name vq2 || skip "this kernel refuses the name"
	ip link set vq2 up
	ip link set "v'q;id>x" up
	ip addr add 10.88.0.1/24 dev "v'q;id>x"
	run -0 rdmactl add rxq "v'q;id>x"
	cd "$BATS_TEST_TMPDIR"
	run -0 rdmactl env rxq
	eval "$output"
	ip link del vq2
	assert_equal "$RDMA_NETDEV|$NCCL_SOCKET_IFNAME|$FI_VERBS_IFACE" "v'q;id>x|=v'q;id>x|v'q;id>x"
	[ ! -e x ] || fail "eval ran a command from the name"
}
