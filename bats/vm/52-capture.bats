#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# capture on a live rxe device: rxe0 on veth0 and rxe1 on veth1 talk over
# their fe80:: GIDs, so their packets cross the veth; two QPs of rxe0 talk to
# each other (loopback: nothing crosses the veth), seen through eBPF. rxe's
# own counters, tcpdump and tshark are the oracles.

load rxe0

# What a test left running in the background, ended before the bed is restored.
teardown() {
	[ -z "${bg-}" ] || kill "${bg[@]}" 2>/dev/null || true
	ip link del vcap0 2>/dev/null || true
	vm_restore
}

# rxe1 on veth1 beside rxe0, both devices' fe80:: GIDs (index 0) there, and
# veth1's link-local address its GID names (the bed's restore flushes veth1).
# With DEV NETDEV [OTHER]: that one beside rxe0 (or OTHER) instead.
two_devices() {
	local d dev=${1:-rxe1} net=${2:-veth1} other=${3:-rxe0}
	rdmactl add "$dev" "$net" >/dev/null
	ip -6 addr show dev "$net" scope link | grep -q inet6 ||
		ip addr add "$(cat "/sys/class/infiniband/$dev/ports/1/gids/0")/64" dev "$net" nodad
	for _ in $(seq 100); do
		for d in "$other" "$dev"; do
			[ "$(cat /sys/class/infiniband/$d/ports/1/gids/0)" != \
				0000:0000:0000:0000:0000:0000:0000:0000 ] || continue 2
		done
		return 0
	done
	fail "no fe80:: GID on $other and $dev"
}

sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
# The requests DEV sent again for want of an ACK (rxe's completer).
resends() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/completer_retry_err"; }

# ibv_rc_pingpong -n $1 -s 64 (or $size), its server on rxe1 (or $3) and its
# client on rxe0 (or $2).
pingpong() {
	timeout 60 ibv_rc_pingpong -d "${3:-rxe1}" -g 0 -p 18790 -n "$1" -s "${size:-64}" \
		>"$BATS_TEST_TMPDIR/srv" 2>&1 3>&- &
	local srv=$!
	wait_listen 18790
	run timeout 60 ibv_rc_pingpong -d "${2:-rxe0}" -g 0 -p 18790 -n "$1" -s "${size:-64}" 127.0.0.1
	assert_success
	wait "$srv" || fail "server: $(cat "$BATS_TEST_TMPDIR/srv")"
}

# bats test_tags=kernels
@test "capture: ibv_rc_pingpong -n 50 across the veth whole: every packet rxe sent, the same tcpdump saw" {
	two_devices
	T=$BATS_TEST_TMPDIR
	s0=$(sent rxe0) s1=$(sent rxe1)
	r0=$(resends rxe0) r1=$(resends rxe1)
	capture_both rc.pcap
	t0=$(date +%s.%N)
	pingpong 50
	t1=$(date +%s.%N)
	end_both
	n=$(($(sent rxe0) - s0 + $(sent rxe1) - s1))
	[ "$n" -ge 100 ] || fail "rxe sent $n packets for 50 round trips"
	# Under a loaded emulator an ACK can come after rxe's retry timer (67 ms at
	# ibv_rc_pingpong's timeout 14): capture counts resent where rxe resent.
	r=$(($(resends rxe0) - r0 + $(resends rxe1) - r1))
	run -0 cat "$T/cap.out"
	assert_line --regexp "^$n RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$"
	# Two conversations, one each way, naming each other, no NAK.
	assert_equal "$(grep -c ': [0-9]* packets, [0-9]* bytes, [0-9]* resent, no NAK' <<<"$output")" 2
	# (rxe counts a retry timer's firing, which may resend more than one request.)
	resent=$(sed -n 's/.* bytes, \([0-9]*\) resent, .*/\1/p' <<<"$output" | awk '{ s += $1 } END { print s + 0 }')
	[ "$((resent > 0))" = "$((r > 0))" ] || fail "capture counts $resent resent, rxe's completer_retry_err rose $r"
	same_as_tcpdump rc.pcap
	# Every packet stamped in wall time, both ways, within the ping-pong's run
	# (7.3 stamps what veth0 receives by the monotonic clock: capture mends it).
	run -0 --separate-stderr tcpdump -r "$T/rc.pcap" -tt -nn
	awk -v a="$t0" -v b="$t1" '$1 < a - 0.5 || $1 > b + 0.5 { bad++; print "at " $1 ": " $0 }
		END { exit bad > 0 }' <<<"$output" ||
		fail "packets stamped outside the ping-pong's run ($t0 to $t1): $(awk -v a="$t0" -v b="$t1" \
			'$1 < a - 0.5 || $1 > b + 0.5' <<<"$output" | head -3)"
}

