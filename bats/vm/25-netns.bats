#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# -n NETNS: rdmactl working in another network namespace as 'ip -n' does, with
# 'ip netns exec' as the oracle. A namespace 'rdmactl-a' holds va (10.77.0.1),
# joined by a veth pair to vb (10.77.0.2) in the initial one.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	"$BATS_TEST_DIRNAME/../../rdmactl" start >/dev/null
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	rdma_links_clear
	netns_veth rdmactl-a va 10.77.0.1 vb 10.77.0.2
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	pkill -f 'sleep 4242' 2>/dev/null || true
	[ -z "${bg-}" ] || kill "${bg[@]}" 2>/dev/null || true
	# A failed test's programs, which would hold bats's output open.
	pkill -x ibv_rc_pingpong 2>/dev/null || true
	pkill -f 'rdmactl -j monitor' 2>/dev/null || true
	rdma_links_clear
	ip netns del rdmactl-a 2>/dev/null || true
	ip netns del rdmactl-b 2>/dev/null || true
	ip link del vb 2>/dev/null || true
	# The kernel's default mode back, now that no namespace is left.
	[ "$(rdma system show | awk '{ print $2 }')" = shared ] || rdma system set netns shared
}

# Whether rxe's UDP 4791 socket (12B7) is in NETNS's own table: the kernel's
# answer to "does rxe carry traffic there" (7.1 on), which tests branch on.
rxe_socket_in() {
	ip netns exec "$1" awk 'NR > 1 && $2 ~ /:12B7$/ { f = 1 } END { exit !f }' /proc/net/udp
}

# The check's results for ID as "RESULT DETAIL | FIX" lines.
check_lines() {
	jq -r --arg id "$1" '.[] | select(.id == $id) | "\(.result) \(.detail) | \(.fix // "")"'
}

# vb moved into a second namespace: two namespaces, neither the initial one.
second_namespace() {
	ip netns add rdmactl-b
	ip link set vb netns rdmactl-b
	ip -n rdmactl-b addr add 10.77.0.2/24 dev vb
	ip -n rdmactl-b link set lo up
	ip -n rdmactl-b link set vb up
}

# rdmactl run inside the namespace by the oracle: what -n must match.
in_ns() {
	ip netns exec rdmactl-a "$RDMACTL" "$@"
}

# bats test_tags=kernels
@test "netns: -n NAME adds, lists, shows and deletes as 'ip netns exec' sees it" {
	run --separate-stderr rdmactl -n rdmactl-a add rxa va
	assert_success
	assert_output 'rxa/1 state ACTIVE physical_state LINK_UP netdev va netdev_mtu 1500 active_mtu 1024'
	# The netdev is not in the initial namespace: -n was needed.
	run --separate-stderr rdmactl add rxb va
	assert_failure 1
	[[ $stderr == *'there is no network device named va'* ]] || fail "$stderr"
	for cmd in link netdevs status gids show; do
		assert_equal "$(rdmactl -n rdmactl-a -j $cmd)" "$(in_ns -j $cmd)"
	done
	run rdmactl -n rdmactl-a -j status
	assert_equal "$(jq -r '.[] | select(.netdev == "va") | "\(.ipv4) \(.ifname)"' <<<"$output")" '10.77.0.1 rxa'
	run rdmactl -n rdmactl-a -j gids
	assert_equal "$(jq -r '.[] | select(.ifname == "rxa" and .index == 1) | .gid' <<<"$output")" '0000:0000:0000:0000:0000:ffff:0a4d:0001'
	run --separate-stderr rdmactl -n rdmactl-a del rxa
	assert_success
	run rdma_links
	assert_output ''
}

