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
	docker_down
	if [ -n "${tu:-}" ]; then
		as_user rm -f -a >/dev/null 2>&1 || true
		user_docker rm -f rdmactl-rd1 >/dev/null 2>&1 || true
		pkill -u "$tu" 2>/dev/null || true
		rm -rf "$tuh"
	fi
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

# Debian's Docker (docker.io), its daemon started for the test with its state
# in the test's directory (vfs, no bridge, no firewall rules), and an image of
# the empty root above: the containers bind the guest's /usr and /etc.
# Debian's client by path: /usr/local/bin may hold another.
docker_() {
	/usr/bin/docker -H "unix://$BATS_TEST_TMPDIR/dk/sock" "$@"
}

docker_up() {
	local d=$BATS_TEST_TMPDIR/dk
	mkdir -p "$d"
	dockerd --data-root "$d/root" --exec-root "$d/run" --pidfile "$d/pid" -H "unix://$d/sock" \
		--iptables=false --ip6tables=false --bridge=none --storage-driver vfs \
		--log-level warn >"$d/log" 2>&1 3>&- &
	for _ in $(seq 150); do docker_ version >/dev/null 2>&1 && break; sleep 0.2; done
	docker_ version >/dev/null 2>&1 || fail "dockerd did not start: $(tail -3 "$d/log")"
	tar -C "$root" -c . | docker_ import - rdmactl-root:test >/dev/null
}

docker_down() {
	local d=$BATS_TEST_TMPDIR/dk pid
	[ -f "$d/pid" ] || return 0
	docker_ rm -f rdmactl-d1 >/dev/null 2>&1 || true
	read -r pid <"$d/pid" && kill "$pid" 2>/dev/null
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	# What it left mounted under its state (its data root is a mount of its own).
	awk -v d="$d/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do umount -l "$m"; done
}

# A user of the guest's own (its root is an overlay) with subordinate ids,
# for a rootless podman; as_user ARGS...: that user's podman.
# Its home is outside bats's own directories, which only root may enter.
rootless_user() {
	tu=rdmactl-tu tuh=$(mktemp -d /tmp/rdmactl-tu.XXXXXX)
	id "$tu" >/dev/null 2>&1 || useradd -M -d "$tuh" -s /bin/sh "$tu"
	grep -q "^$tu:" /etc/subuid || echo "$tu:200000:65536" >>/etc/subuid
	grep -q "^$tu:" /etc/subgid || echo "$tu:200000:65536" >>/etc/subgid
	mkdir -p "$tuh/run" "$tuh/rootfs"
	chmod 755 "$tuh"
	chmod 700 "$tuh/run"
	# The container's root is that user's, as an image it pulled would be.
	cp -a "$root/." "$tuh/rootfs/"
	chown -R "$tu:" "$tuh"
}

as_user() {
	local h=$tuh
	setpriv --reuid "$tu" --regid "$tu" --init-groups env HOME="$h" XDG_RUNTIME_DIR="$h/run" \
		podman --root "$h/pm/root" --runroot "$h/pm/run" --storage-driver vfs \
		--cgroup-manager cgroupfs --events-backend file "$@" 3>&-
}

# Debian's rootless Docker as that user: dockerd-rootless.sh, through
# rootlesskit and slirp4netns (a tap device: the tun node as udev would
# leave it), its state in the user's home; user_docker ARGS...: its client.
user_dockerd() {
	modprobe tun && chmod 666 /dev/net/tun
	(ulimit -l 64 && setpriv --reuid "$tu" --regid "$tu" --init-groups env HOME="$tuh" \
		XDG_RUNTIME_DIR="$tuh/run" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		/usr/share/docker.io/contrib/dockerd-rootless.sh --data-root "$tuh/dk" \
		--exec-root "$tuh/run/dk" -H "unix://$tuh/run/dk.sock" --storage-driver vfs \
		--iptables=false --ip6tables=false --bridge=none >"$tuh/dockerd.log" 2>&1 3>&- &)
	for _ in $(seq 150); do user_docker version >/dev/null 2>&1 && break; sleep 0.2; done
	user_docker version >/dev/null 2>&1 || fail "rootless dockerd did not start: $(tail -3 "$tuh/dockerd.log")"
	tar -C "$tuh/rootfs" -c . | user_docker import - rdmactl-root:test >/dev/null
}

user_docker() {
	setpriv --reuid "$tu" --regid "$tu" --init-groups env HOME="$tuh" \
		/usr/bin/docker -H "unix://$tuh/run/dk.sock" "$@" 3>&-
}

# as_user under a hard memlock limit of 64 KiB, as that user's own.
user_limited() {
	(ulimit -l 64 && as_user "$@")
}

