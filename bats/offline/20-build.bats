#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# make install honours DESTDIR, PREFIX, SBINDIR and MANDIR.

setup() {
	load ../helpers
}

@test "make install places the binary and man page under DESTDIR" {
	d=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr
	assert_success
	[ -x "$d/usr/sbin/rdmactl" ] || fail "no $d/usr/sbin/rdmactl"
	[ -s "$d/usr/share/man/man8/rdmactl.8" ] || fail "no man page"
	run "$d/usr/sbin/rdmactl" --version
	assert_success
}

@test "make install takes SBINDIR and MANDIR apart from PREFIX" {
	d=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" -s install DESTDIR="$d" SBINDIR=/opt/x/bin MANDIR=/opt/x/man
	assert_success
	[ -x "$d/opt/x/bin/rdmactl" ] || fail "SBINDIR not honoured"
	[ -s "$d/opt/x/man/man8/rdmactl.8" ] || fail "MANDIR not honoured"
}

@test "make install places the systemd units, the generator and module snippets; the units verify" {
	d=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr
	assert_success
	unit=$d/usr/lib/systemd/system/rdmactl.service
	link=$d/usr/lib/systemd/system/rdmactl-link@.service
	gen=$d/usr/lib/systemd/system-generators/rdmactl-generator
	[ -s "$unit" ] && [ -s "$link" ] || fail "no unit"
	run grep -x 'ExecStart=/usr/sbin/rdmactl start' "$unit"
	assert_success
	run grep -x 'ExecStop=/usr/sbin/rdmactl stop' "$unit"
	assert_success
	run grep -x 'ExecStart=/usr/sbin/rdmactl start %I' "$link"
	assert_success
	run grep -x 'BindsTo=sys-subsystem-net-devices-%i.device' "$link"
	assert_success
	[ -x "$gen" ] || fail "the generator is not executable"
	run tail -n 1 "$gen"
	assert_output 'exec /usr/sbin/rdmactl persist wants "$1"'
	# rdma_rxe is loaded by 'rdmactl start', not at boot: cloud kernels lack it.
	run grep -v '^#' "$d/usr/lib/modules-load.d/rdmactl.conf"
	assert_output $'ib_uverbs\nrdma_ucm'
	run grep -x 'softdep rdma_rxe post: ib_uverbs rdma_ucm' "$d/etc/modprobe.d/rdmactl.conf"
	assert_success
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze to verify the units"
	# verify wants the binary the units name: point them at the staged one.
	sed -i "s|/usr/sbin/rdmactl|$d/usr/sbin/rdmactl|" "$unit" "$link"
	cp "$link" "$BATS_TEST_TMPDIR/rdmactl-link@eth0.service"
	# --man=no: the staged man page is not where man(1) looks.
	run systemd-analyze verify --man=no "$unit" "$BATS_TEST_TMPDIR/rdmactl-link@eth0.service"
	assert_success
}

@test "persist wants: a drop-in per listed netdev, named as systemd escapes it; a malformed file writes nothing" {
	conf=$BATS_TEST_TMPDIR/rxe.conf dir=$BATS_TEST_TMPDIR/gen
	mkdir "$dir"
	printf '# c\nrxe0 veth-a\nrxe1 ens4\n' >"$conf"
	run "$RDMACTL" --config "$conf" persist wants "$dir"
	assert_success
	run find "$dir" -type f
	assert_equal "$(printf '%s\n' "${lines[@]#"$dir/"}" | sort)" \
		"$(printf '%s\n' 'sys-subsystem-net-devices-ens4.device.d/rdmactl.conf' \
			'sys-subsystem-net-devices-veth\x2da.device.d/rdmactl.conf')"
	run grep -x 'Wants=rdmactl-link@veth\\x2da.service' \
		"$dir/sys-subsystem-net-devices-veth\x2da.device.d/rdmactl.conf"
	assert_success
	if command -v systemd-escape >/dev/null; then
		assert_equal "$(systemd-escape --path /sys/subsystem/net/devices/veth-a)" \
			'sys-subsystem-net-devices-veth\x2da'
	fi
	rm -r "${dir:?}"/*
	printf 'rxe0 veth-a\nrxe1\n' >"$conf"
	run --separate-stderr "$RDMACTL" --config "$conf" persist wants "$dir"
	assert_failure 1
	[[ $stderr == *"$conf:2: expected 'NAME NETDEV'"* ]] || fail "$stderr"
	run find "$dir" -mindepth 1
	assert_output ''
}

@test "make install adds bash completion and a commented rxe.conf, and never overwrites an rxe.conf" {
	d=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr
	assert_success
	run grep -c '^#' "$d/etc/rdmactl/rxe.conf"
	assert_success
	run grep -v '^#' "$d/etc/rdmactl/rxe.conf"
	assert_output ''
	grep -q 'complete -F' "$d/usr/share/bash-completion/completions/rdmactl" || fail "no completion"
	printf 'rxe0 eth0\n' >"$d/etc/rdmactl/rxe.conf"
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr
	assert_success
	assert_equal "$(cat "$d/etc/rdmactl/rxe.conf")" 'rxe0 eth0'
	run make -C "$TOP" -s uninstall DESTDIR="$d" PREFIX=/usr
	assert_success
	[ ! -e "$d/usr/share/bash-completion/completions/rdmactl" ] || fail "completion left"
	assert_equal "$(cat "$d/etc/rdmactl/rxe.conf")" 'rxe0 eth0'
}

