#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl record against programs that exit on their first error, written
# apart from the project (rdma-core's ibv_rc_pingpong and rping): each
# failure named with its process and cause after the program has gone,
# read again by report; the command's status, a timeout, a SIGKILL, and two
# records at once; record killed, and a full disk. With RDMACTL_RECORD_KEEP=1 each record is said on a
# "# keep-record NAME" line in base64: tools/capture-records keeps them in
# bats/fixtures/records for the offline tests of report.

load rxe0

# The recommended GID index of rxe0 into G.
rxe0_gid() {
	G=$(rdmactl -j gids rxe0 | jq -r 'first(.[] | select(.recommended)) | .index')
	[ -n "$G" ] && [ "$G" != null ] || fail "rxe0 has no recommended GID"
}

# bats test_tags=kernels
@test "record: a ping-pong without a GID index: the server's refused RTR, its cause certain, the index to give" {
	local f=$BATS_TEST_TMPDIR/nogid.jsonl
	rxe0_gid
	# Server and client under one record; the client's status is the command's.
	run --separate-stderr "$RDMACTL" record -o "$f" -- bash -c \
		'ibv_rc_pingpong -d rxe0 -p 18611 & s=$!
		 for _ in $(seq 100); do ss -Htln "sport = :18611" | grep -q . && break; sleep 0.1; done
		 ibv_rc_pingpong -d rxe0 -p 18611 127.0.0.1; c=$?; wait $s; exit $c'
	assert_failure 1
	keep_record "$f" nogid
	# The stock program's own words, then record's report after them.
	[[ $stderr == *"Failed to modify QP to RTR"*"FAIL  "* ]] || fail "the server's words are missing: $stderr"
	[[ $stderr =~ FAIL\ \ [0-9T:.Z-]+\ \ pid\ [0-9]+\ \(ibv_rc_pingpong\):\ ibv_modify_qp\ \(MODIFY_QP\)\ refused\ with\ EINVAL ]] ||
		fail "no refused RTR in the report: $stderr"
	[[ $stderr == *"cause: its address vector has no GRH (is_global 0): RoCE addresses the peer by GID, so RTR needs one, with a source GID index"* ]] ||
		fail "no cause: $stderr"
	[[ $stderr == *"(certain: ibv_modify_qp to RTR with IBV_QP_AV, is_global 0, dlid 0, refused with EINVAL)"* ]] ||
		fail "no evidence: $stderr"
	[[ $stderr == *"fix: give the GID index on both sides: -g $G (perftest: -x $G), rxe0 port 1's IPv4 GID"* ]] ||
		fail "no fix: $stderr"
	# The file: every line a record's, held to docs/json.md; the probe libibverbs goes on from marked so.
	assert_json_contract record <"$f"
	run jq -rs '[.[] | select(.event == "verb-refused" and (.probe | not))] | length' "$f"
	assert_output 1
	run jq -rs '[.[] | select(.event == "qp-created") | .owner.comm] | unique | join(",")' "$f"
	assert_output ibv_rc_pingpong
	run jq -rs 'last | .event, .status' "$f"
	assert_output $'record-ended\n1'
	# report reads it back alike, and -j gives the same failure.
	run -0 rdmactl report "$f"
	assert_line --partial "cause: its address vector has no GRH (is_global 0)"
	run -0 rdmactl -j report "$f"
	assert_json_contract report <<<"$output"
	assert_equal "$(jq -r '.[0].failures[0].what' <<<"$output")" 'ibv_modify_qp (MODIFY_QP) refused with EINVAL'
}

