# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bed's qemu: the machine, its root file system (virtiofs or 9p), the
# accelerator, the guests' network. Sourced by tools/rxe-vm.

# The root file system: virtiofs, or 9p where virtiofsd is missing (said once).
choose_rootfs() {
	use_fs=$rootfs
	if [ "$use_fs" = auto ]; then
		if [ -x "$virtiofsd" ] && [ "$EUID" = 0 ]; then
			use_fs=virtiofs
		else
			use_fs=9p
			if [ ! -x "$virtiofsd" ]; then
				say "no $virtiofsd (qemu-system-common): sharing the root over 9p"
			else
				say "virtiofsd needs root: sharing the root over 9p"
			fi
		fi
	elif [ "$use_fs" = virtiofs ]; then
		[ -x "$virtiofsd" ] || die "--root-fs virtiofs: no $virtiofsd: apt-get install qemu-system-common"
		[ "$EUID" = 0 ] || die "--root-fs virtiofs needs root (virtiofsd)"
	fi
}

qemu_base() {
	local a=$1
	# q35: its PCI interrupts need no ACPI link routing, which under TCG took
	# some 120 ms a virtio device on the default machine (i440fx).
	qargs=("$qemu_bin" -machine q35 -nodefaults -display none -monitor none -no-reboot
		-no-user-config -m "$mem" -smp "$smp" -initrd "$initrd"
		-device isa-debug-exit,iobase=0xf4,iosize=0x04)
	# qboot instead of SeaBIOS, and the ELF kernel through PVH where there is one:
	# neither the firmware's loader nor the decompressor runs under emulation.
	[ -n "$qemu_firmware" ] && qargs+=(-L "$qemu_firmware")
	[ -r "$qboot" ] && qargs+=(-bios "$qboot")
	qargs+=(-kernel "${vmlinux:-$vmlinuz}")
	if [ "$a" = kvm ]; then
		qargs+=(-accel kvm -cpu host)
	else
		# cx16 off: 6.12-cloud under this TCG crashes in SLUB's cmpxchg16b fast path
		# about one boot in three; without cx16 the kernel takes its other path.
		qargs+=(-accel "tcg,$tcg_opts" -cpu "${RXE_VM_CPU:-max,cx16=off}")
	fi
}

# The host's root for guest $1 (directory $2): 9p straight from qemu, or a
# virtiofsd of its own serving a read-only view of the root.
qemu_rootfs() {
	local h=$1 dir=$2
	if [ "$use_fs" = 9p ]; then
		qargs+=(-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
		return
	fi
	start_virtiofsd "$h" "$dir"
	qargs+=(-object "memory-backend-memfd,id=mem,size=${mem}M,share=on" -numa node,memdev=mem
		-chardev "socket,id=vfs,path=$dir/vfs.sock"
		-device vhost-user-fs-pci,queue-size=1024,chardev=vfs,tag=hostroot)
}

# virtiofsd has no read-only mode: it serves a recursive bind of / in a mount
# namespace of its own, every mount in it read-only (vm/vfs-view.c, built by
# prepare_initrd), so a guest that mounts the share again read-write still
# cannot write to the host.
start_virtiofsd() {
	local h=$1 dir=$2
	mkdir -p "$dir/root"
	# virtiofsd holds a descriptor for each inode the guest has cached,
	# under the open-files limit it inherits and does not raise: the soft
	# one is raised to the hard one here. A login shell's soft limit is
	# often 1024, which a guest outgrows at once (find, dpkg and bats fail
	# with "Too many open files"); the hard one is 20000 on CI's machine.
	ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true
	"$vfs_view" ${userland_root:+--root "$userland_root"} "$dir/root" "$virtiofsd" --socket-path="$dir/vfs.sock" -o source="$dir/root" \
		-o sandbox=chroot -o cache=always -o log_level=err </dev/null >"$dir/virtiofsd.log" 2>&1 &
	vpid[$h]=$!
	# It is up in 5-9 ms here: look every 5.
	for _ in $(seq 800); do
		[ -S "$dir/vfs.sock" ] && return
		kill -0 "${vpid[$h]}" 2>/dev/null || break
		sleep 0.005
	done
	die "virtiofsd did not start: $(tr '\n' ' ' <"$dir/virtiofsd.log")"
}

# cryptomgr.notests: the kernel's self-tests of its crypto code took 0.2 s of a
# boot under TCG; the bed tests RDMA, not those algorithms.
cmdline_base() {
	append="console=ttyS0 quiet panic=-1 cryptomgr.notests rxevm.kver=$kver rxevm.moddir=$kdir/lib/modules/$kver rxevm.fs=$use_fs"
}

# KVM hangs at boot on some hosts though /dev/kvm exists: boot once to see,
# remember the answer per host kernel and qemu.
choose_accel() {
	local key f rc q
	if [ "$accel" != auto ]; then
		use_accel=$accel
		return
	fi
	if [ ! -w /dev/kvm ]; then
		use_accel=tcg
		return
	fi
	# The emulator by its size and time (asking it its version takes 17 ms).
	q=$(command -v qemu-system-x86_64)
	key=$(uname -r)-qemu$(stat -L -c '%s-%Y' "$q")
	f=$cache/accel-$key
	if [ -f "$f" ]; then
		use_accel=$(cat "$f")
		return
	fi
	say "probing KVM (once; remembered in $f)"
	qemu_base kvm
	cmdline_base
	# In a subshell of its own: a qemu killed by the time-out must not make
	# this shell report the signal on the user's terminal.
	(timeout -k 2 20 "${qargs[@]}" -serial "file:$cache/.probe" -append "$append rxevm.probe=1" \
		</dev/null >/dev/null 2>&1; true) 2>/dev/null
	# Stage 1 says it was reached on the console, then powers off.
	if grep -q 'rxe-vm: probe reached' "$cache/.probe" 2>/dev/null; then use_accel=kvm; else use_accel=tcg; fi
	rm -f "$cache/.probe"
	echo "$use_accel" >"$f"
	say "KVM probe: using $use_accel"
}

free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		[ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ] && { echo $p; return; }
	done
	return 1
}