# bats test_tags=kernels
@test "capture: started while the traffic runs, --count lines; --duration ends a quiet one; no root, said" {
	two_devices
	T=$BATS_TEST_TMPDIR
	# More round trips than the test waits for: ended once the capture is done.
	timeout 120 ibv_rc_pingpong -d rxe1 -g 0 -p 18791 -n 1000000 -s 64 >"$T/srv" 2>&1 3>&- &
	srv=$!
	wait_listen 18791
	timeout 120 ibv_rc_pingpong -d rxe0 -g 0 -p 18791 -n 1000000 -s 64 127.0.0.1 >"$T/cli" 2>&1 3>&- &
	cli=$!
	bg=("$srv" "$cli")
	# Once the ping-pong's packets flow, whichever that capture meets first.
	s0=$(sent rxe0)
	for _ in $(seq 200); do [ "$(sent rxe0)" -gt "$s0" ] && break; sleep 0.05; done
	run --separate-stderr timeout 30 "$RDMACTL" capture --count 6 rxe0
	[ "$status" = 0 ] || fail "capture: $status, $output $stderr; rxe0 sent $s0, now $(sent rxe0);" \
		"client: $(cat "$T/cli"); server: $(cat "$T/srv")"
	assert_equal "${#lines[@]}" 9	# 6 packets, 2 conversations, the counts
	[[ ${stderr_lines[-1]} == "rdmactl: note: capturing on veth0"* ]] ||
		fail "no note of where it captures: $stderr"
	assert_equal "$(grep -cE '^[0-9]+\.[0-9]{6} fe80::[0-9a-f:]+ > fe80::[0-9a-f:]+ RC (SEND_ONLY|ACKNOWLEDGE) qp [0-9]+ ' <<<"$output")" 6
	assert_line --regexp '^6 RoCE v2 packets in '
	kill "$cli" "$srv"
	wait "$cli" "$srv" || true
	bg=()
	# Nothing on the wire: --duration ends it, with nothing to say but the counts.
	SECONDS=0
	run -0 rdmactl -j capture --duration 2 rxe0
	[ "$SECONDS" -ge 2 ] && [ "$SECONDS" -le 10 ] || fail "--duration 2 took $SECONDS s"
	assert_output '{"record":"end","packets":0,"duration_us":0,"dropped":0,"malformed":0,"other":0}'
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$RDMACTL" capture rxe0 --count 1
	assert_failure 1
	assert_output --partial 'capturing on veth0 needs root, or CAP_NET_RAW'
	assert_output --partial '(EPERM: Operation not permitted)'
}

@test "capture: its netdev deleted mid-capture: what it saw is told and kept, and why it stopped" {
	T=$BATS_TEST_TMPDIR
	# A veth pair of the test's own (deleting veth0 would cut the bed's
	# network), without duplicate address detection as the bed's veths: a
	# link-local address still tentative leaves its GID without a route, and
	# the ping-pong fails to connect (seen once in CI).
	ip link add vcap0 type veth peer name vcap1
	sysctl -qw net.ipv6.conf.vcap0.accept_dad=0 net.ipv6.conf.vcap1.accept_dad=0
	ip link set vcap0 up
	ip link set vcap1 up
	rdmactl add rxec0 vcap0 >/dev/null
	ip -6 addr show dev vcap0 scope link | grep -q inet6 ||
		ip addr add "$(cat /sys/class/infiniband/rxec0/ports/1/gids/0)/64" dev vcap0 nodad
	two_devices rxec1 vcap1 rxec0
	for _ in $(seq 100); do
		[ -z "$(ip -6 addr show tentative dev vcap0; ip -6 addr show tentative dev vcap1)" ] && break
		sleep 0.05
	done
	"$RDMACTL" capture rxec0 -w "$T/c.pcap" >"$T/cap.out" 2>"$T/cap.err" 3>&- &
	cap=$!
	bg=("$cap")
	wait_capturing "$T/cap.err"
	pingpong 5 rxec0 rxec1
	sleep 0.5
	ip link del vcap0
	rc=0
	wait "$cap" || rc=$?
	bg=()
	assert_equal "$rc" 1
	run cat "$T/cap.err"
	assert_line 'rdmactl: capture stopped: vcap0 is gone (deleted, or moved to another namespace), and its rxe device with it (ENODEV: No such device)'
	# What it saw before: the counts, and the same packets in the file for tcpdump.
	run -0 cat "$T/cap.out"
	assert_line --regexp '^([0-9]+) RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$'
	n=$(sed -n 's/^\([0-9]*\) RoCE v2 packets in .*/\1/p' "$T/cap.out")
	[ "$n" -ge 10 ] || fail "$n packets for 5 round trips: $(cat "$T/cap.out")"
	assert_equal "$(tcpdump -r "$T/c.pcap" -nn 2>/dev/null | wc -l)" "$n"
}

