#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Provisioning without RDMA: argument checks happen before any netlink message,
# and the kernel's absence is explained.

setup() {
	load ../helpers
}

teardown() {
	# What a test found missing and a wrong rdmactl may have made.
	[ -z "${remove_etc:-}" ] || rm -rf /etc/rdmactl
}

@test "add refuses bad names with exit 2 before touching the kernel" {
	long=$(printf 'r%.0s' $(seq 64))
	for bad in "$long" 'rxe%d' 'a/b' 'a b' $'a\tb'; do
		run --separate-stderr rdmactl add "$bad" eth0
		assert_failure 2
		# What was typed comes back escaped (a tab as \x09), never raw.
		want=${bad//$'\t'/'\x09'}
		[[ $stderr == "rdmactl: add: device name '$want': "* ]] || fail "no name error for '$bad': $stderr"
		[[ $stderr != *RDMA\ support* ]] || fail "the kernel was asked about '$bad'"
	done
	for bad in 'abcdefghijklmnop' 'eth0:1' 'a b' 'a/b'; do
		run --separate-stderr rdmactl add rxe0 "$bad"
		assert_failure 2
		[[ $stderr == "rdmactl: add: netdev '$bad': "* ]] || fail "no netdev error for '$bad': $stderr"
	done
	# An empty word is refused as one, whichever it stands for.
	for args in "'' eth0" "rxe0 ''"; do
		eval "run --separate-stderr '$RDMACTL' add $args"
		assert_failure 2
		[[ $stderr == "rdmactl: add: argument "[12]" is an empty word"* ]] || fail "add $args: $stderr"
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

@test "on a kernel built without RDMA, every command says so with the one fix that works there" {
	[ ! -d /sys/class/infiniband ] || skip "this kernel has RDMA"
	{ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
		grep -qx '# CONFIG_INFINIBAND is not set' || skip "this kernel's config is not readable"
	for cmd in show gids netdevs stat env 'selftest loopback' start up; do
		run --separate-stderr rdmactl $cmd
		assert_failure 1
		[[ $stderr == *'has no RDMA support: it was built without CONFIG_INFINIBAND'* ]] ||
			fail "$cmd: $stderr"
		[[ $stderr == *'boot a kernel with CONFIG_INFINIBAND and CONFIG_RDMA_RXE'* ]] ||
			fail "$cmd: $stderr"
		# No hint that cannot work there: no module to load or build, no link to make.
		[[ $stderr != *"'rdmactl start'"* && $stderr != *'module install'* &&
			$stderr != *"'rdmactl up"* && $stderr != *"'rdmactl add"* ]] || fail "$cmd: $stderr"
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
	# A second name on eth0 would fail at every boot: refused, naming the first.
	run --separate-stderr rdmactl --config "$conf" persist add rxe1 eth0
	assert_failure 1
	assert_equal "$stderr" "rdmactl: eth0 carries rxe0 in $conf already, and the kernel makes one rxe link a netdev: 'rdmactl persist del rxe0' first, or keep rxe0 (EBUSY: Device or resource busy)"
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
	# A name's bytes are shown as the man page says: \xNN, each one, nothing lost to '?'.
	printf 'rx\001e eth0\nrxe\303\251 eth1\n' >"$conf"
	run --separate-stderr rdmactl --config "$conf" persist list
	assert_failure 1
	[[ $stderr == *"$conf:1: 'rx\x01e' is not a valid RDMA device name: contains a control character"* ]] || fail "$stderr"
	printf 'rxe\303\251 eth1\n' >"$conf"
	run --separate-stderr rdmactl --config "$conf" persist list
	[[ $stderr == *"$conf:1: 'rxe\xc3\xa9' is not a valid RDMA device name"* ]] || fail "$stderr"
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

@test "start's --keep and --check go with --watch only: exit 2, nothing loaded" {
	for opt in keep check; do
		run --separate-stderr rdmactl start --$opt
		assert_failure 2
		assert_equal "$stderr" "rdmactl: start: --$opt goes with --watch ('rdmactl check' checks at once); try 'rdmactl help start'"
	done
}

@test "persist del of something not in the file exits 1 and changes nothing" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	printf 'rxe0 eth0\n' >"$conf"
	run --separate-stderr rdmactl --config "$conf" persist del rxe9
	assert_failure 1
	[[ $stderr == *'rxe9 is not in'*ENOENT* ]]
	assert_equal "$(cat "$conf")" 'rxe0 eth0'
}

@test "a name the file cannot hold ('#' starts a comment) is refused by persist add and add --persist, exit 2" {
	conf=$BATS_TEST_TMPDIR/rxe.conf
	run --separate-stderr rdmactl --config "$conf" persist add 'rxe#0' eth0
	assert_failure 2
	[[ $stderr == *"device name 'rxe#0': contains '#', which starts a comment"* ]] || fail "$stderr"
	run --separate-stderr rdmactl --config "$conf" persist add rxe1 'eth#0'
	assert_failure 2
	[[ $stderr == *"netdev 'eth#0': contains '#'"* ]] || fail "$stderr"
	run rdmactl --config "$conf" add --persist 'rxe#0' eth0
	assert_failure 2
	[ ! -e "$conf" ] || fail "the file was written: $(cat "$conf")"
	# Non-ASCII is named as such, not as a control character.
	run --separate-stderr rdmactl --config "$conf" persist add 'rxé0' eth0
	assert_failure 2
	[[ $stderr == *"contains a non-ASCII character"* ]] || fail "$stderr"
}

@test "an empty path, name or argument is a usage error, never a default: exit 2, nothing written" {
	mkdir "$BATS_TEST_TMPDIR/here"
	cd "$BATS_TEST_TMPDIR/here"
	# Were an empty --config taken for the default, the default file would be
	# written: whatever happens here, this host's is left as it was found.
	[ -e /etc/rdmactl ] || remove_etc=1
	for args in "--config= persist add rxe0 eth0" "--sysfs-root= link" "persist wants ''" \
		"selftest client '' rxe0" "module status --kernel ''" "link ''" "check --peer ''" \
		"del --netdev ''" "persist del ''"; do
		eval "run --separate-stderr '$RDMACTL' $args"
		[ "$status" = 2 ] || fail "rdmactl $args: status $status, $stderr"
		[[ $stderr == *"empty word"* ]] || fail "rdmactl $args: $stderr"
	done
	run --separate-stderr env RDMACTL_CONFIG= "$RDMACTL" persist add rxe0 eth0
	assert_failure 2
	assert_equal "$stderr" 'rdmactl: RDMACTL_CONFIG is empty: give a path, or leave it unset for the default'
	run --separate-stderr env RDMACTL_SYSFS_ROOT= "$RDMACTL" link
	assert_failure 2
	assert_equal "$stderr" 'rdmactl: RDMACTL_SYSFS_ROOT is empty: give a path, or leave it unset for the default'
	# Nothing was made anywhere: no drop-in directories, no file.
	assert_equal "$(ls -A)" ''
	[ ! -e /etc/rdmactl/rxe.conf ] || [ "$(stat -c %Y /etc/rdmactl/rxe.conf)" -lt "$(date +%s -d '-1 min')" ] ||
		fail "/etc/rdmactl/rxe.conf was just written"
}

@test "persist del of one entry named twice, or by its name and its netdev, removes it" {
	conf=$BATS_TEST_TMPDIR/d.conf
	printf 'rxe0 eth0\nrxe1 eth1\n' >"$conf"
	run rdmactl --config "$conf" persist del rxe0 rxe0
	assert_success
	assert_equal "$(cat "$conf")" 'rxe1 eth1'
	printf 'rxe0 eth0\n' >"$conf"
	run rdmactl --config "$conf" persist del eth0 rxe0
	assert_success
	assert_equal "$(cat "$conf")" ''
}

@test "del: NAME and --all together are named as what clashes" {
	run --separate-stderr rdmactl del --all rxe0
	assert_failure 2
	assert_equal "$stderr" "rdmactl: del: NAME and --all: give one of NAME..., --netdev NETDEV or --all; try 'rdmactl help del'"
}

@test "persist wants writes into a directory that exists, only: a missing one is said, none made" {
	conf=$BATS_TEST_TMPDIR/w.conf
	printf 'rxe0 eth0\n' >"$conf"
	run --separate-stderr rdmactl --config "$conf" persist wants "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	[ ! -e "$BATS_TEST_TMPDIR/none" ] || fail "the directory was made"
	mkdir "$BATS_TEST_TMPDIR/gen"
	run rdmactl --config "$conf" persist wants "$BATS_TEST_TMPDIR/gen"
	assert_success
	assert_equal "$(cat "$BATS_TEST_TMPDIR/gen/sys-subsystem-net-devices-eth0.device.d/rdmactl.conf")" \
		$'# Made by rdmactl\'s generator from the persistent-links file.\n[Unit]\nWants=rdmactl-link@eth0.service'
}

@test "lab: a bad --name or N is a usage error for every verb, exit 2, before anything is done" {
	for verb in add show test del; do
		n=; [ $verb = add ] && n=2
		for name in ABC a1 toolongname 'a b' -x; do
			run --separate-stderr rdmactl lab $verb --name "$name" $n
			assert_failure 2
			[[ $stderr == "rdmactl: lab $verb: --name '$name'"* ]] || fail "$verb '$name': $stderr"
		done
	done
	for n in 0 65 99999999999999999999 ' 2' 2x; do
		run --separate-stderr rdmactl lab add "$n"
		assert_failure 2
		assert_equal "$stderr" "rdmactl: lab add: N is a number of nodes from 1 to 64, not '$n'; try 'rdmactl help lab add'"
	done
	run --separate-stderr rdmactl link move rxe0 rdmactl-no-such-ns
	assert_failure 2
	[[ $stderr == "rdmactl: link move: there is no network namespace rdmactl-no-such-ns: "* ]] || fail "$stderr"
}

@test "lab del as a user says it needs root, not that a bridge failed" {
	[ "$(id -u)" = 0 ] || skip "setpriv to another user needs root"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$RDMACTL" lab del
	assert_failure 1
	assert_equal "$stderr" "rdmactl: lab del needs root: it deletes the lab's namespaces, veths and bridge (EPERM: Operation not permitted)"
}
