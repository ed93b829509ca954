#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl check against broken states made for real: the verdict, the message
# and the fix; then the fix applied and the check passing.

load rxe0

# The check's line for ID: "VERDICT message" (the first, when there are several).
verdict() {
	rdmactl -j check --only "$@" | jq -r 'first(.[]) | "\(.result) \(.detail)"'
}
# The fix of the first failure, else of the first warning.
fix_of() {
	rdmactl -j check --only "$@" |
		jq -r 'first((.[] | select(.result == "fail" and .fix)), (.[] | select(.fix))) | .fix'
}

# bats test_tags=kernels
@test "check: the fresh bed passes every check (firewall has nothing to drop)" {
	run rdmactl check
	assert_success
	refute_line --regexp '^(FAIL|WARN) '
	# The bed runs no monitor --journal: the past is not known, said as a skip.
	assert_line --regexp '^SKIP  journal +(no rdmactl monitor --journal has written|the systemd journal cannot be read)'
	assert_line --regexp '^check: 1[45] pass, 0 warn, 0 fail, [12] skip$'
}

# bats test_tags=kernels
@test "check: a crc32 algorithm is asked for only where rdma_rxe allocates one (up to 6.14), as its imports say" {
	rdma_links_clear
	for m in crc32_pclmul crc32_generic; do rmmod "$m" 2>/dev/null || true; done
	! grep -qx 'name *: crc32' /proc/crypto || skip "a crc32 algorithm stays registered (built in, or held)"
	# kmod's own reading of the module, as the oracle: 6.14 and older allocate one.
	if modprobe --dump-modversions "$(modinfo -n rdma_rxe)" | grep -qw crypto_alloc_shash; then
		run rdmactl check --only modules
		assert_failure 1
		assert_line --regexp '^FAIL  modules +no crc32 algorithm is registered: rdma_rxe cannot compute the ICRC$'
		assert_line '      fix: modprobe crc32_generic'
		modprobe crc32_generic
	fi
	run rdmactl check --only modules
	assert_success
	assert_line --regexp '^PASS  modules '
}

# bats test_tags=kernels
@test "check: -g 0 on the bed's layout is a GID index mismatch naming index 1" {
	run rdmactl check --gid-index 0
	assert_failure 1
	assert_line --regexp "^FAIL  gid-index +GID index mismatch on rxe0: -g 0 is fe80::[0-9a-f:]+, the link-local IPv6 GID.*use -g 1 \\($RXE_VM_ADDR on $N\\)$"
	assert_line '      fix: -g 1   (perftest: -x 1)'
	run rdmactl check --gid-index 0 --peer "$RXE_VM_ADDR" --only gid-index
	assert_failure 1
	assert_output --partial "but the peer $RXE_VM_ADDR is IPv4"
	run rdmactl check --gid-index 1 --peer "$RXE_VM_ADDR" --only gid-index
	assert_success
	assert_line --regexp "^PASS  gid-index +rxe0: -g 1 is $RXE_VM_ADDR \\(RoCE v2 on $N\\), right for $RXE_VM_ADDR$"
	run rdmactl check --gid-index 900 --only gid-index
	assert_failure 1
	assert_output --partial 'slot 900 of rxe0 is empty'
}

@test "check: the index it names works: ibv_rc_pingpong with -g 1 passes" {
	want=$(rdmactl -j check --gid-index 0 --only gid-index | jq -r '.[0].fix' | awk '{ print $2 }')
	assert_equal "$want" 1
	timeout 60 ibv_rc_pingpong -d rxe0 -g "$want" -n 50 -p 18600 >/dev/null 2>&1 &
	server=$!
	for _ in $(seq 50); do ss -Htln 'sport = :18600' | grep -q . && break; sleep 0.1; done
	run timeout 60 ibv_rc_pingpong -d rxe0 -g "$want" -n 50 -p 18600 "$RXE_VM_ADDR"
	assert_success
	wait "$server"
}

