#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# link, status, show, gids and netdevs on fixture trees captured from real rxe
# devices in the test bed (tools/make-fixtures: sysfs, proc and the netlink
# answers together), checked against what ibv_devinfo -v, rdma and ip said at
# the moment of capture (the fixture's oracle/ directory).

setup() {
	load ../helpers
	F=$TOP/bats/fixtures/two-netdevs
	E=$TOP/bats/fixtures/no-rdma
	O=$F/oracle
}

@test "tables: every GID, its address and type match ibv_devinfo -v" {
	run rdmactl --sysfs-root "$F" -j gids
	assert_success
	got=$(rdmactl_gids_as_devinfo <<<"$output" | sort)
	want=$(devinfo_gids "$O/ibv_devinfo-v.txt" | sort)
	[ -n "$want" ]
	assert_equal "$got" "$want"
}

@test "tables: port fields match ibv_devinfo -v, rxe's MTUs from its netdev's as the driver sets them" {
	run rdmactl --sysfs-root "$F" -j show
	assert_success
	got=$(rdmactl_ports_as_devinfo <<<"$output" | sort)
	want=$(devinfo_ports "$O/ibv_devinfo-v.txt" | sort)
	[ "$(wc -l <<<"$want")" -eq 18 ]	# 9 fields, 2 devices
	assert_equal "$got" "$want"
}

@test "tables: link, show and status give one answer for each port's MTUs and netdev MTU" {
	run rdmactl --sysfs-root "$F" -j link
	assert_success
	link=$(jq -r '.[] | "\(.ifname)/\(.port) \(.netdev_mtu) \(.active_mtu) \(.max_mtu)"' <<<"$output" | sort)
	[ -n "$link" ]
	refute_output --partial null
	run rdmactl --sysfs-root "$F" -j show
	assert_success
	show=$(jq -r '.[] | .ifname as $d | .ports[] | "\($d)/\(.port) \(.active_mtu) \(.max_mtu)"' <<<"$output" | sort)
	assert_equal "$(cut -d' ' -f1,3,4 <<<"$link")" "$show"
	run rdmactl --sysfs-root "$F" -j status
	assert_success
	status=$(jq -r '.[] | select(.ifname) | "\(.ifname)/1 \(.netdev_mtu) \(.active_mtu)"' <<<"$output" | sort)
	assert_equal "$(cut -d' ' -f1-3 <<<"$link")" "$status"
	# And the plain text says the same as the JSON.
	run rdmactl --sysfs-root "$F" link
	assert_line --regexp '^rxe0/1 .* netdev_mtu [0-9]+ active_mtu 1024$'
	run rdmactl --sysfs-root "$F" show
	assert_line --regexp 'max_mtu 4096 active_mtu 1024 '
}

@test "tables: devices match rdma dev show: node type and GUIDs" {
	run rdmactl --sysfs-root "$F" -j show
	got=$(jq -c '[.[] | {ifname, node_type, node_guid, sys_image_guid}]' <<<"$output")
	want=$(jq -c '[.[] | {ifname, node_type, node_guid, sys_image_guid}]' "$O/rdma-dev.json")
	assert_equal "$got" "$want"
	run jq -r '.[] | "\(.ifname) \(.driver) \(.netdev) \(.uverbs) \(.fw_ver)"' <<<"$output"
	assert_line 'rxe0 rxe veth0 /dev/infiniband/uverbs0 null'
	assert_line 'rxe1 rxe veth1 /dev/infiniband/uverbs1 null'
}