# bats test_tags=kernels
@test "netns: -n PID works in that process's namespace, as for a container" {
	ip netns exec rdmactl-a sleep 4242 &
	pid=$!
	for _ in $(seq 50); do
		[ "$(readlink "/proc/$pid/ns/net")" != "$(readlink /proc/self/ns/net)" ] && break
		sleep 0.1
	done
	run --separate-stderr rdmactl -n "$pid" add rxa va
	assert_success
	assert_equal "$(rdmactl -n "$pid" -j link)" "$(in_ns -j link)"
	run rdmactl -n "$pid" -j netdevs
	assert_equal "$(jq -r '.[] | "\(.ifname) \(.netdev)"' <<<"$output")" 'rxa va'
}

@test "netns: check --pid holds a process's interface variables to its own namespace's netdevs" {
	# va is rdmactl-a's alone, vb the initial namespace's: NCCL takes the first there.
	ip netns exec rdmactl-a env NCCL_SOCKET_IFNAME==va sleep 4243 &
	good=$!
	ip netns exec rdmactl-a env NCCL_SOCKET_IFNAME==vb sleep 4244 &
	bad=$!
	for pid in "$good" "$bad"; do
		for _ in $(seq 50); do
			[ "$(readlink "/proc/$pid/ns/net")" != "$(readlink /proc/self/ns/net)" ] && break
			sleep 0.1
		done
	done
	run rdmactl -j check --pid "$good" --only process-env
	assert_equal "$(jq -r '[.[] | select(.detail | contains("NCCL_SOCKET_IFNAME")) | .result] | join(",")' <<<"$output")" ""
	run rdmactl -j check --pid "$bad" --only process-env
	assert_equal "$(jq -r '[.[] | select(.detail | contains("NCCL_SOCKET_IFNAME")) | .result] | join(",")' <<<"$output")" fail
	kill "$good" "$bad"
}

@test "netns: bash completes -n with the namespaces 'ip netns list' gives" {
	rdmactl help --format bash >"$BATS_TEST_TMPDIR/c.bash"
	# shellcheck source=/dev/null
	source "$BATS_TEST_TMPDIR/c.bash"
	COMP_WORDS=(rdmactl -n rdmactl-)
	COMP_CWORD=2
	COMPREPLY=()
	_rdmactl
	assert_equal "${COMPREPLY[*]}" 'rdmactl-a'
}

@test "netns: a namespace that is not there, or no namespace at all, is said as such; nothing is done" {
	run --separate-stderr rdmactl -n nosuch add rxa va
	assert_failure 2
	assert_equal "$stderr" "rdmactl: -n nosuch: no network namespace has that name ('ip netns list' lists them) (/run/netns/nosuch does not exist)"
	# A file that is no namespace: setns refuses it.
	touch /run/netns/notans
	run --separate-stderr rdmactl -n notans link
	rm -f /run/netns/notans
	assert_failure 2
	[[ $stderr == 'rdmactl: -n notans: cannot enter the namespace (is it a network namespace?) (EINVAL: '* ]] || fail "$stderr"
	run rdma_links
	assert_output ''
}

# bats test_tags=kernels
@test "netns: selftest -n: passes where rxe has its socket in the namespace (7.1 on), fails within --timeout where not" {
	run -0 rdmactl -n rdmactl-a add rxa va
	# rxe's UDP 4791 socket (12B7) in the namespace's own table: the kernel's answer.
	if ip netns exec rdmactl-a awk 'NR > 1 && $2 ~ /:12B7$/ { f = 1 } END { exit !f }' /proc/net/udp; then
		run rdmactl -n rdmactl-a selftest --timeout 5 rxa
		assert_success
		assert_line 'rxa: selftest passed'
	else
		start=$SECONDS
		run rdmactl -n rdmactl-a selftest --timeout 5 rxa
		assert_failure 1
		assert_line 'rxa: selftest FAILED'
		[ $((SECONDS - start)) -lt 30 ] || fail "took $((SECONDS - start)) s"
		# The cause named, not the firewall.
		assert_output --partial 'hint: rxe carries no traffic from this network namespace on this kernel'
		refute_output --partial firewall
	fi
}