@test "check: an address added and removed: gid-index and gid-consistency follow" {
	ip addr add 10.11.11.77/24 dev "$N"
	for _ in $(seq 50); do rdmactl -j gids | grep -q 10.11.11.77 && break; sleep 0.1; done
	run rdmactl check --only gid-index,gid-consistency
	assert_success
	assert_output --regexp "-g [0-9]+ for 10\\.11\\.11\\.77 on $N"
	ip addr del 10.11.11.77/24 dev "$N"
	for _ in $(seq 50); do rdmactl -j gids | grep -q 10.11.11.77 || break; sleep 0.1; done
	run rdmactl check --only gid-index,gid-consistency
	assert_success
	refute_output --partial 10.11.11.77
}

@test "check: modules not loaded warn with 'rdmactl start'; after it they pass" {
	rdma_links_clear
	modprobe -r rdma_rxe rdma_ucm ib_uverbs
	run rdmactl check --only modules
	assert_success	# warnings only
	assert_line --regexp '^WARN  modules +module ib_uverbs is installed but not loaded'
	assert_line --regexp '^WARN  modules +module rdma_rxe is installed but not loaded'
	run rdmactl check --strict --only modules
	assert_failure 1
	assert_equal "$(fix_of modules)" 'rdmactl start'
	rdmactl start >/dev/null
	run verdict modules
	assert_output --regexp '^pass ib_core, ib_uverbs, rdma_ucm and rdma_rxe are loaded'
}

@test "check: rdma_rxe loaded with insmod before its dependencies: Unknown symbol, then fixed" {
	rdma_links_clear
	modprobe -r rdma_rxe rdma_ucm ib_uverbs rdma_cm iw_cm ib_cm ib_core ip6_udp_tunnel udp_tunnel 2>/dev/null || true
	lsmod | grep -q '^ib_core ' && skip "ib_core is held by something: cannot unload it"
	run insmod "$(modinfo -F filename rdma_rxe)"
	assert_failure
	run rdmactl check --only modules
	assert_failure 1
	assert_line --regexp '^FAIL  modules +the kernel log says "rdma_rxe: Unknown symbol [a-z_0-9]+ \(err -2\)" \(and [0-9]+ more like it\): rdma_rxe was loaded \(insmod\) before the modules it needs; load them first, in this order: [a-z_0-9 ]+$'
	want='^modprobe rdma_rxe \(it loads them in order\); or modprobe -a [a-z_0-9 ]+ before insmod$'
	[[ $(fix_of modules) =~ $want ]] || fail "fix: $(fix_of modules)"
	modprobe rdma_rxe
	rdmactl start >/dev/null
	run verdict modules
	assert_output --regexp '^pass '
}

@test "check: --module-file vets a module before it is loaded" {
	# 6.12's modules are compressed (rdma_rxe.ko.xz), and its release has a '+'.
	f=$(modinfo -F filename rdma_rxe)
	run rdmactl check --only modules --module-file "$f"
	assert_success
	assert_line --index 0 "PASS  modules          $f was built for this kernel ($(uname -r))"
	printf 'not a module' >"$BATS_TEST_TMPDIR/bad.ko"
	run rdmactl check --only modules --module-file "$BATS_TEST_TMPDIR/bad.ko"
	assert_failure 1
	assert_output --partial 'is not a kernel module libkmod can read'
	# A FIFO in the module's place is named, never opened: no wait for a writer.
	mkfifo "$BATS_TEST_TMPDIR/fifo.ko"
	run timeout 1 "$RDMACTL" check --only modules --module-file "$BATS_TEST_TMPDIR/fifo.ko"
	assert_failure 1
	assert_line --index 0 "FAIL  modules          $BATS_TEST_TMPDIR/fifo.ko is a FIFO, not a kernel module file"
}