# The netdev vc moved from rdmactl-ctr into PID's network namespace with the
# address it had, and an rxe link rxc made there from the host.
link_into() {
	ip -n rdmactl-ctr link set vc netns "$1"
	nsenter -t "$1" -n ip addr add 10.79.0.2/24 dev vc
	nsenter -t "$1" -n ip link set vc up
	run -0 rdmactl -n "$1" add rxc vc
}

# The uverbs node of rxe device DEV, as sysfs names it.
uverbs_of() {
	local u
	for u in /sys/class/infiniband_verbs/uverbs*; do
		[ "$(cat "$u/ibdev")" != "$1" ] || { echo "${u##*/}"; return 0; }
	done
	fail "no uverbs node for $1"
}

# Whether rxe has its 4791 socket in PID's network namespace: the kernel's answer.
socket_in_pid() {
	nsenter -t "$1" -n awk 'NR > 1 && $2 ~ /:12B7$/ { f = 1 } END { exit !f }' /proc/net/udp
}

# check --pid's process-netns in $checks: a pass where rxe has its socket in
# PID's namespace (Linux 7.1 and later), else a fail matching REGEX.
netns_verdict() {
	if socket_in_pid "$1"; then
		assert_equal "$(verdict process-netns | cut -d' ' -f1)" pass
	else
		run verdict process-netns
		assert_output --regexp "$2"
	fi
}

# The result, detail and fix of check ID in the JSON of $checks.
verdict() {
	jq -r --arg id "$1" '.[] | select(.id == $id) | "\(.result) \(.detail) | \(.fix)"' <<<"$checks"
}

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

@test "container: Docker: check inside and check --pid outside name the device, the memlock and the namespace it lacks, with docker's flags" {
	command -v dockerd >/dev/null || skip "docker.io is not in this userland (tools/install-deps vm installs it on the host)"
	docker_up
	# Docker's own network namespace, and a limit of 64 KiB as a host's default may be.
	docker_ run -d --name rdmactl-d1 --network none --ulimit memlock=65536:65536 \
		-v /usr:/usr:ro -v /etc:/etc:ro -v "$TOP:$TOP:ro" rdmactl-root:test sleep 600 >/dev/null
	pid=$(docker_ inspect -f '{{.State.Pid}}' rdmactl-d1)
	link_into "$pid"
	node=$(uverbs_of rxc)
	# Inside: what the container was not given, in docker's words.
	run docker_ exec rdmactl-d1 "$RDMACTL" -j check
	assert_failure 1
	checks=$output
	run verdict uverbs
	assert_line "fail /dev/infiniband/$node (rxc's uverbs node) does not exist: the container was not given it | start the container with --device /dev/infiniband/$node (this is Docker: docker run)"
	assert_line "warn /dev/infiniband/rdma_cm does not exist: rdma_cm programs (rping, most MPIs) fail | start the container with --device /dev/infiniband/rdma_cm (this is Docker: docker run)"
	run verdict memlock
	assert_output --regexp '^warn RLIMIT_MEMLOCK is 64 KiB and this root has no CAP_IPC_LOCK: .* \| start the container with --ulimit memlock=-1 \(or --cap-add IPC_LOCK\) \(this is Docker: docker run\)$'
	# Outside, by its PID: the same causes, docker's flags.
	run rdmactl -j check --pid "$pid"
	assert_failure 1
	checks=$output
	run verdict process-uverbs
	assert_output --regexp "^fail $pid \(sleep\), in a Docker container: its root has no /dev/infiniband/$node \(rxc's\): .* \| docker run --device /dev/infiniband/$node "
	run verdict process-memlock
	assert_output --regexp "^warn $pid \(sleep\): RLIMIT_MEMLOCK is 64 KiB and it has no CAP_IPC_LOCK: .* \| docker run --ulimit memlock=-1:-1 "
	netns_verdict "$pid" "^fail $pid \(sleep\): no rdma_rxe UDP 4791 socket in its network namespace: .* \| run the container with --network host \(docker run\); or boot Linux 7.1 or later"
	# Given what they name, a container in the same namespace passes both.
	run -0 docker_ run --rm --network container:rdmactl-d1 --device "/dev/infiniband/$node" \
		--device /dev/infiniband/rdma_cm \
		--ulimit memlock=-1:-1 -v /usr:/usr:ro -v /etc:/etc:ro -v "$TOP:$TOP:ro" rdmactl-root:test \
		"$RDMACTL" -j check --only uverbs,memlock
	assert_equal "$(jq -r 'map(.result) | unique | join(" ")' <<<"$output")" pass
}