# bats test_tags=kernels
@test "netns: check in a namespace: the trap explained where rxe has no socket there, netns passed where it has" {
	run -0 rdmactl -n rdmactl-a add rxa va
	run -0 rdmactl add rxb vb
	run rdmactl -n rdmactl-a -j check --only netns,link,gid-index
	checks=$output
	run check_lines netns <<<"$checks"
	if rxe_socket_in rdmactl-a; then
		assert_output "pass a network namespace; RDMA namespace mode shared; rdma_rxe's UDP 4791 socket is here; shown from other namespaces (shared mode), their names taken here too: rxb | "
	else
		assert_output --regexp '^fail rxe carries no traffic from this namespace on this kernel: .* rxa connects, then no packet moves \| run in the initial network namespace \(no -n.*--network host \(Docker, Podman\) or hostNetwork: true \(Kubernetes\); or boot Linux 7.1 or later'
		# -n is 'ip netns exec': the same verdict.
		assert_equal "$(ip netns exec rdmactl-a "$RDMACTL" -j check --only netns | check_lines netns)" "$output"
	fi
	# The initial namespace's rxb, shown here by the shared mode, is not blamed.
	run check_lines link <<<"$checks"
	assert_output 'pass rxa port 1 on va is ACTIVE | '
	run check_lines gid-index <<<"$checks"
	refute_output --partial rxb
	# From the initial namespace, rxa is the other namespace's.
	run -1 rdmactl -j check --only netns,link --dev rxa
	run check_lines netns <<<"$output"
	assert_output "fail rxa is on a netdev of another network namespace: the RDMA subsystem shows it here (shared mode), but programs here reach no peer through it | rdmactl -n NETNS check --dev rxa (in the namespace whose netdev it is: 'ip netns list'; a container's PID)"
}

# bats test_tags=kernels
@test "netns: between two namespaces over a veth pair: every transport, and the stock examples, where rxe has a socket in each" {
	second_namespace
	run -0 rdmactl -n rdmactl-a add rxa va
	run -0 rdmactl -n rdmactl-b add rxb vb
	rxe_socket_in rdmactl-a || skip "rdma_rxe of $(uname -r) has no socket in a namespace (before 7.1): the trap tests cover it"
	rdmactl -n rdmactl-a -j selftest server --once --port 18760 rxa >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	srv=$!
	ip netns exec rdmactl-a bash -c "source '$BATS_TEST_DIRNAME/../listen.bash'; wait_listen 18760"
	run rdmactl -n rdmactl-b -j selftest client 10.77.0.1 rxb --port 18760 --transport all
	wait "$srv" || fail "server: $(cat "$BATS_TEST_TMPDIR/srv")"
	assert_success
	assert_equal "$(jq -c '[.[0].passed, [.[0].matrix[] | select(.result == "fail")]]' <<<"$output")" '[true,[]]'
	# Each transport rxe has, proven: rc, uc, ud, srq (and xrc, mw where it has them).
	run jq -r '[.[0].matrix[] | select(.result == "pass") | .transport] | unique | join(" ")' <<<"$output"
	assert_output --regexp '(^| )rc .*srq.* uc ud'
	# The stock examples across the namespaces: rdmactl's client against
	# ibv_rc_pingpong, and rping both ends stock.
	ip netns exec rdmactl-a timeout 60 ibv_rc_pingpong -d rxa -g 1 -p 18761 >"$BATS_TEST_TMPDIR/pp" 2>&1 &
	pp=$!
	sleep 1
	run rdmactl -n rdmactl-b selftest client 10.77.0.1 rxb --pingpong --port 18761
	assert_success
	wait "$pp" || fail "ibv_rc_pingpong: $(cat "$BATS_TEST_TMPDIR/pp")"
	ip netns exec rdmactl-a timeout 60 rping -s -a 10.77.0.1 -C 5 -v >"$BATS_TEST_TMPDIR/rs" 2>&1 &
	rs=$!
	sleep 1
	run ip netns exec rdmactl-b timeout 60 rping -c -a 10.77.0.1 -C 5 -v
	assert_success
	wait "$rs" || fail "rping server: $(cat "$BATS_TEST_TMPDIR/rs")"
}