@test "tables: netdevs is ibdev2netdev's view, matching rdma link and ip" {
	run rdmactl --sysfs-root "$F" netdevs
	assert_success
	want=$(jq -r '.[] | "\(.ifname) port \(.port) ==> \(.netdev)"' "$O/rdma-link.json")
	while read -r line; do
		nd=${line##* }
		up=$(jq -r --arg n "$nd" '.[] | select(.ifname == $n) | .operstate' "$O/ip-addr.json")
		[ "$up" = UP ] && state=Up || state=Down
		assert_line "$line ($state)"
	done <<<"$want"
	assert_equal "${#lines[@]}" "$(jq length "$O/rdma-link.json")"
}

@test "tables: the recommended index is each netdev's first RoCE v2 IPv4 GID" {
	run rdmactl --sysfs-root "$F" -j gids
	run jq -r '.[] | select(.recommended) | "\(.ifname) \(.netdev) \(.index)"' <<<"$output"
	got=$output
	want=$(devinfo_gids "$O/ibv_devinfo-v.txt" |
		awk '$3 ~ /^::ffff:/ && $4 == "RoCE" && !seen[$1]++ { print $1, $2 }')
	assert_equal "$(awk '{ print $1, $3 }' <<<"$got")" "$want"
	run rdmactl --sysfs-root "$F" gids rxe0
	assert_line --regexp '^rxe0 +1 +1 +0000:0000:0000:0000:0000:ffff:0a0b:0bfb 10\.11\.11\.251 +RoCE v2 +veth0  \* use -g 1 for RoCE v2 over IPv4$'
	refute_line --regexp ' 2 .*use -g'
}

@test "tables: addresses decode to IPv4 for mapped GIDs, IPv6 otherwise; all on the netdev" {
	run rdmactl --sysfs-root "$F" -j gids rxe1
	run jq -r '.[] | "\(.index) \(.address) \(.netdev)"' <<<"$output"
	# Every address rdmactl decodes is one ip showed on that netdev, or its fe80::.
	while read -r idx addr nd; do
		jq -e --arg a "$addr" --arg n "$nd" \
			'any(.[] | select(.ifname == $n) | .addr_info[]; .local == $a)' "$O/ip-addr.json" >/dev/null ||
			fail "GID $idx: $addr is not an address of $nd"
	done <<<"$output"
	assert_line --regexp '^1 10\.11\.13\.1 veth1$'
	assert_line --regexp '^2 fd00:13::1 veth1$'
}

@test "tables: gids reads every slot: --all shows 1024 a port, the count stays the used ones" {
	run rdmactl --sysfs-root "$F" gids --all rxe0
	assert_success
	# Header, 1024 slots, count.
	assert_equal "${#lines[@]}" 1026
	assert_line --index 1025 '4 GIDs in use'
	run rdmactl --sysfs-root "$F" -j gids --all
	run jq '[.[] | select(.address == null)] | length' <<<"$output"
	assert_output $((2048 - 7))
}

@test "tables: plain gids ends with the count; JSON has no count line" {
	run rdmactl --sysfs-root "$F" gids
	assert_line --index 0 --regexp '^DEV +PORT INDEX GID +ADDRESS +TYPE +NETDEV$'
	assert_line --index 8 '7 GIDs in use'
	run rdmactl --sysfs-root "$F" -j gids
	run jq length <<<"$output"
	assert_output 7
}

@test "tables: show -s adds each port's hw_counters" {
	run rdmactl --sysfs-root "$F" -j show -s rxe0
	assert_success
	# Every counter, and lifespan (how long a reading is kept) as none.
	run jq -r '.[0].ports[0].counters | keys[]' <<<"$output"
	assert_output "$(ls "$F/sys/class/infiniband/rxe0/ports/1/hw_counters" | grep -vx lifespan)"
	run rdmactl --sysfs-root "$F" show -s rxe0
	assert_output --regexp 'retry_exceeded_err +[0-9]+'
	# In columns: each number ends where the others of its column end; no line ends in a space.
	run rdmactl --sysfs-root "$TOP/bats/fixtures/qps-failed" show -s rxe0
	refute_output --regexp ' $'
	run awk '/^        [a-z]/ && !/max_mtu/ { n++; len[n] = length($0) }
		END { for (i = 2; i < n; i++) if (len[i] != len[1]) print "line " i ": " len[i] " not " len[1] }' <<<"$output"
	assert_output ''
	run rdmactl --sysfs-root "$F" -j show rxe0
	run jq '.[0].ports[0] | has("counters")' <<<"$output"
	assert_output false
}

@test "tables: a host with no RDMA devices gives empty tables, a note, and exit 0" {
	for cmd in show gids netdevs; do
		run --separate-stderr rdmactl --sysfs-root "$E" -j $cmd
		assert_success
		assert_output '[]'
		[[ $stderr == *'no RDMA devices'* ]] || fail "$cmd: $stderr"
	done
	run --separate-stderr rdmactl --sysfs-root "$E" gids
	assert_output --partial '0 GIDs in use'
}

@test "tables: an unknown device exits 1; bad arguments exit 2" {
	run --separate-stderr rdmactl --sysfs-root "$F" show rxe9
	assert_failure 1
	[[ $stderr == *'no RDMA device named rxe9'*ENODEV* ]]
	run rdmactl --sysfs-root "$F" gids rxe0 rxe1
	assert_failure 2
	run rdmactl --sysfs-root "$F" show --all
	assert_failure 2
	run rdmactl --sysfs-root "$F" netdevs -s
	assert_failure 2
	run rdmactl --sysfs-root "$F" gids 'a/b'
	assert_failure 2
}

@test "tables: RDMACTL_SYSFS_ROOT does what --sysfs-root does; the option wins" {
	want=$(rdmactl --sysfs-root "$F" -j gids)
	RDMACTL_SYSFS_ROOT=$F run rdmactl -j gids
	assert_output "$want"
	RDMACTL_SYSFS_ROOT=$E run rdmactl --sysfs-root "$F" -j gids
	assert_output "$want"
}

@test "tables: show never forks: the tables come from reads alone" {
	command -v strace >/dev/null || skip "no strace"
	# LeakSanitizer cannot run under ptrace; the leak check is the other tests' job.
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=execve,clone,fork,vfork -o "$BATS_TEST_TMPDIR/trace" \
		"$RDMACTL" --sysfs-root "$F" gids
	assert_success
	run grep -c -E 'clone|fork|execve' "$BATS_TEST_TMPDIR/trace"
	assert_output 1	# rdmactl's own execve
}

@test "tables: what needs the running system refuses a fixture, exit 2, before acting" {
	while IFS='|' read -r cmd path; do
		run --separate-stderr rdmactl --sysfs-root "$F" $cmd
		assert_failure 2
		assert_output ''
		[[ $stderr == "rdmactl: $path works on the running system only, not on the fixture $F"* ]] ||
			fail "$cmd: $stderr"
	done <<'EOF'
add rxe0 veth0|add
del rxe0|del
start|start
stop|stop
selftest|selftest loopback
selftest server rxe0|selftest server
up veth0|up
EOF
}

@test "tables: check on a fixture names the fixture's kernel, not the running one" {
	run rdmactl --sysfs-root "$F" check --only kernel
	fixture=$(cat "$F/proc/sys/kernel/osrelease")
	assert_line --partial "kernel $fixture: /sys/class/infiniband"
	# The fixture was captured in the bed: there the two releases may be one.
	[ "$fixture" = "$(uname -r)" ] || refute_output --partial "$(uname -r)"
}

@test "tables: link on a fixture is what rdma link said at capture (its netlink answers)" {
	run rdmactl --sysfs-root "$F" -j link
	assert_success
	got=$(jq -c '[.[] | {ifname, port, state, physical_state, netdev}]' <<<"$output")
	want=$(jq -c '[.[] | {ifname, port, state, physical_state, netdev}]' "$O/rdma-link.json")
	assert_equal "$got" "$want"
	# The netdev's MTU is the fixture's; an rxe port's follow from it as the
	# driver sets them, and agree with what ibv_devinfo said at capture.
	run jq -c '[.[] | [.netdev_mtu, .active_mtu, .max_mtu]]' <<<"$output"
	want=$(awk '/^hca_id:/ { d = $2 } /max_mtu:/ { max[d] = $2 } /active_mtu:/ { act[d] = $2 }
		END { printf "[[%s,%s,%s],[%s,%s,%s]]", m0, act["rxe0"], max["rxe0"], m1, act["rxe1"], max["rxe1"] }' \
		m0="$(cat "$F/sys/class/net/veth0/mtu")" m1="$(cat "$F/sys/class/net/veth1/mtu")" "$O/ibv_devinfo-v.txt")
	assert_output "$want"
	run rdmactl --sysfs-root "$F" link show rxe1
	assert_success
	assert_output "rxe1/1 state ACTIVE physical_state LINK_UP netdev veth1 netdev_mtu $(cat "$F/sys/class/net/veth1/mtu") active_mtu $(awk '/^hca_id:/ { d = $2 } d == "rxe1" && /active_mtu:/ { print $2 }' "$O/ibv_devinfo-v.txt")"
}

@test "tables: link on a fixture refuses what is not there, as live" {
	run --separate-stderr rdmactl --sysfs-root "$F" link show rxe7
	assert_failure 1
	assert_equal "$stderr" "rdmactl: there is no RDMA device named rxe7 ('rdmactl show' lists them) (ENODEV: No such device)"
	run --separate-stderr rdmactl --sysfs-root "$E" -j link
	assert_success
	assert_output '[]'
}

@test "tables: status on a fixture: its netdevs and their rxe devices; addresses are live only" {
	run rdmactl --sysfs-root "$F" -j status
	assert_success
	run jq -r '.[] | "\(.netdev) \(.ifname) \(.netdev_mtu) \(.active_mtu)"' <<<"$output"
	assert_line "veth0 rxe0 $(cat "$F/sys/class/net/veth0/mtu") 1024"
	assert_line "veth1 rxe1 $(cat "$F/sys/class/net/veth1/mtu") 1024"
	# Addresses come from the running system only (getifaddrs): none is made up.
	run jq -c '[.[].ipv4] | unique' <<<"$(rdmactl --sysfs-root "$F" -j status)"
	assert_output '[null]'
	run rdmactl --sysfs-root "$F" status
	assert_line --index 0 --regexp '^Name +Link +Driver +Speed +NMTU +IPv4_addr +RDEV +RMTU$'
}

@test "tables: a fixture without its netlink capture is said, not read live" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	rm "$BATS_TEST_TMPDIR/f/netlink/rdma"
	run --separate-stderr rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" link
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "rdmactl: the fixture $BATS_TEST_TMPDIR/f has no captured netlink answers ($BATS_TEST_TMPDIR/f/netlink/rdma): capture it again with tools/capture-sysfs (ENOENT: No such file or directory)"
	head -c 37 "$F/netlink/rdma" >"$BATS_TEST_TMPDIR/f/netlink/rdma"
	run --separate-stderr rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" status
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot read the fixture's netlink capture $BATS_TEST_TMPDIR/f/netlink/rdma: it is not whole netlink messages (EBADMSG: Bad message)"
}

@test "tables: an MTU sysfs cannot give is null in status as in link, never 0" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	echo garbage >"$BATS_TEST_TMPDIR/f/sys/class/net/veth0/mtu"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j status
	assert_success
	assert_equal "$(jq -c '.[] | select(.netdev == "veth0") | [.netdev_mtu, .active_mtu]' <<<"$output")" '[null,null]'
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j link
	assert_equal "$(jq -c '.[] | select(.netdev == "veth0") | [.netdev_mtu, .active_mtu]' <<<"$output")" '[null,null]'
}

