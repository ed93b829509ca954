# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bed's kernels: names, the private apt setup that resolves and downloads
# them, and their unpacked trees. Sourced by tools/rxe-vm.

# The kernels the bed knows by name: NAME SUITE META-PACKAGE. Each NAME resolves to
# the package META depends on in SUITE's index, the newest one.
kernel_names=(
	"6.1 bookworm linux-image-amd64"
	"6.1-cloud bookworm linux-image-cloud-amd64"
	"5.10 bullseye linux-image-amd64"
	"6.12 trixie linux-image-amd64"
	"6.12-cloud bookworm-backports linux-image-cloud-amd64"
	"7.3 trixie-backports linux-image-amd64"
	"7.3-cloud trixie-backports linux-image-cloud-amd64"
)

# The suites a linux-image-* package name is looked for in, in this order.
kernel_suites=(bookworm bookworm-backports trixie trixie-backports bullseye forky sid)

known_kernel() {
	local k
	[[ $1 =~ ^linux-image-[0-9][a-z0-9.+~-]*$ ]] && return 0
	for k in "${kernel_names[@]}"; do
		[ "${k%% *}" = "$1" ] && return 0
	done
	return 1
}

kernel_names_list() {
	local k
	for k in "${kernel_names[@]}"; do printf '%s ' "${k%% *}"; done
}

# The Debian archive and security URIs the host's apt already uses (never a
# host name of our own), overridable with RXE_VM_MIRROR / RXE_VM_SECURITY_MIRROR.
apt_uris() {
	local codename
	[ -n "${archive_uri-}" ] && return
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME-}")
	read -r archive_uri security_uri < <(apt-get indextargets --no-release-info --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
		awk -v c="$codename" '$2 == c && !a { a = $1 } $2 == c "-security" && !s { s = $1 }
			END { print a, s }')
	archive_uri=${RXE_VM_MIRROR:-$archive_uri}
	security_uri=${RXE_VM_SECURITY_MIRROR:-$security_uri}
	[ -n "$archive_uri" ] ||
		die "no Debian archive in this host's apt sources: set RXE_VM_MIRROR to a Debian mirror's URI"
}

# A private apt setup per suite, kept in the cache: the host's sources, lists
# and preferences are never read or changed. Sets aptopts.
apt_setup() {
	local suite=$1 d=$cache/apt/$1 key=/usr/share/keyrings/debian-archive-keyring.gpg s
	apt_uris
	[ -r "$key" ] || die "no $key: apt-get install debian-archive-keyring"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" || die "cannot create $d"
	{
		case "$suite" in
		*-backports) echo "deb [signed-by=$key] $archive_uri $suite main" ;;
		*)
			for s in "$suite" "$suite-updates"; do
				echo "deb [signed-by=$key] $archive_uri $s main"
			done
			[ -n "$security_uri" ] && echo "deb [signed-by=$key] $security_uri $suite-security main" ;;
		esac
	} >"$d/sources.list.new"
	if ! cmp -s "$d/sources.list.new" "$d/sources.list"; then
		mv "$d/sources.list.new" "$d/sources.list"
		rm -f "$d/lists/"*_Packages* "$d/lists/"*Release*
	fi
	rm -f "$d/sources.list.new"
	aptopts=(-o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o APT::Sandbox::User=root)
	if [ "${2-}" = update ] || ! compgen -G "$d/lists/*_Packages*" >/dev/null; then
		say "fetching the $suite package index into $d"
		apt-get "${aptopts[@]}" update -qq >"$d/update.log" 2>&1 ||
			die "apt-get update for $suite failed: $(grep -m 3 -E '^(E|W):' "$d/update.log" | tr '\n' ' ')"
	fi
}

