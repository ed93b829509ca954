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

@test "--debug live: the requests sent and the kernel's answers, an error named with its errno" {
	run --separate-stderr rdmactl --debug link
	assert_success
	assert_line --regexp '^rxe0/1 '
	grep -q '^netlink sent: RDMA NLDEV_CMD_GET, flags REQUEST,ACK,DUMP, ' <<<"$stderr" ||
		fail "no dump sent: $(head -3 <<<"$stderr")"
	grep -q '^netlink received: RDMA NLDEV_CMD_GET, flags MULTI, ' <<<"$stderr" || fail "no answer"
	grep -qx '  attr 2 NLDEV_ATTR_DEV_NAME, 5 bytes: 72 78 65 30 00  "rxe0"' <<<"$stderr" ||
		fail "rxe0 not laid out"
	# A refusal: the request with its attributes, the kernel's error by its errno's name.
	run --separate-stderr rdmactl --debug add rxe9 rdmactl-none0
	assert_failure
	grep -q '^netlink sent: RDMA NLDEV_CMD_NEWLINK, flags REQUEST,ACK, ' <<<"$stderr" ||
		fail "no link add sent: $(grep '^netlink' <<<"$stderr" | head -3)"
	grep -qx '  attr 51 NLDEV_ATTR_NDEV_NAME, 14 bytes: 72 64 6d 61 63 74 6c 2d 6e 6f 6e 65 30 00  "rdmactl-none0"' \
		<<<"$stderr" || fail "the netdev's name not laid out"
	grep -qE '^netlink received: NLMSG_ERROR ENODEV, flags [A-Z_,]+, ' <<<"$stderr" ||
		fail "no error named: $(grep '^netlink' <<<"$stderr" | tail -3)"
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

@test "tables live: qp names each QP as rdma res show qp does, with its owner and its peer" {
	eval "$(rdmactl env rxe0)"
	ibv_rc_pingpong -d rxe0 -g "$RDMA_GID_INDEX" -p 18520 -n 100000000 >/dev/null 2>&1 &
	server=$!
	sleep 1
	ibv_rc_pingpong -d rxe0 -g "$RDMA_GID_INDEX" -p 18520 -n 100000000 127.0.0.1 >/dev/null 2>&1 &
	client=$!
	for _ in $(seq 50); do
		[ "$(rdma -j res show qp | jq '[.[] | select(.type == "RC" and .state == "RTS")] | length')" = 2 ] && break
		sleep 0.2
	done
	run rdmactl -j qp
	rdma -j res show qp >"$BATS_TEST_TMPDIR/oracle.json"
	assert_success
	# The same QPs, types, states and owners as the kernel's own tool lists.
	got=$(jq -r '.[] | "\(.ifname)/\(.port) \(.qpn) \(.type) \(.state) \(.owner.pid)"' <<<"$output" | sort)
	want=$(jq -r '.[] | "\(.ifname)/\(.port // null) \(.lqpn) \(.type) \(.state) \(.pid // null)"' \
		"$BATS_TEST_TMPDIR/oracle.json" | sort)
	assert_equal "$got" "$want"
	# Each end of the pair names the other: its QPN, state and owner.
	for pid in $server $client; do
		other=$([ "$pid" = "$server" ] && echo "$client" || echo "$server")
		run jq -r --argjson p "$pid" '.[] | select(.owner.pid == $p and .type == "RC") |
			"\(.owner.comm) \(.state) \(.verdict) \(.peer.owner.pid) \(.peer.owner.comm) \(.peer.state)"' \
			<<<"$(rdmactl -j qp rxe0)"
		assert_output "ibv_rc_pingpong RTS ok $other ibv_rc_pingpong RTS"
	done
	run rdmactl qp rxe0
	assert_success
	assert_line --regexp "^rxe0/1 qpn [0-9]+ RC RTS pid $server \(ibv_rc_pingpong\) rqpn [0-9]+ .* peer rxe0 qpn [0-9]+ RTS pid $client \(ibv_rc_pingpong\) ok$"
	kill "$server" "$client"
	wait "$server" "$client" || true
	# Gone with their process.
	run rdmactl -j qp
	assert_success
	assert_equal "$(jq --argjson s "$server" '[.[] | select(.owner.pid == $s)] | length' <<<"$output")" 0
	run --separate-stderr rdmactl qp rxe9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: no RDMA device named rxe9 ('rdmactl show' lists them) (ENODEV: No such device)"
}

@test "tables live: stat's counters are rdma statistic's, and --interval shows traffic as it goes" {
	eval "$(rdmactl env rxe0)"
	# Some traffic first, so that the counters have moved.
	rdmactl selftest rxe0 >/dev/null
	run rdmactl -j stat rxe0
	assert_success
	got=$(jq -r '.[0].counters[] | "\(.kernel_name) \(.value)"' <<<"$output" | sort)
	want=$(rdma -j statistic show link rxe0/1 | jq -r '.[0] | to_entries[] |
		select(.value | type == "number") | select(.key != "port") | "\(.key) \(.value)"' | sort)
	assert_equal "$got" "$want"
	[ "$(jq '.[0].counters[] | select(.name == "sent_pkts") | .value' <<<"$output")" -gt 0 ]
	# A selftest during the interval: packets sent and received in it, no error counter moved.
	(sleep 0.5; rdmactl selftest rxe0 >/dev/null) &
	run rdmactl -j stat rxe0 --interval 3
	wait
	assert_success
	[ "$(jq '.[0].counters[] | select(.name == "sent_pkts") | .change' <<<"$output")" -gt 0 ]
	[ "$(jq '.[0].counters[] | select(.name == "rcvd_pkts") | .change' <<<"$output")" -gt 0 ]
	assert_equal "$(jq '[.[0].counters[] | select(.error and .change > 0)] | length' <<<"$output")" 0
	run rdmactl stat --format prometheus rxe0
	assert_success
	assert_line --regexp '^rdma_sent_pkts_total\{device="rxe0",port="1"\} [1-9][0-9]*$'
}

@test "tables live: qp shows a failing program's QPs in the states the kernel has them" {
	for mode in rnr bad-rkey dead-peer; do
		start_qpfail "$mode"
		run rdmactl -j qp rxe0
		assert_success
		got=$(jq -r --argjson p "$prog" '.[] | select(.owner.pid == $p) |
			"\(.qpn) \(.state) \(.verdict) \(.owner.comm) \(.peer.qpn)"' <<<"$output")
		want=$(rdma -j res show qp | jq -r --argjson p "$prog" '.[] | select(.pid == $p) | "\(.lqpn) \(.state)"')
		assert_equal "$(cut -d' ' -f1,2 <<<"$got")" "$want"
		a=$qp_a b=$qp_b
		case $mode in
		rnr)	# The sender gave up; the receiver, with nothing posted, is fine.
			grep -q '^completion 13 ' "$BATS_TEST_TMPDIR/$mode.out"
			assert_equal "$got" "$a ERR error qpfail $b"$'\n'"$b RTS ok qpfail $a" ;;
		bad-rkey) # Both ends go to ERR on a remote access error.
			grep -q '^completion \(10\|5\) ' "$BATS_TEST_TMPDIR/$mode.out"
			assert_equal "$got" "$a ERR error qpfail $b"$'\n'"$b ERR error qpfail $a" ;;
		dead-peer) # The peer's QP is gone: the sender stays in RTS, resending, and a second look tells.
			grep -q '^no completion in 2 s' "$BATS_TEST_TMPDIR/$mode.out"
			assert_equal "$got" "$a RTS resending qpfail null" ;;
		esac
		kill "$prog"
		wait "$prog" || true
	done
}
