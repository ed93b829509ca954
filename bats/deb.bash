# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The Debian packages of this tree, for the tests that install them: bats
# (through helpers.bash) and bats/vm2/prepare, outside bats.

# Builds the package of this tree with 'make deb' in a copy of it under $1 (a
# build in the tree would clean it), as a clone would: the tracked files and
# the new ones not ignored. With $2, a userland of the bed's own (SUITE), the
# copy is under $1/SUITE and built in that userland (tools/rxe-vm chroot), as
# that release builds it. Prints the .deb's path; make's output is in
# $1/deb.log (or $1/SUITE/deb.log). The copy is a git repository of its own,
# committed before the build, so a test can ask git what the build left
# behind.
# Under tools/run-tests (RDMACTL_TEST_DEBS, a directory of the run's), the
# packages are built once for every tier of the run and DIR/deb.log is that
# build's log.
build_deb_copy() {
	local d=${RDMACTL_TEST_DEBS:-$1} suite=${2-} out=$1
	if [ -n "$suite" ]; then
		d=$d/$suite out=$1/$suite
		mkdir -p "$out"
	fi
	if [ -n "${RDMACTL_TEST_DEBS-}" ]; then
		mkdir -p "$d" && exec 8>"$d/.lock" && flock 8 || return
		if [ -f "$d/.built" ]; then
			flock -u 8
			[ "$d" = "$out" ] || cp "$d/deb.log" "$out/deb.log"
			ls "$d"/src/rdmactl/build/deb/rdmactl_*_amd64.deb
			return
		fi
		rm -rf "$d/src"
	fi
	if [ -n "$suite" ]; then
		"$TOP/tools/copy-tree" "$d/src/rdmactl" >"$d/deb.log" 2>&1 &&
			(cd "$d/src/rdmactl" && "$TOP/tools/rxe-vm" chroot --userland "$suite" -- make deb) >>"$d/deb.log" 2>&1
	else
		"$TOP/tools/copy-tree" "$d/src/rdmactl" &&
			make -C "$d/src/rdmactl" deb >"$d/deb.log" 2>&1
	fi && { [ -z "${RDMACTL_TEST_DEBS-}" ] || touch "$d/.built"; }
	local st=$?
	[ -z "${RDMACTL_TEST_DEBS-}" ] || { flock -u 8; [ "$d" = "$out" ] || cp "$d/deb.log" "$out/deb.log"; }
	[ $st = 0 ] || return $st
	ls "$d"/src/rdmactl/build/deb/rdmactl_*_amd64.deb
}
