#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/rxe-vm itself, from the host: statuses, isolation, time-out, two hosts.
# Each test that boots, boots its own guests: what it tests is the boot.

setup() {
	load ../helpers
}

@test "rxe-vm: CMD's exit status, stdout and stderr come back; its writes do not" {
	probe=/rxe-vm-write-probe.$$
	run --separate-stderr "$RXE_VM_TOOL" run -- sh -c \
		"touch $probe && echo out-\$(uname -r) && echo err-line >&2 && exit 7"
	assert_failure 7
	assert_output --regexp '^out-6\.[0-9]+\.[0-9]+-[0-9]+-amd64$'
	assert_equal "$stderr" 'err-line'
	[ ! -e "$probe" ] || fail "the guest's write reached the host: $probe"
}

@test "rxe-vm: CMD runs as root in the caller's directory with the bed's network" {
	cd "$TOP/bats"
	run "$RXE_VM_TOOL" run -e RXE_TEST_VAR='a b' -- bash -c \
		'echo "$(id -u) $PWD [$RXE_TEST_VAR] $RXE_VM_NETDEV $RXE_VM_ADDR"; ip -br -4 addr show dev veth0'
	assert_success
	assert_line --index 0 "0 $TOP/bats [a b] veth0 10.11.11.251"
	assert_line --index 1 --regexp '^veth0@veth1 +UP +10\.11\.11\.251/24'
}

@test "rxe-vm: a CMD that runs past --timeout exits 124" {
	start=$SECONDS
	run --separate-stderr "$RXE_VM_TOOL" run --timeout 12 -- sleep 120
	assert_failure 124
	[[ $stderr == *'timed out after 12 s'* ]]
	[ $((SECONDS - start)) -lt 40 ]
}

@test "rxe-vm: a boot that never reaches CMD exits 125 with the console's tail" {
	run --separate-stderr "$RXE_VM_TOOL" run --append rxevm.moddir=/nonexistent -- true
	assert_failure 125
	[[ $stderr == *'the guest did not reach CMD'* ]]
	[[ $stderr == *'cannot bind /nonexistent'* ]]
}

@test "rxe-vm: --hosts 2 runs CMD on both guests and each reaches the other" {
	# The guests boot in parallel and one may finish first: each pings until
	# the peer answers, then stays up until the peer has pinged it (InEchos).
	run "$RXE_VM_TOOL" run --timeout 300 --hosts 2 -- sh -c '
		echo "me=$RXE_VM_ADDR peer=$RXE_VM_PEER"
		for i in $(seq 60); do
			busybox ping -c 1 -W 1 "$RXE_VM_PEER" >/dev/null && { echo reached; break; }
		done
		for i in $(seq 120); do
			awk "/^Icmp: [0-9]/ { exit !(\$10 > 0) }" /proc/net/snmp && exit 0
			sleep 0.5
		done
		exit 1'
	assert_success
	assert_line '[1] me=10.11.12.1 peer=10.11.12.2'
	assert_line '[2] me=10.11.12.2 peer=10.11.12.1'
	assert_line '[1] reached'
	assert_line '[2] reached'
	assert_line 'rxe-vm: host 1 exited 0, host 2 exited 0'
}

@test "rxe-vm: --hosts 2 reports both statuses and fails with the first failure" {
	run "$RXE_VM_TOOL" run --hosts 2 -- sh -c 'exit $((RXE_VM_HOST + 3))'
	assert_failure 4
	assert_line 'rxe-vm: host 1 exited 4, host 2 exited 5'
}

@test "rxe-vm: usage errors exit 2 without booting" {
	run "$RXE_VM_TOOL" run
	assert_failure 2
	run "$RXE_VM_TOOL" run --hosts 3 -- true
	assert_failure 2
	assert_output --partial '--hosts takes 1 or 2'
	run "$RXE_VM_TOOL" run --timeout x -- true
	assert_failure 2
	run "$RXE_VM_TOOL" frobnicate
	assert_failure 2
	run "$RXE_VM_TOOL" run --kernel-deb /nonexistent.deb -- true
	assert_failure 2
}

@test "rxe-vm: a guest that panics while CMD runs exits 123 with the console's tail" {
	run --separate-stderr "$RXE_VM_TOOL" run -- sh -c 'echo before; echo c >/proc/sysrq-trigger; sleep 30; echo after'
	assert_failure 123
	assert_output 'before'
	[[ $stderr == *'the guest died while CMD ran'* ]]
	[[ $stderr == *'the guest kernel said: '*'Kernel panic'* ]] || fail "no panic line: $stderr"
	[[ $stderr == *'last lines of the guest console:'* ]]
}