# bats test_tags=kernels
@test "netns: capture in a namespace: ibv_rc_pingpong -n 50 to another, the packets rxe sent, the bytes tcpdump saw there" {
	second_namespace
	run -0 rdmactl -n rdmactl-a add rxa va
	run -0 rdmactl -n rdmactl-b add rxb vb
	rxe_socket_in rdmactl-a || skip "rdma_rxe of $(uname -r) has no socket in a namespace (before 7.1): no RoCE crosses va"
	T=$BATS_TEST_TMPDIR
	# In the shared mode both devices are the initial namespace's, and their sysfs with them.
	sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
	s0=$(sent rxa) s1=$(sent rxb)
	capture_both rc.pcap rxa va rdmactl-a
	ip netns exec rdmactl-a timeout 60 ibv_rc_pingpong -d rxa -g 1 -p 18762 -n 50 >"$T/srv" 2>&1 3>&- &
	srv=$!
	ip netns exec rdmactl-a bash -c "source '$BATS_TEST_DIRNAME/../listen.bash'; wait_listen 18762"
	run ip netns exec rdmactl-b timeout 60 ibv_rc_pingpong -d rxb -g 1 -p 18762 -n 50 10.77.0.1
	assert_success
	wait "$srv" || fail "server: $(cat "$T/srv")"
	end_both
	n=$(($(sent rxa) - s0 + $(sent rxb) - s1))
	[ "$n" -ge 100 ] || fail "rxe sent $n packets for 50 round trips"
	run -0 cat "$T/cap.err"
	assert_line "rdmactl: note: capturing on va, and what rxa sends to itself (eBPF at rxe_rcv)"
	run -0 cat "$T/cap.out"
	assert_line --regexp "^$n RoCE v2 packets in [0-9.]+ s, 0 dropped, 0 malformed, 0 other frames$"
	# One conversation each way.
	assert_line --regexp "^qp [0-9]+ at 10\.77\.0\.1 from 10\.77\.0\.2 qp [0-9]+ port [0-9]+: [0-9]+ packets, [0-9]+ bytes, "
	assert_line --regexp "^qp [0-9]+ at 10\.77\.0\.2 from 10\.77\.0\.1 qp [0-9]+ port [0-9]+: [0-9]+ packets, [0-9]+ bytes, "
	same_as_tcpdump rc.pcap
}

# bats test_tags=kernels
@test "system: the namespace mode and copy-on-fork, as 'rdma system show' says them" {
	# rdma prints no JSON for this (iproute2 6.1): its words are the oracle,
	# KEY VALUE pairs in an order that varies (trixie's adds privileged-qkey).
	run -0 rdma system show
	mode=$(word_after netns "$output")
	cof=$(word_after copy-on-fork "$output")
	[ -n "$mode" ] && [ -n "$cof" ] || fail "rdma system show: $output"
	run -0 rdmactl system
	assert_output "netns $mode copy-on-fork $cof"
	run -0 rdmactl -j system
	assert_json_contract --exact system <<<"$output"
	assert_equal "$(jq -c '[.netns, .copy_on_fork]' <<<"$output")" "[\"$mode\",$([ "$cof" = on ] && echo true || echo false)]"
}

# The word after KEY in TEXT.
word_after() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$2"
}