# bats test_tags=kernels
@test "capture: ibv_rc_pingpong -n 50 -s 2000 on one device (loopback) whole through eBPF" {
	T=$BATS_TEST_TMPDIR
	s0=$(sent rxe0)
	capture_both lo.pcap
	# Both ends on rxe0 over its fe80:: GID: rxe delivers every packet to
	# itself. Messages of two packets each (the MTU is 1024): -w keeps them whole.
	size=2000 pingpong 50 rxe0 rxe0
	end_both
	n=$(($(sent rxe0) - s0))
	[ "$n" -ge 200 ] || fail "rxe0 sent $n packets for 50 round trips of 2000 bytes"
	# None of it crossed veth0.
	assert_equal "$(tcpdump -r "$T/td.pcap" -nn 2>/dev/null | wc -l)" 0
	# Where rdma_rxe has BTF, at rxe_rcv; where not (Debian's 5.10), at its rxe_loopback.
	at=rxe_rcv
	[ -e /sys/kernel/btf/rdma_rxe ] || at=rxe_loopback
	run -0 cat "$T/cap.err"
	assert_output "rdmactl: note: capturing on veth0, and what rxe0 sends to itself (eBPF at $at)"
	run -0 cat "$T/cap.out"
	# As many as rxe sent, each resend counted by both: none lost, none twice.
	assert_line --regexp "^$n RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$"
	# Two conversations, one each way (rxe may resend under load: not asserted).
	assert_equal "$(grep -c '^qp [0-9]* at .* from .* qp [0-9]* port [0-9]*: [0-9]* packets' <<<"$output")" 2
	# tshark: every packet RoCE v2 with its BTH, none malformed.
	run -0 --separate-stderr tshark -r "$T/lo.pcap" -T fields -e infiniband.bth.destqp \
		-e infiniband.bth.opcode -e infiniband.bth.psn
	assert_equal "${#lines[@]}" "$n"
	assert_equal "$(grep -c '^0x[0-9a-f]*	[0-9]*	[0-9]*$' <<<"$output")" "$n"
	run -0 --separate-stderr tshark -r "$T/lo.pcap" -Y '_ws.malformed || !infiniband.bth'
	assert_output ""
	# Whole frames, the largest a packet of 1024 bytes of payload.
	run -0 --separate-stderr tshark -r "$T/lo.pcap" -Y 'frame.cap_len != frame.len'
	assert_output ""
	run -0 --separate-stderr tshark -r "$T/lo.pcap" -Y 'frame.len > 1024'
	[ "${#lines[@]}" -ge 100 ] || fail "${#lines[@]} frames of more than 1024 bytes"
}

@test "capture: without CAP_BPF and CAP_PERFMON, the netdev alone, saying what it lacks" {
	run --separate-stderr setpriv --bounding-set=-bpf,-perfmon,-sys_admin \
		"$RDMACTL" capture rxe0 --duration 1
	assert_success
	assert_output "0 RoCE v2 packets in 0.000 s, 0 dropped, 0 malformed, 0 other frames"
	assert_equal "$stderr" "rdmactl: warning: what rxe0 sends to itself is not seen: that needs root, or CAP_BPF and CAP_PERFMON beside CAP_NET_RAW
rdmactl: note: capturing on veth0 alone: traffic between QPs of rxe0 does not cross it"
}

