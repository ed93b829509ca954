#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# selftest --transport: every transport the verbs examples use, in loopback on
# real rxe, beside what the device claims.

load rxe0

# Each row of the matrix on stdin (JSON) as "transport op claimed result".
matrix_rows() {
	jq -r '.[0].matrix[] | "\(.transport) \(.op) \(.claimed) \(.result)"'
}

# bats test_tags=kernels
@test "transports: every row of the matrix is backed: a pass by verified bytes, 'not supported' by the device's own no" {
	run rdmactl -j selftest loopback rxe0 --transport all
	json=$output status_all=$status
	kver=$(uname -r)
	echo "$json" | assert_json_contract 'selftest --transport'
	run jq -r --arg k "$kver" '.[0] | .kernel == $k and .gid_index >= 0 and .mtu == 1024' <<<"$json"
	assert_output true
	# The data operations name the bytes they checked; setup and the events do not.
	run jq -r '.[0].matrix[] | select(.result == "pass" and .op != "setup" and .op != "async" and .op != "over_mtu"
		and .op != "srq_limit" and (.bytes // 0) == 0) | "\(.transport) \(.op)"' <<<"$json"
	assert_output ''
	run jq -r '.[0].matrix[] | select(.result == "not supported" and .claimed != "no")
		| "\(.transport) \(.op)"' <<<"$json"
	assert_output ''
	# A failure is a finding: the exit status says so.
	fails=$(jq '[.[0].matrix[] | select(.result == "fail")] | length' <<<"$json")
	if [ "$fails" -eq 0 ]; then
		[ "$status_all" -eq 0 ] || fail "no row failed, exit $status_all"
	else
		[ "$status_all" -eq 1 ] || fail "$fails rows failed, exit $status_all"
	fi
	# Every transport asked for has rows.
	run jq -r '[.[0].matrix[].transport] | unique | join(",")' <<<"$json"
	assert_output 'device,mw,rc,srq,uc,ud,xrc'
	# The matrix, for docs/kernels.md.
	matrix_rows <<<"$json" | sed "s/^/# [$kver] /" >&3
}

@test "transports: on 6.1 every operation of RC, UC, UD, SRQ and memory windows passes; XRC is not supported" {
	[[ $(uname -r) == 6.1.* ]] || skip "the expected matrix is 6.1's"
	run rdmactl selftest loopback rxe0 --transport all
	assert_success
	assert_line --index 0 "rxe0: transports on $(uname -r), GID 1 ::ffff:$RXE_VM_ADDR, MTU 1024, completions polled"
	for r in "rc send" "rc send_imm" "rc write" "rc write_imm" "rc read" "uc send" "uc send_imm" \
		"uc write" "uc write_imm"; do
		assert_line --regexp "^  ${r% *} +${r#* } +implied +pass +[0-9]+ us  12411 bytes verified$"
	done
	assert_line --regexp '^  rc +cmp_swap +yes +pass +[0-9]+ us  8 bytes verified$'
	assert_line --regexp '^  ud +send +implied +pass +[0-9]+ us  1024 bytes verified$'
	assert_line --regexp '^  ud +inline +yes +pass +[0-9]+ us  48 bytes verified$'
	assert_line --regexp '^  ud +over_mtu +implied +pass +[0-9]+ us  1025 bytes: the send completed, the receiver got nothing \(no completion within 1000 ms\): dropped$'
	assert_line --regexp '^  srq +srq +yes +pass +[0-9]+ us  16384 bytes verified; 16 QPs, one message each, into one SRQ of 32 receives$'
	assert_line --regexp '^  srq +srq_limit +implied +pass +[0-9]+ us  IBV_EVENT_SRQ_LIMIT_REACHED after 25 of 32 receives, limit 8$'
	assert_line --regexp '^  xrc +xrc +no +not supported +ibv_open_xrcd: Operation not supported \(EOPNOTSUPP\)$'
	for t in 1 2; do
		assert_line --regexp "^  mw +mw_type$t +yes +pass +[0-9]+ us  12411 bytes verified; bound, written through, invalidated, then refused: work completion remote access error"
	done
	assert_line "rxe0: transports passed (25 pass, 0 fail, 1 not supported, 0 not run)"
}

# bats test_tags=kernels
@test "transports: --events takes completions through a completion channel, each announced before it is polled" {
	run rdmactl selftest loopback rxe0 --events
	assert_success
	assert_line --regexp ', completions through a channel$'
	assert_line --regexp '^  device +events +implied +pass +[0-9]+ us  64 bytes verified; a SEND and its receive each announced on the channel before being polled'
	assert_line --regexp '^  rc +read +implied +pass '
	refute_line --regexp '^  (uc|ud|srq) '
}

@test "transports: a word that is no transport, or --transport with --bench, is refused naming it, exit 2" {
	run --separate-stderr rdmactl selftest loopback rxe0 --transport rc,rdm
	assert_failure 2
	[[ $stderr == *"--transport: 'rdm' is not a transport (rc, uc, ud, srq, xrc, mw, or all)"* ]] || fail "$stderr"
	run --separate-stderr rdmactl selftest loopback rxe0 --transport ud --bench
	assert_failure 2
	[[ $stderr == *"not with --bench or --cm"* ]] || fail "$stderr"
}

@test "transports: a port that is down fails setup with the check to run, no matrix" {
	ip link set "$N" down
	run rdmactl selftest loopback rxe0 --transport ud
	assert_failure 1
	assert_line --regexp '^  FAIL  port 1 of rxe0 is (down|init|armed|nop), not ACTIVE$'
	assert_line '  hint: rdmactl check --only link'
	refute_line --partial 'TRANSPORT'
}

# --pingpong --transport T against the stock ibv_T_pingpong, both ways, with
# the example's flags in $2 ("" or "-e") and rdmactl's in $3, $5 iterations
# (200 unless given).
interop_both_ways() {
	local t=$1 e=$2 ev=$3 port=$4 n=${5:-200} size pid
	size=$([ "$t" = ud ] && echo 1024 || echo 4096)
	timeout -k 10 120 "ibv_${t}_pingpong" -d rxe0 -g 1 -p "$port" -s "$size" -n "$n" $e >"$BATS_TEST_TMPDIR/stock" 2>&1 &
	pid=$!
	# A stock client does not retry its connect; the examples listen only after
	# opening the device: connect once something listens.
	wait_listen "$port" || fail "nothing listens on $port"
	# A hung end fails its test instead of the tier: every process is bounded.
	run timeout -k 10 120 "$RDMACTL" selftest client "$RXE_VM_ADDR" rxe0 --pingpong --transport "$t" $ev --port "$port" --size "$size" --iters "$n"
	assert_success
	assert_line --regexp "^rxe0: pingpong client \\($t(, 16 QPs)?${ev:+, events}\\) of $RXE_VM_ADDR port $port, GID 1 ::ffff:$RXE_VM_ADDR$"
	assert_line --regexp "^  $((size * 2 * n)) bytes in [0-9]+ us, $n iterations = [0-9.]+ usec/iter, data checked${ev:+, [1-9][0-9]* CQ events}$"
	wait "$pid" || fail "stock ibv_${t}_pingpong server: $(cat "$BATS_TEST_TMPDIR/stock")"
	grep -q "^$n iters in " "$BATS_TEST_TMPDIR/stock" || fail "$(cat "$BATS_TEST_TMPDIR/stock")"

	port=$((port + 1))
	timeout -k 10 120 "$RDMACTL" selftest server rxe0 --pingpong --transport "$t" $ev --port "$port" --size "$size" --iters "$n" >"$BATS_TEST_TMPDIR/ours" 2>&1 &
	pid=$!
	wait_listen "$port" || fail "nothing listens on $port"
	run timeout -k 10 120 "ibv_${t}_pingpong" -d rxe0 -g 1 -p "$port" -s "$size" -n "$n" $e "$RXE_VM_ADDR"
	assert_success
	assert_line --regexp "^$n iters in "
	wait "$pid" || fail "rdmactl's server: $(cat "$BATS_TEST_TMPDIR/ours")"
	grep -q '^rxe0: pingpong passed$' "$BATS_TEST_TMPDIR/ours" || fail "$(cat "$BATS_TEST_TMPDIR/ours")"
}

# 5.10's rdma_rxe: in 2 of 4 runs in the bed a ping-pong of these tests never
# ended, once with every process under 'timeout 120' (docs/kernels.md). Not run there
# until that is understood; the matrix and the examples' own runs still are.
skip_on_510() {
	[[ $(uname -r) != 5.10.* ]] ||
		skip "5.10's rxe: a ping-pong here never ended in 2 of 4 bed runs, once past a 120 s timeout (docs/kernels.md)"
}

# bats test_tags=kernels
@test "transports: --pingpong interoperates both ways with the stock ibv_uc_, ibv_ud_ and ibv_srq_pingpong, polling" {
	skip_on_510
	interop_both_ways uc "" "" 18701
	interop_both_ways ud "" "" 18703
	interop_both_ways srq "" "" 18705
}

# The examples' receive queue holds 500 and is refilled at one receive left a
# QP: 1200 messages refill it twice (rdmactl's client refills after its send).
# bats test_tags=kernels
@test "transports: --pingpong past two refills of the receive queue, rc and srq, both ways" {
	skip_on_510
	interop_both_ways rc "" "" 18741 1200
	interop_both_ways srq "" "" 18743 1200
}

# bats test_tags=kernels
@test "transports: --pingpong --events interoperates both ways with each stock example's -e" {
	skip_on_510
	interop_both_ways rc -e --events 18711
	interop_both_ways uc -e --events 18713
	interop_both_ways ud -e --events 18715
	interop_both_ways srq -e --events 18717
}

@test "transports: --pingpong ud over the path MTU is refused before any exchange, with the fix" {
	run rdmactl selftest client "$RXE_VM_ADDR" rxe0 --pingpong --transport ud --timeout 2
	assert_failure 1
	assert_line '  FAIL  UD payload 2048 exceeds the path MTU 1024: a datagram is one packet'
	assert_line --partial "  hint: use --size of at most the MTU, or raise the netdev's MTU"
	run --separate-stderr rdmactl selftest client "$RXE_VM_ADDR" rxe0 --pingpong --transport xrc
	assert_failure 2
	[[ $stderr == *"--pingpong --transport: one of rc, uc, ud or srq"*"not 'xrc'"* ]] || fail "$stderr"
	run --separate-stderr rdmactl selftest server rxe0 --transport ud
	assert_failure 2
	[[ $stderr == *"the server serves whatever transports its clients ask for"* ]] || fail "$stderr"
}

garbage() {
	printf '%-51s\0' 'hello, this is no pingpong message'
}

# 17 QPs offered where the example (and rdmactl) use 16: the 17th entry is not zeros.
seventeen_qps() {
	for i in $(seq 17); do
		printf '0000:%06x:%06x:%032x\0' "$i" "$i" 0
	done
}

@test "transports: the srq --pingpong server refuses garbage and a peer with more QPs, within the timeout" {
	pingpong_server_fed 18720 garbage --transport srq
	assert_line "  FAIL  the peer's exchange message is not ibv_srq_pingpong's 'LID:QPN:PSN:GID' (refused)"
	pingpong_server_fed 18721 seventeen_qps --transport srq
	assert_line '  FAIL  the peer offers more QPs than the 16 used here (refused)'
	assert_line '  hint: both ends need the same number of QPs: ibv_srq_pingpong -q 16'
}

@test "transports: valgrind finds no error and no leak in a run of every transport with events" {
	command -v valgrind >/dev/null || skip "no valgrind"
	run valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$RDMACTL" selftest loopback rxe0 --transport all --events --timeout 20
	assert_success
	assert_line --regexp '^rxe0: transports passed '
}

# bats test_tags=kernels
@test "transports: over the exchange to a server in the same guest, the matrix is loopback's, row for row" {
	run rdmactl -j selftest loopback rxe0 --transport all --events
	local want=$output
	rdmactl -j selftest server --once --port 18750 rxe0 >"$BATS_TEST_TMPDIR/srv" 2>/dev/null &
	wait_listen 18750
	run rdmactl -j selftest client "$RXE_VM_ADDR" rxe0 --port 18750 --transport all --events
	local got=$output status_got=$status
	wait
	# The same rows and results; only the wording of B's notes differs.
	run diff <(matrix_rows <<<"$want") <(matrix_rows <<<"$got")
	assert_success
	[ "$status_got" -eq "$(jq -r 'if .[0].passed then 0 else 1 end' <<<"$want")" ]
	run jq -r '.[0] | "\(.peer) \(.remote_gid) \(.events)"' <<<"$got"
	assert_output "$RXE_VM_ADDR port 18750 ::ffff:$RXE_VM_ADDR true"
	# The server's own report: a row a transport it served, each with its steps;
	# where this kernel's rxe has no memory windows, not supported there too.
	run jq -r '.matrix[] | "\(.transport) \(.op) \(.result)"' "$BATS_TEST_TMPDIR/srv"
	assert_output --regexp '^rc served pass'
	assert_line 'srq served pass'
	refute_line --partial ' fail'
	if jq -e '.[0].matrix[] | select(.transport == "mw" and .result == "not supported")' \
		<<<"$got" >/dev/null; then
		assert_line 'mw served not supported'
	else
		assert_line 'mw served pass'
	fi
	run jq -r '.matrix[] | select(.result == "pass") |
		select(.usec > 60000000 or (.detail | test("^[0-9]+ steps answered$") | not))' \
		"$BATS_TEST_TMPDIR/srv"
	assert_output ''
}

# An XOPEN body for one RC QP of 64 bytes towards QP 0x11 at this guest's GID.
xopen_rc() {
	local a
	IFS=. read -r -a a <<<"$RXE_VM_ADDR"
	printf '\0\1\0\0\0\0\0\100'
	head -c 10 /dev/zero
	printf '\377\377'
	# shellcheck disable=SC2059 # the format is the four octets, made above
	printf "$(printf '\\%03o' "${a[@]}")"
	printf '\0\0\0\21'
	head -c 124 /dev/zero
}

@test "transports: the server fails a step past its buffer, refuses a second end before the first is closed, and says so" {
	rdmactl -j selftest server --once --port 18751 --timeout 3 rxe0 >"$BATS_TEST_TMPDIR/srv" 2>/dev/null &
	wait_listen 18751
	exec 5<>"/dev/tcp/$RXE_VM_ADDR/18751"
	xopen_rc | wire_frame 5 152 >&5
	timeout 20 head -c 184 <&5 >"$BATS_TEST_TMPDIR/ends"
	run od -An -tx1 -N8 "$BATS_TEST_TMPDIR/ends"
	[ "$output" = ' 52 43 53 54 00 01 00 06' ] ||
		fail "not the ends: $(tr -c '[:print:]' . <"$BATS_TEST_TMPDIR/ends")"
	# Prepare a 1 MiB receive (op 1, XB_POST) in a 64-byte end: failed, nothing posted.
	printf '\1\0\1\0\0\20\0\0\0\0\0\0\0\0\0\0' | wire_frame 7 16 >&5
	reply=$(timeout 20 head -c 512 <&5 | tr -d '\0')
	[[ $reply == *"1048576 bytes or 0 items: more than the end holds"* ]] || fail "$reply"
	xopen_rc | wire_frame 5 152 >&5
	reply=$(timeout 20 head -c 512 <&5 | tr -d '\0')
	exec 5>&-
	[[ $reply == *"asked for a second end before closing its first (refused)"* ]] || fail "$reply"
	wait || true
	run jq -r '"\(.passed) \(.detail) \(.matrix[0].result) \(.matrix[0].detail)"' "$BATS_TEST_TMPDIR/srv"
	assert_output "false the client asked for a second end before closing its first (refused) fail 1048576 bytes or 0 items: more than the end holds"
}

# bats test_tags=kernels
@test "transports: where the matrix says XRC is not supported, the stock ibv_xsrq_pingpong fails on it too" {
	run rdmactl -j selftest loopback rxe0 --transport xrc
	xrc=$(jq -r '.[0].matrix[] | select(.op == "xrc") | .result' <<<"$output")
	[ "$xrc" = "not supported" ] || skip "this kernel's rxe opens an XRC domain ($xrc)"
	run timeout 30 ibv_xsrq_pingpong -d rxe0 -g 1 -p 18730
	assert_failure
	assert_output --partial "Couldn't Open the XRC Domain"
}
