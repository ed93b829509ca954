#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# check --pid on real processes of this host, which needs no RDMA for what
# it reads of them: a rootless container's capabilities, a kernel thread, a
# zombie, and what cannot be read.

setup() {
	load ../helpers
}

teardown() {
	[ -z "${kill_pids-}" ] || kill $kill_pids 2>/dev/null || true
}

# The PID of the newest process named $1 whose parent is $2, waited for.
child_named() {
	local pid
	for _ in $(seq 50); do
		pid=$(pgrep -n -P "$2" -x "$1") && { echo "$pid"; return; }
		sleep 0.1
	done
	return 1
}

@test "check --pid: CAP_IPC_LOCK held in a user namespace of its own does not lift memlock" {
	command -v unshare >/dev/null || skip "no unshare (util-linux)"
	unshare -U -r true 2>/dev/null || skip "this host forbids user namespaces: $(unshare -U -r true 2>&1)"
	# A rootless container's process as the kernel sees it: root in its own
	# user namespace, every capability there, 64 KiB of memlock.
	sh -c 'ulimit -l 64 && exec unshare -U -r sleep 60' &
	kill_pids=$!
	pid=$(child_named sleep $$) || pid=$kill_pids
	for _ in $(seq 50); do [ "$(cat "/proc/$pid/comm")" = sleep ] && break; sleep 0.1; done
	grep -q '^CapEff:.*[1-9a-f]' "/proc/$pid/status" || fail "it holds no capability: $(grep CapEff "/proc/$pid/status")"
	run rdmactl check --pid "$pid" --only process-memlock
	assert_success	# a warning
	assert_line "WARN  process-memlock  $pid (sleep): RLIMIT_MEMLOCK is 64 KiB and its CAP_IPC_LOCK, held in a user namespace of its own (a rootless container's, unshare -U's), does not lift it (the kernel honours it for pinned memory in the initial user namespace alone): ibv_reg_mr of more than that fails with ENOMEM"
	# The same capability in the initial namespace (this shell as root) does.
	[ "$(id -u)" = 0 ] || skip "not root: no CAP_IPC_LOCK to compare with"
	sh -c 'ulimit -l 64 && exec sleep 60' &
	kill_pids+=" $!"
	for _ in $(seq 50); do [ "$(cat "/proc/$!/comm")" = sleep ] && break; sleep 0.1; done
	run rdmactl check --pid "$!" --only process-memlock
	assert_line "PASS  process-memlock  $! (sleep) has CAP_IPC_LOCK: its memlock limit does not bind memory registration"
}

@test "check --pid: a kernel thread and a zombie are said as such, never as unreadable" {
	kt=$(pgrep -x kthreadd | head -1)
	if [ -n "$kt" ]; then
		run rdmactl check --pid "$kt"
		assert_failure 1
		assert_line "FAIL  process          $kt (kthreadd) is a kernel thread, no program: it runs no RDMA stack to check"
		assert_line "SKIP  process-env      $kt (kthreadd) is a kernel thread, no program"
		refute_output --partial 'needs root'
	fi
	# A parent that never reaps: its child, once ended, stays a zombie.
	sh -c 'sleep 0.2 & exec sleep 60' &
	kill_pids=$!
	z=
	for _ in $(seq 50); do
		z=$(ps -o pid=,stat= --ppid "$kill_pids" | awk '$2 ~ /^Z/ { print $1 }')
		[ -n "$z" ] && break
		sleep 0.1
	done
	[ -n "$z" ] || fail "no zombie came"
	run rdmactl check --pid "$z"
	assert_failure 1
	assert_line "FAIL  process          $z (sleep) has ended: a zombie its parent has not yet reaped, whose memory, environment and QPs are gone"
	assert_line "SKIP  process-memlock  $z (sleep) is a zombie: its program has ended"
	[ -n "$kt" ] || skip "no kthreadd in this PID namespace"
}

