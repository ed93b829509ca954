#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# capture --read on the packets captured in the bed (bats/fixtures/packets,
# tools/capture-packets): counted as tcpdump counts them, decoded as tshark
# decodes them, the failures' NAKs and resends named, -w's pcap whole.

setup() {
	load ../helpers
	W=$TOP/bats/fixtures/packets
}

# A test that fails while its tcpdump runs leaves none behind.
teardown() {
	[ -z "${pid:-}" ] || kill "$pid" 2>/dev/null || true
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
	local f want got
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
	assert_line --regexp ': 1 packet, [0-9]+ bytes, 0 resent, 1 RNR NAK, longest wait '
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

# Opcode, QP and PSN of each packet of pcap $1, by rdmactl and by tshark, must agree.
same_as_tshark() {
	local want got
	want=$(tshark -r "$1" -T fields -e infiniband.bth.opcode -e infiniband.bth.destqp \
		-e infiniband.bth.psn 2>/dev/null | while read -r op q p; do
			printf '%d %d %d\n' "$op" "$q" "$p"
		done)
	[ -n "$want" ] || { echo "tshark decoded no BTH in $1"; return 1; }
	got=$(rdmactl -j capture -r "$1" | jq -r 'select(.record == "packet") | [.opcode, .transport, .qpn, .psn] | @tsv' |
		while IFS=$'\t' read -r op t q p; do
			printf '%d %d %d\n' "$(opcode_number "$t" "$op")" "$q" "$p"
		done)
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
}

@test "capture --read: raw IP, IPv4 and IPv6 link types, as editcap writes them, each packet as tshark reads it" {
	command -v tshark >/dev/null && command -v editcap >/dev/null || skip "no tshark or editcap (tools/install-deps test)"
	# rc-pingpong is IPv6, bad-rkey IPv4: the Ethernet header cut, the link type set.
	for f in rc-pingpong bad-rkey; do
		for t in rawip rawip4 rawip6; do
			case "$t$f" in rawip4rc-pingpong | rawip6bad-rkey) continue ;; esac
			editcap -C 14 -T "$t" "$W/$f.pcap" "$BATS_TEST_TMPDIR/$t.pcap"
			n=$(tcpdump -r "$W/$f.pcap" -nn 2>/dev/null | wc -l)
			run -0 rdmactl -j capture -r "$BATS_TEST_TMPDIR/$t.pcap"
			assert_equal "$(jq -c 'select(.record == "end") | [.packets, .malformed, .other]' <<<"$output")" "[$n,0,0]"
			same_as_tshark "$BATS_TEST_TMPDIR/$t.pcap" || fail "$f as $t"
		done
	done
}

@test "capture --read: tcpdump -i any's cooked captures (SLL2, and SLL with -y), as tshark reads them" {
	command -v tshark >/dev/null || skip "no tshark (tools/install-deps test)"
	tcpdump -D 2>/dev/null | grep -q '\bany\b' || skip "tcpdump here cannot capture on any: $(tcpdump -D 2>&1 | head -1)"
	# Not pid: teardown stops the tcpdump it names when a check fails.
	local y out want n sport
	# The UDP payloads of a ping-pong captured in the bed, sent again over
	# loopback to port 4791 and captured by tcpdump on every interface:
	# frames tcpdump wrote itself, RoCE v2 to tshark.
	tshark -r "$W/rc-pingpong.pcap" -T fields -e udp.payload >"$BATS_TEST_TMPDIR/payloads"
	# offline and offline-asan run this at once, and "any" sees both: each
	# run sends from a source port of its own and keeps only that.
	sport=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.bind(("::", 0)); print(s.getsockname()[1])')
	for y in LINUX_SLL2 LINUX_SLL; do
		out=$BATS_TEST_TMPDIR/$y.pcap
		tcpdump -i any -y "$y" --immediate-mode -U -w "$out" "udp dst port 4791 and udp src port $sport" 2>"$BATS_TEST_TMPDIR/tcpdump.err" 3>&- &
		pid=$!
		for _ in $(seq 50); do grep -q 'listening on' "$BATS_TEST_TMPDIR/tcpdump.err" && break; sleep 0.1; done
		python3 - "$BATS_TEST_TMPDIR/payloads" "$sport" <<-'PY'
			import socket, sys, time
			for fam, addr in ((socket.AF_INET, '127.0.0.1'), (socket.AF_INET6, '::1')):
			    # A socket on the port takes them in (no ICMP back), one at a time;
			    # the other run's socket may hold the port too.
			    r = socket.socket(fam, socket.SOCK_DGRAM)
			    r.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
			    r.bind((addr, 4791))
			    s = socket.socket(fam, socket.SOCK_DGRAM)
			    s.bind((addr, int(sys.argv[2])))
			    for line in open(sys.argv[1]):
			        s.sendto(bytes.fromhex(line.strip().replace(':', '')), (addr, 4791))
			        time.sleep(0.002)
		PY
		# tcpdump writes each packet as it reads it (-U), but a SIGINT a
		# fixed time on can end it before it has read the last (two of
		# forty were missing once on a loaded host): it is stopped once
		# the file has them all, or after 10 s.
		want=$((2 * $(wc -l <"$BATS_TEST_TMPDIR/payloads")))
		for _ in $(seq 100); do
			[ "$(tcpdump -r "$out" -nn 2>/dev/null | wc -l)" -lt "$want" ] || break
			sleep 0.1
		done
		kill -INT "$pid"
		wait "$pid" || true
		pid=
		[ "$(tcpdump -r "$out" 2>&1 >/dev/null | grep -o 'link-type [A-Z_0-9]*')" = "link-type $y" ] ||
			fail "tcpdump wrote $(tcpdump -r "$out" 2>&1 >/dev/null)"
		n=$(tcpdump -r "$out" -nn 2>/dev/null | wc -l)
		[ "$n" = "$want" ] || fail "$y: tcpdump kept $n packets of $want"
		run -0 rdmactl -j capture -r "$out"
		assert_equal "$(jq -c 'select(.record == "end") | [.packets, .malformed, .other]' <<<"$output")" "[$n,0,0]"
		same_as_tshark "$out" || fail "$y"
		# Both families' conversations, by the loopback addresses.
		assert_equal "$(jq -r 'select(.record == "qp") | .dst' <<<"$output" | sort -u | tr '\n' ' ')" '127.0.0.1 ::1 '
	done
}