# bats test_tags=kernels
@test "system set: refused while a namespace exists (EBUSY explained); --persist is modprobe's option; exclusive mode moves a link into its namespace" {
	export RDMACTL_MODPROBE_D=$BATS_TEST_TMPDIR/modprobe.d
	mkdir "$RDMACTL_MODPROBE_D"
	run --separate-stderr rdmactl system set netns exclusive
	assert_failure 1
	[[ $stderr == *"can be changed only while no network namespace but the initial one exists (1 named ones"*"(EBUSY: "* ]] || fail "$stderr"
	assert_equal "$(rdma system show | awk '{ print $2 }')" shared
	# A file longer than rdmactl writes is not its own: refused, left as it was.
	conf=$RDMACTL_MODPROBE_D/rdmactl-netns.conf
	head -c 5000 /dev/zero | tr '\0' '#' >"$conf"
	sum=$(md5sum <"$conf")
	run --separate-stderr rdmactl system set netns exclusive --persist
	assert_failure 1
	[[ $stderr == *"$conf is longer than rdmactl writes it: it is not rdmactl's, and is left as it is"*'(EFBIG: '* ]] || fail "$stderr"
	assert_equal "$(md5sum <"$conf")" "$sum"
	rm "$conf"
	# --persist: from the next boot, as modprobe reads it; now unchanged.
	run --separate-stderr rdmactl system set netns exclusive --persist
	assert_success
	assert_output --regexp '^netns shared copy-on-fork (on|off) \(netns exclusive from the next boot\)$'
	[[ $stderr == *"exclusive from the next boot ($RDMACTL_MODPROBE_D/rdmactl-netns.conf)"* ]] || fail "$stderr"
	run -0 rdmactl -j system
	assert_equal "$(jq -r '"\(.netns) \(.netns_boot)"' <<<"$output")" "shared exclusive"
	[ -f "$RDMACTL_MODPROBE_D/rdmactl-netns.conf" ] && [ ! -L "$RDMACTL_MODPROBE_D/rdmactl-netns.conf" ]
	run -0 modprobe -c -C "$RDMACTL_MODPROBE_D"
	assert_line 'options ib_core netns_mode=0'
	run -0 --separate-stderr rdmactl system set netns shared --persist
	assert_output --regexp '^netns shared copy-on-fork (on|off)$'
	[ ! -e "$RDMACTL_MODPROBE_D/rdmactl-netns.conf" ] || fail "the file is left"
	# In shared mode a device does not move: every namespace sees it already.
	run -0 rdmactl add rxb vb
	run --separate-stderr rdmactl link move rxb rdmactl-nosuch
	assert_failure 2	# a word that names nothing, as with -n
	[[ $stderr == "rdmactl: link move: there is no network namespace rdmactl-nosuch: /run/netns/rdmactl-nosuch does not exist"* ]] || fail "$stderr"
	run --separate-stderr rdmactl link move rxb rdmactl-a
	assert_failure 1
	[[ $stderr == *'moves between network namespaces only in the exclusive namespace mode'* ]] || fail "$stderr"
	run -0 rdmactl del rxb
	# No namespace left: exclusive now. A link made inside a namespace is then
	# the initial one's until moved there.
	ip netns del rdmactl-a
	run -0 rdmactl -j system set netns exclusive
	assert_equal "$(jq -r .netns <<<"$output")" exclusive
	assert_equal "$(rdma system show | awk '{ print $2 }')" exclusive
	ip netns add rdmactl-a
	ip link add va type veth peer name vb2
	ip link set va netns rdmactl-a
	ip -n rdmactl-a link set va up
	ip netns exec rdmactl-a rdma link add rxa type rxe netdev va
	run ip netns exec rdmactl-a rdma dev
	refute_output --partial rxa
	# check in the namespace says where the link went, and the command that moves it.
	run rdmactl -n rdmactl-a -j check --only netns
	assert_failure 1
	run check_lines netns <<<"$output"
	assert_output 'fail no RDMA device is in this network namespace, and the RDMA subsystem is in exclusive mode: a link made here is created in the initial namespace and must be moved here | from the initial namespace: rdmactl link move DEV NETNS'
	run --separate-stderr rdmactl -j link move rxa rdmactl-a
	if [ "$status" = 0 ]; then
		assert_json_contract --exact 'link move' <<<"$output"
		run ip netns exec rdmactl-a rdma dev
		assert_output --partial rxa
		run rdma dev
		refute_output --partial rxa
		ip netns exec rdmactl-a rdma link del rxa
		echo "# link move: rxa moved into rdmactl-a on $(uname -r)" >&3
	else
		# The driver cannot be moved on this kernel: rdma's own move agrees.
		[[ $stderr == *'rxa cannot be moved: the kernel moves only a device whose driver can detach'*'(EOPNOTSUPP: '* ]] || fail "$stderr"
		run rdma dev set rxa netns rdmactl-a
		assert_failure
		rdma link del rxa
		echo "# link move: rdma_rxe of $(uname -r) cannot be moved, as rdma dev set agrees" >&3
	fi
	ip netns del rdmactl-a
	ip link del vb2 2>/dev/null || true
	run -0 rdmactl system set netns shared
	assert_output --regexp '^netns shared '
}