# A virtio-serial port the guest finds by NAME, written to host file PATH.
vport() {
	qargs+=(-chardev "file,id=$1,path=$2" -device "virtserialport,bus=vs.0,chardev=$1,name=rxevm.$1")
}

# Start guest $1 of $hosts in the background; sets qpid[$1].
start_guest() {
	local h=$1 mode=$2 share
	local dir=$rundir/$h
	mkdir -p "$dir"
	write_payload "$dir"
	: >"$dir/ctl"
	: >"$dir/console"
	qemu_base "$use_accel"
	qemu_rootfs "$h" "$dir"
	cmdline_base
	# norandmaps under TCG: the emulator keeps the code it has translated by
	# virtual address, so with randomized mappings each new process translated
	# its loader, C library and program again. A process starts 2 to 2.5 times
	# faster without (/bin/true 42 ms, then 18). A payload that needs ASLR sets
	# kernel.randomize_va_space back to 2; under KVM it stays on.
	# mitigations=off under TCG too: the guest's code never runs on the host's
	# CPU, whose speculation those barriers and retpolines guard against, and
	# they cost the emulator (a bats test of 'true' 0.98 s with them, 0.88 s
	# without; jq's start 544 ms, then 445). Under KVM they stay on.
	[ "$use_accel" != tcg ] || append+=" norandmaps mitigations=off"
	append+=" rxevm.run=$dir rxevm.host=$h rxevm.hosts=$hosts rxevm.mode=$mode rxevm.init=$init$extra_append"
	if [ -n "$userland_root" ]; then
		share=$(userland_shares) || exit $EX_BED
		append+=" rxevm.share=$share"
	fi
	# Only the console is a UART: ISA serial ports share IRQs in pairs, which
	# loses interrupts. CMD's streams and the status use virtio-serial ports.
	qargs+=(-device virtio-serial-pci,id=vs)
	if [ "$mode" = shell ]; then
		qargs+=(-chardev stdio,id=con,signal=off -serial chardev:con)
	else
		mkfifo "$dir/out" "$dir/err"
		if [ "$hosts" = 2 ]; then
			sed -u "s/^/[$h] /" <"$dir/out" &
			sed -u "s/^/[$h] /" <"$dir/err" >&2 &
		else
			cat "$dir/out" &
			cat "$dir/err" >&2 &
		fi
		qargs+=(-serial "file:$dir/console")
		vport out "$dir/out"
		vport err "$dir/err"
	fi
	vport ctl "$dir/ctl"
	if [ "$hosts" = 2 ]; then
		if [ "$h" = 1 ]; then
			qargs+=(-netdev "socket,id=n0,listen=127.0.0.1:$port")
		else
			qargs+=(-netdev "socket,id=n0,connect=127.0.0.1:$port")
		fi
		qargs+=(-device "virtio-net-pci,netdev=n0,mac=52:54:00:12:00:0$h")
	fi
	if [ "$mode" = shell ]; then
		# An explicit redirection: a background job's stdin is /dev/null otherwise.
		timeout -k 5 --foreground "$timeout" "${qargs[@]}" -append "$append" <&0 &
	else
		timeout -k 5 "$timeout" "${qargs[@]}" -append "$append" </dev/null 2>"$dir/qemu.err" &
	fi
	qpid[$h]=$!
	boot_watch "$h" "$dir" &
	wpid[$h]=$!
}
