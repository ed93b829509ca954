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
	# The package of this tree, as 'make deb' builds it (the last test
	# checks it). A failed build fails every test here, saying so.
	deb=$(build_deb_copy "$BATS_FILE_TMPDIR") ||
		{ echo "status=make deb failed: $(tail -n 5 "$BATS_FILE_TMPDIR/deb.log")" >"$FACTS"; return; }
	export DEB=$deb
	# man-db's trigger would take half of dpkg's time: it is not what is tested.
	perftest_source "$BATS_FILE_TMPDIR" >"$BATS_FILE_TMPDIR/perftest.log" 2>&1 ||
		echo "could not fetch perftest's source: $(tail -n 3 "$BATS_FILE_TMPDIR/perftest.log")" \
			>"$BATS_FILE_TMPDIR/perftest.skip"
	rc=0
	"$RXE_VM_TOOL" run --init systemd --timeout 1200 -e PERFTEST_SRC="$BATS_FILE_TMPDIR/perftest" \
		--setup "echo 'man-db man-db/auto-update boolean false' | debconf-set-selections &&
			dpkg -i '$deb' >/dev/null &&
			printf 'rxe0 %s\nrxe1 vlate\n' \"\$RXE_VM_NETDEV\" >>/etc/rdmactl/rxe.conf" \
		-- bats/boot/story >"$FACTS" 2>&1 || rc=$?
	echo "status=$rc" >>"$FACTS"
}