# bats test_tags=kernels
@test "capture: no rdma_rxe BTF and rxe_loopback inlined (a module built apart may be so): says so, the netdev alone" {
	! grep -qw rxe_loopback /proc/kallsyms ||
		skip "rdma_rxe of $(uname -r) has rxe_loopback as a function: the loopback test reads it there"
	# rdma_rxe's BTF hidden from capture alone: a mount namespace whose
	# /sys/kernel/btf holds the kernel's vmlinux and nothing else.
	run --separate-stderr unshare -m sh -c 'mkdir -p "$1" && mount --bind /sys/kernel/btf "$1" &&
		mount -t tmpfs none /sys/kernel/btf && touch /sys/kernel/btf/vmlinux &&
		mount --bind "$1/vmlinux" /sys/kernel/btf/vmlinux && exec "$2" capture rxe0 --duration 1' \
		sh "$BATS_TEST_TMPDIR/btf" "$RDMACTL"
	assert_success
	assert_output "0 RoCE v2 packets in 0.000 s, 0 dropped, 0 malformed, 0 other frames"
	assert_equal "$stderr" "rdmactl: warning: what rxe0 sends to itself is not seen: this kernel's rdma_rxe carries no BTF (CONFIG_DEBUG_INFO_BTF_MODULES, or a module built outside the kernel) and has no rxe_loopback function a kprobe can take
rdmactl: note: capturing on veth0 alone: traffic between QPs of rxe0 does not cross it"
}

