#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl's package booted by systemd: one guest boots once (tools/rxe-vm
# --init systemd) with the package installed before systemd starts and two
# persisted links, one on a netdev that exists at boot and one on a netdev made
# later; bats/boot/story tells what a user would see, as key=value facts, and
# each test asserts a part of it.

setup_file() {
	load ../helpers
	export FACTS=$BATS_FILE_TMPDIR/facts
	command -v dpkg-buildpackage >/dev/null ||
		{ echo "no dpkg-dev (tools/install-deps deb)" >"$FACTS.skip"; return; }
	# The package of this tree, as 'make deb' builds it. Its failure is the
	# offline tier's to report; here every test then fails saying so.
	deb=$(build_deb_copy "$BATS_FILE_TMPDIR") ||
		{ echo "status=make deb failed: $(tail -n 5 "$BATS_FILE_TMPDIR/deb.log")" >"$FACTS"; return; }
	export DEB=$deb
	# man-db's trigger would take half of dpkg's time: it is not what is tested.
	rc=0
	"$RXE_VM_TOOL" run --init systemd --timeout 900 \
		--setup "echo 'man-db man-db/auto-update boolean false' | debconf-set-selections &&
			dpkg -i '$deb' >/dev/null &&
			printf 'rxe0 %s\nrxe1 vlate\n' \"\$RXE_VM_NETDEV\" >>/etc/rdmactl/rxe.conf" \
		-- bats/boot/story >"$FACTS" 2>&1 || rc=$?
	echo "status=$rc" >>"$FACTS"
}

setup() {
	load ../helpers
	[ ! -e "$FACTS.skip" ] || skip "$(cat "$FACTS.skip")"
	run cat "$FACTS"
	# bats shows what the test printed only when it fails: the whole story.
	cat "$FACTS"
}

@test "boot: the story ran under systemd with the package installed, and ended" {
	assert_line 'status=0'
	assert_line 'pid1=systemd'
	assert_line 'enabled=enabled'
}

@test "boot: the persisted link is ACTIVE after boot, made before multi-user.target; the units are clean" {
	assert_line 'system=running'
	assert_line 'failed='
	assert_line 'rdmactl.service=active/success'
	assert_line 'link.N=active/success'
	assert_line 'before-multi-user.rdmactl.service=yes'
	assert_line 'before-multi-user.rdmactl-link@veth0.service=yes'
	# rxe1's netdev does not exist yet: absent, no failure.
	assert_line 'boot.links=rxe0/1 ACTIVE veth0'
}

@test "boot: a netdev made after boot gets its link, loses it when it goes, and gets it back" {
	assert_line 'hotplug.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
	assert_line 'hotplug.unit=active/success'
	assert_line 'unplug.links=rxe0/1 ACTIVE veth0'
	assert_line 'unplug.unit=inactive/success'
	assert_line 'replug.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
}

@test "boot: with rdmactl.service disabled, a netdev that comes back gets no link" {
	assert_line 'disabled.links=rxe0/1 ACTIVE veth0'
	assert_line 'disabled.unit=inactive'
}

@test "boot: persist add says daemon-reload is needed; after it, the new netdev gets its link when it appears" {
	assert_line "persisted.note=rdmactl: note: 'systemctl daemon-reload' lets systemd make these links again when their netdevs come back before the next boot"
	# vlate came back while rdmactl was disabled: enabling it again makes no
	# link for a netdev already there (systemctl start rdmactl would).
	assert_line 'persisted.links=rxe0/1 ACTIVE veth0,rxe3/1 ACTIVE vnew'
}

@test "boot: systemctl stop rdmactl deletes every link, stops the netdevs' units and unloads rdma_rxe" {
	assert_line 'stop.rc=0'
	assert_line 'stop.links='
	assert_line 'stop.units=inactive/success inactive/success inactive/success'
	assert_line 'stop.rdma_rxe=0'
}

@test "boot: with a process holding a device, stop fails at once naming it and deletes nothing" {
	refute_line 'held.rc=124'
	assert_line 'held.unit=failed/exit-code'
	assert_line 'held.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
	assert_line --regexp '^held\.journal=.*rxe0 is in use by ibv_rc_pingpong \(pid [0-9]+\)'
	assert_line 'held.after='
}

@test "boot: a malformed rxe.conf fails the unit naming its line, and nothing is touched" {
	assert_line 'bad.unit=failed/exit-code'
	assert_line --regexp "^bad\.line=.*/etc/rdmactl/rxe\.conf:[0-9]+: expected 'NAME NETDEV'"
	assert_line 'bad.links='
	assert_line 'bad.rdma_rxe=0'
}

@test "boot: the installed /usr/sbin/rdmactl passes the bed's own and provisioning tests" {
	assert_line 'tests.rc=0'
	refute_line --regexp '^not ok '
	assert_line --regexp '^ok [0-9]+ bed: '
	assert_line --regexp '^ok [0-9]+ provision: '
}

@test "boot: the package's rdmactl passes the offline tier (on this host: it needs no kernel)" {
	[ -n "${DEB-}" ] || fail "no package was built"
	dpkg-deb -x "$DEB" "$BATS_TEST_TMPDIR/pkg"
	RDMACTL=$BATS_TEST_TMPDIR/pkg/usr/sbin/rdmactl run bats --tap \
		"$TOP"/bats/offline/{10-cli,15-json,30-provision-args,40-tables,50-check}.bats
	refute_line --regexp '^not ok '
	assert_line --regexp '^ok [0-9]+ check: '
	assert_success
}

@test "boot: dpkg -r leaves only the conffiles; dpkg -P leaves nothing, the unit's enablement included" {
	assert_line 'remove.rc=0'
	assert_line 'remove.left=/etc/modprobe.d/rdmactl.conf /etc/rdmactl/rxe.conf'
	assert_line 'remove.units=0'
	assert_line 'purge.rc=0'
	assert_line 'purge.left='
	assert_line 'purge.etc='
}
