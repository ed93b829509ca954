#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# capture --read on the packets captured in the bed (bats/fixtures/wire,
# tools/capture-wire): counted as tcpdump counts them, decoded as tshark
# decodes them, the failures' NAKs and resends named, -w's pcap whole.

setup() {
	load ../helpers
	W=$TOP/bats/fixtures/wire
}

@test "capture --read: every packet of each capture from the bed, as tcpdump counts them" {
	for f in "$W"/*.pcap; do
		n=$(tcpdump -r "$f" -nn 2>/dev/null | wc -l)
		[ "$n" -gt 0 ] || fail "tcpdump read nothing of $f"
		run -0 rdmactl -j capture -r "$f"
		end=$(jq -c 'select(.record == "end") | [.packets, .malformed, .other, .dropped]' <<<"$output")
		assert_equal "$end" "[$n,0,0,0]"
		assert_equal "$(jq -s 'map(select(.record == "packet")) | length' <<<"$output")" "$n"
		# The conversations hold every packet once.
		assert_equal "$(jq -s 'map(select(.record == "qp") | .packets) | add' <<<"$output")" "$n"
	done
}

@test "capture --read: each packet's opcode, QP and PSN as tshark decodes them" {
	command -v tshark >/dev/null || skip "no tshark (tools/install-deps test)"
	for f in "$W"/*.pcap; do
		# tshark names opcodes in its own words: the numbers are compared.
		want=$(tshark -r "$f" -T fields -e infiniband.bth.opcode -e infiniband.bth.destqp \
			-e infiniband.bth.psn 2>/dev/null | while read -r op q p; do
				printf '%d %d %d\n' "$op" "$q" "$p"
			done)
		[ -n "$want" ] || fail "tshark decoded no BTH in $f"
		got=$(rdmactl -j capture -r "$f" | jq -r 'select(.record == "packet") | [.opcode, .transport, .qpn, .psn] | @tsv' |
			while IFS=$'\t' read -r op t q p; do
				printf '%d %d %d\n' "$(opcode_number "$t" "$op")" "$q" "$p"
			done)
		assert_equal "$got" "$want"
		# Not the expert's checksum errors: rxe sends UDP over IPv6 with a zero
		# checksum (RFC 6935's tunnels), which Wireshark flags in every packet.
		run --separate-stderr tshark -r "$f" -Y '_ws.malformed'
		assert_success
		assert_output ''
	done
}

# The BTH opcode of TRANSPORT's OPERATION, from the names capture prints.
opcode_number() {
	local base
	case "$1" in RC) base=0 ;; UC) base=32 ;; UD) base=96 ;; XRC) base=160 ;; *) base=128 ;; esac
	case "$2" in
	SEND_ONLY) echo $((base + 4)) ;;
	RDMA_WRITE_FIRST) echo $((base + 6)) ;;
	RDMA_WRITE_MIDDLE) echo $((base + 7)) ;;
	RDMA_WRITE_LAST) echo $((base + 8)) ;;
	RDMA_WRITE_ONLY) echo $((base + 10)) ;;
	RDMA_READ_REQUEST) echo $((base + 12)) ;;
	RDMA_READ_RESPONSE_ONLY) echo $((base + 16)) ;;
	ACKNOWLEDGE) echo $((base + 17)) ;;
	ATOMIC_ACKNOWLEDGE) echo $((base + 18)) ;;
	FETCH_ADD) echo $((base + 20)) ;;
	*) echo "unknown $2" ;;
	esac
}

@test "capture --read: the RNR NAK, the remote access NAK and the resent SEND, as a user reads them" {
	run -0 rdmactl capture -r "$W/rnr.pcap"
	assert_line --regexp '^0\.0+ fe80::[0-9a-f:]+ > fe80::[0-9a-f:]+ RC SEND_ONLY qp [0-9]+ psn 0 len 64$'
	assert_line --regexp ' RC ACKNOWLEDGE qp [0-9]+ from qp [0-9]+ psn 0 len 0 RNR NAK msn 0 timer 10 us$'
	assert_line --regexp ': 1 packets, [0-9]+ bytes, 0 resent, 1 RNR NAK, longest wait '
	run -0 rdmactl capture -r "$W/bad-rkey.pcap"
	assert_line --regexp ' RC RDMA_WRITE_ONLY qp [0-9]+ psn 0 len 64 rkey 0x[0-9a-f]+ dma_len 64$'
	assert_line --regexp ' NAK remote access error msn 0$'
	run -0 rdmactl capture -r "$W/dead-peer.pcap"
	n=$(tcpdump -r "$W/dead-peer.pcap" -nn 2>/dev/null | wc -l)
	assert_equal "$(grep -c ' RC SEND_ONLY .* RESENT after [0-9.]* ms$' <<<"$output")" $((n - 1))
	assert_line --regexp ": $n packets, [0-9]+ bytes, $((n - 1)) resent, no NAK, longest wait [0-9.]+ ms$"
	assert_line --regexp "^$n RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$"
}

@test "capture --read: two conversations of a ping-pong name each other's QP; --qp keeps one QP's" {
	run -0 rdmactl -j capture -r "$W/rc-pingpong.pcap"
	qps=$(jq -sc 'map(select(.record == "qp")) | map([.qpn, .src_qpn])' <<<"$output")
	run jq -e 'length == 2 and .[0][0] == .[1][1] and .[1][0] == .[0][1]' <<<"$qps"
	assert_success
	q=$(jq -r '.[0][0]' <<<"$qps")
	# Both QPs are numbered alike on their two devices: --qp keeps both ways.
	run -0 rdmactl -j capture -r "$W/rc-pingpong.pcap" --qp "$(printf '0x%x' "$q")"
	assert_equal "$(jq -s 'map(select(.record == "end"))[0].packets' <<<"$output")" 20
	run -0 rdmactl -j capture -r "$W/ud-pingpong.pcap" --qp 1
	assert_equal "$(jq -s 'map(select(.record == "end"))[0].packets' <<<"$output")" 0
}

@test "capture -j: every member docs/json.md lists for capture, of its types, and no other" {
	for f in "$W"/*.pcap; do rdmactl -j capture -r "$f"; done | assert_json_contract --exact capture
}

@test "capture -w: the packets written as a pcap tcpdump reads byte for byte; what is no regular file refused" {
	run -0 rdmactl capture -r "$W/write-bw.pcap" -w "$BATS_TEST_TMPDIR/out.pcap"
	refute_output --regexp ' RDMA_WRITE_FIRST '	# written, not printed
	assert_line --regexp '^25 RoCE v2 packets in '
	assert_equal "$(tcpdump -r "$BATS_TEST_TMPDIR/out.pcap" -nn -xx 2>/dev/null)" \
		"$(tcpdump -r "$W/write-bw.pcap" -nn -xx 2>/dev/null)"
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run timeout 5 "$RDMACTL" capture -r "$W/rnr.pcap" -w "$BATS_TEST_TMPDIR/fifo"
	assert_failure 1
	assert_output --partial "will not write $BATS_TEST_TMPDIR/fifo: it is a FIFO, not a regular file"
	run timeout 5 "$RDMACTL" capture -r "$BATS_TEST_TMPDIR/fifo"
	assert_failure 1
	assert_output --partial "will not read $BATS_TEST_TMPDIR/fifo: it is a FIFO, not a regular file"
	# Nothing half-written beside them.
	assert_equal "$(ls "$BATS_TEST_TMPDIR")" $'fifo\nout.pcap'
}

@test "capture: what it cannot read is said, exit 1; bad words are usage errors, exit 2" {
	run -1 rdmactl capture -r /etc/os-release
	assert_output --regexp '^rdmactl: /etc/os-release is no pcap file libpcap reads: .*\(EBADMSG: Bad message\)$'
	run -1 rdmactl capture -r "$BATS_TEST_TMPDIR/none.pcap"
	assert_output "rdmactl: cannot read $BATS_TEST_TMPDIR/none.pcap (ENOENT: No such file or directory)"
	for bad in '--qp 0x' '--qp 0x1000000' '--qp -1' '--qp rxe0' '--count 0' '--duration 0' \
		'rxe0 --read x' '--read x --duration 5' 'rxe0 rxe1'; do
		# shellcheck disable=SC2086 # the words
		run rdmactl capture $bad
		assert_failure 2
		assert_output --partial "; try 'rdmactl help capture'"
	done
}

@test "capture: on a host without RDMA, no device to capture, and why" {
	[ ! -e /sys/class/infiniband ] || skip "this host has RDMA devices"
	run -1 rdmactl capture
	assert_output --partial 'has no RDMA support'
}
