#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# UCX's ucx_perftest, server and client in one guest, over the link with the
# variables 'rdmactl env' printed: tag matching and RMA, over rc_verbs and
# ud_verbs. And what happens without env's UCX_UD_ETH_DGID_CHECK: the failure
# docs/stacks.md foretells, still there.

load stacks

setup() {
	stacks_setup
	needs ucx_perftest
}

teardown() {
	pkill -x ucx_perftest 2>/dev/null || true
}

# perftest PORT TEST [VAR=VALUE...]: a server and a client; the client's
# output in $output. Messages of $size bytes (8 unless set).
perftest() {
	local port=$1 test=$2 server size=${size:-8}
	shift 2
	env "$@" timeout 60 ucx_perftest -p "$port" >"$BATS_TEST_TMPDIR/server" 2>&1 &
	server=$!
	wait_listen "$port"
	run env "$@" timeout 60 ucx_perftest -p "$port" -t "$test" -n 2000 -s "$size" "$RDMA_ADDRESS"
	wait "$server" || echo "# server: $(tail -n 3 "$BATS_TEST_TMPDIR/server")" >&3
}

# The "Final:" line's average latency (usec) or bandwidth (MB/s): field $1.
final() {
	awk -v f="$1" '$1 == "Final:" { print $f }' <<<"$output"
}

@test "stacks: ucx_perftest tag latency and bandwidth, and RDMA put, over env's transports" {
	before=$(rxe_sent)
	perftest 13401 tag_lat
	assert_success
	lat=$(final 4)
	[ -n "$lat" ] || fail "no Final line: $output"
	size=65536 perftest 13402 tag_bw
	assert_success
	bw=$(final 6)
	size=65536 perftest 13403 ucp_put_bw
	assert_success
	put=$(final 6)
	assert_carried "$before" 6000
	stack_result "UCX ($UCX_TLS)" "tag_lat ${lat} us (8 B); tag_bw ${bw} MB/s, ucp_put_bw ${put} MB/s (64 KiB)"
}

@test "stacks: ucx_perftest over ud_verbs alone" {
	before=$(rxe_sent)
	perftest 13404 tag_lat UCX_TLS=ud_verbs
	assert_success
	assert_carried "$before" 2000
	stack_result "UCX (ud_verbs)" "tag_lat $(final 4) us"
}

@test "stacks: without UCX_UD_ETH_DGID_CHECK=n UCX drops rxe's packets, as docs/stacks.md says" {
	env_check=$UCX_UD_ETH_DGID_CHECK
	unset UCX_UD_ETH_DGID_CHECK
	[ "$env_check" = n ] || fail "rdmactl env did not set UCX_UD_ETH_DGID_CHECK=n"
	env UCX_TLS=ud_verbs timeout 15 ucx_perftest -p 13405 >/dev/null 2>&1 &
	wait_listen 13405
	run timeout 15 env UCX_TLS=ud_verbs ucx_perftest -p 13405 -t tag_lat -n 100 "$RDMA_ADDRESS"
	if [ "$status" -eq 0 ]; then
		stack_result "UCX without UCX_UD_ETH_DGID_CHECK=n" "passes: the limit is gone on this kernel"
		fail "UCX passed without the setting: docs/stacks.md's limit is out of date here"
	fi
	stack_result "UCX without UCX_UD_ETH_DGID_CHECK=n" "fails as foretold (exit $status$([ "$status" = 124 ] && echo ': no answer'))"
}