# bats test_tags=kernels
@test "check: the netdev down fails link with 'ip link set up'; the fix makes it pass" {
	ip link set "$N" down
	run rdmactl check --only link
	assert_failure 1
	assert_line --regexp "^FAIL  link +rxe0 port 1 is DOWN \\(DISABLED\\): $N is down, carrier off$"
	fix=$(fix_of link)
	assert_equal "$fix" "ip link set $N up"
	eval "$fix"
	for _ in $(seq 50); do verdict link | grep -q '^pass' && break; sleep 0.1; done
	run verdict link
	assert_output "pass rxe0 port 1 on $N is ACTIVE"
}

@test "check: an rxe link on lo fails link; deleting it makes it pass" {
	rdmactl add --force rxe1 lo >/dev/null
	run rdmactl check --only link
	assert_failure 1
	assert_line --regexp '^FAIL  link +rxe1 runs on lo, the loopback device: its port carries no RoCE traffic'
	rdmactl del rxe1
	run rdmactl check --only link
	assert_success
}

@test "check: two rxe netdevs in one subnet fail subnet, and RC over their IPv4 GIDs fails at RTR" {
	ip addr add 10.11.11.1/24 dev veth1
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl check --only subnet
	assert_failure 1
	assert_line --regexp '^FAIL  subnet +rxe[01] \(10\.11\.11\.[0-9]+ on veth[01]\) and rxe[01] \(10\.11\.11\.[0-9]+ on veth[01]\) are in one IPv4 subnet in one namespace: RC over their IPv4 GIDs fails at RTR'
	# The failure it predicts, for real.
	timeout 30 ibv_rc_pingpong -d rxe0 -g 1 -n 10 -p 18601 >"$BATS_TEST_TMPDIR/srv" 2>&1 &
	server=$!
	for _ in $(seq 50); do ss -Htln 'sport = :18601' | grep -q . && break; sleep 0.1; done
	run timeout 30 ibv_rc_pingpong -d rxe1 -g 1 -n 10 -p 18601 "$RXE_VM_ADDR"
	assert_failure
	wait "$server" || true
	run cat "$BATS_TEST_TMPDIR/srv"
	assert_line 'Failed to modify QP to RTR'
	# The fix: another subnet.
	ip addr flush dev veth1
	ip addr add 10.11.14.1/24 dev veth1
	run rdmactl check --only subnet
	assert_success
}

@test "check: --peer routed by a netdev without rxe fails subnet" {
	ip link add dummy9 type dummy
	ip addr add 10.11.99.1/24 dev dummy9
	ip link set dummy9 up
	run rdmactl check --only subnet --peer 10.11.99.2
	assert_failure 1
	assert_line --regexp '^FAIL  subnet +the route to 10\.11\.99\.2 leaves by dummy9, which carries no rxe device'
	assert_equal "$(fix_of subnet --peer 10.11.99.2)" 'rdmactl add dummy9'
	run rdmactl check --only subnet --peer "$RXE_VM_ADDR"
	assert_success
}

@test "check: strict rp_filter warns with the sysctl to fix it" {
	sysctl -qw "net.ipv4.conf.$N.rp_filter=1"
	run rdmactl check --only subnet
	assert_success
	assert_line --regexp "^WARN  subnet +strict rp_filter on $N"
	fix=$(fix_of subnet)
	eval "$fix"
	run verdict subnet
	assert_output --regexp '^pass '
	sysctl -qw "net.ipv4.conf.$N.rp_filter=0" net.ipv4.conf.all.rp_filter=0
}

@test "check: an MTU change: mtu says what the new MTU gives, as ibv_devinfo shows" {
	for m in 9000 2200 1100; do
		ip link set "$N" mtu "$m"
		want=$(ibv_devinfo -d rxe0 | awk '/active_mtu/ { print $2 }')
		run verdict mtu
		assert_output --regexp "^pass rxe0: $N's MTU $m gives RoCE MTU $want, as active"
	done
	ip link set "$N" mtu 1500
}

