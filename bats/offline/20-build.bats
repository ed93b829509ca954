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

@test "make deb on a copy of the tree builds the package, lintian passes it, its files are Debian's" {
	command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null ||
		skip "no dpkg-dev or lintian (tools/install-deps deb)"
	# The package builds the same whichever rdmactl the tier tests: once is enough.
	[ "$RDMACTL" = "$TOP/rdmactl" ] || skip "the package is built in the offline tier, not again here"
	src=$BATS_TEST_TMPDIR/src/rdmactl
	mkdir -p "$src"
	# What a clone has: the tracked files and the new ones not ignored.
	(cd "$TOP" && git ls-files -co --exclude-standard -z | cpio -pdm0 --quiet "$src")
	run make -C "$src" deb
	assert_success
	deb=$(ls "$src"/build/deb/rdmactl_*_amd64.deb)
	run dpkg-deb -f "$deb" Version
	assert_output "$("$TOP/rdmactl" --version | sed 's/^rdmactl //')"
	run dpkg-deb -c "$deb"
	for f in ./usr/sbin/rdmactl ./usr/share/man/man8/rdmactl.8.gz ./lib/systemd/system/rdmactl.service \
		./lib/modules-load.d/rdmactl.conf ./etc/modprobe.d/rdmactl.conf ./etc/rdmactl/rxe.conf \
		./usr/share/bash-completion/completions/rdmactl; do
		assert_line --regexp " $f\$"
	done
	run bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./conffiles"
	assert_line /etc/rdmactl/rxe.conf
	# Enabled for boot the Debian way, not started by the install.
	run bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./postinst"
	assert_line --partial "deb-systemd-helper enable 'rdmactl.service'"
	refute_line --partial 'deb-systemd-invoke start'
}
