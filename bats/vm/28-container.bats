#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A real container runtime in the bed: podman runs rdmactl in a container
# whose network namespace holds an rxe link, with and without the uverbs
# device. The container's root is the guest's own /usr and /etc, read-only
# (no image, no registry); its network is the namespace 'rdmactl-ctr'.

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	"$BATS_TEST_DIRNAME/../../rdmactl" start >/dev/null
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	command -v podman >/dev/null || skip "podman is not in this userland (tools/install-deps vm installs it on the host)"
	rdma_links_clear
	# The bed's init mounts no cgroup file system: podman's runtime needs one.
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	netns_veth rdmactl-ctr vc 10.79.0.2 vh 10.79.0.1
	root=$BATS_TEST_TMPDIR/rootfs
	mkdir -p "$root"/{usr,etc,proc,sys,dev,tmp,run,var/tmp} "$root$TOP"
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
}

teardown() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	podman_ rm -f -a >/dev/null 2>&1 || true
	rdma_links_clear
	ip netns del rdmactl-ctr 2>/dev/null || true
	ip link del vh 2>/dev/null || true
}

# podman with its state in the test's own directory (vfs: no overlay on the bed's root).
podman_() {
	podman --root "$BATS_TEST_TMPDIR/pm/root" --runroot "$BATS_TEST_TMPDIR/pm/run" \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
}

# A container on rdmactl-ctr's network running ARGS (after '--'), with OPTS before.
in_container() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	podman_ run --rm --network ns:/run/netns/rdmactl-ctr -v /usr:/usr:ro -v /etc:/etc:ro \
		-v "$TOP:$TOP:ro" "${opts[@]}" --rootfs "$root" "$@"
}

with_devices=(--device /dev/infiniband/uverbs0 --device /dev/infiniband/rdma_cm)

# Whether rxe has its 4791 socket in rdmactl-ctr: the kernel's answer.
socket_in_ctr() {
	ip netns exec rdmactl-ctr awk 'NR > 1 && $2 ~ /:12B7$/ { f = 1 } END { exit !f }' /proc/net/udp
}

# bats test_tags=kernels
@test "container: podman with the uverbs device: the namespace trap explained where rxe has no socket there; check and the selftest against the host pass where it has" {
	run -0 rdmactl -n rdmactl-ctr add rxc vc
	run -0 rdmactl add rxh vh
	run in_container "${with_devices[@]}" -- "$RDMACTL" -j check
	checks=$output
	if socket_in_ctr; then
		assert_success
		assert_equal "$(jq -r '.[] | select(.id == "netns") | .result' <<<"$checks")" pass
		assert_equal "$(jq -r '.[] | select(.id == "uverbs") | .result' <<<"$checks")" pass
		"$RDMACTL" selftest server --once --port 18770 rxh >"$BATS_TEST_TMPDIR/srv" 2>&1 &
		srv=$!
		wait_listen 18770
		run in_container "${with_devices[@]}" -- "$RDMACTL" selftest client 10.79.0.1 rxc --port 18770
		wait "$srv" || fail "server: $(cat "$BATS_TEST_TMPDIR/srv")"
		assert_success
		assert_line 'rxc: selftest passed'
	else
		assert_failure 1
		run jq -r '.[] | select(.id == "netns") | "\(.result) \(.detail) | \(.fix)"' <<<"$checks"
		assert_output --regexp "^fail rxe carries no traffic from this namespace on this kernel: this network namespace \\(Podman's\\) is not the initial one.* \\| run the container with --network host \\(podman run\\); or boot Linux 7.1 or later"
		# Nothing else is blamed: the device is there and usable.
		assert_equal "$(jq -r '.[] | select(.id == "uverbs") | .result' <<<"$checks")" pass
		# The selftest in the container fails within its timeout, with the cause.
		run in_container "${with_devices[@]}" -- "$RDMACTL" selftest --timeout 3 rxc
		assert_failure 1
		assert_output --partial 'hint: rxe carries no traffic from this network namespace on this kernel'
		refute_output --partial firewall
	fi
}

# bats test_tags=kernels
@test "container: podman without the uverbs device is told the flag it lacks; a link made from the host by the container's PID" {
	podman_ run -d --name rdmactl-c1 --network ns:/run/netns/rdmactl-ctr -v /usr:/usr:ro \
		-v /etc:/etc:ro --rootfs "$root" sleep 600 >/dev/null
	pid=$(podman_ inspect -f '{{.State.Pid}}' rdmactl-c1)
	[ "$pid" -gt 1 ] || fail "no PID: $pid"
	run -0 rdmactl -n "$pid" add rxc vc
	assert_equal "$(ip netns exec rdmactl-ctr rdma -j link show rxc/1 | jq -r '.[0].netdev')" vc
	run in_container -- "$RDMACTL" -j check --only uverbs
	assert_failure 1
	run jq -r '.[] | "\(.result) \(.detail) | \(.fix)"' <<<"$output"
	assert_line "fail /dev/infiniband/uverbs0 (rxc's uverbs node) does not exist: the container was not given it | start the container with --device /dev/infiniband/uverbs0 (this is Podman: podman run)"
	assert_line "warn /dev/infiniband/rdma_cm does not exist: rdma_cm programs (rping, most MPIs) fail | start the container with --device /dev/infiniband/rdma_cm (this is Podman: podman run)"
}

@test "container: /dev/infiniband bind-mounted without --device: the device cgroup's refusal is told apart from a missing node" {
	run -0 rdmactl -n rdmactl-ctr add rxc vc
	dev=$(cat /sys/class/infiniband_verbs/uverbs0/dev)
	# The nodes are there (a volume), but the device cgroup allows only what --device passes.
	run in_container -v /dev/infiniband:/dev/infiniband -- "$RDMACTL" -j check --only uverbs
	assert_failure 1
	run jq -r '.[] | select(.result == "fail") | "\(.detail) | \(.fix)"' <<<"$output"
	assert_output "/dev/infiniband/uverbs0 cannot be opened (EPERM): the device cgroup does not allow character device $dev, though the node is there | start the container with --device /dev/infiniband/uverbs0 (this is Podman: podman run)"
}