@test "check --pid: what cannot be read says why by its errno, not by a guess" {
	f=$BATS_TEST_TMPDIR/f
	cp -a "$TOP/bats/fixtures/two-netdevs" "$f"
	mkdir -p "$f/proc/4242"
	echo job >"$f/proc/4242/comm"
	# maps and environ directories (a fixture refuses a FIFO whole): each said.
	mkdir "$f/proc/4242/maps" "$f/proc/4242/environ"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process,process-env
	assert_line "SKIP  process          4242 (job): its libraries cannot be read from /proc/4242/maps (not a regular file, which is never read)"
	assert_line "SKIP  process-env      4242 (job): its environment cannot be read from /proc/4242/environ (not a regular file, which is never read)"
	# ns/user captured as the kernel shows it: a namespace of its own, with CAP_IPC_LOCK.
	printf 'Name:\tjob\nCapEff:\t000001ffffffffff\n' >"$f/proc/4242/status"
	printf 'Max locked memory         65536                65536                bytes\n' >"$f/proc/4242/limits"
	mkdir -p "$f/proc/4242/ns"
	ln -s 'user:[4026532177]' "$f/proc/4242/ns/user"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-memlock
	assert_line --regexp '^WARN  process-memlock  4242 \(job\): RLIMIT_MEMLOCK is 64 KiB and its CAP_IPC_LOCK, held in a user namespace of its own'
	ln -sfn 'user:[4026531837]' "$f/proc/4242/ns/user"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-memlock
	assert_line "PASS  process-memlock  4242 (job) has CAP_IPC_LOCK: its memlock limit does not bind memory registration"
	rm "$f/proc/4242/ns/user"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-memlock
	assert_line --regexp '^WARN  process-memlock  4242 \(job\): .*held in a user namespace that cannot be read, does not lift it'
}

@test "check --pid: a container's process without the uverbs nodes, and the flag of its engine" {
	f=$BATS_TEST_TMPDIR/f
	cp -a "$TOP/bats/fixtures/two-netdevs" "$f"
	p=$f/proc/4242
	mkdir -p "$p/root/dev/infiniband"
	echo job >"$p/comm"
	printf 'Name:\tjob\nCapEff:\t0000000000000000\n' >"$p/status"
	printf 'Max locked memory         65536                65536                bytes\n' >"$p/limits"
	# As a Docker container's process shows itself: its cgroup, its own /dev.
	echo '0::/system.slice/docker-4f1b9e0c2d3a.scope' >"$p/cgroup"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs,process-memlock
	assert_line "FAIL  process-uverbs   4242 (job), in a Docker container: its root has no /dev/infiniband/uverbs0 (rxe0's), /dev/infiniband/uverbs1 (rxe1's): libibverbs there finds no device ('No RDMA devices found', ibv_get_device_list empty)"
	assert_line "      fix: docker run --device /dev/infiniband/uverbs0 (every uverbs node, and /dev/infiniband/rdma_cm for rdma_cm programs)"
	assert_line '      fix: docker run --ulimit memlock=-1:-1 (or --default-ulimit memlock=-1:-1 for dockerd)'
	# A rootless podman's: the user's own limit is the bound.
	echo '0::/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-9a8b.scope/container' >"$p/cgroup"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs,process-memlock
	assert_line --regexp '^FAIL  process-uverbs   4242 \(job\), in a Podman container: its root has no '
	assert_line --regexp "^      fix: podman run --ulimit memlock=-1:-1, within the user's own hard limit"
	# No cgroup of its own (a rootless podman on cgroupfs): the marker in its root says.
	echo '0::/' >"$p/cgroup"
	mkdir -p "$p/root/run" && touch "$p/root/run/.containerenv"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs
	assert_line --regexp '^FAIL  process-uverbs   4242 \(job\), in a Podman container: its root has no '
	rm "$p/root/run/.containerenv" && touch "$p/root/.dockerenv"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs
	assert_line --regexp '^FAIL  process-uverbs   4242 \(job\), in a Docker container: its root has no '
	# Only the first node is there: the fix names the one missing.
	touch "$p/root/dev/infiniband/uverbs0"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs
	assert_line --regexp '^      fix: docker run --device /dev/infiniband/uverbs1 '
	# With the nodes (--device): seen, passed.
	touch "$p/root/dev/infiniband/uverbs0" "$p/root/dev/infiniband/uverbs1"
	run rdmactl --sysfs-root "$f" check --pid 4242 --only process-uverbs
	assert_line "PASS  process-uverbs   4242 (job) sees /dev/infiniband/uverbs0 (rxe0's), /dev/infiniband/uverbs1 (rxe1's)"
}
