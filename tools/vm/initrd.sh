# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bed's initramfs: stage 1 and the modules it loads, from the kernel's own
# modules.dep. Sourced by tools/rxe-vm.

file_is_static() {
	# A dynamic busybox would need the host's libc inside the initramfs.
	! LC_ALL=C readelf -l "$1" 2>/dev/null | grep -q 'INTERP'
}

# The modules ROOT... need, with what they depend on, in load order, as lines
# "LEVEL PATH": PATH below the kernel's module directory, LEVEL 0 for a module
# that needs no other in the list, else one more than the highest of those it
# needs (modules of one level can load side by side). Built-in ones are left
# out. From the kernel's own modules.dep and modules.builtin.
module_closure() {
	local dir=$1
	shift
	awk -v roots="$*" '
	function norm(p, n) {
		n = p; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n)
		return n
	}
	function visit(n, d, k, i, l) {
		if (n in seen) return
		seen[n] = 1
		if (n in builtin) return
		if (!(n in path)) { missing = missing " " n; return }
		k = split(deps[n], d, " ")
		l = 0
		for (i = 1; i <= k; i++) {
			visit(d[i])
			if ((d[i] in level) && level[d[i]] >= l) l = level[d[i]] + 1
		}
		level[n] = l
		print l, path[n]
	}
	FILENAME ~ /modules\.builtin$/ { builtin[norm($1)] = 1; next }
	{
		m = $1; sub(/:$/, "", m); n = norm(m); path[n] = m; deps[n] = ""
		for (i = 2; i <= NF; i++) deps[n] = deps[n] " " norm($i)
	}
	END {
		k = split(roots, r, " ")
		for (i = 1; i <= k; i++) visit(r[i])
		if (missing != "") { print "missing:" missing; exit 1 }
	}' "$dir/modules.builtin" "$dir/modules.dep"
}

# Build (once per kernel, file system and script version) the initramfs; sets initrd.
prepare_initrd() {
	local sum stage lv rel name moddir=$kdir/lib/modules/$kver list roots net='' all i cfg netmods
	local -a lines lines2
	case "$use_fs" in
	virtiofs) roots="virtio_pci virtio_console virtiofs overlay" ;;
	9p) roots="virtio_pci virtio_console 9pnet_virtio 9p overlay" ;;
	esac
	# The guest network's drivers, loaded from RAM rather than by modprobe
	# over the shared root, where the kernel has them as modules: veth for
	# one guest; virtio_net, for two, is loaded only then.
	netmods=$(grep -oE '/(veth|virtio_net)\.ko[.a-z]*:' "$moddir/modules.dep")
	[[ $netmods == */veth.ko* ]] && roots+=" veth"
	[[ $netmods == */virtio_net.ko* ]] && net=virtio_net
	# The roots are part of the key: changing them must not reuse an old image.
	sum=$( (echo "$roots $net"; cat "$here"/vm/init*.[ch] "$here/vm/stage2" "$here/vm/vfs-view.c" \
		/bin/busybox "$moddir/modules.dep") | sha256sum)
	sum=${sum:0:16}
	initrd=$cache/initrd-$kver-$use_fs-$sum.cpio
	# The host's side: what starts virtiofsd (start_virtiofsd), built with it.
	vfs_view=$cache/vfs-view-$sum
	# Their time is their last use: those of other versions of the bed's
	# scripts, unused for a day, go when new ones are made.
	[ -f "$initrd" ] && [ -x "$vfs_view" ] && { touch "$initrd" "$vfs_view"; return; }
	file_is_static /bin/busybox ||
		die "missing busybox-static: run tools/install-deps (or apt-get install busybox-static)"
	find "$cache" -maxdepth 1 \( -name 'initrd-*.cpio' -o -name 'vfs-view-*' \) -mmin +1440 \
		-delete 2>/dev/null
	# Each boot's own temporary name: two boots may start at once (two
	# kernels' tiers side by side), and one's mv must not take the other's file.
	cc -O2 -Wall -Wextra -o "$vfs_view.$$.tmp" "$here/vm/vfs-view.c" &&
		mv "$vfs_view.$$.tmp" "$vfs_view" ||
		die "cannot build $here/vm/vfs-view.c: it needs gcc and libc6-dev"
	list=$(module_closure "$moddir" $roots) ||
		die "kernel $kver cannot mount its root over $use_fs: no module or built-in for${list##*missing:}"
	all=$list
	if [ -n "$net" ]; then
		all=$(module_closure "$moddir" $roots $net) ||
			die "kernel $kver cannot load virtio_net: no module or built-in for${all##*missing:}"
	fi
	stage=$(mktemp -d) || die "mktemp failed"
	mkdir -p "$stage/bin" "$stage/modules"
	cp /bin/busybox "$stage/bin/busybox"
	# Stage 1, in C: a script's commands cost 4-6 ms each under TCG.
	cc -static -s -O2 -Wall -Wextra -pthread -o "$stage/init" "$here/vm/init.c" \
		"$here/vm/init-util.c" "$here/vm/init-net.c" "$here/vm/init-mods.c" ||
		die "cannot build the bed's init from $here/vm/init.c: it needs gcc and libc6-dev (static libc)"
	install -m 0755 "$here/vm/stage2" "$stage/stage2"
	# The kernel's configuration, for the guest's /boot.
	cfg=$(kernel_file "$kdir" "$kver" config)
	[ -z "$cfg" ] || cp "$cfg" "$stage/config"
	# order: what every guest loads; order.2: what two guests load after it.
	# A line of each for each level: stage 1 loads a line's modules at once.
	while read -r lv rel; do
		[ -n "$rel" ] || continue
		name=${rel##*/}
		name=${name%%.ko*}
		case "$rel" in
		*.ko.xz) xz -dc "$moddir/$rel" >"$stage/modules/$name.ko" ;;
		*.ko.zst) zstd -qdc "$moddir/$rel" >"$stage/modules/$name.ko" ;;
		*.ko.gz) gzip -dc "$moddir/$rel" >"$stage/modules/$name.ko" ;;
		*) cp "$moddir/$rel" "$stage/modules/$name.ko" ;;
		esac || die "cannot copy module $rel (xz-utils, zstd)"
		if [[ $'\n'$list$'\n' == *$'\n'"$lv $rel"$'\n'* ]]; then
			lines[lv]+="${lines[lv]:+ }$name"
		else
			lines2[lv]+="${lines2[lv]:+ }$name"
		fi
	done <<<"$all"
	for i in "${!lines[@]}"; do echo "${lines[i]}"; done >"$stage/modules/order"
	for i in "${!lines2[@]}"; do echo "${lines2[i]}"; done >"$stage/modules/order.2"
	# Uncompressed: unpacking gzip under TCG costs more than reading the bytes.
	(cd "$stage" && find . | cpio -o -H newc --quiet >"$initrd.$$.tmp") &&
		mv "$initrd.$$.tmp" "$initrd" || die "cannot build the initramfs"
	rm -rf "$stage"
}