@test "container: rootless podman: its CAP_IPC_LOCK is its own namespace's, and the limit is its user's, inside and from the host" {
	command -v newuidmap >/dev/null || skip "uidmap is not in this userland (tools/install-deps vm installs it on the host)"
	rootless_user
	# The user's own hard limit, 64 KiB, which the container cannot raise; IPC_LOCK added.
	(user_limited run -d --name rdmactl-r1 --network none --cap-add IPC_LOCK \
		-v /usr:/usr:ro -v /etc:/etc:ro -v "$TOP:$TOP:ro" --rootfs "$tuh/rootfs" sleep 600 >/dev/null) ||
		fail "rootless podman run failed"
	pid=$(as_user inspect -f '{{.State.Pid}}' rdmactl-r1)
	[ "$pid" -gt 1 ] || fail "no PID: $pid"
	link_into "$pid"
	# From the host: a Podman container, rootless (its user namespace is the user's).
	run rdmactl -j check --pid "$pid"
	checks=$output
	run verdict process-memlock
	assert_output --regexp "^warn $pid \(sleep\): RLIMIT_MEMLOCK is 64 KiB and its CAP_IPC_LOCK, held in a user namespace of its own .* \| podman run --ulimit memlock=-1:-1, within the user's own hard limit, which a rootless podman cannot raise"
	run verdict process-uverbs
	assert_output --regexp "^fail $pid \(sleep\), in a Podman container: its root has no /dev/infiniband/uverbs[0-9]+ \(rxc's\): .* \| podman run --device /dev/infiniband/uverbs[0-9]+ "
	netns_verdict "$pid" "\| run the container with --network host \(podman run\); or boot Linux 7.1 or later"
	# Inside: the capability it holds is said not to count.
	run user_limited exec rdmactl-r1 "$RDMACTL" -j check --only memlock
	checks=$output
	run verdict memlock
	assert_output --regexp "^warn RLIMIT_MEMLOCK is 64 KiB and this root's CAP_IPC_LOCK, of a user namespace of its own, does not lift it: .* \| start the container with --ulimit memlock=-1:-1, within the hard limit of the user who runs the rootless engine, which it cannot raise \(this is Podman: podman run\)$"
}

@test "container: rootless Docker: check --pid names it, its user's limit and rootlesskit's namespace; check inside says the same" {
	[ -x /usr/share/docker.io/contrib/dockerd-rootless.sh ] && command -v rootlesskit >/dev/null &&
		command -v slirp4netns >/dev/null ||
		skip "no rootless Docker in this userland (tools/install-deps vm installs docker.io, rootlesskit and slirp4netns on the host)"
	rootless_user
	user_dockerd
	user_docker run -d --name rdmactl-rd1 --network none -v /usr:/usr:ro -v /etc:/etc:ro \
		-v "$TOP:$TOP:ro" rdmactl-root:test sleep 600 >/dev/null
	pid=$(user_docker inspect -f '{{.State.Pid}}' rdmactl-rd1)
	[ "$pid" -gt 1 ] || fail "no PID: $pid"
	link_into "$pid"
	run rdmactl -j check --pid "$pid"
	checks=$output
	run verdict process-memlock
	assert_output --regexp "^warn $pid \\(sleep\\): RLIMIT_MEMLOCK is 64 KiB and it has no CAP_IPC_LOCK: .* \\| docker run --ulimit memlock=-1:-1, within the hard limit of the user running the rootless dockerd"
	run verdict process-uverbs
	assert_output --regexp "^fail $pid \\(sleep\\), in a Docker container: its root has no /dev/infiniband/uverbs[0-9]+ "
	inside=(user_docker exec rdmactl-rd1 "$RDMACTL" -j check --only memlock,netns)
	if socket_in_pid "$pid"; then
		assert_equal "$(verdict process-netns | cut -d' ' -f1)" pass
	else
		# Its --network host would be rootlesskit's namespace: a rootful one's is named.
		run verdict process-netns
		assert_output --regexp "\\| run the container with a rootful Docker's --network host \\(a rootless one's host network is rootlesskit's namespace, not the initial one\\); or boot Linux 7.1 or later"
		run "${inside[@]}"
		checks=$output
		run verdict netns
		assert_output --regexp "^fail .* \\| run the container with a rootful Docker's --network host "
	fi
	run "${inside[@]}"
	checks=$output
	run verdict memlock
	assert_output --regexp "^warn RLIMIT_MEMLOCK is 64 KiB and this root, of a user namespace of its own, has no CAP_IPC_LOCK: .* \\| start the container with --ulimit memlock=-1:-1, within the hard limit of the user who runs the rootless engine, which it cannot raise \\(this is Docker: docker run\\)$"
}