@test "check: an nftables rule dropping UDP 4791 fails firewall; its fix clears it" {
	nft_test_table
	nft add chain inet rdmactltest in '{ type filter hook input priority 0; policy accept; }'
	nft add rule inet rdmactltest in udp dport 4791 drop
	run rdmactl check --only firewall
	assert_failure 1
	assert_line --regexp '^FAIL  firewall +nftables rule inet rdmactltest in \(handle [0-9]+\) drops RoCE v2 \(UDP 4791\)$'
	fix=$(fix_of firewall)
	[[ $fix == 'nft delete rule inet rdmactltest in handle '* ]]
	eval "$fix"
	run rdmactl check --only firewall
	assert_success
	assert_line --regexp '^PASS  firewall'
}

@test "check: an input policy of drop without an accept for 4791 fails firewall" {
	nft_test_table
	nft add chain inet rdmactltest in '{ type filter hook input priority 0; policy drop; }'
	nft add rule inet rdmactltest in tcp dport 22 accept
	run rdmactl check --only firewall
	assert_failure 1
	assert_output --partial 'drops input by policy and no rule accepts RoCE v2 (UDP 4791)'
	eval "$(fix_of firewall)"
	run rdmactl check --only firewall
	assert_success
}

@test "check: a low memlock limit warns for a non-root user" {
	# prlimit as root sets the limit; the unprivileged rdmactl inherits it.
	run prlimit --memlock=65536 setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all -- "$RDMACTL" check --only memlock
	assert_success
	assert_line --regexp '^WARN  memlock +RLIMIT_MEMLOCK is 64 KiB: ibv_reg_mr of more than that fails with ENOMEM'
	assert_line '      fix: ulimit -l unlimited'
	run prlimit --memlock=unlimited setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all -- "$RDMACTL" check --only memlock
	assert_success
	assert_line --regexp '^PASS  memlock +RLIMIT_MEMLOCK is unlimited'
}

@test "check: IPv6 disabled by sysctl warns ipv6; the fix makes it pass" {
	sysctl -qw "net.ipv6.conf.$N.disable_ipv6=1"
	run rdmactl check --only ipv6
	assert_success
	assert_line --regexp "^WARN  ipv6 +IPv6 is disabled on $N: rxe0's fe80:: GID \\(index 0\\)"
	fix=$(fix_of ipv6)
	assert_equal "$fix" "sysctl -w net.ipv6.conf.$N.disable_ipv6=0"
	eval "$fix" >/dev/null
	run rdmactl check --only ipv6
	assert_success
	assert_line --regexp '^PASS  ipv6'
}

@test "check: a missing uverbs node fails uverbs with the mknod that restores it" {
	node=$(rdmactl -j show rxe0 | jq -r '.[0].uverbs')
	rm "$node"
	run rdmactl check --only uverbs
	assert_failure 1
	fix=$(fix_of uverbs)
	[[ $fix == "mkdir -p /dev/infiniband && mknod -m 666 $node c 231 "* ]]
	eval "$fix"
	run rdmactl check --only uverbs
	assert_success
	run ibv_devinfo -d rxe0
	assert_success
}

@test "check: a uverbs node its user may not open fails uverbs with the chmod that fixes it" {
	node=$(rdmactl -j show rxe0 | jq -r '.[0].uverbs')
	chmod 600 "$node"
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- \
		"$RDMACTL" check --only uverbs
	assert_failure 1
	assert_line --regexp "^FAIL  uverbs +$node is not readable and writable by this user \\(uid 65534\\)"
	assert_line "      fix: chmod 666 $node"
	chmod 666 "$node"
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- \
		"$RDMACTL" check --only uverbs
	assert_success
}

@test "check: libibverbs without its rxe provider config fails provider" {
	mv /etc/libibverbs.d/rxe.driver "$BATS_TEST_TMPDIR/"
	run rdmactl check --only provider
	mv "$BATS_TEST_TMPDIR/rxe.driver" /etc/libibverbs.d/
	assert_failure 1
	assert_line --regexp '^FAIL  provider +libibverbs has no rxe provider'
	run rdmactl check --only provider
	assert_success
}