@test "tables: qp on a fixture lists the QPs rdma res show qp listed with them, owners and peers named" {
	Q=$TOP/bats/fixtures/qps
	run rdmactl --sysfs-root "$Q" -j qp
	assert_success
	got=$(jq -r '.[] | "\(.ifname)/\(.port) \(.qpn) \(.type) \(.state) \(.owner.pid)"' <<<"$output" | sort)
	want=$(jq -r '.[] | "\(.ifname)/\(.port // null) \(.lqpn) \(.type) \(.state) \(.pid // null)"' \
		"$Q/oracle/rdma-res-qp.json" | sort)
	assert_equal "$got" "$want"
	assert_json_contract --exact qp <<<"$output"
	# The ibv_rc_pingpong pair on rxe0: each in RTS, each the other's peer.
	run jq -r '[.[] | select(.type == "RC" and .state == "RTS")] |
		map("\(.owner.comm) \(.qpn) \(.rqpn) \(.peer.qpn) \(.peer.owner.comm) \(.verdict)") | .[]' \
		<<<"$output"
	assert_equal "${#lines[@]}" 2
	for l in "${lines[@]}"; do
		read -r comm qpn rqpn peer peer_comm verdict <<<"$l"
		assert_equal "$comm $peer_comm $verdict" "ibv_rc_pingpong ibv_rc_pingpong ok"
		assert_equal "$peer" "$rqpn"
		[ "$qpn" != "$peer" ] || fail "a QP is its own peer: $l"
	done
	# The server still waiting for its client: INIT, no peer, not ready.
	run jq -r '.[] | select(.type == "RC" and .state == "INIT") | "\(.owner.comm) \(.peer) \(.verdict)"' \
		<<<"$(rdmactl --sysfs-root "$Q" -j qp)"
	assert_output "ibv_rc_pingpong null not-ready"
	# Text: a line a QP, then the count; DEV narrows it.
	run rdmactl --sysfs-root "$Q" qp rxe1
	assert_success
	assert_line --regexp '^rxe1/1 qpn [0-9]+ UD INIT pid [0-9]+ \(ibv_ud_pingpong\)( .*)? not-ready$'
	assert_line --regexp '^[0-9]+ QPs?$'
	refute_line --partial 'rxe0/'
}

