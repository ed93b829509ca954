#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/rxe-vm itself, from the host: statuses, isolation, time-out, two hosts.
# Each test that boots, boots its own guests: what it tests is the boot.

setup() {
	load ../helpers
}

@test "rxe-vm: CMD's exit status, stdout and stderr come back; its writes do not" {
	# What a first run fetches it says on stderr (tested below): fetched before.
	"$RXE_VM_TOOL" prepare 2>/dev/null
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
	# The guest's CPUs by default: two under KVM, one under TCG (where a
	# second can oops on code the kernel patches: docs/kernels.md).
	env -u RXE_VM_SMP "$RXE_VM_TOOL" prepare 2>"$BATS_TEST_TMPDIR/ready" >/dev/null
	cpus=1
	! grep -q ', accel kvm ' "$BATS_TEST_TMPDIR/ready" || cpus=2
	run cat "$BATS_TEST_TMPDIR/ready"
	assert_output --regexp ", $cpus vCPU, cache "
	# From a shell whose soft limit of open files is 1024, as a login's
	# often is: the guest still walks thousands of the host's files.
	run prlimit --nofile=1024: env -u RXE_VM_SMP "$RXE_VM_TOOL" run -e RXE_TEST_VAR='a b' -- bash -c \
		'echo "$(id -u) $PWD [$RXE_TEST_VAR] $RXE_VM_NETDEV $RXE_VM_ADDR $(nproc)"; ip -br -4 addr show dev veth0
		find /usr/share/doc -type f | wc -l'
	assert_success
	assert_line --index 0 "0 $TOP/bats [a b] veth0 10.11.11.251 $cpus"
	assert_line --index 1 --regexp '^veth0@veth1 +UP +10\.11\.11\.251/24'
	[ "${lines[2]}" -eq "$(find /usr/share/doc -type f | wc -l)" ] || fail "the guest walked ${lines[2]} files"
}

@test "rxe-vm: --record: CMD's output, then the report of what failed with its cause; the status stays CMD's" {
	run --separate-stderr "$RXE_VM_TOOL" run --record -- bash -c \
		"'$RDMACTL' add rxe0 veth0 >/dev/null || exit 99
		 ibv_rc_pingpong -d rxe0 -p 18620 & s=\$!
		 for _ in \$(seq 100); do ss -Htln 'sport = :18620' | grep -q . && break; sleep 0.1; done
		 echo client; ibv_rc_pingpong -d rxe0 -p 18620 127.0.0.1; c=\$?; wait \$s; exit \$c"
	assert_failure 1
	assert_line client
	[[ $stderr == *"Failed to modify QP to RTR"*"FAIL  "*"(ibv_rc_pingpong): ibv_modify_qp (MODIFY_QP) refused with EINVAL"*"cause: its address vector has no GRH (is_global 0)"* ]] ||
		fail "no report after the program's words: $stderr"
}

@test "rxe-vm: a CMD not found in PATH exits 127 naming it, as a shell would" {
	run -127 --separate-stderr "$RXE_VM_TOOL" run -- rxe-vm-no-such-command arg
	assert_failure 127
	assert_output ''
	assert_equal "$stderr" 'rxe-vm: cannot run rxe-vm-no-such-command: No such file or directory'
}

