#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# NVMe over Fabrics on the link, target and host in one guest: nvmet-rdma
# exports a file on tmpfs (buffered_io: tmpfs takes no O_DIRECT) at env's
# RDMA_ADDRESS, nvme-cli discovers and connects over rdma, data written
# through the block device reads back, and everything is taken down again.

NQN=nqn.2026-11.org.rdmactl:stacks
CFG=/sys/kernel/config/nvmet

load stacks

setup() {
	stacks_setup
	needs nvme
	modprobe -a nvmet nvmet-rdma nvme-rdma || skip "this kernel has no nvmet-rdma or nvme-rdma"
	mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	nvme disconnect -n "$NQN" >/dev/null 2>&1 || true
	rm -f "$CFG/ports/1/subsystems/$NQN"
	rmdir "$CFG/ports/1" 2>/dev/null || true
	echo 0 >"$CFG/subsystems/$NQN/namespaces/1/enable" 2>/dev/null || true
	rmdir "$CFG/subsystems/$NQN/namespaces/1" "$CFG/subsystems/$NQN" 2>/dev/null || true
	rm -f /dev/shm/rdmactl-nvme.img
}

# The block device of the subsystem connected as $NQN: the multipath node
# below its subsystem, or without multipath, the controller's namespace.
nvme_dev() {
	local d b
	for d in /sys/class/nvme-subsystem/* /sys/class/nvme/*; do
		[ "$(cat "$d/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		for b in "$d"/nvme*n[0-9]*; do
			[[ ${b##*/} != *c*n* ]] && [ -b "/dev/${b##*/}" ] && { echo "/dev/${b##*/}"; return 0; }
		done
	done
	return 1
}

@test "stacks: NVMe-oF over the link: discover, connect, 16 MiB written and read back, disconnect" {
	s=$CFG/subsystems/$NQN p=$CFG/ports/1
	mkdir "$s"
	echo 1 >"$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	truncate -s 64M /dev/shm/rdmactl-nvme.img
	echo /dev/shm/rdmactl-nvme.img >"$s/namespaces/1/device_path"
	echo 1 >"$s/namespaces/1/buffered_io"
	echo 1 >"$s/namespaces/1/enable"
	mkdir "$p"
	echo rdma >"$p/addr_trtype"
	echo ipv4 >"$p/addr_adrfam"
	echo "$RDMA_ADDRESS" >"$p/addr_traddr"
	echo 4420 >"$p/addr_trsvcid"
	ln -s "$s" "$p/subsystems/$NQN"
	before=$(rxe_sent)
	run -0 nvme discover -t rdma -a "$RDMA_ADDRESS" -s 4420
	assert_output --partial "subnqn:  $NQN"
	run -0 nvme connect -t rdma -a "$RDMA_ADDRESS" -s 4420 -n "$NQN"
	for _ in $(seq 50); do dev=$(nvme_dev) && break; sleep 0.1; done
	[ -b "$dev" ] || fail "no block device for $NQN after connect: $(ls /sys/block)"
	head -c 16M /dev/urandom >"$BATS_TEST_TMPDIR/data"
	t0=$(date +%s%N)
	dd if="$BATS_TEST_TMPDIR/data" of="$dev" bs=1M oflag=direct status=none
	t1=$(date +%s%N)
	dd if="$dev" of="$BATS_TEST_TMPDIR/back" bs=1M count=16 iflag=direct status=none
	t2=$(date +%s%N)
	cmp "$BATS_TEST_TMPDIR/data" "$BATS_TEST_TMPDIR/back"
	assert_carried "$before" 100
	run -0 nvme disconnect -n "$NQN"
	assert_output --partial 'disconnected 1 controller(s)'
	stack_result "NVMe-oF (nvmet-rdma, nvme-rdma)" "16 MiB written at $(rate 16777216 "$t0" "$t1"), read at $(rate 16777216 "$t1" "$t2") (O_DIRECT, 1 MiB), the same bytes"
}