@test "tables: qp says what is missing: a device that is none, a capture without QPs" {
	run --separate-stderr rdmactl --sysfs-root "$TOP/bats/fixtures/qps" qp rxe9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: no RDMA device named rxe9 ('rdmactl show' lists them) (ENODEV: No such device)"
	run --separate-stderr rdmactl --sysfs-root "$F" qp
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "rdmactl: cannot list the QPs: the fixture's netlink capture has no QP dump (capture it again with tools/capture-sysfs) (ENOMSG: No message of desired type)"
	run --separate-stderr rdmactl --sysfs-root "$F" qp 'rx e0'
	assert_failure 2
}

@test "tables: a netdev whose operstate is 'unknown' but carries (lo, dummy) is Up, as ip shows it" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	echo unknown >"$BATS_TEST_TMPDIR/f/sys/class/net/veth0/operstate"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" netdevs
	assert_line 'rxe0 port 1 ==> veth0 (Up)'
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" status
	assert_line --regexp '^veth0 +yes '
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j netdevs
	assert_equal "$(jq -r '.[0].netdev_state' <<<"$output")" unknown
	# Without a carrier it is Down; an operstate not read is unknown (null, "-").
	echo 0 >"$BATS_TEST_TMPDIR/f/sys/class/net/veth0/carrier"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" netdevs
	assert_line 'rxe0 port 1 ==> veth0 (Down)'
	rm "$BATS_TEST_TMPDIR/f/sys/class/net/veth0/operstate"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" netdevs
	assert_line 'rxe0 port 1 ==> veth0 (-)'
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j status
	assert_equal "$(jq -c '.[0].netdev_state' <<<"$output")" null
}