# NAME -> "SUITE PACKAGE", resolved once and remembered in the cache (offline
# afterwards); --refresh resolves again.
resolve_kernel() {
	local name=$1 k n suite meta pkg f=$cache/kernels/$1 upd=${refresh:+update} l
	if [ -z "$refresh" ] && [ -s "$f" ]; then
		read -r l <"$f" && echo "$l"
		return
	fi
	for k in "${kernel_names[@]}"; do
		read -r n suite meta <<<"$k"
		[ "$n" = "$name" ] || continue
		apt_setup "$suite" "$upd"
		pkg=$(apt-cache "${aptopts[@]}" depends "$meta" 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
		[ -n "$pkg" ] || die "$suite's $meta depends on no linux-image package"
		break
	done
	if [ -z "${pkg-}" ]; then
		# A package name: the first suite whose index has it.
		for suite in "${kernel_suites[@]}"; do
			apt_setup "$suite" "$upd"
			apt-cache "${aptopts[@]}" show --no-all-versions "$name" >/dev/null 2>&1 &&
				{ pkg=$name; break; }
		done
		[ -n "${pkg-}" ] || die "no package $name in ${kernel_suites[*]}"
	fi
	mkdir -p "$cache/kernels"
	echo "$suite $pkg" >"$f.tmp" && mv "$f.tmp" "$f"
	cat "$f"
}

# The cached .deb of PACKAGE, if any.
cached_deb() {
	local d=("$cache/debs/$1"_*.deb)
	# One version, the usual case, without a process of its own.
	if [ ${#d[@]} = 1 ]; then
		[ -f "${d[0]}" ] && echo "${d[0]}"
		return 0
	fi
	ls -1t "${d[@]}" 2>/dev/null | head -n 1
}

# The parts of a split kernel package (Debian's from 7.x on): the packages
# the linux-image .deb $1 depends on for its kernel (linux-binary-KVER), its
# modules (linux-modules-KVER) and their config and lists (linux-base-KVER).
# None for a package that holds them itself.
kernel_parts() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/[(|].*//; s/ //g' |
		grep -E '^linux-(base|binary|modules)-[0-9]'
}

# The linux-image .deb of kernel NAME, downloaded once.
kernel_deb_of() {
	local suite pkg
	read -r suite pkg < <(resolve_kernel "$1") || exit $EX_BED
	[ -n "$pkg" ] || exit $EX_BED
	download_deb "$suite" "$pkg" || exit $EX_BED
}

# The parts of kernel NAME's split package, downloaded once, one a line.
kernel_deb_parts_of() {
	local suite pkg p
	read -r suite pkg < <(resolve_kernel "$1") || exit $EX_BED
	for p in $(kernel_parts "$2"); do
		download_deb "$suite" "$p" || exit $EX_BED
	done
}

# The cached .deb of PACKAGE from SUITE, downloaded first if need be.
download_deb() {
	local suite=$1 pkg=$2 deb
	deb=$(cached_deb "$pkg")
	if [ -z "$deb" ]; then
		apt_setup "$suite"
		say "downloading $pkg from $suite into $cache/debs (once)"
		mkdir -p "$cache/debs"
		(cd "$cache/debs" && apt-get "${aptopts[@]}" download -q "$pkg" >"$cache/debs/.log" 2>&1) ||
			die "apt-get download $pkg failed: $(grep -m 2 -E '^(E|W):' "$cache/debs/.log" | tr '\n' ' ')"
		deb=$(cached_deb "$pkg")
		[ -n "$deb" ] || die "apt-get download $pkg left no .deb in $cache/debs"
	fi
	echo "$deb"
}

# The parts of the split linux-image FILE given by --kernel-deb, from FILE's
# own directory.
kernel_deb_parts_beside() {
	local deb=$1 p f
	for p in $(kernel_parts "$deb"); do
		f=$(ls -1t "$(dirname "$deb")/${p}"_*.deb 2>/dev/null | head -n 1)
		[ -n "$f" ] || die "$(basename "$deb") is split: put the $p .deb beside it"
		echo "$f"
	done
}

# The uncompressed ELF kernel inside bzImage $1, written to $2: booted directly
# (PVH) it skips the firmware's loader and the decompression under emulation.
extract_vmlinux() {
	local img=$1 out=$2 magic tool off
	for magic in '\x1f\x8b\x08' '\xfd7zXZ\x00' '\x28\xb5\x2f\xfd' '\x02\x21\x4c\x18'; do
		case "$magic" in
		'\x1f'*) tool='gzip -dc' ;; '\xfd'*) tool='xz -dc' ;;
		'\x28'*) tool='zstd -qdc' ;; *) tool='lz4 -dc' ;;
		esac
		for off in $(LC_ALL=C grep -obUaP "$magic" "$img" 2>/dev/null | cut -d: -f1 | head -n 5); do
			tail -c +$((off + 1)) "$img" | $tool >"$out" 2>/dev/null
			[ "$(head -c 4 "$out" 2>/dev/null)" = $'\x7fELF' ] && return 0
		done
	done
	rm -f "$out"
	return 1
}

# The kernel's FILE (vmlinuz, config) in the unpacked tree DIR: in boot/ as
# FILE-KVER, or in lib/modules/KVER/ as split packages keep it; empty if neither.
kernel_file() {
	local f
	for f in "$1/boot/$3-$2" "$1/lib/modules/$2/$3"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
}