@test "check: no rxe link fails link, naming the netdev of the default route" {
	rdma_links_clear
	ip route add default via 10.11.11.254 dev "$N"
	run rdmactl check --only link
	ip route del default
	assert_failure 1
	assert_line --regexp "^FAIL  link +there is no rxe link; the default route leaves by $N$"
	assert_line "      fix: rdmactl add rxe0 $N"
}

@test "check --pid: a failing program's QPs named with their likely cause; a healthy one passes" {
	start_qpfail rnr
	run rdmactl check --pid "$prog"
	assert_failure 1
	assert_line --regexp "^FAIL  process-qps      QP $qp_a \(RC\) of $prog \(qpfail\) on rxe0 is in ERR: RNR retries ran out: its peer had no receive posted when its SEND came \(likely: its peer QP $qp_b of $prog \(qpfail\) is in RTS; retry_rnr_exceeded_err is [1-9][0-9]* on rxe0\)$"
	assert_line "      fix: have the receiver post its receives before the sender sends, or set a larger rnr_retry (7 retries for ever)"
	assert_equal "$(grep -c '^FAIL  process-qps' <<<"$output")" 1
	kill "$prog"; wait "$prog" || true
	start_qpfail bad-rkey
	run rdmactl check --pid "$prog" --only process-qps
	assert_failure 1
	assert_line "FAIL  process-qps      QP $qp_a (RC) of $prog (qpfail) on rxe0 is in ERR: a remote access error most likely (a wrong rkey, address, length or access flags in an RDMA READ or WRITE); one end's error flushed the other (likely: its peer QP $qp_b of $prog (qpfail) is in ERR; RNR and unanswered requests leave the receiver in RTS; rxe counts remote access errors nowhere)"
	assert_line "FAIL  process-qps      QP $qp_b (RC) of $prog (qpfail) on rxe0 is in ERR: a remote access error most likely (a wrong rkey, address, length or access flags in an RDMA READ or WRITE); one end's error flushed the other (likely: its peer QP $qp_a of $prog (qpfail) is in ERR; RNR and unanswered requests leave the receiver in RTS; rxe counts remote access errors nowhere)"
	kill "$prog"; wait "$prog" || true
	# A healthy program with the right variables passes; rdma-core's version decides the warning.
	gid=$(rdmactl -j gids rxe0 | jq -r 'first(.[] | select(.recommended)) | .index')
	NCCL_IB_HCA=rxe0 NCCL_IB_GID_INDEX=$gid start_qpfail ok
	run rdmactl check --pid "$prog"
	version=$(dpkg-query -W -f '${Version}' libibverbs1 | cut -d. -f1)
	if [ "$version" -lt 55 ]; then
		assert_line --regexp "^WARN  process +$prog \(qpfail\) runs rdma-core $version's rxe provider: its extended CQ polling"
	else
		assert_line "PASS  process          $prog (qpfail) runs rdma-core $version's libibverbs with the rxe provider"
	fi
	assert_line --regexp "^PASS  process-env      $prog \(qpfail\): NCCL: uses rxe0 port 1 with GID $gid \([0-9.]+\) \(NCCL_IB_GID_INDEX=$gid\)\$"
	assert_line "PASS  process-netns    $prog (qpfail): rdma_rxe's UDP 4791 socket is in its network namespace"
	assert_line "PASS  process-qps      $prog (qpfail): 2 QPs, none in error, none owing its peer a packet"
	refute_line --regexp '^FAIL '
	kill "$prog"; wait "$prog" || true
	# The wrong GID index in its environment is named, with the right one.
	NCCL_IB_GID_INDEX=0 start_qpfail ok
	run rdmactl check --pid "$prog" --only process-env
	assert_failure 1
	assert_line --regexp "^FAIL  process-env      $prog \(qpfail\): NCCL: on rxe0 port 1, GID index 0 is fe80::[0-9a-f:]+, the link-local IPv6 GID: it works only between fe80:: GIDs on one link \(NCCL_IB_GID_INDEX=0\)\$"
	assert_line "      fix: NCCL_IB_GID_INDEX=$gid, or unset it (NCCL 2.21 and later choose)"
	kill "$prog"; wait "$prog" || true
	# Without CAP_IPC_LOCK, a 64 KiB limit binds: its registration failed, and check says why.
	start_qpfail memlock setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock
	grep -q '^ibv_reg_mr 12 ' "$BATS_TEST_TMPDIR/memlock.out"
	run rdmactl check --pid "$prog" --only process-memlock
	kill "$prog"; wait "$prog" || true
	assert_success
	assert_line --regexp "^WARN  process-memlock  $prog \(qpfail\): RLIMIT_MEMLOCK is 64 KiB and it has no CAP_IPC_LOCK: ibv_reg_mr of more than that fails with ENOMEM$"
}