@test "tables: qp on a fixture says untold, never ok, for a QP one reading cannot clear; an ended owner is said" {
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps-failed" qp
	# qpfail's dead-peer QP: RTS, its peer gone; read once, it may be resending.
	assert_line --regexp '^rxe0/1 qpn 21 RC RTS pid [0-9]+ \(qpfail\) rqpn 22 sq_psn 1 rq_psn 0 untold$'
	assert_line --regexp '^untold: read once '
	# check holds it to the same one reading, in its own words.
	run rdmactl --sysfs-root "$TOP/bats/fixtures/qps-failed" check --only qps
	assert_line --regexp '^SKIP  qps +QP 21 of [0-9]+ \(qpfail\) on rxe0 in RTS, read once: '

	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps-failed" -j qp
	assert_equal "$(jq -r '.[] | select(.qpn == 21 and .ifname == "rxe0") | .verdict' <<<"$output")" untold
	# Caught-up pairs on this host stay ok.
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" qp
	refute_output --partial untold
	# The owner gone before its command was read: the dump has its PID alone.
	cp -a "$TOP/bats/fixtures/qps" "$BATS_TEST_TMPDIR/q"
	pid=$(jq -r '[.[] | select(.state == "RTS" and .type == "RC")][0].pid' "$TOP/bats/fixtures/qps/oracle/rdma-res-qp.json")
	rm -r "$BATS_TEST_TMPDIR/q/proc/$pid"
	run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/q" qp
	assert_line --regexp "^rxe0/1 qpn [0-9]+ RC RTS pid $pid \\(ended\\) "
	run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/q" -j qp
	assert_equal "$(jq -r "[.[] | select(.owner.pid == $pid)][0].owner.comm" <<<"$output")" null
}
