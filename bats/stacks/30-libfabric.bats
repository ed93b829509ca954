#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# libfabric's fi_pingpong over the verbs provider, as RDM endpoints through
# ofi_rxm and as MSG endpoints, with 'rdmactl env's variables; and ofi_rxm
# without env's FI_UNIVERSE_SIZE: the failure docs/stacks.md foretells.

load stacks

setup() {
	stacks_setup
	needs fi_pingpong
}

teardown() {
	pkill -x fi_pingpong 2>/dev/null || true
}

# pingpong PROVIDER ENDPOINT: a server and a client on fi_pingpong's own port,
# 50 round trips of each size: 1 MiB's alone are some 100 000 packets, ten
# times what assert_carried asks. Both ends poll: with one guest CPU they
# take turns, and 200 round trips a size ran past 60 s beside another guest.
pingpong() {
	local server
	timeout 120 fi_pingpong -p "$1" -e "$2" -I 50 >"$BATS_TEST_TMPDIR/server" 2>&1 &
	server=$!
	wait_listen 47592
	run timeout 120 fi_pingpong -p "$1" -e "$2" -I 50 "$RDMA_ADDRESS"
	wait "$server" || echo "# server: $(tail -n 3 "$BATS_TEST_TMPDIR/server")" >&3
}

# The 1m line's MB/sec.
mbps() {
	awk '$1 == "1m" { print $6 }' <<<"$output"
}

@test "stacks: fi_pingpong over verbs;ofi_rxm (RDM endpoints), every size" {
	before=$(rxe_sent)
	pingpong "verbs;ofi_rxm" rdm
	assert_success
	assert_line --regexp '^1m +50 +=50 '
	assert_carried "$before" 10000
	stack_result "libfabric verbs;ofi_rxm (FI_UNIVERSE_SIZE=$FI_UNIVERSE_SIZE)" "64 B to 1 MiB, 1 MiB at $(mbps) MB/s"
}

@test "stacks: fi_pingpong over verbs (MSG endpoints)" {
	before=$(rxe_sent)
	pingpong verbs msg
	assert_success
	assert_line --regexp '^1m +50 +=50 '
	assert_carried "$before" 10000
	stack_result "libfabric verbs (msg)" "64 B to 1 MiB, 1 MiB at $(mbps) MB/s"
}

@test "stacks: ofi_rxm without env's FI_UNIVERSE_SIZE cannot open its CQ on rxe, as docs/stacks.md says" {
	[ -n "$FI_UNIVERSE_SIZE" ] || fail "rdmactl env did not set FI_UNIVERSE_SIZE"
	unset FI_UNIVERSE_SIZE
	# Each end opens its endpoint once the other has answered on the control socket.
	timeout 30 env FI_LOG_LEVEL=warn fi_pingpong -p "verbs;ofi_rxm" -e rdm -I 10 >"$BATS_TEST_TMPDIR/server" 2>&1 &
	wait_listen 47592
	run timeout 30 env FI_LOG_LEVEL=warn fi_pingpong -p "verbs;ofi_rxm" -e rdm -I 10 "$RDMA_ADDRESS"
	wait || true
	if [ "$status" -eq 0 ]; then
		stack_result "libfabric verbs;ofi_rxm without FI_UNIVERSE_SIZE" "passes: the limit is gone here"
		fail "ofi_rxm ran without the setting: docs/stacks.md's limit is out of date here"
	fi
	[[ "$output$(cat "$BATS_TEST_TMPDIR/server")" == *"Unable to create verbs CQ"* ]] ||
		fail "failed otherwise than foretold: $output / $(cat "$BATS_TEST_TMPDIR/server")"
	stack_result "libfabric verbs;ofi_rxm without FI_UNIVERSE_SIZE" "fails as foretold: 'Unable to create verbs CQ', fi_enable EINVAL"
}
