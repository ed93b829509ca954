#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON contract (docs/json.md) held against real output on captured fixtures.

setup() {
	load ../helpers
	F=$TOP/bats/fixtures/two-netdevs
}

@test "json: the tables' members are exactly what docs/json.md lists" {
	for cmd in 'link show' status show gids netdevs 'check --list' version; do
		rdmactl --sysfs-root "$F" -j $cmd | assert_json_contract --exact "$cmd"
	done
	rdmactl --sysfs-root "$F" -j show -s | assert_json_contract --exact show 'show -s'
	rdmactl --sysfs-root "$F" -j gids --all | assert_json_contract --exact gids
	# check exits 1 on this fixture; its JSON is whole all the same.
	{ rdmactl --sysfs-root "$F" -j check || true; } | assert_json_contract --exact check
}

@test "json: persist list and a failed selftest report keep to docs/json.md" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	printf 'rxe0 eth0\n' >"$conf"
	rdmactl --config "$conf" -j persist list | assert_json_contract --exact 'persist list'
	run rdmactl -j selftest client 127.0.0.1 --port 18598 rxe0
	assert_failure 1
	assert_json_contract selftest <<<"$output"
	run rdmactl -j selftest loopback --transport all rxe0
	assert_failure 1
	assert_json_contract 'selftest --transport' <<<"$output"
	run jq -r '.[0] | .passed, .detail' <<<"$output"
	assert_output $'false\nlibibverbs cannot open rxe0'
}

@test "json: every command prints one JSON document with -j: help, the persist edits, module status" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	rdmactl -j help | assert_json_contract --exact help
	rdmactl -j help link | assert_json_contract --exact help
	run rdmactl -j help link
	assert_equal "$(jq -r '[.[].command] | join(",")' <<<"$output")" 'link show,link add,link del,link move'
	rdmactl --config "$conf" -j persist add rxe0 eth0 | assert_json_contract --exact 'persist add'
	rdmactl --config "$conf" -j persist add rxe1 eth1 | assert_json_contract --exact 'persist add'
	rdmactl --config "$conf" -j persist del rxe0 | assert_json_contract --exact 'persist del'
	run rdmactl --config "$conf" -j persist del rxe1
	assert_success
	assert_output '[]'
	mkdir "$BATS_TEST_TMPDIR/wants"
	rdmactl --config "$conf" -j persist wants "$BATS_TEST_TMPDIR/wants" |
		assert_json_contract --exact 'persist wants'
	# Without -j the edits print nothing on stdout, as before.
	run --separate-stderr rdmactl --config "$conf" persist add rxe2 eth2
	assert_success
	assert_output ''
	rdmactl -j module status | assert_json_contract --exact 'module status'
	# Each output above is one document: jq reads exactly one value.
	run sh -c "'$RDMACTL' -j help | jq -s length"
	assert_output 1
}

@test "json: docs/json.md gives every member its types, and a value of another type fails the contract" {
	run awk '/^```json-paths /{on=1; next} on && /^```/{on=0} on' "$TOP/docs/json.md"
	assert_success
	[ "${#lines[@]}" -gt 150 ]
	for l in "${lines[@]}"; do
		[[ $l =~ ^[^\ ]+\ (string|number|boolean|null)(\|(string|number|boolean|null))*$ ]] ||
			fail "docs/json.md: no type for '$l'"
	done
	run assert_json_contract version <<<'{"version":1}'
	assert_failure
	assert_output --partial "member 'version' is a number, docs/json.md says string"
	run assert_json_contract version <<<'{"version":"1","extra":null}'
	assert_failure
	assert_output --partial "member 'extra' is not in docs/json.md"
	run assert_json_contract --exact 'persist wants' <<<'{"directory":null}'
	assert_failure
	assert_output --partial "member 'directory' is a null"
}
