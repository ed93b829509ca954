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
	ip netns add rdmactl-a
	ip link add va type veth peer name vb
	ip link set va netns rdmactl-a
	ip -n rdmactl-a addr add 10.77.0.1/24 dev va
	ip -n rdmactl-a link set lo up
	ip -n rdmactl-a link set va up
	ip addr add 10.77.0.2/24 dev vb
	ip link set vb up
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	pkill -f 'sleep 4242' 2>/dev/null || true
	rdma_links_clear
	ip netns del rdmactl-a 2>/dev/null || true
	ip link del vb 2>/dev/null || true
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
	fi
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