# bats test_tags=kernels
@test "netns: -n NS up passes where rxe has its socket in the namespace; stops at check with the trap where not" {
	run --separate-stderr rdmactl -n rdmactl-a up va
	if rxe_socket_in rdmactl-a; then
		assert_success
		assert_line 'up: va: rxe0 is up and proven: modules loaded, link ACTIVE, every check passed, selftest passed'
	else
		assert_failure 1
		assert_line --regexp '^FAIL  netns +rxe carries no traffic from this namespace on this kernel'
		assert_line 'up: va: rxe0: stopped at check: see above'
		refute_output --partial 'selftest passed'
	fi
}

# The QP of PID that 'rdma res show qp' lists (the first), or nothing.
qp_of() {
	rdma -j res show qp | jq -r --argjson p "$1" 'first(.[] | select(.pid == $p) | .lqpn) // empty'
}

# bats test_tags=kernels
@test "netns: a stock program's pair across namespaces, cut by a firewall, then its peer killed: check, qp and monitor name it" {
	second_namespace
	run -0 rdmactl -n rdmactl-a add rxa va
	run -0 rdmactl -n rdmactl-b add rxb vb
	rxe_socket_in rdmactl-a || skip "rdma_rxe of $(uname -r) has no socket in a namespace (before 7.1): the trap tests cover it"
	local mon=$BATS_TEST_TMPDIR/mon srv cli qs qc rc who n
	"$RDMACTL" -j monitor >"$mon" 2>"$mon.err" &
	monpid=$!
	# ibv_rc_pingpong's retry_cnt of 7: rxe resends without end, as it does for any program so made.
	ip netns exec rdmactl-a ibv_rc_pingpong -d rxa -g 1 -p 18764 -n 100000000 >"$BATS_TEST_TMPDIR/ps" 2>&1 &
	srv=$!
	ip netns exec rdmactl-a bash -c "source '$BATS_TEST_DIRNAME/../listen.bash'; wait_listen 18764"
	ip netns exec rdmactl-b ibv_rc_pingpong -d rxb -g 1 -p 18764 -n 100000000 10.77.0.1 >"$BATS_TEST_TMPDIR/pc" 2>&1 &
	cli=$!
	for _ in $(seq 50); do
		qs=$(qp_of "$srv") qc=$(qp_of "$cli")
		[ -n "$qs" ] && [ -n "$qc" ] && break
		sleep 0.1
	done
	[ -n "$qs" ] && [ -n "$qc" ] || fail "no QPs: $(rdma res show qp)"
	# Running, both ends healthy: nothing said of them.
	run rdmactl check --only qps
	assert_success
	# UDP 4791 dropped in rdmactl-a: each end waits for the other, one of them resending.
	ip netns exec rdmactl-a nft add table inet rdmactl_cut
	ip netns exec rdmactl-a nft add chain inet rdmactl_cut in '{ type filter hook input priority 0; policy accept; }'
	ip netns exec rdmactl-a nft add rule inet rdmactl_cut in udp dport 4791 drop
	sleep 1
	run rdmactl check --only qps
	assert_failure 1
	assert_line --regexp "^FAIL  qps +QP ($qs|$qc) \(RC\) of ($srv|$cli) \(ibv_rc_pingpong\) on rx[ab] is in RTS and resending with no answer: its packets do not reach its peer on this host: a firewall dropping UDP 4791 between network namespaces, or the peer in another namespace before Linux 7\.1 \(likely: "
	assert_line --regexp "^      fix: 'rdmactl check --only firewall,netns' in both namespaces; 'rdmactl capture rx[ab] --qp ($qs|$qc)' \(in its network namespace\) shows its requests RESENT and what comes back: "
	# check --pid of the program whose QP it was says the same of it.
	who=$(sed -n 's/^FAIL  qps .* of \([0-9]*\) (ibv_rc_pingpong) .*/\1/p' <<<"$output" | head -n 1)
	# The capture it names, in that end's namespace: its requests sent again.
	cmd=$(sed -n "s/^      fix: .*; 'rdmactl capture \(rx[ab]\) --qp \([0-9]*\)' .*/\1 \2/p" <<<"$output" | head -n 1)
	read -r dev q <<<"$cmd"
	ns=rdmactl-a
	[ "$dev" = rxa ] || ns=rdmactl-b
	# Two seconds: rxe resends every 67 ms (ibv_rc_pingpong's timeout 14),
	# and a few packets may all be of one round, none yet marked RESENT.
	run ip netns exec "$ns" "$RDMACTL" capture "$dev" --qp "$q" --duration 2
	assert_success
	assert_line --regexp " RC [A-Z_]+ qp [0-9]+ .*RESENT"
	run rdmactl check --pid "$who" --only process-qps
	assert_failure 1
	assert_line --regexp "^FAIL  process-qps +QP ($qs|$qc) \(RC\) of $who \(ibv_rc_pingpong\) on rx[ab] is in RTS and resending with no answer: its packets do not reach its peer on this host: a firewall dropping UDP 4791 between network namespaces"
	run rdmactl -j qp
	assert_equal "$(jq -r --argjson q "$qc" '.[] | select(.qpn == $q and .ifname == "rxb") | "\(.state) \(.owner.comm) \(.peer.qpn) \(.peer.state)"' <<<"$output")" \
		"RTS ibv_rc_pingpong $qs RTS"
	# Its second look tells an end that resends (each is alone on its device).
	n=$(jq -r '[.[] | select(.owner.comm == "ibv_rc_pingpong" and .verdict == "resending")] | length' <<<"$output")
	[ "$n" -ge 1 ] || fail "no QP said to be resending: $output"
	for _ in $(seq 80); do grep -q '"event":"qp-resending"' "$mon" && break; sleep 0.1; done
	# The peer killed, the firewall gone: the client resends to a QP that is no more.
	kill "$srv"; wait "$srv" || true
	ip netns exec rdmactl-a nft delete table inet rdmactl_cut
	sleep 1
	run rdmactl check --only qps
	kill "$cli"; wait "$cli" || true
	kill -INT "$monpid"
	rc=0
	wait "$monpid" || rc=$?
	assert_failure 1
	assert_line --regexp "^FAIL  qps +QP $qc \(RC\) of $cli \(ibv_rc_pingpong\) on rxb is in RTS and resending with no answer: its peer QP is gone \(destroyed, or its process ended\) or does not answer: .* its peer QP $qs is on no device of this host\)$"
	assert_equal "$rc" 0
	assert_json_contract monitor <"$mon"
	run jq -r 'select(.event == "qp-resending") | "\(.ifname) \(.qpn) \(.owner.comm)"' "$mon"
	assert_line --regexp "^rx[ab] ($qs|$qc) ibv_rc_pingpong$"
}
