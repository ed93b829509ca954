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
	{ rdmactl -j check --dev rxe0 || true; } | assert_json_contract --exact check
	rdmactl -j selftest rxe0 | assert_json_contract selftest
	rdmactl -j selftest --bench --iters 20 rxe0 | assert_json_contract selftest
	rdmactl -j del rxe1 | assert_json_contract --exact del
	rdmactl -j stop | assert_json_contract stop
}
