#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON contract (docs/json.md) held against every command's live output.

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	N=veth0
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	for d in $(rdma -j link show | jq -r '.[].ifname'); do rdma link delete "$d"; done
}

@test "json: every command's live output keeps to docs/json.md" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	printf 'rxe1 veth1\n' >"$conf"
	rdmactl --config "$conf" -j start | assert_json_contract start
	rdmactl -j add rxe0 "$N" | assert_json_contract --exact add
	rdmactl -j link | assert_json_contract --exact 'link show'
	rdmactl -j status | assert_json_contract --exact status
	for cmd in show gids netdevs; do
		rdmactl -j $cmd | assert_json_contract --exact $cmd
	done
	rdmactl -j show -s | assert_json_contract --exact show 'show -s'
	rdmactl -j qp | assert_json_contract qp
	{ rdmactl -j check --dev rxe0 || true; } | assert_json_contract --exact check
	rdmactl -j selftest rxe0 | assert_json_contract selftest
	rdmactl -j selftest --bench --iters 20 rxe0 | assert_json_contract selftest
	rdmactl -j del rxe1 | assert_json_contract --exact del
	rdmactl -j stop | assert_json_contract stop
}

@test "json: up, module status, the ping-pong and rdma_cm keep to docs/json.md; unknowns are null" {
	rdmactl -j up "$N" 2>/dev/null | assert_json_contract --exact up
	rdmactl -j module status | assert_json_contract --exact 'module status'

	timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -n 50 -p 18750 >/dev/null 2>&1 &
	wait_listen 18750
	run -0 rdmactl -j selftest client "$RXE_VM_ADDR" --pingpong --iters 50 --port 18750 rxe0
	assert_json_contract 'selftest --pingpong' <<<"$output"
	run jq -r '"\(.gid_index) \(.passed)"' <<<"$output"
	assert_output '1 true'
	# No device to open: the GID index is not known.
	run -1 rdmactl -j selftest client 127.0.0.1 --pingpong --port 18751 rxe9
	assert_json_contract 'selftest --pingpong' <<<"$output"
	run jq -r '"\(.gid_index) \(.passed)"' <<<"$output"
	assert_output 'null false'

	run -0 rdmactl -j selftest --cm rxe0
	assert_json_contract selftest <<<"$output"
	# No address resolved: no device is known, and none is made up.
	run -1 rdmactl -j selftest client 10.11.11.99 --cm --timeout 2
	assert_json_contract selftest <<<"$output"
	run jq -r '.[0] | "\(.ifname) \(.passed)"' <<<"$output"
	assert_output 'null false'
}