# bats test_tags=kernels
@test "record: memlock, -g 0 against an IPv4 GID, rping's reject, RNR each named with the process's own facts" {
	local f=$BATS_TEST_TMPDIR/memlock.jsonl a
	rxe0_gid
	# Root without CAP_IPC_LOCK is bound by its limit, as a container's root is.
	run --separate-stderr "$RDMACTL" record -o "$f" -- setpriv --inh-caps=-ipc_lock \
		--bounding-set=-ipc_lock -- bash -c \
		"ulimit -l 64 && exec ibv_rc_pingpong -d rxe0 -g $G -s 1048576 -p 18612"
	assert_failure 1
	keep_record "$f" memlock
	[[ $stderr == *"ibv_reg_mr (REG_MR) refused with ENOMEM"* ]] || fail "no refused MR: $stderr"
	[[ $stderr == *"cause: the process's RLIMIT_MEMLOCK is 64 KiB and it lacks CAP_IPC_LOCK: registering this region pins memory past it"* ]] ||
		fail "no cause: $stderr"
	[[ $stderr == *"(certain: ibv_reg_mr of 1048576 bytes refused with ENOMEM; RLIMIT_MEMLOCK 65536 bytes, no CAP_IPC_LOCK)"* ]] ||
		fail "no evidence: $stderr"
	assert_json_contract record <"$f"
	# The link-local GID on one side, the IPv4 one on the other.
	f=$BATS_TEST_TMPDIR/linklocal.jsonl
	run --separate-stderr "$RDMACTL" record -o "$f" -- bash -c \
		"ibv_rc_pingpong -d rxe0 -g 0 -p 18613 & s=\$!
		 for _ in \$(seq 100); do ss -Htln 'sport = :18613' | grep -q . && break; sleep 0.1; done
		 ibv_rc_pingpong -d rxe0 -g $G -p 18613 127.0.0.1; wait \$s"
	assert_failure
	keep_record "$f" linklocal
	[[ $stderr =~ cause:\ source\ GID\ index\ 0\ is\ rxe0\'s\ link-local\ fe80::\ GID,\ and\ the\ destination\ [0-9.]+\ is\ not:\ no\ route\ between\ them ]] ||
		fail "no link-local cause: $stderr"
	[[ $stderr == *"fix: -g $G on both sides"* ]] || fail "no fix: $stderr"
	# rdma_cm: an address where nothing listens on the port.
	a=$(ip -4 -o addr show "$N" | awk '{ sub("/.*", "", $4); print $4; exit }')
	f=$BATS_TEST_TMPDIR/reject.jsonl
	run --separate-stderr "$RDMACTL" record -o "$f" -- rping -c -a "$a" -p 18614 -C 1 -v
	assert_failure
	keep_record "$f" reject
	[[ $stderr =~ FAIL\ \ [0-9T:.Z-]+\ \ pid\ [0-9]+\ \(rping\):\ RDMA_CM_EVENT_REJECTED,\ status\ 8 ]] ||
		fail "no reject: $stderr"
	[[ $stderr == *"cause: nothing listens on that port there (status 8: invalid service ID)"* ]] ||
		fail "no cause: $stderr"
	assert_json_contract record <"$f"
	# RNR: each QP's first error completion as rxe posted it, the cause
	# before the flushes. qpfail holds its QPs once it has polled the
	# completion: ended 2 s after its "holding" line, time for record's
	# reading of the live QPs to name their device, and not 2 s after its
	# start, which a loaded emulator can spend before the error comes.
	f=$BATS_TEST_TMPDIR/rnr.jsonl
	run --separate-stderr "$RDMACTL" record -o "$f" -- bash -c \
		"timeout 60 '$TOP/build/tests/qpfail' rxe0 $G rnr |
			while read -r w p; do [ \"\$w\" != holding ] || { sleep 2; kill \"\$p\"; break; }; done; true"
	assert_success
	keep_record "$f" rnr
	[[ $stderr =~ \(qpfail\):\ QP\ [0-9]+\ \(RC\)\ on\ rxe0:\ its\ first\ completion\ in\ error,\ IBV_WC_RNR_RETRY_EXC_ERR ]] ||
		fail "no RNR completion: $stderr"
	assert_json_contract record <"$f"
	# The same, the program gone within a millisecond of the error: its QPs'
	# owner and device from the probes' own sight of their making, not from
	# a reading.
	f=$BATS_TEST_TMPDIR/rnrexit.jsonl
	run --separate-stderr "$RDMACTL" record -o "$f" -- "$TOP/build/tests/qpfail" rxe0 "$G" rnr-exit
	assert_failure 1
	[[ $stderr =~ pid\ [0-9]+\ \(qpfail\):\ QP\ ([0-9]+)\ \(RC\)\ on\ rxe0:\ its\ first\ completion\ in\ error,\ IBV_WC_RNR_RETRY_EXC_ERR ]] ||
		fail "no RNR completion of a QP gone at once: $stderr"
	assert_json_contract record <"$f"
	# Its two QPs as the kernel made them, the failed one among them, with their owner and device.
	run jq -rs --argjson q "${BASH_REMATCH[1]}" \
		'[.[] | select(.event == "qp-made")] | "\(length) \(map(.owner.comm) | unique | join(",")) \(map(.type) | unique | join(",")) \(any(.qpn == $q)) \(map(.ifname) | unique | join(","))"' "$f"
	assert_output '2 qpfail RC true rxe0'
}

# bats test_tags=kernels
@test "record --capture: an RNR's packets beside the record, as capture and tshark read them; none when nothing failed" {
	local f=$BATS_TEST_TMPDIR/cap.jsonl p=$BATS_TEST_TMPDIR/cap.pcap q n
	rxe0_gid
	# Two QPs of rxe0: their packets never reach the netdev, the loopback's eBPF sees them.
	run --separate-stderr "$RDMACTL" record --capture -o "$f" -- "$TOP/build/tests/qpfail" rxe0 "$G" rnr-exit
	assert_failure 1
	[[ $stderr =~ \(qpfail\):\ QP\ ([0-9]+)\ \(RC\)\ on\ rxe0:\ its\ first\ completion\ in\ error,\ IBV_WC_RNR_RETRY_EXC_ERR ]] ||
		fail "no RNR completion: $stderr"
	q=${BASH_REMATCH[1]}
	assert_json_contract record <"$f"
	n=$(jq -r 'select(.event == "packets") | "\(.packets) \(.file) \(.errors > 0)"' "$f")
	[[ $n =~ ^([1-9][0-9]*)\ cap\.pcap\ true$ ]] || fail "packets line: $n"
	n=${BASH_REMATCH[1]}
	[[ $stderr == *"packets: $n of its QPs and their peers around the errors in $p "* ]] ||
		fail "the report names no pcap file: $stderr"
	# Its SEND, and the RNR NAK that ended it, as capture reads them.
	run -0 rdmactl capture --read "$p" --qp "$q"
	assert_line --regexp " RC SEND_ONLY qp [0-9]+ psn [0-9]+ len [0-9]+"
	assert_line --regexp " RC ACKNOWLEDGE qp $q .* RNR NAK msn [0-9]+ timer [0-9]+ us$"
	# tshark reads every packet as RoCE v2, the count the record gave.
	run -0 --separate-stderr tshark -r "$p" -T fields -e infiniband.bth.destqp
	assert_equal "${#lines[@]}" "$n"
	# Read again later, beside its record wherever the two go.
	mkdir "$BATS_TEST_TMPDIR/later"
	mv "$f" "$p" "$BATS_TEST_TMPDIR/later/"
	run -0 rdmactl -j report "$BATS_TEST_TMPDIR/later/cap.jsonl"
	assert_equal "$(jq -r '.[0].packets | "\(.count) \(.file)"' <<<"$output")" "$n $BATS_TEST_TMPDIR/later/cap.pcap"
	# Nothing failed: no pcap file, and the line says none.
	f=$BATS_TEST_TMPDIR/fine.jsonl
	run --separate-stderr "$RDMACTL" record --capture -o "$f" -- bash -c \
		"timeout 1 '$TOP/build/tests/qpfail' rxe0 $G ok >/dev/null; true"
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/fine.pcap" ] || fail "a pcap file where nothing failed"
	assert_equal "$(jq -r 'select(.event == "packets") | "\(.file) \(.errors)"' "$f")" "null 0"
}

# bats test_tags=kernels
# perftest writing to itself over rxe0 under record, and $1 done to the host
# once it writes, then undone: the record in $BATS_TEST_TMPDIR/$2.jsonl, its end report in $2.err.
under_change() {
	local f=$BATS_TEST_TMPDIR/$2.jsonl
	ib_write_bw -d rxe0 -x "$G" -p 18800 -D 8 >/dev/null 2>&1 &
	wait_listen 18800 || fail "perftest's server never listened"
	rdmactl record --timeout 20 -o "$f" -- ib_write_bw -d rxe0 -x "$G" -p 18800 -D 8 \
		"$RXE_VM_ADDR" >/dev/null 2>"$BATS_TEST_TMPDIR/$2.err" &
	# Connected and writing: its QP in RTS, as the record says or, first where
	# the kernel lists them, as 'rdma res' shows both ends'. The
	# record's line alone would do but for load: record runs at a lower priority
	# than the two busy-polling ends, and may write it after perftest's 8 s.
	local q=0
	for _ in $(seq 100); do
		grep -q '"state":"RTS"' "$f" 2>/dev/null && break
		q=$(rdma -j res show qp | jq '[.[] | select(.comm == "ib_write_bw" and .state == "RTS")] | length')
		[ "$q" -ge 2 ] && break
		sleep 0.2
	done
	sleep 1
	eval "$1"
	wait
	keep_record "$f" "$2"
}

# bats test_tags=kernels
@test "record: the netdev taken down, then the GID removed, under perftest: each QP error named by its change" {
	local cidr
	rxe0_gid
	cidr=$(ip -o -4 addr show dev "$N" | awk '{ print $4; exit }')
	under_change "ip link set $N down; sleep 2; ip link set $N up" netdev-down
	# Its work requests ended in error (7.3 flushes them, 6.1 says a local QP operation
	# error, 5.10 a local protection error), none at fault: the port's going down is why.
	run -0 rdmactl report "$BATS_TEST_TMPDIR/netdev-down.jsonl"
	assert_line --regexp '^FAIL  [0-9T:.-]+Z  pid [0-9]+ \(ib_write_bw\): QP [0-9]+ \(RC\) on rxe0: its first completion in error, IBV_WC_(WR_FLUSH|LOC_QP_OP|LOC_PROT)_ERR$'
	assert_line --regexp "^      cause: its (netdev|port) down while the QP ran \\(rxe0: (netdev $N up -> down|port 1 ACTIVE -> DOWN)\\): rdma_rxe ended its work requests in error; none of them was at fault\$"
	assert_line --regexp '^      fix: bring the netdev up .* then make the QPs anew: a QP in ERR does not come back$'
	for _ in $(seq 50); do
		[ "$(rdma -j link show rxe0/1 | jq -r '.[0].state')" = ACTIVE ] && break
		sleep 0.2
	done
	under_change "ip addr del $cidr dev $N; sleep 2; ip addr add $cidr dev $N" gid-removed
	run -0 rdmactl report "$BATS_TEST_TMPDIR/gid-removed.jsonl"
	assert_line --regexp "^      cause: one of its GIDs removed while the QP ran \\(rxe0: GID $G [0-9a-f:]+\\): rdma_rxe ended its work requests in error; none of them was at fault\$"
	assert_line --regexp '^      fix: keep the address of that GID on its netdev for the job.s length'
}

@test "record: one process with two devices open: each QP made on its device, its modify named by its number" {
	local f=$BATS_TEST_TMPDIR/two.jsonl a b
	# rxe1 on veth1 beside rxe0, both fe80:: GIDs there: a handle is its device file's,
	# and qpfail makes the same objects on each, so both QPs have handle 3.
	rdmactl add rxe1 veth1 >/dev/null
	ip -6 addr show dev veth1 scope link | grep -q inet6 ||
		ip addr add "$(cat /sys/class/infiniband/rxe1/ports/1/gids/0)/64" dev veth1 nodad
	for _ in $(seq 100); do
		[ "$(cat /sys/class/infiniband/rxe1/ports/1/gids/0)" != \
			0000:0000:0000:0000:0000:0000:0000:0000 ] && break
		sleep 0.1
	done
	# Two QPs held on rxe0 by another process: rxe0's next QP number is past rxe1's
	# (each device numbers its own), so the two QPs differ in number, not in handle.
	"$TOP/build/tests/qpfail" rxe0 0 ok >"$BATS_TEST_TMPDIR/holder" 2>&1 &
	for _ in $(seq 100); do
		grep -q '^holding' "$BATS_TEST_TMPDIR/holder" && break
		sleep 0.1
	done
	run rdmactl record --timeout 5 -o "$f" -- "$TOP/build/tests/qpfail" rxe0,rxe1 0 ok
	assert_equal "$status" 124
	read -r a b < <(sed -n 's/^QPs \([0-9]*\) -> \([0-9]*\)$/\1 \2/p' <<<"$output")
	[ -n "$b" ] && [ "$a" != "$b" ] || fail "qpfail said no two QPs of two numbers: $output"
	assert_equal "$(jq -r 'select(.event == "qp-modified" and .state == "RTR") |
		"\(.qpn)@\(.ifname)>\(.dest_qpn)"' "$f" | sort | paste -sd' ')" \
		"$(printf '%s\n' "$a@rxe0>$b" "$b@rxe1>$a" | sort | paste -sd' ')"
	# Each QP made with its device: the first on rxe0, the second on rxe1.
	assert_equal "$(jq -r 'select(.event == "qp-made") | "\(.qpn)@\(.ifname)"' "$f" | sort | paste -sd' ')" \
		"$(printf '%s\n' "$a@rxe0" "$b@rxe1" | sort | paste -sd' ')"
}

@test "record: nothing failed; --timeout ends a hang with 124; SIGKILL is reported; two records see their own" {
	local f=$BATS_TEST_TMPDIR/ok.jsonl b=$BATS_TEST_TMPDIR/other.jsonl pid
	rxe0_gid
	run --separate-stderr "$RDMACTL" record -o "$f" -- bash -c \
		"ibv_rc_pingpong -d rxe0 -g $G -p 18615 >/dev/null & s=\$!
		 for _ in \$(seq 100); do ss -Htln 'sport = :18615' | grep -q . && break; sleep 0.1; done
		 ibv_rc_pingpong -d rxe0 -g $G -p 18615 127.0.0.1 >/dev/null; wait \$s"
	assert_success
	assert_equal "$(tail -n1 <<<"$stderr")" 'nothing failed that record could see'
	# Trampolines where ib_uverbs carries BTF (6.1 on): each of rxe's
	# ibv_post_send is a write to uverbs, which a kprobe would trap.
	local via=kprobes
	[ ! -e /sys/kernel/btf/ib_uverbs ] || via=trampolines
	assert_equal "$(jq -r 'select(.event == "record-started") | .probes' "$f")" "$via"
	# A server whose client never comes: ended, and said so, with timeout(1)'s status.
	run --separate-stderr "$RDMACTL" record --timeout 2 -o "$f" -- \
		ibv_rc_pingpong -d rxe0 -g "$G" -p 18616
	assert_failure 124
	[[ $stderr == *"ibv_rc_pingpong -d rxe0 -g $G -p 18616 was killed by signal 15 (its --timeout ran out)"* ]] ||
		fail "no timeout: $stderr"
	run --separate-stderr "$RDMACTL" record -o "$f" -- bash -c 'kill -9 $$'
	assert_failure 137
	[[ $stderr == *"was killed by signal 9"* ]] || fail "no SIGKILL: $stderr"
	# Two at once: the other's file holds nothing of this one's failure.
	"$RDMACTL" record -o "$b" -- sleep 3 2>/dev/null &
	pid=$!
	run --separate-stderr "$RDMACTL" record -o "$f" -- setpriv --inh-caps=-ipc_lock \
		--bounding-set=-ipc_lock -- bash -c \
		"ulimit -l 64 && exec ibv_rc_pingpong -d rxe0 -g $G -s 1048576 -p 18617"
	assert_failure 1
	wait "$pid"
	run jq -rs '[.[] | select(.event == "verb-refused" and (.probe | not))] | length' "$f"
	assert_output 1
	run jq -rs '[.[] | select(.event == "verb-refused" or .event == "process-exec") | .comm] | unique | join(",")' "$b"
	assert_output sleep
}

# bats test_tags=kernels
@test "record: killed, its file reads to its last whole line; on a full disk it says so once and the command goes on" {
	local f=$BATS_TEST_TMPDIR/killed.jsonl d=$BATS_TEST_TMPDIR/full rec i
	# record itself killed after the server's refused RTR is in its file: no end written.
	"$RDMACTL" record -o "$f" -- bash -c \
		'ibv_rc_pingpong -d rxe0 -p 18618 & s=$!
		 for _ in $(seq 100); do ss -Htln "sport = :18618" | grep -q . && break; sleep 0.1; done
		 ibv_rc_pingpong -d rxe0 -p 18618 127.0.0.1; wait $s; sleep 2' >/dev/null 2>&1 &
	rec=$!
	for ((i = 0; i < 200; i++)); do
		grep -q '"event":"verb-refused".*"probe":false' "$f" 2>/dev/null && break
		sleep 0.1
	done
	kill -9 "$rec"
	wait "$rec" || true
	run -0 rdmactl -j report "$f"
	assert_equal "$(jq -r '.[0] | "\(.ended) \(.failures[0].what)"' <<<"$output")" \
		'false ibv_modify_qp (MODIFY_QP) refused with EINVAL'
	run -0 rdmactl report "$f"
	assert_line --partial 'has no end in the record (record was killed, or is still running)'
	# A full disk: said once, the command's own output and status untouched.
	mkdir -p "$d"
	mount -t tmpfs -o size=8k tmpfs "$d"
	head -c 8192 /dev/zero >"$d/fill" 2>/dev/null || true
	run --separate-stderr "$RDMACTL" record -o "$d/r.jsonl" -- bash -c 'echo still-ran; exit 3'
	umount "$d"
	assert_failure 3
	assert_output still-ran
	assert_equal "$(grep -c 'cannot write the record any more (ENOSPC' <<<"$stderr")" 1
}
