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
