#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl selftest in loopback on real rxe devices.

load rxe0

# bats test_tags=kernels
@test "selftest: loopback on a fresh rxe device passes every stage, every byte checked" {
	run rdmactl selftest rxe0
	assert_success
	assert_line --index 0 "rxe0: GID 1 ::ffff:$RXE_VM_ADDR, MTU 1024"
	for st in setup connect; do
		assert_line --regexp "^  $st +pass +[0-9]+ us$"
	done
	assert_stages_passed 12411
}

@test "selftest: -j gives every stage with its result, time and bytes" {
	run rdmactl -j selftest --size 1048576 rxe0
	assert_success
	run jq -r '.[0] | .passed, ([.stages[] | select(.result != "pass")] | length),
		([.stages[] | select(.stage == "write" or .stage == "read" or .stage == "send") | .bytes] | unique | .[0])' <<<"$output"
	assert_output $'true\n0\n1048576'
}

@test "selftest: without DEV every rxe device is tested" {
	ip addr add 10.11.15.1/24 dev veth1
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl -j selftest
	assert_success
	run jq -r '.[] | "\(.ifname) \(.passed) \(.gid)"' <<<"$output"
	assert_line "rxe0 true ::ffff:$RXE_VM_ADDR"
	assert_line 'rxe1 true ::ffff:10.11.15.1'
}

@test "selftest: a forced empty GID index fails at setup with the hint, exit 1" {
	run rdmactl selftest --gid-index 7 rxe0
	assert_failure 1
	assert_line --regexp '^  setup +FAIL +[0-9]+ us  GID index 7 of rxe0 is empty$'
	assert_line --partial "hint: 'rdmactl gids' lists the GIDs"
	assert_line --regexp '^  send +skip  an earlier stage failed$'
	assert_line 'rxe0: selftest FAILED'
}