@test "rxe-vm: under TCG processes are mapped without randomization; CMD can turn it back on" {
	run "$RXE_VM_TOOL" run --accel tcg -- sh -c 'cat /proc/sys/kernel/randomize_va_space
		sysctl -qw kernel.randomize_va_space=2 && cat /proc/sys/kernel/randomize_va_space'
	assert_success
	assert_output $'0\n2'
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

@test "rxe-vm: a kernel that crashes while it boots is booted once more, said once, then 125" {
	# No initramfs init: the kernel panics before CMD, as the emulator's rare boot faults do.
	run --separate-stderr "$RXE_VM_TOOL" run --append rdinit=/nonexistent -- echo reached
	assert_failure 125
	assert_output ''
	[ "$(grep -c 'booting it once more' <<<"$stderr")" = 1 ] || fail "$stderr"
	[ "$(grep -c 'the guest did not reach CMD' <<<"$stderr")" = 2 ] || fail "$stderr"
	[[ $stderr == *'the guest kernel said: '*'Kernel panic'* ]] || fail "$stderr"
	[[ $stderr == *'rxe-vm: cause: the kernel found no init to start'* ]] || fail "$stderr"
}

@test "rxe-vm: a guest that has not reached CMD in time: the hang, the last step it reached, what to do; booted once more" {
	run --separate-stderr "$RXE_VM_TOOL" run --timeout 2 -- echo reached
	# Under TCG a boot takes 4 s or more; a host that boots faster has no hang to
	# show: CMD ran (0), or started and was cut short at 2 s (124, CMD's time-out).
	[ "$status" != 0 ] && [ "$status" != 124 ] ||
		skip "this host boots to CMD within 2 s (status $status): no boot is cut short to see"
	assert_failure 125
	assert_output ''
	[[ $stderr == *'the guest did not reach CMD within 2 s'* ]] || fail "$stderr"
	[[ $stderr == *'rxe-vm: cause: the guest hung, with no crash on its console'* ]] || fail "$stderr"
	[[ $stderr == *'rxe-vm: the last step of the boot it reached: '* ]] || fail "$stderr"
	[[ $stderr == *'rxe-vm: what to do: a busy host boots slower: give it more time'* ]] || fail "$stderr"
	# The bed's own watch on the boot, shorter than CMD's time-out: stopped, booted once more, said.
	RXE_VM_BOOT_TIMEOUT=1 run --separate-stderr "$RXE_VM_TOOL" run -- echo reached
	assert_failure 125
	assert_output ''
	[ "$(grep -c 'the guest did not reach CMD within 1 s of its start' <<<"$stderr")" = 2 ] || fail "$stderr"
	[ "$(grep -c 'the guest hung before CMD started: booting it once more' <<<"$stderr")" = 1 ] || fail "$stderr"
}

@test "rxe-vm: a crash the emulator caused is named: a stale int3 (a console captured from a failed 7.3 boot)" {
	dir=$BATS_TEST_TMPDIR/guest
	mkdir "$dir"
	cp "$TOP/bats/fixtures/bed/console-oops-int3" "$dir/console"
	: >"$dir/ctl"
	run bash -c 'prog=rxe-vm; say() { printf "%s: %s\n" "$prog" "$*" >&2; }
		. "$1/tools/vm/guest.sh"; console_tail "$2" 2>&1' _ "$TOP" "$dir"
	assert_success
	assert_line --index 0 --regexp '^rxe-vm: the guest kernel said: \[ *[0-9.]+\] Oops: int3: '
	assert_line --index 1 --partial 'rxe-vm: cause: a breakpoint the kernel had already patched away ran again: a second vCPU ran the emulator'"'"'s stale translation'
	assert_line --index 2 --partial 'rxe-vm: what to do: boot again; under TCG the bed gives a guest one vCPU'
	assert_line --index 3 'rxe-vm: last lines of the guest console:'
}

@test "rxe-vm: --hosts 2 runs CMD on both guests and each reaches the other, on 6.1 and 6.1-cloud" {
	# The guests boot in parallel and one may finish first: each pings until
	# the peer answers, then stays up until the peer has pinged it (InEchos).
	for k in 6.1 6.1-cloud; do
		run "$RXE_VM_TOOL" run --kernel "$k" --timeout 300 --hosts 2 -- sh -c '
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
	done
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
	run "$RXE_VM_TOOL" run --kernel 4.19 -- true
	assert_failure 2
	assert_line "rxe-vm: --kernel takes one of: 6.1 6.1-cloud 5.10 6.12 6.12-cloud 7.3 7.3-cloud or a linux-image-* package name"
	run "$RXE_VM_TOOL" run --root-fs ext4 -- true
	assert_failure 2
	assert_output --partial '--root-fs takes virtiofs, 9p or auto'
	run "$RXE_VM_TOOL" run --init upstart -- true
	assert_failure 2
	assert_output --partial '--init takes bed or systemd'
	run "$RXE_VM_TOOL" run --init systemd --hosts 2 -- true
	assert_failure 2
	assert_output --partial '--init systemd boots one guest'
	RXE_VM_SMP=0 run "$RXE_VM_TOOL" run -- true
	assert_failure 2
	assert_output --partial 'RXE_VM_SMP takes a CPU count'
}

@test "rxe-vm: a guest that panics while CMD runs exits 123 with the console's tail" {
	run --separate-stderr "$RXE_VM_TOOL" run -- sh -c 'echo before; echo c >/proc/sysrq-trigger; sleep 30; echo after'
	assert_failure 123
	assert_output 'before'
	[[ $stderr == *'the guest died while CMD ran'* ]]
	[[ $stderr == *'the guest kernel said: '*'Kernel panic'* ]] || fail "no panic line: $stderr"
	[[ $stderr == *'last lines of the guest console:'* ]]
}

# The package each kernel name resolves to, from 'rxe-vm kernels'.
kernel_pkg() {
	"$RXE_VM_TOOL" kernels 2>/dev/null | awk -v k="$1" '$1 == k { print $3 }'
}

@test "rxe-vm: kernels lists every name with its suite, package and cache state" {
	run --separate-stderr "$RXE_VM_TOOL" kernels
	assert_success
	assert_line --index 0 --regexp '^NAME +SUITE +PACKAGE +CACHED$'
	assert_line --regexp '^6\.1 +bookworm +linux-image-6\.1\.[0-9]+-[0-9]+-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^6\.1-cloud +bookworm +linux-image-6\.1\.[0-9]+-[0-9]+-cloud-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^5\.10 +bullseye +linux-image-5\.10\.[0-9]+-[0-9]+-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^6\.12 +trixie +linux-image-6\.12\.[0-9]+\+deb13-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^6\.12-cloud +bookworm-backports +linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^7\.3 +trixie-backports +linux-image-7\.3\.[0-9]+\+deb13-amd64 +(no|yes|yes, unpacked)$'
	assert_line --regexp '^7\.3-cloud +trixie-backports +linux-image-7\.3\.[0-9]+\+deb13-cloud-amd64 +(no|yes|yes, unpacked)$'
	[ "${#lines[@]}" -eq 8 ] || fail "expected 7 kernels: $output"
}

@test "rxe-vm: every kernel name boots: its release, CMD's status, and no write reaches the host" {
	probe=/rxe-vm-kernel-probe.$$
	for k in 6.1 5.10 6.12 6.1-cloud 6.12-cloud 7.3 7.3-cloud; do
		pkg=$(kernel_pkg "$k")
		[ -n "$pkg" ] || fail "kernels does not list $k"
		run --separate-stderr "$RXE_VM_TOOL" run --kernel "$k" -- sh -c "uname -r; touch $probe; exit 7"
		[ "$status" -eq 7 ] || fail "$k: status $status, stderr: $stderr"
		assert_output "${pkg#linux-image-}"
		[ ! -e "$probe" ] || fail "$k: the guest's write reached the host"
		# Only the bed's own lines (a first boot downloads and unpacks the kernel).
		[ -z "$(grep -v '^rxe-vm: ' <<<"$stderr")" ] || fail "$k: stderr: $stderr"
		cached=$("$RXE_VM_TOOL" kernels 2>/dev/null | awk -v k="$k" '$1 == k { print $4, $5 }')
		assert_equal "$cached" 'yes, unpacked'
	done
}

@test "rxe-vm: a split kernel package (7.x) is booted from its parts: the modules' own tree, depmod run" {
	pkg=$(kernel_pkg 7.3)
	kver=${pkg#linux-image-}
	run -0 "$RXE_VM_TOOL" module-file --kernel 7.3 rdma_rxe
	[[ $output == */lib/modules/$kver/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.xz ]] || fail "$output"
	[ -s "${output%/kernel/*}/modules.dep" ] || fail "no modules.dep beside $output"
	# The guest sees the tree as an installed kernel would have it.
	run -0 "$RXE_VM_TOOL" run --kernel 7.3 -- sh -c 'modinfo -F depends rdma_rxe; test -f "/boot/config-$(uname -r)" && echo config'
	assert_line --regexp '(^|,)ib_core(,|$)'
	assert_line config
	# The meta package alone, given by --kernel-deb without its parts: refused, naming them.
	deb=$(ls "${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/vm}/debs/$pkg"_*.deb)
	cp "$deb" "$BATS_TEST_TMPDIR/"
	run --separate-stderr "$RXE_VM_TOOL" run --kernel-deb "$BATS_TEST_TMPDIR/$(basename "$deb")" -- true
	assert_failure 125
	[[ $stderr == *"is split: put the linux-base-$kver .deb beside it"* ]] || fail "$stderr"
}

@test "rxe-vm: --userland trixie boots a Debian 13 root with the checkout in it; nothing reaches the host" {
	probe=$BATS_TEST_TMPDIR/probe
	run --separate-stderr "$RXE_VM_TOOL" run --kernel 7.3 --userland trixie --share "$BATS_TEST_TMPDIR" -- \
		sh -c '. /etc/os-release; echo "$VERSION_CODENAME"; gcc -dumpversion; test -f tools/rxe-vm && echo checkout
			touch "$1" tools/rxe-vm-probe && echo written; test -d "$2" && echo shared; exit 5' sh /host-probe "$BATS_TEST_TMPDIR"
	assert_equal "$status" 5
	assert_output "$(printf '%s\n' trixie 14 checkout written shared)"
	[ ! -e /host-probe ] && [ ! -e "$TOP/tools/rxe-vm-probe" ] || fail "a write in the guest reached the host"
	run "$RXE_VM_TOOL" run --userland buster -- true
	assert_failure 2
	assert_line "rxe-vm: --userland takes host or one of: bookworm trixie forky sid"
	run "$RXE_VM_TOOL" run --userland trixie --share relative/path -- true
	assert_failure 2
	assert_line "rxe-vm: --share takes an absolute path that exists"
}

@test "rxe-vm: a guest that mounts the host's share again read-write still cannot write to it" {
	# virtiofs: the share mounts again and remounts read-write, and virtiofsd,
	# serving a read-only view, refuses the write.
	run "$RXE_VM_TOOL" run --root-fs virtiofs -- sh -c '
		mkdir -p /mnt/again && mount -t virtiofs hostroot /mnt/again &&
			mount -o remount,rw /mnt/again || exit 3
		grep " /mnt/again " /proc/mounts | cut -d " " -f 4 | cut -d , -f 1
		touch "/mnt/again$1" 2>&1 && exit 4
		echo refused' sh "$BATS_TEST_TMPDIR/escape"
	assert_success
	assert_line rw
	assert_line --partial 'Read-only file system'
	assert_line refused
	[ ! -e "$BATS_TEST_TMPDIR/escape" ] || fail "virtiofs: the write reached the host"
	# 9p: the one channel is the root's, so the share cannot be mounted again;
	# qemu exports it read-only besides.
	run "$RXE_VM_TOOL" run --root-fs 9p -- sh -c '
		mkdir -p /mnt/again
		mount -t 9p -o trans=virtio,version=9p2000.L hostroot /mnt/again 2>/dev/null && exit 4
		echo refused'
	assert_success
	assert_output refused
}

@test "rxe-vm: the cloud kernel has no 9p: --root-fs 9p is refused naming what is missing" {
	run --separate-stderr "$RXE_VM_TOOL" run --kernel 6.1-cloud --root-fs 9p -- true
	assert_failure 125
	[[ $stderr == *"cannot mount its root over 9p: no module or built-in for "*9p* ]] || fail "$stderr"
}

@test "rxe-vm: the initramfs loads what each kernel's modules.dep asks, compressed modules included" {
	# 5.10 has virtiofs, fuse and virtio_console as modules and no
	# virtio_pci_legacy_dev; 6.12 builds virtio and virtiofs in and keeps
	# overlay as overlay.ko.xz.
	run "$RXE_VM_TOOL" run --kernel 5.10 -- sh -c 'cut -d " " -f 1 /proc/modules'
	assert_success
	assert_line virtiofs
	assert_line fuse
	assert_line virtio_console
	refute_line virtio_pci_legacy_dev
	run "$RXE_VM_TOOL" run --kernel 6.12 -- sh -c 'cut -d " " -f 1 /proc/modules'
	assert_success
	assert_line overlay
	refute_line virtiofs
	run find "${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/vm}" -path '*6.12.*deb13*/kernel/fs/overlayfs/overlay.ko*'
	assert_output --partial 'overlay.ko.xz'
}

@test "rxe-vm: stage 1 loads a module only after those it needs, side by side where none needs another" {
	# modules/order has a line for each level, loaded at once: every module
	# a module needs must be on an earlier line (else insmod fails on an
	# unknown symbol, one boot in a few).
	run "$RXE_VM_TOOL" run --kernel 6.1-cloud -- true
	assert_success
	cache=${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/vm}
	kdir=$(ls -d "$cache/$(kernel_pkg 6.1-cloud)"_*/lib/modules/* | head -n 1)
	initrd=$(ls -t "$cache/initrd-${kdir##*/}-virtiofs-"*.cpio | head -n 1)
	cd "$BATS_TEST_TMPDIR"
	cpio -id --quiet modules/order <"$initrd"
	run awk '
	function norm(p) { sub(/.*\//, "", p); sub(/\.ko.*$/, "", p); gsub(/-/, "_", p); return p }
	FILENAME ~ /modules\.dep$/ {
		m = norm($1); for (i = 2; i <= NF; i++) deps[m] = deps[m] " " norm($i); next
	}
	{
		for (i = 1; i <= NF; i++) {
			k = split(deps[$i], d, " ")
			for (j = 1; j <= k; j++)
				if (!(d[j] in line) || line[d[j]] >= FNR)
					printf "%s on line %d needs %s, not on an earlier line\n", $i, FNR, d[j]
		}
		for (i = 1; i <= NF; i++) line[$i] = FNR
		n += NF
	}
	END { printf "%d modules on %d lines\n", n, FNR }' "$kdir/modules.dep" modules/order
	assert_success
	refute_output --partial 'needs'
	# virtio_pci needs virtio, which needs virtio_ring: three levels at least;
	# fuse and overlay need nothing and share the first.
	assert_output --regexp '^[0-9]+ modules on [3-9] lines$'
	run head -n 1 modules/order
	assert_output --regexp '(^| )fuse( |$)'
	assert_output --regexp '(^| )overlay( |$)'
}

@test "rxe-vm: shell boots the chosen kernel with a shell on the terminal" {
	# Typed once the prompt shows, as a person would: bash discards what
	# arrives while it sets the terminal up.
	in=$BATS_TEST_TMPDIR/in out=$BATS_TEST_TMPDIR/out
	mkfifo "$in"
	timeout 120 "$RXE_VM_TOOL" shell --kernel 5.10 <"$in" >"$out" 2>&1 &
	pid=$!
	exec {w}>"$in"
	for _ in $(seq 600); do
		grep -q 'root@rxe-vm' "$out" && break
		sleep 0.1
	done
	printf 'echo "kernel=$(uname -r)"\nexit 3\n' >&"$w"
	exec {w}>&-
	status=0
	wait "$pid" || status=$?
	output=$(cat "$out")
	assert_equal "$status" 3
	assert_output --regexp 'kernel=5\.10\.[0-9]+-[0-9]+-amd64'
}

@test "rxe-vm: the host's headers for the guest's kernel are at /lib/modules/KVER/build; a module builds there" {
	pkg=$(kernel_pkg 6.1-cloud)
	kver=${pkg#linux-image-}
	[ -d "/usr/src/linux-headers-$kver" ] ||
		skip "no linux-headers-$kver on this host (tools/install-deps test installs it)"
	mkdir -p "$BATS_TEST_TMPDIR/hello"
	cat >"$BATS_TEST_TMPDIR/hello/hello.c" <<-'EOF'
	#include <linux/module.h>
	static int __init hello_init(void) { pr_info("rxe-vm hello\n"); return 0; }
	static void __exit hello_exit(void) { }
	module_init(hello_init);
	module_exit(hello_exit);
	MODULE_LICENSE("GPL");
	EOF
	echo 'obj-m := hello.o' >"$BATS_TEST_TMPDIR/hello/Makefile"
	run "$RXE_VM_TOOL" run --kernel 6.1-cloud --timeout 600 -- sh -c '
		readlink /lib/modules/$(uname -r)/build
		cp -r "$1" /root/hello && make -s -C /lib/modules/$(uname -r)/build M=/root/hello modules >/dev/null 2>&1 || exit 5
		modinfo -F vermagic /root/hello/hello.ko | cut -d " " -f 1
		insmod /root/hello/hello.ko && dmesg | grep -o "rxe-vm hello"' sh "$BATS_TEST_TMPDIR/hello"
	assert_success
	assert_line --index 0 "/usr/src/linux-headers-$kver"
	assert_line --index 1 "$kver"
	assert_line --index 2 'rxe-vm hello'
	[ ! -e "$BATS_TEST_TMPDIR/hello/hello.ko" ] || fail "the build wrote to the host"
}

@test "rxe-vm: the first run's KVM probe prints only the bed's own lines" {
	[ -w /dev/kvm ] || skip "no writable /dev/kvm: the bed uses TCG without a probe"
	cache=${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/vm}
	# A copy of the cache (hard links) without the remembered answer. Boots
	# beside this one (run-tests' pool) may be writing other kernels' files
	# into it: a file that goes while cp runs is not 6.1's, made whole here
	# first, and the boot below says whether the copy served.
	run -0 "$RXE_VM_TOOL" prepare --kernel 6.1
	cp -al "$cache" "$BATS_TEST_TMPDIR/cache" 2>/dev/null || true
	rm -f "$BATS_TEST_TMPDIR/cache"/accel-*
	RXE_VM_CACHE=$BATS_TEST_TMPDIR/cache run --separate-stderr "$RXE_VM_TOOL" run -- true
	assert_success
	[[ $stderr == *'rxe-vm: KVM probe: using '* ]] || fail "no probe was made: $stderr"
	run grep -v '^rxe-vm: ' <<<"$stderr"
	assert_output ''
}

@test "rxe-vm: 5.10 booted with ipv6.disable=1: rdma_rxe loads, and check warns ipv6 with its fix" {
	run "$RXE_VM_TOOL" run --kernel 5.10 --append ipv6.disable=1 -- sh -c '
		"$1" start >/dev/null && "$1" add rxe0 "$RXE_VM_NETDEV" >/dev/null || exit 3
		"$1" check --only ipv6
		dmesg | grep -o "rdma_rxe: IPv6 is not supported.*"' sh "$RDMACTL"
	assert_success
	assert_line --regexp '^WARN  ipv6 +IPv6 is off in this kernel: the fe80:: GIDs \(index 0\) cannot be used$'
	assert_line '      fix: remove ipv6.disable=1 from the kernel command line'
	assert_line --partial 'rdma_rxe: IPv6 is not supported'
}

@test "rxe-vm: on the other kernels too, a time-out is 124 and a failed boot 125 with the console's tail" {
	run --separate-stderr "$RXE_VM_TOOL" run --kernel 6.12-cloud --timeout 12 -- sleep 120
	assert_failure 124
	[[ $stderr == *'timed out after 12 s'* ]] || fail "$stderr"
	run --separate-stderr "$RXE_VM_TOOL" run --kernel 5.10 --append rxevm.moddir=/nonexistent -- true
	assert_failure 125
	[[ $stderr == *'the guest did not reach CMD'* ]] || fail "$stderr"
	[[ $stderr == *'cannot bind /nonexistent'* ]] || fail "$stderr"
}

# One boot of systemd serves both: --setup, then systemd, then CMD.
@test "rxe-vm: --init systemd: --setup runs first, as CMD would; systemd is PID 1, CMD runs once it is up, its status comes back" {
	# A crowded host /tmp: systemd's boot once emptied it through the overlay
	# and took all of virtiofsd's descriptors. It is left alone now.
	mkdir "$BATS_TEST_TMPDIR/crowd"
	(cd "$BATS_TEST_TMPDIR/crowd" && seq 25000 | xargs touch)
	run --separate-stderr "$RXE_VM_TOOL" run --init systemd -e RXE_TEST_VAR=x \
		--setup 'echo "setup $RXE_TEST_VAR $PWD $(cat /proc/1/comm)"; echo made >/etc/rxe-vm-setup' \
		-- bash -c 'cat /proc/1/comm; systemctl is-system-running --wait; systemctl show -p ActiveState --value multi-user.target
		echo "$RXE_TEST_VAR $RXE_VM_NETDEV $PWD $(cat /etc/rxe-vm-setup)"; ls "$1" | wc -l; exit 5' sh "$BATS_TEST_TMPDIR/crowd"
	# bats shows what the test printed only when it fails.
	printf "guest stdout:\n%s\nguest stderr:\n%s\n" "$output" "$stderr"
	assert_failure 5
	# PID 1 is still the bed's stage 2, a busybox sh, when --setup runs.
	assert_line --index 0 "setup x $TOP busybox"
	assert_line --index 1 systemd
	assert_line --index 2 running
	assert_line --index 3 active
	assert_line --index 4 "x veth0 $TOP made"
	assert_line --index 5 25000
}

@test "rxe-vm: --setup that fails is the status and CMD does not run; --setup is for --init systemd" {
	run --separate-stderr "$RXE_VM_TOOL" run --init systemd --setup 'echo no >&2; exit 4' -- echo ran
	assert_failure 4
	assert_output ''
	assert_equal "$stderr" 'no'
	run "$RXE_VM_TOOL" run --setup true -- true
	assert_failure 2
	assert_output --partial -- '--setup is for --init systemd'
}

@test "rxe-vm: chroot runs CMD natively in the trixie userland: the current directory is written, nothing else reaches the host, no network" {
	cd "$BATS_TEST_TMPDIR"
	probe=/rxe-vm-chroot-probe.$$
	run --separate-stderr "$RXE_VM_TOOL" chroot --userland trixie -e RXE_TEST_VAR='a b' -- bash -c \
		'. /etc/os-release; echo "$VERSION_CODENAME $(gcc -dumpversion) [$RXE_TEST_VAR] $PWD"
		echo here >written; touch "$1"; ip -o link | cut -d: -f2 | tr -d " "; exit 3' _ "$probe"
	assert_failure 3
	assert_line --index 0 "trixie 14 [a b] $BATS_TEST_TMPDIR"
	assert_line --index 1 'lo'
	[ "${#lines[@]}" = 2 ] || fail "$output"
	assert_equal "$(cat written)" here
	[ ! -e "$probe" ] || fail "the chroot's write reached the host: $probe"
	run "$RXE_VM_TOOL" chroot -- true
	assert_failure 2
	assert_output --partial "chroot needs --userland"
	# The host's own release is no other userland: refused, nothing run.
	own=$(. /etc/os-release && echo "$VERSION_CODENAME")
	run "$RXE_VM_TOOL" chroot --userland "$own" -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output --partial "that is this host's own release"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}
