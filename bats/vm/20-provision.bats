#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# add, del, link, status against the real kernel; `rdma` (iproute2) is the oracle.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	modprobe ib_uverbs
	modprobe rdma_rxe
}

setup() {
	load ../helpers
	vm_provision_setup
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	# A start --watch a failed test left would make its links again.
	[ -z "${watcher:-}" ] || { kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null; }
	rdma_links_clear
	ip link del wx0 2>/dev/null || true
	ip link del "$N.5" 2>/dev/null || true
}

# bats test_tags=kernels
@test "provision: add creates a link that rdma lists, ACTIVE, and prints it" {
	run --separate-stderr rdmactl add rxe0 "$N"
	assert_success
	assert_output "rxe0/1 state ACTIVE physical_state LINK_UP netdev $N netdev_mtu 1500 active_mtu 1024"
	assert_equal "$stderr" ''
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "provision: add -j prints the link as JSON; its MTUs agree with ibv_devinfo" {
	run --separate-stderr rdmactl -j add rxe0 "$N"
	assert_success
	run jq -r '"\(.ifname) \(.port) \(.state) \(.netdev) \(.netdev_mtu) \(.active_mtu) \(.max_mtu)"' <<<"$output"
	assert_output "rxe0 1 ACTIVE $N 1500 1024 4096"
	run ibv_devinfo -d rxe0
	assert_output --regexp 'max_mtu:[[:space:]]+4096 \(5\)'
	assert_output --regexp 'active_mtu:[[:space:]]+1024 \(3\)'
}

@test "provision: add NETDEV takes the first free rxeN" {
	rdma link add rxe0 type rxe netdev veth1
	run rdmactl add "$N"
	assert_success
	assert_output --partial "rxe1/1 state ACTIVE"
	run rdma_links
	assert_line "rxe0 veth1 ACTIVE"
	assert_line "rxe1 $N ACTIVE"
}

@test "provision: what rdma link add creates, link lists with the same fields and del removes" {
	rdma link add rxe7 type rxe netdev "$N"
	want=$(rdma -j link show rxe7/1 | jq -c '.[0] | {ifname, port, state, physical_state, netdev}')
	run rdmactl -j link
	assert_success
	run jq -c '.[0] | {ifname, port, state, physical_state, netdev}' <<<"$output"
	assert_output "$want"
	run rdmactl link rxe7
	assert_success
	assert_output --partial "rxe7/1 state ACTIVE"
	run rdmactl del rxe7
	assert_success
	run rdma_links
	assert_output ''
}

# bats test_tags=kernels
@test "provision: the same netdev again is EEXIST, naming the device it has" {
	rdmactl add rxe0 "$N" >/dev/null
	run --separate-stderr rdmactl add rxe1 "$N"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot add rxe1: $N already has an rxe device: rxe0 (EEXIST: File exists)"
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "provision: --exist-ok succeeds only when that name already runs on that netdev" {
	rdmactl add rxe0 "$N" >/dev/null
	run rdmactl add --exist-ok rxe0 "$N"
	assert_success
	assert_output --partial "rxe0/1 state ACTIVE"
	run rdmactl add --exist-ok "$N"
	assert_success
	assert_output --partial "rxe0/1"
	run --separate-stderr rdmactl add --exist-ok rxe1 "$N"
	assert_failure 1
	[[ $stderr == *'already has an rxe device: rxe0'* ]]
	run --separate-stderr rdmactl add --exist-ok rxe0 veth1
	assert_failure 1
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

# bats test_tags=kernels
@test "provision: a name taken on another netdev is ENFILE, said as a taken name" {
	rdmactl add rxe0 "$N" >/dev/null
	run --separate-stderr rdmactl add rxe0 veth1
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot add rxe0: an RDMA device named rxe0 already exists, on $N (ENFILE: Too many open files in system)"
}

# bats test_tags=kernels
@test "provision: an unknown netdev is ENODEV" {
	run --separate-stderr rdmactl add rxe0 nosuch0
	assert_failure 1
	[[ $stderr == *"there is no network device named nosuch0"*'(ENODEV: No such device)' ]]
	run rdma_links
	assert_output ''
}

@test "provision: lo is refused unless --force" {
	run --separate-stderr rdmactl add rxe0 lo
	assert_failure 1
	[[ $stderr == *'lo is the loopback device, not an Ethernet device'*'--force'* ]]
	run rdma_links
	assert_output ''
	run rdmactl add --force rxe0 lo
	assert_success
	run rdma_links
	assert_output --regexp '^rxe0 lo '
}

# bats test_tags=kernels
@test "provision: a VLAN netdev is EPERM from rxe, explained with its parent" {
	ip link add link "$N" name "$N.5" type vlan id 5
	run --separate-stderr rdmactl add rxe5 "$N.5"
	assert_failure 1
	[[ $stderr == *"$N.5 is a VLAN device"*"add the link on its parent, $N"*EPERM* ]]
	run rdma_links
	assert_output ''
}

@test "provision: without CAP_NET_ADMIN add and del say what is needed; link works" {
	run --separate-stderr as_nobody "$RDMACTL" add rxe0 "$N"
	assert_failure 1
	[[ $stderr == *'this needs root or CAP_NET_ADMIN (EPERM'* ]]
	rdmactl add rxe0 "$N" >/dev/null
	run --separate-stderr as_nobody "$RDMACTL" del rxe0
	assert_failure 1
	[[ $stderr == *'cannot delete rxe0: this needs root or CAP_NET_ADMIN'* ]]
	run as_nobody "$RDMACTL" link
	assert_success
	assert_output --partial "rxe0/1 state ACTIVE"
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "provision: rdma_rxe refused by modprobe is EINVAL, said as rdma_rxe not loading" {
	rdma_rxe_unload
	# The package's snippet aside while the refusal is in place: with its
	# softdep for rdma_rxe, the 'install' line did not stop the module
	# loading (seen where the package is installed, bats/boot).
	[ ! -e /etc/modprobe.d/rdmactl.conf ] || mv /etc/modprobe.d/rdmactl.conf /run/rdmactl-modprobe.conf
	echo 'install rdma_rxe /bin/false' >/etc/modprobe.d/zz-rdmactl-test.conf
	run --separate-stderr rdmactl add rxe0 "$N"
	rm -f /etc/modprobe.d/zz-rdmactl-test.conf
	[ ! -e /run/rdmactl-modprobe.conf ] || mv /run/rdmactl-modprobe.conf /etc/modprobe.d/rdmactl.conf
	assert_failure 1
	[[ $stderr == *'the kernel has no rxe link type: rdma_rxe did not load'*'(EINVAL'* ]]
	modprobe rdma_rxe
}

@test "provision: rdma_rxe not installed is EINVAL, said as a missing module" {
	k=$(uname -r)
	rdma_rxe_unload
	# A writable view of the modules without rdma_rxe (the guest root is itself
	# an overlay, so the upper layer needs a tmpfs of its own).
	mkdir -p /tmp/mods
	mount -t tmpfs mods /tmp/mods
	mkdir -p /tmp/mods/u /tmp/mods/w
	mount -t overlay overlay -o lowerdir=/lib/modules/$k,upperdir=/tmp/mods/u,workdir=/tmp/mods/w /lib/modules/$k
	rm -rf /lib/modules/$k/kernel/drivers/infiniband/sw/rxe
	# The index of what is left of the RDMA drivers alone: of the whole tree
	# it took depmod a minute under TCG, and no other module is asked for.
	depmod "$k" $(find /lib/modules/$k/kernel/drivers/infiniband -name '*.ko*')
	run --separate-stderr rdmactl add rxe0 "$N"
	umount /lib/modules/$k
	umount /tmp/mods
	assert_failure 1
	[[ $stderr == *"the rdma_rxe module is not installed for kernel $k"*CONFIG_RDMA_RXE*'(EINVAL'* ]]
	modprobe rdma_rxe
}

@test "provision: del checks every name first; unknown names delete nothing" {
	rdmactl add rxe0 "$N" >/dev/null
	run --separate-stderr rdmactl del rxe0 nosuch
	assert_failure 1
	[[ $stderr == *'there is no rxe device named nosuch, nor a netdev carrying one'*ENODEV* ]]
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "provision: del --netdev and --all remove rxe links only" {
	rdmactl add rxe0 "$N" >/dev/null
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl del --netdev veth1
	assert_success
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
	run --separate-stderr rdmactl del --netdev veth1
	assert_failure 1
	[[ $stderr == *'veth1 carries no rxe device'* ]]
	# rxe_cfg's way: remove, by netdev.
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl -j remove veth1
	assert_success
	assert_output '["rxe1"]'
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl -j del --all
	assert_success
	assert_output '["rxe0","rxe1"]'
	run rdma_links
	assert_output ''
	run rdmactl del --all
	assert_success
}

@test "provision: a device of another driver (siw) is refused by del" {
	modprobe siw || skip "no siw module in this kernel"
	rdma link add siw0 type siw netdev veth1
	run --separate-stderr rdmactl del siw0
	assert_failure 1
	[[ $stderr == *'siw0 is not an rxe device (driver siw)'* ]]
	run rdmactl link
	refute_output --partial siw0
	run rdma_links
	assert_output --partial siw0
	rdma link delete siw0
}

@test "provision: status shows each Ethernet device with its rxe device and RoCE MTU" {
	rdmactl add rxe0 "$N" >/dev/null
	run rdmactl status
	assert_success
	assert_line --index 0 --regexp '^Name +Link +Driver +Speed +NMTU +IPv4_addr +RDEV +RMTU$'
	assert_line --regexp "^$N +yes +veth +[0-9]+ +1500 +$RXE_VM_ADDR +rxe0 +1024$"
	refute_line --regexp '^lo '
	run rdmactl -j status
	run jq -c ".[] | select(.netdev == \"$N\") | {netdev_state, netdev_driver, netdev_mtu, ipv4, ifname, active_mtu}" <<<"$output"
	assert_output "{\"netdev_state\":\"up\",\"netdev_driver\":\"veth\",\"netdev_mtu\":1500,\"ipv4\":\"$RXE_VM_ADDR\",\"ifname\":\"rxe0\",\"active_mtu\":1024}"
}

@test "provision: link of an unknown name exits 1" {
	run --separate-stderr rdmactl link rxe9
	assert_failure 1
	[[ $stderr == *'there is no RDMA device named rxe9'*ENODEV* ]]
}

@test "provision: add --persist records the link; a failed persist leaves no link" {
	run rdmactl add --persist rxe0 "$N"
	assert_success
	run rdmactl persist
	assert_output "rxe0 $N"
	# /proc reads as "no such file" (an empty configuration) but takes no new file.
	run --separate-stderr rdmactl --config /proc/rdmactl-test.conf add --persist rxe1 veth1
	assert_failure 1
	[[ $stderr == *'cannot write /proc/rdmactl-test.conf'* ]]
	[[ $stderr == *'rxe1 was not kept'* ]]
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
	run rdmactl del --persist rxe0
	assert_success
	run rdmactl persist
	assert_output ''
}

# bats test_tags=kernels
@test "provision: start after nothing is loaded ends with every persisted link ACTIVE" {
	rdmactl persist add rxe0 "$N"
	rdmactl persist add rxe1 veth1
	# In this order: 'modprobe -r rdma_rxe' would take ib_uverbs before
	# rdma_ucm where the package's softdep snippet is installed.
	rmmod_loaded rdma_rxe rdma_ucm ib_uverbs
	run lsmod
	refute_output --regexp '^(rdma_rxe|ib_uverbs|rdma_ucm) '
	run rdmactl start
	assert_success
	assert_line 'module rdma_rxe loaded now'
	assert_line 'module ib_uverbs loaded now'
	assert_line "link rxe0 netdev $N added"
	run rdma_links
	assert_line "rxe0 $N ACTIVE"
	assert_line "rxe1 veth1 ACTIVE"
	[ -c /dev/infiniband/uverbs0 ] || fail "no uverbs node after start"
	# Again: nothing to do, nothing fails.
	run rdmactl start
	assert_success
	assert_line "link rxe0 netdev $N present"
}

@test "provision: start reports a persisted link it cannot create, by line, and makes the rest" {
	ip link add link "$N" name "$N.5" type vlan id 5
	printf '# test\nrxe0 %s\nrxe1 %s.5\n' "$N" "$N" >"$RDMACTL_CONFIG"
	run --separate-stderr rdmactl start
	ip link del "$N.5"
	assert_failure 1
	[[ $stderr == *"rxe.conf:3: cannot add rxe1: $N.5 is a VLAN device"* ]] || fail "$stderr"
	assert_line "link rxe1 netdev $N.5 failed"
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "provision: start leaves a link whose netdev is not there yet 'absent', no failure; with NETDEVs, only theirs" {
	printf 'rxe0 %s\nrxe1 nosuch0\nrxe2 veth1\n' "$N" >"$RDMACTL_CONFIG"
	run --separate-stderr rdmactl start "$N" nosuch0
	assert_success
	assert_line "link rxe0 netdev $N added"
	assert_line 'link rxe1 netdev nosuch0 absent'
	refute_line --partial 'rxe2'
	run rdmactl -j start
	assert_success
	run jq -r '.links[] | "\(.ifname) \(.result)"' <<<"$output"
	assert_output $'rxe0 present\nrxe1 absent\nrxe2 added'
	run rdma_links
	assert_line "rxe0 $N ACTIVE"
	assert_line 'rxe2 veth1 ACTIVE'
}

# until_line FILE LINE [TRIES]: wait (0.2 s a try, 100 tries) for LINE in FILE.
until_line() {
	for _ in $(seq "${3:-100}"); do
		grep -qxF -- "$2" "$1" && return 0
		sleep 0.2
	done
	fail "no line '$2' in $(basename "$1"): $(cat "$1")"
}

@test "provision: start --watch makes a link as its netdev comes and again when lost; at SIGTERM deletes what it made" {
	rdmactl add rxe0 "$N" >/dev/null
	printf 'rxe0 %s\nrxe1 wx0\n' "$N" >"$RDMACTL_CONFIG"
	out=$BATS_TEST_TMPDIR/out
	# The binary itself, not the helper function: the signal is for rdmactl.
	"$RDMACTL" start --watch >"$out" 2>"$BATS_TEST_TMPDIR/err" &
	watcher=$!
	until_line "$out" 'link rxe1 netdev wx0 absent'
	ip link add wx0 type veth peer name wx1 && ip link set wx0 up && ip link set wx1 up
	until_line "$out" 'link rxe1 netdev wx0 added'
	# A link deleted by hand and one the file gains: the next reading makes both.
	rdmactl del rxe1 >/dev/null
	echo 'rxe2 wx1' >>"$RDMACTL_CONFIG"
	until_line "$out" 'link rxe2 netdev wx1 added' 150
	run rdma_links
	assert_line "rxe1 wx0 ACTIVE"
	kill -TERM "$watcher"
	wait "$watcher" || fail "start --watch exited $? at SIGTERM"
	watcher=
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
	run cat "$out"
	assert_line "link rxe0 netdev $N present"
	assert_equal "$(grep -c 'link rxe1 netdev wx0 added' "$out")" 2
	assert_line 'link rxe1 netdev wx0 deleted'
	assert_line 'link rxe2 netdev wx1 deleted'
	refute_line --partial 'rxe0 netdev '"$N"' deleted'
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output ''
}

@test "provision: start --watch --check --keep -j: a record a line, check's verdicts, its links left at SIGINT" {
	printf 'rxe1 veth1\n' >"$RDMACTL_CONFIG"
	out=$BATS_TEST_TMPDIR/out
	"$RDMACTL" -j start --watch --check --keep >"$out" &
	watcher=$!
	for _ in $(seq 150); do [ "$(wc -l <"$out")" -ge 2 ] && break; sleep 0.2; done
	kill -INT "$watcher"
	wait "$watcher" || fail "start --watch exited $? at SIGINT"
	watcher=
	run jq -c 'if type == "array" then map(select(.id == "link") | .result) else .links | map([.ifname, .result]) end' "$out"
	assert_output $'[["rxe1","added"]]\n["pass"]\n[["rxe1","kept"]]'
	run rdma_links
	assert_output 'rxe1 veth1 ACTIVE'
}

@test "provision: start --watch whose reader goes away ends at its next line, deleting the links it made" {
	printf 'rxe1 wx0\n' >"$RDMACTL_CONFIG"
	st=$BATS_TEST_TMPDIR/status
	{ "$RDMACTL" start --watch 2>"$BATS_TEST_TMPDIR/err"; echo $? >"$st"; } | head -n 1 >"$BATS_TEST_TMPDIR/out" &
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/out" ] && break; sleep 0.2; done
	# The reader is gone; the link made as its netdev comes is the next line.
	ip link add wx0 type veth peer name wx1 && ip link set wx0 up
	for _ in $(seq 150); do [ -s "$st" ] && break; sleep 0.2; done
	[ -s "$st" ] || { pkill -x rdmactl; fail "start --watch went on with no reader"; }
	assert_equal "$(cat "$st")" 0
	run rdma_links
	assert_output ''
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output ''
}

@test "provision: stop NETDEV deletes that netdev's links only and leaves rdma_rxe; a netdev without one is no error" {
	rdmactl add rxe0 "$N" >/dev/null
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl stop veth1 nosuch0
	assert_success
	assert_output 'deleted rxe1'
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
	run lsmod
	assert_line --regexp '^rdma_rxe '
	run rdmactl stop nosuch0
	assert_success
	assert_output ''
}

@test "provision: stop deletes every rxe link and unloads rdma_rxe" {
	rdmactl add rxe0 "$N" >/dev/null
	rdmactl add rxe1 veth1 >/dev/null
	run rdmactl stop
	assert_success
	assert_line 'deleted rxe0'
	assert_line 'rdma_rxe unloaded'
	run rdma_links
	assert_output ''
	run lsmod
	refute_output --regexp '^rdma_rxe '
	modprobe rdma_rxe
}

@test "provision: with the installed modprobe snippet, loading rdma_rxe brings ib_uverbs" {
	rdmactl stop >/dev/null
	modprobe -r rdma_ucm ib_uverbs 2>/dev/null || true
	# A name of the test's own: where the package is installed its copy stays.
	cp "$TOP/modules/rdmactl-modprobe.conf" /etc/modprobe.d/zz-rdmactl-snippet-test.conf
	modprobe rdma_rxe
	rm -f /etc/modprobe.d/zz-rdmactl-snippet-test.conf
	run lsmod
	assert_output --regexp $'\n''ib_uverbs '
	assert_output --regexp $'\n''rdma_ucm '
	# Every module the modules-load.d snippet names exists in this kernel.
	for m in $(grep -v '^#' "$TOP/modules/rdmactl-modules-load.conf"); do
		modinfo -F name "$m" >/dev/null || fail "modules-load.d names $m, which $(uname -r) lacks"
	done
}