@test "selftest --format junit: a stage or a transport's row a test case, as -j has them, as CI reads them" {
	local j=$BATS_TEST_TMPDIR/j.xml
	run -1 rdmactl selftest --gid-index 7 rxe0 --format junit
	printf '%s\n' "$output" >"$j"
	run -0 junit_read "$j"
	assert_line 'rdmactl.selftest.rxe0|setup|fail'
	assert_line 'rdmactl.selftest.rxe0|send|skip'
	grep -q '<failure message="GID index 7 of rxe0 is empty">GID index 7 of rxe0 is empty$' "$j"
	grep -q '^hint: &apos;rdmactl gids&apos; lists the GIDs' "$j"
	# Each row of the matrix a case, its result as -j says it (not supported and not run skipped).
	want=$(rdmactl -j selftest rxe0 --transport rc,xrc | jq -r '.[0].matrix[] |
		"rdmactl.selftest.rxe0.\(.transport)|\(.op)|\(.result | sub("not supported|not run"; "skip"))"')
	[ "$(wc -l <<<"$want")" -ge 8 ]
	run -0 rdmactl selftest rxe0 --transport rc,xrc --format junit
	printf '%s\n' "$output" >"$j"
	run -0 junit_read "$j"
	assert_equal "$(printf '%s\n' "${lines[@]:1}")" "$want"
}

@test "selftest: the netdev down ends with a clear error, not a hang" {
	ip link set "$N" down
	start=$SECONDS
	run rdmactl selftest --timeout 3 rxe0
	assert_failure 1
	assert_line --regexp '^  setup +FAIL .*port 1 of rxe0 is (down|init|armed|nop), not ACTIVE$'
	assert_line --partial 'hint: rdmactl check --only link'
	[ $((SECONDS - start)) -lt 20 ]
}

@test "selftest: odd sizes from 1 byte pass" {
	for sz in 1 1023 1025 4097; do
		run rdmactl selftest --size "$sz" rxe0
		assert_success
		assert_line --regexp "^  write +pass +[0-9]+ us  $sz bytes verified$"
	done
}

@test "selftest: ASan, UBSan and LeakSanitizer find nothing in a loopback run" {
	san_ready
	run san selftest rxe0
	assert_success
	assert_line 'rxe0: selftest passed'
}

@test "selftest: no rxe device is ENODEV with what to do" {
	rdma_links_clear
	run --separate-stderr rdmactl selftest
	assert_failure 1
	[[ $stderr == *"there is no rxe device to test ('rdmactl add rxe0 NETDEV' makes one)"* ]]
}

# bats test_tags=kernels
@test "up: from nothing loaded to a proven link in one command" {
	rdmactl stop >/dev/null
	modprobe -r rdma_ucm ib_uverbs 2>/dev/null || true
	run --separate-stderr rdmactl up "$N"
	assert_success
	assert_line '== rdmactl start'
	assert_line 'module rdma_rxe loaded now'
	assert_line '== rdmactl check'
	assert_line 'rxe0: selftest passed'
	assert_line --index $((${#lines[@]} - 1)) "up: $N: rxe0 is up and proven: modules loaded, link ACTIVE, every check passed, selftest passed"
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "up: -j prints only the summary on stdout; steps go to stderr" {
	run --separate-stderr rdmactl -j up "$N"
	assert_success
	assert_output '{"netdev":"'"$N"'","ifname":"rxe0","proven":true,"failed_step":null}'
	[[ $stderr == *'== rdmactl selftest'* ]]
}

@test "up: a failing step stops it, says which, exit 1" {
	# An unknown netdev is found before anything is loaded or made.
	before=$(cut -d' ' -f1 /proc/modules | sort)
	run --separate-stderr rdmactl up nosuch0
	assert_failure 1
	assert_output ''
	[[ $stderr == *'there is no network device named nosuch0'*'nothing was done'*ENODEV* ]]
	assert_equal "$(cut -d' ' -f1 /proc/modules | sort)" "$before"
	ip link set "$N" down
	run rdmactl up "$N"
	assert_failure 1
	assert_line "up: $N: rxe0: stopped at check: see above"
	assert_line "      fix: ip link set $N up"
}

@test "up: with no default route and no NETDEV it asks for one, exit 2" {
	run --separate-stderr rdmactl up
	assert_failure 2
	[[ $stderr == *"name it, 'rdmactl up NETDEV'"* ]]
}


# bats test_tags=kernels
@test "pingpong: rdmactl's client against a stock ibv_rc_pingpong server" {
	timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -p 18710 >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	server=$!
	wait_listen 18710
	run rdmactl selftest client "$RXE_VM_ADDR" --pingpong --port 18710 rxe0
	assert_success
	assert_line --regexp '^  8192000 bytes in [0-9]+ us, 1000 iterations = [0-9.]+ usec/iter, data checked$'
	assert_line 'rxe0: pingpong passed'
	wait "$server" || fail "stock server: $(cat "$BATS_TEST_TMPDIR/srv")"
	run cat "$BATS_TEST_TMPDIR/srv"
	assert_line --partial '1000 iters in'
}

# bats test_tags=kernels
@test "pingpong: a stock ibv_rc_pingpong client against rdmactl's server" {
	rdmactl selftest server --pingpong --iters 500 --port 18711 rxe0 >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	server=$!
	wait_listen 18711
	run timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -n 500 -p 18711 "$RXE_VM_ADDR"
	assert_success
	assert_line --partial '500 iters in'
	wait "$server" || fail "rdmactl server: $(cat "$BATS_TEST_TMPDIR/srv")"
	run cat "$BATS_TEST_TMPDIR/srv"
	assert_line 'rxe0: pingpong passed'
}

@test "pingpong: the server refuses garbage, a short message and silence, within the timeout" {
	rdmactl selftest server --pingpong --port 18712 --timeout 5 rxe0 >"$BATS_TEST_TMPDIR/g" 2>&1 &
	server=$!
	wait_listen 18712
	exec 5<>/dev/tcp/127.0.0.1/18712
	printf '%-51s\0' 'hello, this is no pingpong message' >&5
	exec 5>&-
	rc=0
	wait "$server" || rc=$?
	assert_equal "$rc" 1
	run cat "$BATS_TEST_TMPDIR/g"
	assert_line "  FAIL  the peer's exchange message is not ibv_rc_pingpong's 'LID:QPN:PSN:GID' (refused)"

	rdmactl selftest server --pingpong --port 18713 --timeout 5 rxe0 >"$BATS_TEST_TMPDIR/s" 2>&1 &
	server=$!
	wait_listen 18713
	exec 5<>/dev/tcp/127.0.0.1/18713
	printf '0000:000011' >&5
	exec 5>&-
	rc=0
	wait "$server" || rc=$?
	assert_equal "$rc" 1
	run cat "$BATS_TEST_TMPDIR/s"
	assert_line '  FAIL  the peer closed the connection in the middle of the exchange'

	start=$SECONDS
	rdmactl selftest server --pingpong --port 18714 --timeout 3 rxe0 >"$BATS_TEST_TMPDIR/n" 2>&1 &
	server=$!
	wait_listen 18714
	exec 5<>/dev/tcp/127.0.0.1/18714
	rc=0
	wait "$server" || rc=$?
	exec 5>&-
	assert_equal "$rc" 1
	[ $((SECONDS - start)) -lt 20 ]
	run cat "$BATS_TEST_TMPDIR/n"
	assert_line '  FAIL  the peer sent nothing, or too little, within 3 s'
}

@test "pingpong: no server is a clear error; -j says it too" {
	run rdmactl -j selftest client 127.0.0.1 --pingpong --port 18719 rxe0
	assert_failure 1
	run jq -r '"\(.passed) \(.detail)"' <<<"$output"
	assert_output 'false cannot connect to 127.0.0.1 port 18719: Connection refused'
}

@test "pingpong: a client whose SYNs are dropped gives up within --timeout" {
	nft_test_table
	nft add chain inet rdmactltest in '{ type filter hook input priority 0; policy accept; }'
	nft add rule inet rdmactltest in tcp dport 18720 drop
	start=$SECONDS
	run rdmactl selftest client "$RXE_VM_ADDR" --pingpong --port 18720 --timeout 3 rxe0
	nft delete table inet rdmactltest
	assert_failure 1
	assert_line '  FAIL  cannot connect to '"$RXE_VM_ADDR"' port 18720: Connection timed out'
	[ $((SECONDS - start)) -lt 20 ]
}

@test "two hosts in one guest: the client passes every stage and the --once server reports it" {
	rdmactl selftest server --once --port 18730 rxe0 >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	server=$!
	wait_listen 18730
	run rdmactl selftest client "$RXE_VM_ADDR" --port 18730 rxe0
	assert_success
	assert_line "  peer $RXE_VM_ADDR port 18730, GID ::ffff:$RXE_VM_ADDR"
	assert_stages_passed 12411
	wait "$server" || fail "server: $(cat "$BATS_TEST_TMPDIR/srv")"
	run cat "$BATS_TEST_TMPDIR/srv"
	assert_line "rdmactl: selftest server: rxe0 GID 1 ::ffff:$RXE_VM_ADDR, listening on * port 18730"
	assert_stages_passed 12411
}

@test "server: garbage, another version, a short message and silence are refused; the silent one holds no one up" {
	"$RDMACTL" -j selftest server --port 18731 --timeout 2 rxe0 >"$BATS_TEST_TMPDIR/srv" \
		2>"$BATS_TEST_TMPDIR/err" &
	server=$!
	wait_listen 18731
	exec 5<>/dev/tcp/127.0.0.1/18731
	printf 'GET / HTTP/1.0\r\n\r\n' >&5
	sleep 0.5
	exec 5>&-
	exec 5<>/dev/tcp/127.0.0.1/18731
	printf 'RCST\0\2\0\1\0\0\0\x40\0\0\0\0' >&5	# version 2
	sleep 0.5
	exec 5>&-
	exec 5<>/dev/tcp/127.0.0.1/18731
	printf 'RCST\0\1\0\1\0\0' >&5			# half a header, then gone
	exec 5>&-
	sleep 0.5
	start=$SECONDS
	exec 5<>/dev/tcp/127.0.0.1/18731		# nothing at all
	run rdmactl selftest client "$RXE_VM_ADDR" --port 18731 rxe0
	assert_success
	assert_line 'rxe0: selftest passed'
	[ $((SECONDS - start)) -lt 20 ]
	# The silent one waited in the lobby while the good one was served.
	for _ in $(seq 100); do
		[ "$(wc -l <"$BATS_TEST_TMPDIR/srv")" -ge 5 ] && break
		sleep 0.1
	done
	exec 5>&-
	kill -TERM "$server"
	wait "$server" || fail "server exit $?: $(cat "$BATS_TEST_TMPDIR/err")"
	run jq -r '"\(.passed) \([.stages[] | select(.result == "fail") | .detail] | join(""))"' \
		"$BATS_TEST_TMPDIR/srv"
	assert_equal "${#lines[@]}" 5
	assert_line --index 0 'false the client sent a malformed message: not an rdmactl selftest message (bad magic) (refused)'
	assert_line --index 1 'false the client speaks another version of the rdmactl selftest exchange (upgrade one side)'
	assert_line --index 2 'false the client closed the connection in the middle of the exchange'
	assert_line --index 3 'true '
	assert_line --index 4 'false the client sent nothing, or too little, in time'
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line 'rdmactl: selftest server: stopped after 5 clients, 4 failed'
}

@test "client: a server that refuses says why; no server is a clear error" {
	run rdmactl selftest client 127.0.0.1 --port 18739 rxe0
	assert_failure 1
	assert_line --regexp '^  connect +FAIL +[0-9]+ us  cannot connect to 127.0.0.1 port 18739: Connection refused$'
	assert_line --partial "hint: is 'rdmactl selftest server' running there"
	# A server that speaks something else entirely.
	(printf 'SSH-2.0-OpenSSH_9.2\r\n%64s' '' | timeout 10 busybox nc -l -p 18738 >/dev/null) &
	wait_listen 18738
	run rdmactl selftest client 127.0.0.1 --port 18738 rxe0
	assert_failure 1
	assert_line --partial 'the server sent a malformed message: not an rdmactl selftest message (bad magic) (refused)'
}

@test "bench: -j gives latency percentiles in order and a bandwidth, data checked" {
	run rdmactl -j selftest --bench --iters 300 rxe0
	assert_success
	run jq -r '.[0].stages[] | select(.stats) | "\(.stage) \(.stats.iters) \(.stats.size) \(
		if .stats.gb_s then (.stats.gb_s > 0 and .stats.mib_s > 0)
		else (.stats.t_min_us > 0 and .stats.t_min_us <= .stats.t_typical_us and
		      .stats.t_typical_us <= .stats.t_p99_us and .stats.t_p99_us <= .stats.t_max_us) end)"' <<<"$output"
	assert_output $'lat_send 300 2 true\nlat_write 300 2 true\nbw_write 300 65536 true'
	run rdmactl selftest --bench --iters 50 --size 4096 --depth 8 rxe0
	assert_success
	assert_line --regexp '^  lat_send +pass +[0-9]+ us  50 x 4096 bytes: t_min [0-9.]+ t_typical [0-9.]+ 99% [0-9.]+ t_avg [0-9.]+ t_max [0-9.]+ usec$'
	assert_line --regexp '^  bw_write +pass +[0-9]+ us  50 x 4096 bytes: [0-9.]+ MiB/s = [0-9.]+ Gb/s$'
	# Fewer messages than the receive queue holds, and a count past its batches.
	for n in 3 77; do
		run rdmactl -j selftest --bench=lat --iters "$n" rxe0
		assert_success
		run jq -r '[.[0].stages[] | select(.stats) | "\(.stage) \(.stats.iters)"] | join(",")' <<<"$output"
		assert_output "lat_send $n,lat_write $n"
	done
}

@test "bench: the netdev taken down mid-run ends with a clear error within the timeout" {
	(sleep 2; ip link set "$N" down) &
	start=$SECONDS
	run rdmactl selftest --bench --iters 1000000 --timeout 3 rxe0
	wait
	assert_failure 1
	assert_line --regexp '^  lat_send +FAIL +[0-9]+ us  (work completion Work Request Flushed Error \(status 5, vendor error 0x[0-9a-f]+\)|no receive within 3000 ms)$'
	assert_line --regexp 'hint: .*the netdev (may be|went) down'
	[ $((SECONDS - start)) -lt 30 ]
}

# bats test_tags=kernels
@test "cm: loopback through rdma_cm passes every stage" {
	run rdmactl selftest --cm rxe0
	assert_success
	assert_line --regexp "^  peer $RXE_VM_ADDR port [0-9]+ \(rdma_cm\)$"
	assert_stages_passed 12411
}

# bats test_tags=kernels
@test "cm: rdmactl's client against a stock rping server, a stock rping client against rdmactl's" {
	timeout 60 rping -s -a "$RXE_VM_ADDR" -p 7180 -C 5 -v >"$BATS_TEST_TMPDIR/rping" 2>&1 &
	server=$!
	wait_listen 7180 cm
	run rdmactl selftest client "$RXE_VM_ADDR" --cm --port 7180 --iters 5
	assert_success
	assert_line --regexp '^  write +pass +[0-9]+ us  320 bytes verified$'
	wait "$server" || fail "stock rping server: $(cat "$BATS_TEST_TMPDIR/rping")"
	run cat "$BATS_TEST_TMPDIR/rping"
	assert_line 'server ping data: rdma-ping-4: EFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuv'

	rdmactl selftest server --cm --once --port 7181 >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	server=$!
	wait_listen 7181 cm
	run timeout 60 rping -c -a "$RXE_VM_ADDR" -p 7181 -C 7 -V -v
	assert_success
	assert_line 'ping data: rdma-ping-6: GHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwx'
	wait "$server" || fail "rdmactl server: $(cat "$BATS_TEST_TMPDIR/srv")"
	run cat "$BATS_TEST_TMPDIR/srv"
	assert_line --regexp '^  read +pass +[0-9]+ us  448 bytes verified$'
	assert_line 'rxe0: selftest passed'
}

@test "cm: an address nobody answers is ADDR_ERROR -110, explained; no listener is REJECTED" {
	run rdmactl selftest client 10.11.11.99 --cm --timeout 2
	assert_failure 1
	assert_line --regexp '^  setup +FAIL +[0-9]+ us  RDMA_CM_EVENT_ADDR_ERROR \(status -110 ETIMEDOUT\), waiting for RDMA_CM_EVENT_ADDR_RESOLVED$'
	assert_line --partial 'hint: address resolution timed out (-110)'
	run rdmactl selftest client "$RXE_VM_ADDR" --cm --port 7999 --timeout 2
	assert_failure 1
	assert_line --regexp '^  connect +FAIL +[0-9]+ us  RDMA_CM_EVENT_REJECTED \(status 8\), waiting for RDMA_CM_EVENT_ESTABLISHED$'
	assert_line --partial 'nothing listens on that port'
}
