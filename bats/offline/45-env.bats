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
	run --separate-stderr rdmactl --sysfs-root "$F" env
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "rdmactl: 2 rxe devices could serve (rxe0, rxe1): name one, as 'rdmactl env DEV' (EINVAL: Invalid argument)"
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
