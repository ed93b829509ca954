#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Provisioning without RDMA: argument checks happen before any netlink message,
# and the kernel's absence is explained.

setup() {
	load ../helpers
}

@test "add refuses bad names with exit 2 before touching the kernel" {
	long=$(printf 'r%.0s' $(seq 64))
	for bad in '' "$long" 'rxe%d' 'a/b' 'a b' $'a\tb'; do
		run --separate-stderr rdmactl add "$bad" eth0
		assert_failure 2
		# What was typed comes back with '?' for control characters, never raw.
		[[ $stderr == "rdmactl: add: device name '${bad//$'\t'/?}': "* ]] || fail "no name error for '$bad': $stderr"
		[[ $stderr != *RDMA\ support* ]] || fail "the kernel was asked about '$bad'"
	done
	for bad in '' 'abcdefghijklmnop' 'eth0:1' 'a b' 'a/b'; do
		run --separate-stderr rdmactl add rxe0 "$bad"
		assert_failure 2
		[[ $stderr == "rdmactl: add: netdev '$bad': "* ]] || fail "no netdev error for '$bad': $stderr"
	done
	# start and stop take netdevs too: checked before a module or link is touched.
	for cmd in start stop; do
		run --separate-stderr rdmactl "$cmd" eth0 'a/b'
		assert_failure 2
		[[ $stderr == "rdmactl: $cmd: netdev 'a/b': contains '/'"* ]] || fail "$cmd: $stderr"
	done
}

@test "add, del and link check their argument counts" {
	run rdmactl add
	assert_failure 2
	run rdmactl add a b c
	assert_failure 2
	run rdmactl del
	assert_failure 2
	run rdmactl del rxe0 --all
	assert_failure 2
	run rdmactl del --netdev eth0 --all
	assert_failure 2
	run rdmactl link show a b
	assert_failure 2
	run rdmactl add --bogus rxe0 eth0
	assert_failure 2
}

@test "on a kernel without RDMA, add explains it and exits 1" {
	[ ! -d /sys/class/infiniband ] || skip "this kernel has RDMA"
	run --separate-stderr rdmactl add rxe0 eth0
	assert_failure 1
	assert_equal "$output" ''
	[[ $stderr == *'has no RDMA support'*'CONFIG_INFINIBAND is off'*EPROTONOSUPPORT* ]]
	[[ $stderr == *CONFIG_RDMA_RXE*linux-image-amd64* ]]
	for cmd in link status stop 'del --all'; do
		run --separate-stderr rdmactl $cmd
		assert_failure 1
		[[ $stderr == *'has no RDMA support'* ]] || fail "$cmd: $stderr"
	done
}

@test "persist add, list and del edit the file and keep its comments" {
	conf=$BATS_TEST_TMPDIR/etc/rxe.conf
	mkdir -p "${conf%/*}"
	printf '# site links\nrxe0 eth0 # uplink\n' >"$conf"
	run rdmactl --config "$conf" persist add rxe1 eth1
	assert_success
	run rdmactl --config "$conf" persist
	assert_success
	assert_output $'rxe0 eth0\nrxe1 eth1'
	run rdmactl -j --config "$conf" persist list
	assert_output '[{"ifname":"rxe0","netdev":"eth0"},{"ifname":"rxe1","netdev":"eth1"}]'
	run rdmactl --config "$conf" persist del eth0
	assert_success
	run cat "$conf"
	assert_output $'# site links\nrxe1 eth1'
	# RDMACTL_CONFIG does the same as --config.
	RDMACTL_CONFIG=$conf run rdmactl persist
	assert_output 'rxe1 eth1'
}

@test "persist add of a name kept on another netdev is refused, the file unchanged" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	run rdmactl --config "$conf" persist add rxe0 eth0
	assert_success
	before=$(cat "$conf")
	run --separate-stderr rdmactl --config "$conf" persist add rxe0 eth1
	assert_failure 1
	[[ $stderr == *"rxe0 is persisted on eth0 in $conf, not on eth1"*EEXIST* ]]
	assert_equal "$(cat "$conf")" "$before"
	# The same pair again is fine and changes nothing.
	run rdmactl --config "$conf" persist add rxe0 eth0
	assert_success
	assert_equal "$(cat "$conf")" "$before"
}

@test "a malformed config file is named by line and never rewritten" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	printf 'rxe0 eth0\nrxe1\nrxe2 eth2\n' >"$conf"
	sum=$(sha256sum <"$conf")
	for cmd in 'persist list' 'persist add rxe3 eth3' 'persist del rxe0' start; do
		run --separate-stderr rdmactl --config "$conf" $cmd
		assert_failure 1
		[[ $stderr == *"$conf:2: expected 'NAME NETDEV', found one word"* ]] || fail "$cmd: $stderr"
		assert_equal "$(sha256sum <"$conf")" "$sum"
	done
}

@test "persist usage errors exit 2" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	run rdmactl --config "$conf" persist frob
	assert_failure 2
	run rdmactl --config "$conf" persist add rxe0
	assert_failure 2
	run rdmactl --config "$conf" persist add 'a b' eth0
	assert_failure 2
	run rdmactl --config "$conf" persist del
	assert_failure 2
	[ ! -e "$conf" ] || fail "a usage error created $conf"
}

@test "persist del of something not in the file exits 1 and changes nothing" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	printf 'rxe0 eth0\n' >"$conf"
	run --separate-stderr rdmactl --config "$conf" persist del rxe9
	assert_failure 1
	[[ $stderr == *'rxe9 is not in'*ENOENT* ]]
	assert_equal "$(cat "$conf")" 'rxe0 eth0'
}