# perftest's Debian source (Debian 13's, whose rxe test is in its debian/tests
# but disabled) unpacked into $1/perftest: its upstream tarball with its
# debian/ tarball over it (patches unapplied: its tests use the installed
# binaries). The files as the archive's Sources index lists them, which
# apt-get fetches and checks against the signed Release with an apt setup of
# its own in the cache (the host's sources are never changed); each file's
# SHA-256 checked against it. The .dsc is not fetched: this machine's mirror
# refuses it. Fetched once.
perftest_source() {
	local c=${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/sources mirror=${RXE_VM_MIRROR:-http://deb.debian.org/debian}
	local opts=(-o Dir::Etc::SourceList="$c/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$c/lists" -o Dir::Cache="$c/cache" -o APT::Sandbox::User=root)
	local entry dir sum f
	mkdir -p "$c/lists/partial" "$c/cache/archives/partial" "$c/files" "$1/perftest"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" >"$c/sources.list"
	if ! compgen -G "$c/files/perftest_*.debian.tar.*" >/dev/null; then
		apt-get -q "${opts[@]}" update || return
		entry=$(cat "$c"/lists/*_Sources | awk '/^Package: perftest$/,/^$/')
		dir=$(sed -n 's/^Directory: //p' <<<"$entry")
		[ -n "$dir" ] || { echo "no perftest in trixie's Sources" >&2; return 1; }
		sed -n '/^Checksums-Sha256:/,/^[^ ]/p' <<<"$entry" | awk 'NF == 3 && $3 ~ /tar/ { print $1, $3 }' |
			while read -r sum f; do
				curl -fsS -m 120 -o "$c/files/$f.part" "$mirror/$dir/$f" &&
					echo "$sum  $c/files/$f.part" | sha256sum -c --quiet - &&
					mv "$c/files/$f.part" "$c/files/$f" || exit 1
			done || return
	fi
	tar -xf "$(ls "$c"/files/perftest_*.orig.tar.* | tail -n 1)" -C "$1/perftest" --strip-components=1 &&
		tar -xf "$(ls "$c"/files/perftest_*.debian.tar.* | tail -n 1)" -C "$1/perftest"
}

setup() {
	load ../helpers
	[ ! -e "$FACTS.skip" ] || skip "$(cat "$FACTS.skip")"
	run cat "$FACTS"
}

# A failed test shows, after the failure itself, the whole story, but for
# autopkgtest's: its status and its log's end, where it says what failed
# (the story has some thousand lines before it).
teardown() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	[ -e "$FACTS" ] || return 0
	case $BATS_TEST_DESCRIPTION in
	*"autopkgtest "*)
		local t=autopkgtest
		[[ $BATS_TEST_DESCRIPTION != *perftest* ]] || t=perftest
		grep "^$t\.rc=" "$FACTS"
		sed -n "/^## autopkgtest $t\$/,/^$t\.summary=/p" "$FACTS" | tail -n 25 ;;
	*) cat "$FACTS" ;;
	esac
}

# assert_fact KEY=VALUE: a line of the story is KEY=VALUE; when none is,
# the failure's first line says what the story said of KEY instead.
assert_fact() {
	local key=${1%%=*} got
	grep -qxF -- "$1" "$FACTS" && return 0
	got=$(awk -v k="$key=" 'index($0, k) == 1 { print; exit }' "$FACTS")
	[ -n "$got" ] || fail "fact $key: wanted '${1#*=}'; the story said nothing of it"
	fail "fact $key: wanted '${1#*=}'; the story said '${got#*=}'"
}

@test "boot: the story ran under systemd with the package installed, and ended" {
	assert_fact 'status=0'
	assert_fact 'pid1=systemd'
	assert_fact 'enabled=enabled'
}

@test "boot: the persisted link is ACTIVE after boot, made before multi-user.target; the units are clean" {
	assert_fact 'system=running'
	assert_fact 'failed='
	assert_fact 'rdmactl.service=active/success'
	assert_fact 'link.N=active/success'
	assert_fact 'before-multi-user.rdmactl.service=yes'
	assert_fact 'before-multi-user.rdmactl-link@veth0.service=yes'
	# rxe1's netdev does not exist yet: absent, no failure.
	assert_fact 'boot.links=rxe0/1 ACTIVE veth0'
}

@test "boot: a netdev made after boot gets its link, loses it when it goes, and gets it back" {
	assert_fact 'hotplug.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
	assert_fact 'hotplug.unit=active/success'
	assert_fact 'unplug.links=rxe0/1 ACTIVE veth0'
	assert_fact 'unplug.unit=inactive/success'
	assert_fact 'replug.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
}

@test "boot: with rdmactl.service disabled, a netdev that comes back gets no link" {
	assert_fact 'disabled.links=rxe0/1 ACTIVE veth0'
	assert_fact 'disabled.unit=inactive'
}

@test "boot: persist add says daemon-reload is needed; after it, the new netdev gets its link when it appears" {
	assert_line "persisted.note=rdmactl: note: 'systemctl daemon-reload' lets systemd make these links again when their netdevs come back before the next boot"
	# vlate came back while rdmactl was disabled: enabling it again makes no
	# link for a netdev already there (systemctl start rdmactl would).
	assert_fact 'persisted.links=rxe0/1 ACTIVE veth0,rxe3/1 ACTIVE vnew'
}

@test "boot: systemctl stop rdmactl deletes every link, stops the netdevs' units and unloads rdma_rxe" {
	assert_fact 'stop.rc=0'
	assert_fact 'stop.links='
	assert_fact 'stop.units=inactive/success inactive/success inactive/success'
	assert_fact 'stop.rdma_rxe=0'
}

@test "boot: with a process holding a device, stop fails at once naming it and deletes nothing" {
	refute_line 'held.rc=124'
	assert_fact 'held.unit=failed/exit-code'
	assert_fact 'held.links=rxe0/1 ACTIVE veth0,rxe1/1 ACTIVE vlate'
	assert_line --regexp '^held\.journal=.*rxe0 is in use by ibv_rc_pingpong \(pid [0-9]+\)'
	assert_fact 'held.after='
}

@test "boot: a malformed rxe.conf fails the unit naming its line, and nothing is touched" {
	assert_fact 'bad.unit=failed/exit-code'
	assert_line --regexp "^bad\.line=.*/etc/rdmactl/rxe\.conf:[0-9]+: expected 'NAME NETDEV'"
	assert_fact 'bad.links='
	assert_fact 'bad.rdma_rxe=0'
}

@test "boot: rdmactl-monitor.service is off after install; enabled, it journals a program's failure that check names after it has gone" {
	assert_fact 'monitor.enabled=disabled'
	assert_fact 'monitor.state=active'
	assert_fact 'monitor.started=monitor-started'
	# The program (a server without -g) failed as the seed's users see it.
	assert_fact 'monitor.program=1'
	# Fields a reader filters on, the name escaped: no ESC byte reaches the journal.
	assert_fact 'journal.fields=PRIORITY=4 RDMACTL_CALL=MODIFY_QP RDMACTL_CERTAINTY=certain RDMACTL_COMM=pp\x1b[2J\x0ax RDMACTL_ERRNO=EINVAL RDMACTL_EVENT=verb-refused RDMACTL_MODIFY_QP_IS_GLOBAL=false RDMACTL_MODIFY_QP_QP_STATE=RTR RDMACTL_VERB=ibv_modify_qp SYSLOG_IDENTIFIER=rdmactl'
	assert_line --regexp '^journal\.cause=its address vector has no GRH \(is_global 0\)'
	assert_fact 'journal.raw-escape=0'
	# check, afterwards: a warning naming the process and the cause, with the fix.
	assert_fact 'check.journal.rc=0'
	assert_fact 'check.journal=1'
	assert_fact 'check.journal.fix=1'
	assert_fact 'check.journal.strict=1'
	assert_fact 'check.journal.since=PASS journal'
}

@test "boot: rdma_rxe unloads under rdmactl-monitor.service; loaded again, its probes are armed anew and see a QP's error" {
	assert_fact 'monitor.unloaded=0 active'
	assert_fact 'monitor.rearmed=2'
	# The program's own word first: a failure then says which side went wrong.
	assert_fact 'qpfail.rnr=completion 13 RNR retry counter exceeded'
	assert_fact 'journal.wc=RDMACTL_CERTAINTY=likely RDMACTL_COMM=qpfail RDMACTL_STATUS=IBV_WC_RNR_RETRY_EXC_ERR'
	assert_fact 'monitor.stopped=inactive/success'
	assert_fact 'monitor.links=rxe0/1 ACTIVE veth0'
}

@test "boot: the installed /usr/sbin/rdmactl passes the bed's own and provisioning tests" {
	assert_fact 'tests.rc=0'
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
	assert_fact 'remove.rc=0'
	assert_fact 'remove.left=/etc/modprobe.d/rdmactl.conf /etc/rdmactl/rxe.conf'
	assert_fact 'remove.units=0'
	assert_fact 'purge.rc=0'
	assert_fact 'purge.left='
	assert_fact 'purge.etc='
}

@test "boot: Debian's autopkgtest runs the package's own tests on the booted machine: a link made, checked and proven; a failing program's record" {
	assert_fact 'autopkgtest.rc=0'
	assert_fact 'autopkgtest.summary=rxe:PASS'
}

@test "boot: perftest's own autopkgtest from its Debian source passes with rdmactl's one-line recipe: ci-setup, then its loopbacks" {
	[ ! -e "$BATS_FILE_TMPDIR/perftest.skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/perftest.skip")"
	# autopkgtest's 8: its tests passed, but all are superficial (perftest's
	# own restriction, kept), which autopkgtest counts as none that tested.
	assert_fact 'perftest.rc=8'
	assert_fact 'perftest.summary=rxe_loopback:PASS'
	assert_line --regexp '^rxe_loopback +PASS \(superficial\)$'
	# Each of its seven loopbacks ran to its end.
	assert_fact 'perftest.loopbacks=7'
}

# The package's build is this tier's (its guest installs it), not the
# offline tier's again: one build serves both.
@test "boot: make deb on a copy of the tree built the package, lintian passed it, its files are Debian's" {
	command -v lintian >/dev/null || skip "no lintian (tools/install-deps deb)"
	# The package setup_file built (make deb, lintian in it) for the guest.
	[ -n "${DEB:-}" ] || fail "make deb failed: $(tail -n 30 "$BATS_FILE_TMPDIR/deb.log")"
	deb=$DEB
	# The build leaves the tree as git had it: its output is ignored, none is tracked.
	run git -C "${DEB%/build/deb/*}" status --porcelain --untracked-files=all
	assert_success
	assert_output ''
	run git -C "$TOP" ls-files debian
	assert_output "$(printf '%s\n' debian/changelog debian/control debian/copyright \
		debian/rdmactl-testbed.lintian-overrides debian/rules debian/source/format \
		debian/tests/common.sh debian/tests/control debian/tests/link debian/tests/record \
		debian/tests/rxe)"
	run dpkg-deb -f "$deb" Version
	assert_output "$("$TOP/rdmactl" --version | sed 's/^rdmactl //')"
	run dpkg-deb -c "$deb"
	# Units, generator and modules-load.d where this release's systemd.pc says
	# (/lib on Debian 12, /usr/lib from 13).
	units=.$(pkg-config --variable=systemdsystemunitdir systemd)
	gens=.$(pkg-config --variable=systemdsystemgeneratordir systemd)
	mload=.$(pkg-config --variable=modulesloaddir systemd)
	for f in ./usr/sbin/rdmactl ./usr/share/man/man8/rdmactl.8.gz "$units/rdmactl.service" \
		"$units/rdmactl-link@.service" "$units/rdmactl-monitor.service" "$gens/rdmactl-generator" \
		"$mload/rdmactl.conf" ./etc/modprobe.d/rdmactl.conf ./etc/rdmactl/rxe.conf \
		./usr/share/bash-completion/completions/rdmactl; do
		assert_line --regexp " ${f//./\\.}\$"
	done
	run bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./conffiles"
	assert_line /etc/rdmactl/rxe.conf
	# Enabled for boot the Debian way, not started by the install.
	run bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./postinst"
	assert_line --partial "deb-systemd-helper enable 'rdmactl.service'"
	# rdmactl-monitor.service is --no-enable's: enabled again on upgrade only where it was.
	assert_line --partial "deb-systemd-helper update-state 'rdmactl-monitor.service'"
	refute_line --partial 'deb-systemd-invoke start'
	# The test bed's package beside it: rxe-vm on PATH, its files, its man page.
	run dpkg-deb -c "$(dirname "$deb")"/rdmactl-testbed_*_all.deb
	assert_line --regexp ' \./usr/bin/rxe-vm -> \.\./lib/rdmactl-testbed/rxe-vm$'
	for f in ./usr/lib/rdmactl-testbed/rxe-vm ./usr/lib/rdmactl-testbed/vm/stage2 \
		./usr/lib/rdmactl-testbed/vm/init.c ./usr/share/man/man1/rxe-vm.1.gz \
		./usr/share/doc/rdmactl-testbed/ci.md.gz; do
		assert_line --regexp " ${f//./\\.}\$"
	done
}