@test "check: live QPs of three failing programs, each named with its cause; ib_write_bw's are not" {
	start_qpfail rnr
	rnr=$prog rnr_a=$qp_a rnr_b=$qp_b
	start_qpfail bad-rkey
	bad=$prog bad_a=$qp_a bad_b=$qp_b
	start_qpfail dead-peer
	dead=$prog dead_a=$qp_a dead_b=$qp_b
	# A healthy pair under load beside them, while rxe0 resends for the hung one.
	eval "$(rdmactl env rxe0)"
	# shellcheck disable=SC2086
	timeout 60 ib_write_bw $RDMA_PERFTEST_ARGS -p 18782 -D 6 >"$BATS_TEST_TMPDIR/bw" 2>&1 &
	bw=$!
	wait_listen 18782
	# shellcheck disable=SC2086
	timeout 60 ib_write_bw $RDMA_PERFTEST_ARGS -p 18782 -D 6 "$RDMA_ADDRESS" >"$BATS_TEST_TMPDIR/bwc" 2>&1 &
	bwc=$!
	for _ in $(seq 50); do
		[ "$(rdma res show qp | grep -c ib_write_bw)" -ge 2 ] && break
		sleep 0.1
	done
	sleep 1
	run rdmactl check --only qps
	rdma res show qp >"$BATS_TEST_TMPDIR/res"
	wait "$bw" "$bwc" || fail "ib_write_bw: $(cat "$BATS_TEST_TMPDIR/bw" "$BATS_TEST_TMPDIR/bwc")"
	kill "$rnr" "$bad" "$dead"; wait "$rnr" "$bad" "$dead" || true
	assert_failure 1
	assert_equal "$(grep -c ib_write_bw "$BATS_TEST_TMPDIR/res")" 2
	assert_line --regexp "^FAIL  qps +QP $rnr_a \(RC\) of $rnr \(qpfail\) on rxe0 is in ERR: RNR retries ran out"
	assert_line --regexp "^FAIL  qps +QP $bad_a \(RC\) of $bad \(qpfail\) on rxe0 is in ERR: a remote access error most likely"
	assert_line --regexp "^FAIL  qps +QP $bad_b \(RC\) of $bad \(qpfail\) on rxe0 is in ERR: a remote access error most likely"
	assert_line --regexp "^FAIL  qps +QP $dead_a \(RC\) of $dead \(qpfail\) on rxe0 is in RTS and resending with no answer: its peer QP is gone \(destroyed, or its process ended\) or does not answer: rxe resends for as long as the program runs, and no error completion comes \(likely: rxe0 resent [1-9][0-9]* times meanwhile; its peer QP $dead_b is on no device of this host\)$"
	# Four QPs in trouble, and nothing said of the rest: the RNR receiver, ib_write_bw's pair.
	assert_equal "$(grep -c '^[A-Z]*  qps ' <<<"$output")" 4
	refute_output --partial "$rnr_b (RC)"
	refute_output --partial ib_write_bw
}