@test "capture --read: a merged capture's timestamps that go back are signed, never wrapped" {
	command -v mergecap >/dev/null || skip "no mergecap (tools/install-deps test)"
	# rnr was captured after rc-pingpong: appended after it, time goes back.
	mergecap -a -w "$BATS_TEST_TMPDIR/m.pcap" "$W/rnr.pcap" "$W/rc-pingpong.pcap"
	run -0 rdmactl -j capture -r "$BATS_TEST_TMPDIR/m.pcap"
	first=$(tcpdump -r "$W/rnr.pcap" -tt -nn 2>/dev/null | head -1 | cut -d' ' -f1)
	earliest=$(tcpdump -r "$W/rc-pingpong.pcap" -tt -nn 2>/dev/null | head -1 | cut -d' ' -f1)
	latest=$(tcpdump -r "$BATS_TEST_TMPDIR/m.pcap" -tt -nn 2>/dev/null | cut -d' ' -f1 | sort -n | tail -1)
	want=$(python3 -c "print(round(($earliest - $first) * 1e6))")
	assert_equal "$(jq -s 'map(select(.record == "packet")) | .[2].time_us' <<<"$output")" "$want"
	dur=$(python3 -c "print(round(($latest - $earliest) * 1e6))")
	assert_equal "$(jq 'select(.record == "end") | .duration_us' <<<"$output")" "$dur"
	# No time in the text beyond what the capture spans.
	run -0 rdmactl capture -r "$BATS_TEST_TMPDIR/m.pcap"
	assert_line --regexp '^-[0-9]+\.[0-9]{6} fe80::'
	refute_output --regexp '[0-9]{9,}\.[0-9]+ s'
}

@test "capture --read: a UDP length past the frame is malformed, as tshark finds it; '-' reads standard input" {
	python3 - "$W/rnr.pcap" "$BATS_TEST_TMPDIR/bad.pcap" <<-'PY'
		import struct, sys
		data = bytearray(open(sys.argv[1], 'rb').read())
		# The first record's frame: pcap's 24-byte header, 16 of the record's.
		frame = 24 + 16
		eth = struct.unpack('>H', data[frame + 12:frame + 14])[0]
		ip = frame + 14
		udp = ip + (40 if eth == 0x86dd else (data[ip] & 15) * 4)
		data[udp + 4:udp + 6] = b'\xff\xf0'
		open(sys.argv[2], 'wb').write(data)
	PY
	run -0 rdmactl -j capture -r - <"$BATS_TEST_TMPDIR/bad.pcap"
	assert_equal "$(jq -c 'select(.record == "end") | [.packets, .malformed]' <<<"$output")" '[1,1]'
	if command -v tshark >/dev/null; then
		run tshark -r "$BATS_TEST_TMPDIR/bad.pcap" -Y 'udp.length.bad || _ws.malformed || _ws.expert.severity >= warning' -T fields -e frame.number
		assert_line 1
	fi
	# Standard input, piped from a program as tcpdump -w - writes it.
	run -0 bash -c "tcpdump -r '$W/rc-pingpong.pcap' -w - 2>/dev/null | '$RDMACTL' -j capture -r - | jq -c 'select(.record == \"end\") | .packets'"
	assert_output "$(tcpdump -r "$W/rc-pingpong.pcap" -nn 2>/dev/null | wc -l)"
	run -1 rdmactl capture -r - </dev/null
	assert_output --regexp '^rdmactl: standard input is no pcap file libpcap reads: '
}

@test "capture --read: 20,000 conversations, each counted once" {
	# One request and its answer of bad-rkey, made again for 10,000 QP pairs.
	"$TOP/tools/pcap-many" "$W/bad-rkey.pcap" "$BATS_TEST_TMPDIR/many.pcap" 10000
	run -0 rdmactl -j capture -r "$BATS_TEST_TMPDIR/many.pcap"
	assert_equal "$(jq -c 'select(.record == "end") | [.packets, .malformed, .other]' <<<"$output")" '[20000,0,0]'
	assert_equal "$(jq -s 'map(select(.record == "qp")) | length' <<<"$output")" 20000
	assert_equal "$(jq -s 'map(select(.record == "qp") | .packets) | add' <<<"$output")" 20000
}

@test "capture --read: interrupted, a long read ends at once with what it read so far" {
	"$TOP/tools/pcap-many" "$W/bad-rkey.pcap" "$BATS_TEST_TMPDIR/long.pcap" 100000
	"$RDMACTL" -j capture -r "$BATS_TEST_TMPDIR/long.pcap" >"$BATS_TEST_TMPDIR/out" &
	pid=$!
	# Once its first packets are out, its loop runs: the signal is its to take.
	for _ in $(seq 100); do
		[ -s "$BATS_TEST_TMPDIR/out" ] && break
		sleep 0.05
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 0
	# The end said, for fewer than the file's 200,000 packets: the read stopped there.
	run jq -r 'select(.record == "end") | .packets' "$BATS_TEST_TMPDIR/out"
	[ -n "$output" ] || fail "no end record after the signal"
	[ "$output" -lt 200000 ] || fail "the whole file was read: the signal did not end it"
}
