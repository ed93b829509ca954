#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bed as another project uses it: the rdmactl-testbed package (built by
# 'make deb' from a copy of this tree, as a clone would build it), its rxe-vm
# on PATH from the package's files, running a small verbs project's own
# 'make check' from that project's directory outside the checkout, on two
# kernels. The package's files are unpacked with dpkg-deb -x under a
# directory of the test's rather than installed with dpkg -i: the host's own
# package database is not the test's to change (the boot tier installs and
# purges rdmactl for real, in a guest).

setup_file() {
	load ../helpers
	local deb
	deb=$(build_deb_copy "$BATS_FILE_TMPDIR") || {
		echo "# make deb failed: $(tail -n 5 "$BATS_FILE_TMPDIR/deb.log")" >&3
		return 1
	}
	debs=$(dirname "$deb")
	ROOT=$BATS_FILE_TMPDIR/root
	for deb in "$debs"/rdmactl_*_amd64.deb "$debs"/rdmactl-testbed_*_all.deb; do
		dpkg-deb -x "$deb" "$ROOT" || return 1
	done
	PROJECT=$BATS_FILE_TMPDIR/project
	cp -r "$TOP/bats/fixtures/outside-project" "$PROJECT"
	export ROOT PROJECT DEBS=$debs
}

setup() {
	load ../helpers
	PATH=$ROOT/usr/bin:$ROOT/usr/sbin:$PATH
}

@test "installed bed: rxe-vm is on PATH from the package, runs from its own files, and has its man page" {
	run -0 command -v rxe-vm
	assert_output "$ROOT/usr/bin/rxe-vm"
	[ -L "$ROOT/usr/bin/rxe-vm" ]
	assert_equal "$(readlink "$ROOT/usr/bin/rxe-vm")" ../lib/rdmactl-testbed/rxe-vm
	run -0 rxe-vm help
	assert_line --regexp '^Usage: rxe-vm run \[OPTIONS\] -- CMD'
	run -0 man -l "$ROOT/usr/share/man/man1/rxe-vm.1.gz"
	assert_output --partial 'rxe-vm run --kernel 6.12 -- make check'
	[ -r "$ROOT/usr/share/doc/rdmactl-testbed/ci.md.gz" ]
	# Nothing in the package's files leads back to the checkout it was built from.
	run grep -rlF "$BATS_FILE_TMPDIR/src" "$ROOT/usr/lib/rdmactl-testbed" "$ROOT/usr/bin"
	assert_failure 1
}

# The project's own test in its own directory, through the installed bed.
project_check() {
	cd "$PROJECT" || return
	run --separate-stderr rxe-vm run --kernel "$1" --timeout 600 -e "PATH=$PATH" -- make check
	assert_success
	assert_line --regexp "^PASS: portinfo on $2"
	assert_line --regexp '^rxe0 port 1 ACTIVE mtu 1024 gid\[1\] ::ffff:10\.11\.11\.251$'
	# The guest built the program; its writes did not reach the project's directory.
	[ ! -e "$PROJECT/portinfo" ] || fail "the guest's build reached the host"
}

@test "installed bed: another project's make check runs from its directory on 6.1" {
	project_check 6.1 '6\.1\.[0-9]+-[0-9]+-amd64'
}

@test "installed bed: another project's make check runs from its directory on 7.3" {
	project_check 7.3 '7\.3\.[0-9]+'
}