# Download (once) and unpack the kernel package; sets kver, kdir, vmlinuz and
# vmlinux (empty when the kernel cannot boot through PVH).
prepare_kernel() {
	local deb debs mods d cfg img
	local -a v
	[ -d "$cache" ] || mkdir -p "$cache" || die "cannot create the cache $cache"
	exec 9>"$cache/.lock"
	flock 9
	if [ -n "$kernel_deb" ]; then
		# A .deb given by hand: its parts must be beside it, unpacked or not.
		debs=$(echo "$kernel_deb"; kernel_deb_parts_beside "$kernel_deb") || exit $EX_BED
		deb=$kernel_deb
	else
		known_kernel "$kernel" || usage_die "RXE_VM_KERNEL=$kernel: not one of $(kernel_names_list)nor a linux-image-* package name"
		deb=$(kernel_deb_of "$kernel") || exit $EX_BED
	fi
	d=${deb##*/}
	kdir=$cache/${d%.deb}
	[[ $kdir != *[[:space:]]* ]] || die "the cache path must not contain white space: $cache"
	if [ ! -f "$kdir/.done" ]; then
		# A named kernel's parts: looked for only to unpack (dpkg-deb -f).
		[ -n "$kernel_deb" ] || debs=$(echo "$deb"; kernel_deb_parts_of "$kernel" "$deb") || exit $EX_BED
		say "unpacking $(basename "$deb")"
		rm -rf "$kdir" "$kdir.tmp"
		for d in $debs; do
			dpkg-deb -x "$d" "$kdir.tmp" || die "cannot unpack $d"
		done
		# Newer packages keep the modules in usr/lib/modules: one path for all.
		if [ ! -d "$kdir.tmp/lib/modules" ] && [ -d "$kdir.tmp/usr/lib/modules" ]; then
			mkdir -p "$kdir.tmp/lib" && ln -s ../usr/lib/modules "$kdir.tmp/lib/modules"
		fi
		kver=$(ls -1 "$kdir.tmp/lib/modules/" 2>/dev/null | head -n 1)
		[ -n "$kver" ] || die "$deb has no lib/modules or usr/lib/modules: not a kernel image package"
		depmod -b "$kdir.tmp" "$kver" || die "depmod failed for $kver"
		mods=$kdir.tmp/lib/modules/$kver
		# Split packages keep the kernel and its config beside the modules.
		img=$(kernel_file "$kdir.tmp" "$kver" vmlinuz)
		cfg=$(kernel_file "$kdir.tmp" "$kver" config)
		[ -n "$img" ] || die "$(basename "$deb") has no boot/vmlinuz-$kver nor lib/modules/$kver/vmlinuz"
		if grep -q '^CONFIG_PVH=y' "$cfg" 2>/dev/null; then
			extract_vmlinux "$img" "$kdir.tmp/vmlinux" ||
				say "cannot unpack vmlinux from $(basename "$img"): booting the compressed kernel"
		fi
		[ -f "$mods/modules.dep" ] || die "depmod wrote no modules.dep for $kver"
		mv "$kdir.tmp" "$kdir" && touch "$kdir/.done"
	fi
	# The one version the package has (a glob: no process a boot).
	v=("$kdir"/lib/modules/*/)
	kver=${v[0]%/}
	kver=${kver##*/}
	vmlinuz=$(kernel_file "$kdir" "$kver" vmlinuz)
	[ -n "$vmlinuz" ] || die "$deb has no boot/vmlinuz-$kver"
	vmlinux=
	[ -f "$kdir/vmlinux" ] && [ -z "${RXE_VM_NO_PVH-}" ] && vmlinux=$kdir/vmlinux
	flock -u 9
}

# The headers and source packages of kernel NAME's version, downloaded once
# into $cache/build-debs/KVER, with the source tarball unpacked beside them.
build_debs() {
	local suite pkg deb ver srcver series d p
	prepare_kernel
	read -r suite pkg < <(resolve_kernel "$kernel") || exit $EX_BED
	deb=$(cached_deb "$pkg")
	ver=$(dpkg-deb -f "$deb" Version) || die "cannot read the version of $deb"
	series=$(echo "$kver" | cut -d. -f1,2)
	d=$cache/build-debs/$kver
	if [ ! -f "$d/.done" ]; then
		apt_setup "$suite"
		rm -rf "$d" && mkdir -p "$d" || die "cannot create $d"
		srcver=${kver%-amd64}
		srcver=${srcver%-cloud}
		srcver=${srcver%-rt}
		say "downloading the headers and source of $kver ($ver) into $d (once)"
		# linux-base: the headers' hooks (linux-run-hooks), from the kernel's suite.
		(cd "$d" && apt-get "${aptopts[@]}" download -q "linux-headers-$kver=$ver" \
			"linux-headers-$srcver-common=$ver" "linux-kbuild-$srcver=$ver" \
			"linux-source-$series=$ver" linux-base >"$d/.log" 2>&1) ||
			die "apt-get download failed: $(grep -m 2 -E '^(E|W):' "$d/.log" | tr '\n' ' ')"
		# pahole, which linux-kbuild needs, from the kernel's own release.
		if ! dpkg-query -W pahole >/dev/null 2>&1; then
			apt_setup "${suite%-backports}"
			(cd "$d" && apt-get "${aptopts[@]}" download -q pahole >"$d/.log" 2>&1) ||
				die "apt-get download pahole failed: $(grep -m 2 -E '^(E|W):' "$d/.log" | tr '\n' ' ')"
		fi
		p=$(ls "$d"/linux-source-*.deb) || die "no linux-source .deb in $d"
		dpkg-deb --fsys-tarfile "$p" | tar -x -C "$d" --wildcards './usr/src/linux-source-*.tar.xz' ||
			die "cannot unpack the source tarball from $p"
		rm -f "$p" "$d/.log"
		touch "$d/.done"
	fi
	echo "$d"
}

# PKG... and what they need that this host (with --userland SUITE, that
# userland of the bed's) has not installed, from this host's own apt sources
# (SUITE's, through the bed's private apt setup), downloaded once into
# $cache/host-debs/[SUITE/]PKG+PKG (nothing when all are there); prints the
# directory.
host_debs() {
	local p d opts=()
	if [ "${1-}" = --userland ]; then
		known_userland "${2-}" && [ "${2-}" != host ] ||
			usage_die "host-debs --userland takes one of: ${userland_suites[*]}"
		userland=$2
		shift 2
		[ $# -ge 1 ] || usage_die "host-debs takes package names"
	fi
	for p in "$@"; do
		[[ $p =~ ^[a-z0-9][a-z0-9.+-]+$ ]] || usage_die "host-debs: '$p' is not a package name"
	done
	mkdir -p "$cache" || die "cannot create the cache $cache"
	d=$cache/host-debs/$(IFS=+; echo "$*")
	if [ "$userland" != host ]; then
		prepare_userland
		if [ -n "$userland_root" ]; then
			d=$cache/host-debs/$userland/$(IFS=+; echo "$*")
			apt_setup "$userland"
			opts=("${aptopts[@]}" -o "Dir::State::status=$userland_root/var/lib/dpkg/status")
		fi
	fi
	if [ ! -f "$d/.done" ]; then
		mkdir -p "$d/partial" || die "cannot create $d"
		exec 9>"$d/.lock"
		flock 9
		if [ ! -f "$d/.done" ]; then
			say "downloading $* with what $([ -n "$userland_root" ] && echo "the $userland userland" || echo "this host") lacks of their dependencies into $d (once)"
			apt-get "${opts[@]}" -q -y --no-install-recommends --download-only \
				-o Dir::Cache::archives="$d" install "$@" >"$d/.log" 2>&1 ||
				die "apt-get --download-only install $* failed: $(grep -m 2 -E '^(E|W):' "$d/.log" | tr '\n' ' ')"
			rm -rf "$d/partial" "$d/.log" "$d/lock"
			touch "$d/.done"
		fi
		flock -u 9
	fi
	echo "$d"
}

# The file of MODULE in kernel NAME's unpacked tree.
module_file() {
	local f
	prepare_kernel
	f=$(find "$kdir/lib/modules/$kver/" -name "$1.ko*" -print -quit)
	[ -n "$f" ] || die "kernel $kver has no module $1"
	echo "$f"
}

list_kernels() {
	local k name suite pkg deb state
	mkdir -p "$cache" || die "cannot create the cache $cache"
	exec 9>"$cache/.lock"
	flock 9
	printf '%-11s %-19s %-40s %s\n' NAME SUITE PACKAGE CACHED
	for k in "${kernel_names[@]}"; do
		name=${k%% *}
		read -r suite pkg < <(resolve_kernel "$name")
		[ -n "${pkg-}" ] || exit $EX_BED
		deb=$(cached_deb "$pkg")
		state=no
		[ -n "$deb" ] && state=yes
		[ -f "$cache/$(basename "${deb:-none}" .deb)/.done" ] && state="yes, unpacked"
		printf '%-11s %-19s %-40s %s\n' "$name" "$suite" "$pkg" "$state"
	done
}
