#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The manifests of tools/kubernetes as a node runs them, played by podman
# kube play (podman 5, Debian 13's; DaemonSet from podman 5 on) in the trixie
# userland on 7.3: the image of this tree loaded from its archive (make
# image's, no registry), the node's links made from the ConfigMap, a netdev
# that comes later followed, the workload pod's selftest over the link, and
# the node left as the manifest says when the pod goes. Run by
# 'tools/run-tests kube' (bats/kube/prepare gives the image; the userland
# has podman, tools/install-deps --list guest).

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	load ../helpers
	command -v podman >/dev/null || { echo "no podman in this guest's root: apt-get install podman catatonit" >&2; return 1; }
	[ -n "${RDMACTL_TEST_IMAGE:-}" ] || { echo "no image of this tree: bats/kube/prepare could not make it" >&2; return 1; }
	# Container storage on a file system of its own: overlayfs cannot stack
	# on the guest's root, itself an overlay.
	mkdir -p /var/lib/containers && mount -t tmpfs tmpfs /var/lib/containers || return 1
	# The bed's init is no systemd and mounts no cgroup file system: podman
	# then keeps cgroups and events itself, as on a node without systemd.
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup || return 1
	mkdir -p /etc/containers/containers.conf.d
	printf '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' \
		>/etc/containers/containers.conf.d/bed.conf
	podman load -q -i "$RDMACTL_TEST_IMAGE" >"$BATS_FILE_TMPDIR/load.log" 2>&1 ||
		{ cat "$BATS_FILE_TMPDIR/load.log" >&2; return 1; }
	# As a node that has not run rdmactl: no Soft-RoCE module loaded.
	rdma_rxe_unload
	rmmod_loaded rdma_ucm ib_uverbs 2>/dev/null || true
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm (tools/run-tests kube)"
	K=$TOP/tools/kubernetes
	# Not from the checkout: podman kube play builds an image from a
	# directory of the image's name in the current one, and fails on the
	# file rdmactl there (docs/fleets.md).
	cd "$BATS_TEST_TMPDIR" || return 1
	N=$RXE_VM_NETDEV
}

# The running container of pod POD (the one that is not its infra).
ctr_of() {
	podman ps -a --format '{{.Names}} {{.PodName}} {{.IsInfra}}' | awk -v p="$1" '$2 == p && $3 == "false" { print $1 }'
}

# until_ok TRIES CMD...: CMD until it succeeds, 0.5 s apart.
until_ok() {
	local n=$1
	shift
	for _ in $(seq "$n"); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	return 1
}

has_link() { rdma_links | grep -qxF "$1"; }

# The DaemonSet's manifest as a user edits it for the bed's node: rxe0 on
# its netdev, one link found on the node before the pod, one on a netdev
# that comes later; ARGS extra.
node_yaml() {
	sed -e "s|^    rxe0 eth0\$|    rxe0 $N\n    rxe1 vk0\n    rxe2 vk2|" \
		-e "s|args: \[\"start\", \"--watch\", \"--check\"\]|args: [\"start\", \"--watch\", \"--check\"$1]|" \
		"$K/rdmactl-node.yaml" >"$BATS_FILE_TMPDIR/node.yaml"
}

@test "kube: the manifests name one image, the one make image made" {
	run -0 sed -n 's/^ *image: //p' "$K"/*.yaml
	img=$(sort -u <<<"$output")
	assert_equal "$(wc -l <<<"$img")" 1
	# The only image there is the one loaded from make image's archive.
	run podman image exists "$img"
	assert_success
}

@test "kube: the DaemonSet loads the modules, makes the ConfigMap's links, checks them in its log and follows a netdev that comes" {
	ip link add vk0 type veth peer name vk1 && ip link set vk0 up && ip link set vk1 up
	modprobe rdma_rxe && rdma link add rxe1 type rxe netdev vk0
	node_yaml ''
	t0=$SECONDS
	run podman kube play "$BATS_FILE_TMPDIR/node.yaml"
	assert_success
	until_ok 240 has_link "rxe0 $N ACTIVE" || fail "no rxe0 on $N: $(podman logs "$(ctr_of rdmactl-node-pod)" 2>&1 | tail -n 20)"
	echo "# the pod made its link $((SECONDS - t0)) s after kube play" >&3
	# What a device plugin that looks under the netdev's PCI device finds.
	echo "# rxe0's parent device: $(readlink /sys/class/infiniband/rxe0/device || echo none); $N's: $(readlink /sys/class/net/$N/device || echo none)" >&3
	c=$(ctr_of rdmactl-node-pod)
	run podman logs "$c"
	refute_output --partial failed
	assert_line 'module rdma_ucm loaded now'
	assert_line "link rxe0 netdev $N added"
	assert_line 'link rxe1 netdev vk0 present'
	assert_line 'link rxe2 netdev vk2 absent'
	assert_line --regexp '^PASS  link  '
	ip link add vk2 type veth peer name vk3 && ip link set vk2 up && ip link set vk3 up
	until_ok 60 has_link 'rxe2 vk2 ACTIVE' || fail "no rxe2 on vk2 after the netdev came: $(podman logs "$c" 2>&1 | tail -n 20)"
	run podman logs "$c"
	assert_line 'link rxe2 netdev vk2 added'
}

@test "kube: the workload pod's selftest passes over the node's link" {
	t0=$SECONDS
	run podman kube play "$K/selftest-pod.yaml"
	assert_success
	c=$(ctr_of rdmactl-selftest)
	run podman wait "$c"
	echo "# the selftest pod ran $((SECONDS - t0)) s" >&3
	st=$output
	run podman logs "$c"
	[ "$st" = 0 ] || fail "the selftest pod exited $st: $output"
	assert_line 'rxe0: selftest passed'
	assert_line --regexp '^  write +pass '
	run podman kube play --down "$K/selftest-pod.yaml"
	assert_success
}

@test "kube: --down deletes the links the pod made and leaves the one it found" {
	run podman kube play --down "$BATS_FILE_TMPDIR/node.yaml"
	assert_success
	run rdma_links
	assert_output 'rxe1 vk0 ACTIVE'
	run podman ps -a --format '{{.Names}}'
	assert_output ''
}

@test "kube: with --keep in its args the pod leaves its links when it goes" {
	node_yaml ', "--keep"'
	run podman kube play "$BATS_FILE_TMPDIR/node.yaml"
	assert_success
	until_ok 240 has_link "rxe0 $N ACTIVE" || fail "no rxe0 on $N"
	until_ok 60 has_link 'rxe2 vk2 ACTIVE' || fail "no rxe2 on vk2"
	run podman kube play --down "$BATS_FILE_TMPDIR/node.yaml"
	assert_success
	run rdma_links
	assert_line "rxe0 $N ACTIVE"
	assert_line 'rxe2 vk2 ACTIVE'
	rdma_links_clear
	ip link del vk0
	ip link del vk2
}
