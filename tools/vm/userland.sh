# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A Debian userland of the bed's own (--userland SUITE): a root made once
# with mmdebstrap from the archive this host's apt uses, holding what building
# rdmactl and running its tests need (tools/install-deps --list guest), cached
# and booted read-only under the guest's tmpfs overlay like the host's own
# root. The host's checkout, the bed's cache and run directory (and
# --share's paths) are shown in it at their own paths. Its SSH server has no
# host key and does not start with the system: one root serves every guest,
# and a guest that serves SSH makes a key of its own. Sourced by
# tools/rxe-vm.

# The suites a userland can be made of.
userland_suites=(bookworm trixie forky sid)

known_userland() {
	local s
	[ "$1" = host ] && return 0
	for s in "${userland_suites[@]}"; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}

# Sets userland_root: empty for the host's own root (also when SUITE is the
# host's own release), else the cached root of SUITE, made first if need be.
prepare_userland() {
	local suite=$userland d key t0 inc lines
	userland_root=
	[ "$suite" = host ] && return
	[ "$suite" != "$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME-}")" ] || return 0
	# A guest's root over 9p cannot be a userland (unset: no guest, host-debs).
	[ -z "${use_fs-}" ] || [ "$use_fs" = virtiofs ] || [ "$use_fs" = chroot ] ||
		die "--userland $suite needs the root shared over virtiofs (as root, with qemu-system-common)"
	d=$cache/userland/$suite
	userland_root=$d/root
	inc=$("$here/install-deps" --list guest | paste -sd,) || die "tools/install-deps --list guest failed"
	# systemd.pc: systemd-dev from Debian 13 on, systemd itself before.
	case "$suite" in bookworm) inc+=,systemd ;; *) inc+=,systemd-dev ;; esac
	# Made again when the list of packages changed; one maker at a time.
	exec 9>"$cache/.lock"
	flock 9
	[ -f "$d/.done" ] && [ "$(cat "$d/packages" 2>/dev/null)" = "$inc" ] && { flock -u 9; return; }
	command -v mmdebstrap >/dev/null || die "--userland $suite: no mmdebstrap: apt-get install mmdebstrap"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	apt_uris
	lines=("deb [signed-by=$key] $archive_uri $suite main")
	# sid and forky have no updates or security suites.
	case "$suite" in
	bookworm|trixie)
		lines+=("deb [signed-by=$key] $archive_uri $suite-updates main")
		[ -z "$security_uri" ] || lines+=("deb [signed-by=$key] $security_uri $suite-security main") ;;
	esac
	say "making a $suite userland in $d with mmdebstrap (once; some minutes)"
	rm -rf "$d" && mkdir -p "$d" || die "cannot create $d"
	t0=$SECONDS
	if ! no_extra_fds mmdebstrap --mode=root --variant=apt --include="$inc" \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
		--customize-hook='mkdir -p "$1/.rxevm-host"' \
		--customize-hook='rm -f "$1"/etc/ssh/ssh_host_*' \
		--customize-hook='[ ! -e "$1/usr/lib/systemd/system/ssh.service" ] || systemctl --root="$1" --quiet disable ssh.service ssh.socket' \
		"$suite" "$d/root.tmp" \
		"${lines[@]}" >"$d/mmdebstrap.log" 2>&1; then
		rm -rf "$d/root.tmp"
		die "mmdebstrap $suite failed: $(grep -m 3 -E '^(E|W):|error' "$d/mmdebstrap.log" | tr '\n' ' ')(log: $d/mmdebstrap.log)"
	fi
	mv "$d/root.tmp" "$d/root" && echo "$inc" >"$d/packages" && touch "$d/.done"
	say "the $suite userland took $((SECONDS - t0)) s: $(du -sh "$d/root" | cut -f1)"
	flock -u 9
}

# CMD with no descriptor open but 0, 1 and 2: mmdebstrap hands apt the first
# free one for a dash script, and dash takes only 0-9 (under bats, which holds
# several open, it got 11: "Bad fd number").
no_extra_fds() {
	(
		local fd
		for fd in /proc/$BASHPID/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec "$@"
	)
}

# The host paths the guest sees in a userland of its own, comma-separated for
# the kernel's command line: the checkout, the run directory, the cache and
# --share's.
userland_shares() {
	local p out=
	for p in "$PWD" "$rundir" "$cache" "${shares[@]+"${shares[@]}"}"; do
		[[ $p != *[[:space:],]* ]] || die "--userland: a shared path must not contain white space or commas: $p"
		out+=${out:+,}$p
	done
	echo "$out"
}

# CMD natively, without a VM, in the userland's root (--userland), for the
# work that needs the release's compiler and tools but not its kernel: a
# build, its unit tests, a package and its lintian, at the host's speed
# rather than the emulator's (vm/chroot-run sets the root up).
userland_chroot() {
	[ -n "$userland_root" ] ||
		usage_die "chroot --userland $userland: that is this host's own release: run CMD as it is"
	command -v unshare >/dev/null || die "chroot needs unshare (util-linux)"
	[ "$EUID" = 0 ] || die "chroot needs root"
	# The overlay's mount point: empty on the host, a tmpfs in the namespace.
	rundir=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm.XXXXXX") || die "mktemp failed"
	trap cleanup EXIT
	unshare --mount --propagation private --net --pid --fork --kill-child -- \
		"$here/vm/chroot-run" "$rundir" "$userland_root" "$PWD" "${#shares[@]}" "${shares[@]+"${shares[@]}"}" \
		"${#envs[@]}" "${envs[@]+"${envs[@]}"}" "${cmd[@]}"
	exit
}
