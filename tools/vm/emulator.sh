# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bed's emulator: the host's qemu where its TCG is sound, else a newer
# qemu from the Debian archive kept in the cache, else the host's with TCG
# single-threaded. Sourced by tools/rxe-vm.

# QEMU before 8.1 (Debian 12 has 7.2) lets one vCPU thread of multi-threaded
# TCG translate a page while another vCPU rewrites it, and keep running the
# stale translation: when the guest kernel patches a static key or an
# alternative (an int3 first, then the new bytes), the other vCPU may still
# run the int3 after the kernel has stopped expecting it, "Oops: int3" and a
# panic, about 1 boot in 70 of 7.3 here (docs/kernels.md). QEMU 8.1 locks the
# pages before it translates them (its commit deba78709ae8). It made the
# race rarer, not impossible: QEMU 10.0.2 still oopsed so once in 200 boots
# of 7.3-cloud with two vCPUs. With one vCPU nothing else runs the code the
# kernel rewrites, so a TCG guest has one unless asked for more (choose_smp).
readonly qemu_fixed=8.1
qemu_pkgs=(qemu-system-x86 qemu-system-data qemu-system-common)

# The version of the qemu binary $1 ("7.2.22"), remembered per binary by its
# size and time (asking it takes 17 ms a boot).
qemu_version() {
	local q f v
	q=$(command -v "$1") || return 1
	f=$cache/qemu-version-$(stat -L -c '%s-%Y-%i' "$q")
	if [ -s "$f" ]; then
		read -r v <"$f" && echo "$v"
		return
	fi
	v=$("$q" --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p')
	[ -n "$v" ] || return 1
	mkdir -p "$cache" && echo "$v" >"$f"
	echo "$v"
}

# Whether dotted version $1 ("7.2.22") is $2 ("8.1") or later: the numbers
# qemu --version prints, compared without a process (dpkg took 20 ms a boot).
version_ge() {
	local -a a b
	local i
	IFS=. read -ra a <<<"$1"
	IFS=. read -ra b <<<"$2"
	for ((i = 0; i < ${#b[@]} || i < ${#a[@]}; i++)); do
		[[ ${a[i]:-0} =~ ^[0-9]+$ && ${b[i]:-0} =~ ^[0-9]+$ ]] || return 2
		((10#${a[i]:-0} > 10#${b[i]:-0})) && return 0
		((10#${a[i]:-0} < 10#${b[i]:-0})) && return 1
	done
	return 0
}

# The suite of this host's release that may hold a newer qemu built for it.
emulator_suite() {
	local c
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME-}")
	[ -n "$c" ] && echo "$c-backports"
}

# Download and unpack (once) the newest qemu of the host release's backports
# into $cache/qemu/VERSION; prints that directory. In a subshell: a failure
# (die) ends the fetch, not the boot.
fetch_emulator() (
	local suite ver d tmp p missing
	suite=$(emulator_suite) || die "no release name in /etc/os-release"
	apt_setup "$suite"
	ver=$(apt-cache "${aptopts[@]}" policy qemu-system-x86 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$ver" ] && [ "$ver" != '(none)' ] || die "$suite has no qemu-system-x86"
	dpkg --compare-versions "${ver#*:}" ge "$qemu_fixed" || die "$suite's qemu is $ver, older than $qemu_fixed"
	d=$cache/qemu/${ver//[:~+]/_}
	if [ ! -f "$d/.done" ]; then
		say "fetching qemu $ver from $suite into $d (once): the host's qemu $host_qemu has a TCG bug (docs/kernels.md)"
		tmp=$d.tmp
		rm -rf "$tmp" && mkdir -p "$tmp/debs" || die "cannot create $tmp"
		(cd "$tmp/debs" && apt-get "${aptopts[@]}" download -q "${qemu_pkgs[@]/%/=$ver}" >"$tmp/log" 2>&1) ||
			die "apt-get download qemu $ver failed: $(grep -m 2 -E '^(E|W):' "$tmp/log" | tr '\n' ' ')"
		for p in "$tmp"/debs/*.deb; do
			dpkg-deb -x "$p" "$tmp/root" || die "cannot unpack $p"
		done
		missing=$(ldd "$tmp/root/usr/bin/qemu-system-x86_64" 2>&1 | awk '/not found/ { print $1 }' | paste -sd' ')
		[ -z "$missing" ] || die "qemu $ver needs libraries this host lacks: $missing"
		rm -rf "$tmp/debs" "$tmp/log" "$d"
		echo "$ver" >"$tmp/version"
		mv "$tmp" "$d" && touch "$d/.done" || die "cannot move $tmp to $d"
	fi
	echo "$d"
)

# The directory of the newer qemu (fetch_emulator), or nothing where none
# can be had: resolved once and remembered in the cache, as kernels are
# (asking apt took 1.2 s of every boot); --refresh resolves again.
chosen_emulator() {
	local f=$cache/qemu/chosen d locked=
	# Written whole by mv: read without the lock first, then again under it
	# (another boot may have fetched meanwhile); the lock is held to fetch.
	while :; do
		if [ -z "$refresh" ] && [ -f "$f" ]; then
			d=
			read -r d <"$f"
			if [ -z "$d" ] || [ -f "$d/.done" ]; then
				[ -z "$locked" ] || flock -u 9
				echo "$d"
				return
			fi
		fi
		[ -z "$locked" ] || break
		exec 9>"$cache/.lock"
		flock 9
		locked=1
	done
	d=$(fetch_emulator) || d=
	mkdir -p "$cache/qemu" && echo "$d" >"$f.tmp" && mv "$f.tmp" "$f"
	flock -u 9
	echo "$d"
}

# Sets qemu_bin (and the firmware, qboot) and tcg_opts for a TCG boot:
# RXE_VM_QEMU if set, else the host's qemu if it is $qemu_fixed or later,
# else the cached newer one, else the host's with one TCG thread for all
# vCPUs (safe, and half as fast for a guest's parallel work: said).
# RXE_VM_TCG=single|multi overrides the threading.
choose_emulator() {
	local d
	tcg_opts=thread=multi
	if [ -n "${RXE_VM_QEMU-}" ]; then
		qemu_bin=$RXE_VM_QEMU
	elif [ "$use_accel" = tcg ]; then
		host_qemu=$(qemu_version qemu-system-x86_64) || die "cannot tell the version of qemu-system-x86_64"
		if ! version_ge "$host_qemu" "$qemu_fixed"; then
			d=$(chosen_emulator)
			if [ -n "$d" ]; then
				qemu_bin=$d/root/usr/bin/qemu-system-x86_64
				qemu_firmware=$d/root/usr/share/qemu
				export QEMU_MODULE_DIR=$d/root/usr/lib/x86_64-linux-gnu/qemu
				[ -r "$qemu_firmware/qboot.rom" ] && qboot=$qemu_firmware/qboot.rom
			else
				tcg_opts=thread=single
				say "running TCG single-threaded instead (slower): the host's qemu $host_qemu is older than $qemu_fixed (--refresh looks for a newer one again)"
			fi
		fi
	fi
	case "${RXE_VM_TCG-}" in
	'') ;;
	single|multi) tcg_opts=thread=$RXE_VM_TCG ;;
	*) die "RXE_VM_TCG takes single or multi" ;;
	esac
}

# The guest's CPUs: --smp or RXE_VM_SMP if given, else 2 under KVM and 1
# under TCG. Under TCG a second vCPU can run a stale translation of code the
# guest kernel is patching (above), and it buys little on the hosts that
# lack KVM: a boot of one took 3.6 s against 4.0 s with two, and the test
# runner's guests share two host cores anyway.
choose_smp() {
	[ -n "$smp" ] && return
	if [ "$use_accel" = kvm ]; then smp=2; else smp=1; fi
}
