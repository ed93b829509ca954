#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# NFS over RDMA, server and client in one guest: knfsd listens for RDMA on
# 20049 beside TCP, the client mounts env's RDMA_ADDRESS with proto=rdma, a
# file written there reads back, and the server's copy is the same.

load stacks

setup() {
	stacks_setup
	needs rpc.nfsd exportfs rpc.mountd rpcbind mount.nfs
	modprobe -a nfsd rpcrdma nfs || skip "this kernel has no nfsd, rpcrdma or nfs"
	EXPORT=$BATS_TEST_TMPDIR/export MNT=$BATS_TEST_TMPDIR/mnt
	mkdir -p "$EXPORT" "$MNT"
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	umount "$MNT" 2>/dev/null || true
	rpc.nfsd 0 2>/dev/null || true
	exportfs -ua 2>/dev/null || true
	pkill -x rpc.mountd 2>/dev/null || true
	pkill -x rpcbind 2>/dev/null || true
	umount "$EXPORT" 2>/dev/null || true
}

@test "stacks: NFS over RDMA: mount proto=rdma, 16 MiB written and read back" {
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	mount -t tmpfs tmpfs "$EXPORT"
	rpcbind -w
	exportfs -o rw,no_root_squash,insecure,fsid=0 "*:$EXPORT"
	rpc.mountd
	# An NFSv4 server refuses new OPENs for its grace period (90 s) after it
	# starts, unless it can tell no client has state to reclaim: 7.3's knfsd
	# lacks the legacy client tracking (CONFIG_NFSD_LEGACY_CLIENT_TRACKING)
	# and, without nfsdcld answering, waits the whole period. 10 s is the
	# least the kernel takes; the first OPEN's wait is timed apart below.
	echo 10 >/proc/fs/nfsd/nfsv4gracetime
	rpc.nfsd 4
	echo "rdma 20049" >/proc/fs/nfsd/portlist
	# A line for each address family it listens on.
	grep -qx 'rdma 20049' /proc/fs/nfsd/portlist || fail "knfsd does not listen for RDMA: $(cat /proc/fs/nfsd/portlist)"
	before=$(rxe_sent)
	run -0 timeout 60 mount -t nfs4 -o proto=rdma,port=20049 "$RDMA_ADDRESS:/" "$MNT"
	run -0 grep " $MNT nfs4 " /proc/mounts
	assert_output --partial 'proto=rdma'
	head -c 16M /dev/urandom >"$BATS_TEST_TMPDIR/data"
	tg=$(date +%s%N)
	: >"$MNT/f"
	t0=$(date +%s%N)
	cp "$BATS_TEST_TMPDIR/data" "$MNT/f"
	sync
	t1=$(date +%s%N)
	echo 3 >/proc/sys/vm/drop_caches
	cmp "$BATS_TEST_TMPDIR/data" "$EXPORT/f"
	cmp "$BATS_TEST_TMPDIR/data" "$MNT/f"
	t2=$(date +%s%N)
	assert_carried "$before" 5000
	umount "$MNT"
	vers=$(sed -n 's/.*vers=\([0-9.]*\).*/\1/p' <<<"$output")
	stack_result "NFS over RDMA (NFSv$vers, proto=rdma)" "16 MiB written at $(rate 16777216 "$t0" "$t1"); the server's copy and the client's, read back in $(seconds "$t1" "$t2"), the same bytes; the first OPEN waited $(seconds "$tg" "$t0") (the server's grace period)"
}