# bats test_tags=kernels
@test "capture: one device's failing programs from their start: each NAK by name; check names the stall's capture" {
	T=$BATS_TEST_TMPDIR
	"$RDMACTL" capture rxe0 >"$T/cap.out" 2>"$T/cap.err" 3>&- &
	cap=$!
	bg=("$cap")
	wait_capturing "$T/cap.err"
	start_qpfail rnr 3>&-
	rnr=$prog rnr_a=$qp_a rnr_b=$qp_b
	bg+=("$prog")
	start_qpfail bad-rkey 3>&-
	bad=$prog bad_a=$qp_a bad_b=$qp_b
	bg+=("$prog")
	# 5.10's rxe moves B to ERR with no NAK (as this capture shows below), so A
	# resends for ever: ended here, or check could not tell which of two resends.
	old_rxe=
	case $(uname -r) in 5.10.*) old_rxe=1 ;; esac
	if [ -n "$old_rxe" ]; then
		# check tells both ends: B's failure that no NAK told, A resending to it.
		run rdmactl check --pid "$bad" --only process-qps
		assert_failure 1
		assert_line "FAIL  process-qps      QP $bad_b (RC) of $bad (qpfail) on rxe0 is in ERR: a request its peer sent it failed here (a remote access error most likely: a wrong rkey, address, length or access flags), and no NAK told the peer (5.10's rxe sends none for a wrong rkey): the peer resends it for as long as its program runs (likely: its peer QP $bad_a of $bad (qpfail) is in RTS; this one still expects PSN 0 where the peer sends 1)"
		assert_line "      fix: hold the rkey, address and length the peer's program sends against this QP's MR and its access flags (IBV_ACCESS_REMOTE_WRITE, _READ); 'rdmactl capture rxe0 --qp $bad_a' shows the request RESENT and nothing back"
		assert_line --regexp "^FAIL  process-qps +QP $bad_a \(RC\) of $bad \(qpfail\) on rxe0 is in RTS and resending with no answer: its peer on this host is in ERR, where it takes in nothing "
		kill "$bad"
		wait "$bad" || true
	fi
	# B expects PSN 0, A sends from 0x1000: B NAKs the first SEND, then drops it unanswered.
	start_qpfail wrong-psn 3>&-
	psn=$prog psn_a=$qp_a psn_b=$qp_b
	bg+=("$prog")
	run rdmactl check --only qps
	assert_failure 1
	assert_line --regexp "^FAIL  qps +QP $psn_a \(RC\) of $psn \(qpfail\) on rxe0 is in RTS and resending with no answer: its peer on the same device expects a PSN it does not send: the PSNs its program gave the two QPs do not match \(or the peer was given another GID for it\) \(likely: rxe0 resent [1-9][0-9]* times meanwhile; its peer QP $psn_b of $psn \(qpfail\), in RTS, still expects PSN 0 where it sends 4097; rxe0 counts [1-9][0-9]* out-of-sequence requests?\)$"
	assert_line "      fix: give each QP's RTR the sq_psn its peer's RTS has; 'rdmactl capture rxe0 --qp $psn_a' shows its requests RESENT and nothing back; started before the program, the one NAK (PSN sequence error) at the first of them"
	# The capture it names, started now: the SEND again and again, nothing back.
	run --separate-stderr "$RDMACTL" capture rxe0 --qp "$psn_a" --duration 2
	assert_success
	assert_line --regexp " RC SEND_ONLY qp $psn_b psn 4096 len 64 RESENT after [0-9.]+ ms$"
	assert_line --regexp "^qp $psn_b .*: [0-9]+ packets, [0-9]+ bytes, [0-9]+ resent, no NAK, longest wait "
	refute_line --regexp " RC ACKNOWLEDGE qp $psn_a "
	# The capture started before them all: each failure's NAK by name.
	kill -INT "$cap"
	wait "$cap" || fail "capture: $(cat "$T/cap.err")"
	bg=("$rnr" "$bad" "$psn")
	run -0 cat "$T/cap.out"
	assert_line --regexp " RC ACKNOWLEDGE qp $rnr_a from qp $rnr_b psn 0 len 0 RNR NAK msn 0 timer [0-9]+ us$"
	assert_line --regexp " RC RDMA_WRITE_ONLY qp $bad_b psn 0 len 64 rkey 0x[0-9a-f]+ dma_len 64$"
	if [ -n "$old_rxe" ]; then
		# The WRITE with the wrong key again and again, nothing back: B went to ERR unsaid.
		refute_line --regexp " RC ACKNOWLEDGE qp $bad_a "
		assert_line --regexp " RC RDMA_WRITE_ONLY qp $bad_b psn 0 len 64 rkey 0x[0-9a-f]+ dma_len 64 RESENT after [0-9.]+ ms$"
		assert_line --regexp "^qp $bad_b .*: [0-9]+ packets, [0-9]+ bytes, [1-9][0-9]* resent, no NAK, longest wait "
	else
		assert_line --regexp " RC ACKNOWLEDGE qp $bad_a from qp $bad_b psn 0 len 0 NAK remote access error msn 0$"
	fi
	assert_line --regexp " RC SEND_ONLY qp $psn_b psn 4096 len 64$"
	assert_line --regexp " RC ACKNOWLEDGE qp $psn_a from qp $psn_b psn 0 len 0 NAK PSN sequence error msn [0-9]+$"
	assert_equal "$(grep -c 'NAK PSN sequence error msn' <<<"$output")" 1
	assert_line --regexp "^[0-9]+ RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$"
}

# bats test_tags=kernels
@test "capture: a peer on the same device told another GID: check names it, its capture shows nothing back" {
	# B connected over GID 0, A over the recommended one (two ends given different -g):
	# B drops every packet A sends from an address it was not given.
	start_qpfail wrong-gid 3>&-
	bg=("$prog")
	run rdmactl check --only qps
	assert_failure 1
	assert_line --regexp "^FAIL  qps +QP $qp_a \(RC\) of $prog \(qpfail\) on rxe0 is in RTS and resending with no answer: its peer on the same device was given another GID for it than the one it sends from, and drops its packets \(likely: rxe0 resent [1-9][0-9]* times meanwhile; its peer QP $qp_b of $prog \(qpfail\), in RTS, still expects PSN 0 where it sends 1; rxe0 counts no out-of-sequence request, which PSNs that do not match make\)$"
	assert_line "      fix: give each QP its peer's GID at the index the peer sends from (one GID index for both ends); 'rdmactl capture rxe0 --qp $qp_a' shows its requests RESENT and nothing back, no NAK at all"
	run --separate-stderr "$RDMACTL" capture rxe0 --qp "$qp_a" --duration 2
	assert_success
	assert_line --regexp " RC SEND_ONLY qp $qp_b psn 0 len 64 RESENT after [0-9.]+ ms$"
	assert_line --regexp "^qp $qp_b .*: [0-9]+ packets, [0-9]+ bytes, [0-9]+ resent, no NAK, longest wait "
}
