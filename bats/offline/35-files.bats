#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The persistent-links file is only ever a regular file rdmactl meant to
# write: each case looked at on the file system afterwards, not only by the
# exit status.

setup() {
	load ../helpers
	d=$BATS_TEST_TMPDIR
}

@test "files: a character device given as --config is refused, named, and left a device" {
	[ "$(id -u)" = 0 ] || skip "mknod needs root"
	mknod "$d/null" c 1 3
	run --separate-stderr rdmactl --config "$d/null" persist add rxe0 eth0
	assert_failure 1
	[[ $stderr == *"$d/null: it is a character device, not a regular file"* ]] || fail "$stderr"
	[ -c "$d/null" ] || fail "the device was replaced: $(stat -c %F "$d/null")"
	run rdmactl --config "$d/null" persist list
	assert_failure 1
	[ -c "$d/null" ]
}

@test "files: a FIFO is refused at once, never opened: list and add end without blocking" {
	mkfifo "$d/fifo"
	run --separate-stderr timeout 5 "$RDMACTL" --config "$d/fifo" persist list
	assert_failure 1	# timeout's 124 would mean it blocked
	[[ $stderr == *"will not read $d/fifo: it is a FIFO, not a regular file"* ]] || fail "$stderr"
	run --separate-stderr timeout 5 "$RDMACTL" --config "$d/fifo" persist add rxe0 eth0
	assert_failure 1
	[ -p "$d/fifo" ] || fail "the FIFO was replaced"
}

@test "files: a directory or a socket is refused with its type named" {
	mkdir "$d/dir"
	run --separate-stderr rdmactl --config "$d/dir" persist add rxe0 eth0
	assert_failure 1
	[[ $stderr == *"it is a directory, not a regular file"* ]] || fail "$stderr"
	[ -d "$d/dir" ] && [ -z "$(ls -A "$d/dir")" ] || fail "the directory changed"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
	run --separate-stderr rdmactl --config "$d/sock" persist add rxe0 eth0
	assert_failure 1
	[[ $stderr == *"it is a socket, not a regular file"* ]] || fail "$stderr"
	[ -S "$d/sock" ]
}

@test "files: a symlink is followed: its target is rewritten, the link stays, and that is said" {
	mkdir "$d/real"
	printf '# kept\nrxe0 eth0\n' >"$d/real/target.conf"
	ln -s real/target.conf "$d/link.conf"
	run --separate-stderr rdmactl --config "$d/link.conf" persist add rxe1 eth1
	assert_success
	[[ $stderr == *"$d/link.conf is a symlink: the file it leads to, $d/real/target.conf, was written"* ]] ||
		fail "$stderr"
	[ -L "$d/link.conf" ] || fail "the symlink was replaced by $(stat -c %F "$d/link.conf")"
	assert_equal "$(cat "$d/real/target.conf")" $'# kept\nrxe0 eth0\nrxe1 eth1'
	# A symlink that leads nowhere is refused, and stays as it was.
	ln -s nowhere.conf "$d/dangling.conf"
	run --separate-stderr rdmactl --config "$d/dangling.conf" persist add rxe1 eth1
	assert_failure 1
	[[ $stderr == *"it is a symlink that leads nowhere"* ]] || fail "$stderr"
	[ -L "$d/dangling.conf" ] && [ ! -e "$d/nowhere.conf" ]
}

@test "files: an edit keeps the file's owner, group and mode" {
	[ "$(id -u)" = 0 ] || skip "chown needs root"
	printf 'rxe0 eth0\n' >"$d/owned.conf"
	chown 1234:2345 "$d/owned.conf"
	chmod 0640 "$d/owned.conf"
	run rdmactl --config "$d/owned.conf" persist add rxe1 eth1
	assert_success
	assert_equal "$(stat -c '%u %g %a %F' "$d/owned.conf")" '1234 2345 640 regular file'
	assert_equal "$(cat "$d/owned.conf")" $'rxe0 eth0\nrxe1 eth1'
	# No temporary file is left beside it.
	assert_equal "$(ls "$d")" 'owned.conf'
}

@test "files: a missing directory is never made: the edit fails, naming it" {
	run --separate-stderr rdmactl --config "$d/nonexistent/dir/x.conf" persist add rxe0 eth0
	assert_failure 1
	[[ $stderr == *"its directory does not exist"* ]] || fail "$stderr"
	[ ! -e "$d/nonexistent" ] || fail "a directory was made"
}

@test "files: persist wants replaces only a regular drop-in: a directory in its place is refused, named" {
	printf 'rxe0 eth0\n' >"$d/w.conf"
	mkdir -p "$d/gen/sys-subsystem-net-devices-eth0.device.d/rdmactl.conf"
	run --separate-stderr rdmactl --config "$d/w.conf" persist wants "$d/gen"
	assert_failure 1
	[[ $stderr == *"will not write $d/gen/sys-subsystem-net-devices-eth0.device.d/rdmactl.conf: it is a directory, not a regular file"* ]] ||
		fail "$stderr"
	[ -d "$d/gen/sys-subsystem-net-devices-eth0.device.d/rdmactl.conf" ]
}
