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

@test "make install places the systemd unit and module snippets; the unit verifies" {
	d=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr
	assert_success
	unit=$d/usr/lib/systemd/system/rdmactl.service
	[ -s "$unit" ] || fail "no unit"
	run grep -x 'ExecStart=/usr/sbin/rdmactl start' "$unit"
	assert_success
	run grep -x 'ExecStop=/usr/sbin/rdmactl stop' "$unit"
	assert_success
	run grep -x 'rdma_rxe' "$d/usr/lib/modules-load.d/rdmactl.conf"
	assert_success
	run grep -x 'softdep rdma_rxe post: ib_uverbs rdma_ucm' "$d/etc/modprobe.d/rdmactl.conf"
	assert_success
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze to verify the unit"
	# verify wants the binary the unit names: point it at the staged one.
	sed -i "s|/usr/sbin/rdmactl|$d/usr/sbin/rdmactl|" "$unit"
	# --man=no: the staged man page is not where man(1) looks.
	run systemd-analyze verify --man=no "$unit"
	assert_success
}
