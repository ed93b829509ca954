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
	[[ $stderr == *"it is a directory, not a regular file"*"(EISDIR: Is a directory)" ]] || fail "$stderr"
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

@test "files: persist wants writes through no symlink: one in the drop-in's place or its directory's is refused, named" {
	printf 'rxe0 eth0\n' >"$d/w.conf"
	local dropin=$d/gen/sys-subsystem-net-devices-eth0.device.d
	mkdir -p "$dropin"
	echo 'not rdmactl'"'"'s' >"$d/elsewhere"
	ln -s "$d/elsewhere" "$dropin/rdmactl.conf"
	run --separate-stderr rdmactl --config "$d/w.conf" persist wants "$d/gen"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: will not write $dropin/rdmactl.conf: it is a symlink (to $d/elsewhere), not the drop-in rdmactl makes; remove it and run this again (EINVAL: Invalid argument)"
	assert_equal "$(cat "$d/elsewhere")" "not rdmactl's"
	[ -L "$dropin/rdmactl.conf" ]
	# A symlink that leads nowhere is no better.
	ln -sfn "$d/nowhere" "$dropin/rdmactl.conf"
	run --separate-stderr rdmactl --config "$d/w.conf" persist wants "$d/gen"
	assert_failure 1
	[ ! -e "$d/nowhere" ]
	# The drop-in's directory a symlink to another.
	rm -r "$dropin"
	mkdir "$d/other"
	ln -s "$d/other" "$dropin"
	run --separate-stderr rdmactl --config "$d/w.conf" persist wants "$d/gen"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: will not write into $dropin: it is a symlink, not a directory of rdmactl's own; remove it and run this again (EINVAL: Invalid argument)"
	[ -z "$(ls -A "$d/other")" ]
	# Once gone, the drop-in is written.
	rm "$dropin"
	run rdmactl --config "$d/w.conf" persist wants "$d/gen"
	assert_success
	[ -f "$dropin/rdmactl.conf" ] && [ ! -L "$dropin/rdmactl.conf" ]
}

# One round of the race: 25 adds and 25 deletes of one file at once, with
# 'persist list' and 'persist wants' reading it meanwhile. Every command
# that says it succeeded must find its edit in the file at the end, and
# nothing else may be there.
race_round() {
	local f=$d/race.conf i
	: >"$f"
	for i in $(seq 25); do echo "rxed$i nd$i" >>"$f"; done
	mkdir -p "$d/wants"
	for i in $(seq 25); do
		"$RDMACTL" --config "$f" persist add "rxea$i" "na$i" >/dev/null 2>"$d/add$i" &
		"$RDMACTL" --config "$f" persist del "rxed$i" >/dev/null 2>"$d/del$i" &
		[ $((i % 5)) = 0 ] && "$RDMACTL" --config "$f" -j persist list >"$d/list$i" 2>&1 &
		# One wants a round: it syncs a drop-in for every netdev the file names.
		[ "$i" = 13 ] && "$RDMACTL" --config "$f" persist wants "$d/wants" >/dev/null 2>"$d/wants.err" &
	done
	wait
	for i in $(seq 25); do
		[ -s "$d/add$i" ] || grep -qx "rxea$i na$i" "$f" || fail "add of rxea$i said it succeeded; the file has: $(cat "$f")"
		[ -s "$d/del$i" ] || ! grep -q "^rxed$i " "$f" || fail "del of rxed$i said it succeeded; the file has: $(cat "$f")"
		# Every edit got the file within its wait: none failed.
		[ ! -s "$d/add$i" ] && [ ! -s "$d/del$i" ] || fail "an edit failed: $(cat "$d/add$i" "$d/del$i")"
	done
	# Readers always saw a whole file, old or new.
	for i in 5 10 15 20 25; do
		jq -e 'type == "array"' "$d/list$i" >/dev/null || fail "persist list read a torn file: $(cat "$d/list$i")"
	done
	[ ! -s "$d/wants.err" ] || fail "persist wants: $(cat "$d/wants.err")"
	[ "$(wc -l <"$f")" -ge 25 ] || fail "entries lost: $(cat "$f")"
	[ "$(grep -c '^rxe' "$f")" = 25 ] || fail "not exactly the 25 added: $(cat "$f")"
}

@test "files: 50 edits of one file at once lose nothing, round after round; readers see it whole" {
	# 100 rounds were run by hand (RDMACTL_TEST_RACE_ROUNDS=100); the offline
	# tier runs 3 (2 s a round here), the ASan tier 1 (5 s).
	local rounds=${RDMACTL_TEST_RACE_ROUNDS:-3} r
	[ "$RDMACTL" = "$TOP/rdmactl" ] || rounds=${RDMACTL_TEST_RACE_ROUNDS:-1}
	for r in $(seq "$rounds"); do
		race_round
	done
}

@test "files: an edit waits for another's to end; past RDMACTL_LOCK_TIMEOUT it says so and changes nothing" {
	command -v flock >/dev/null || skip "no flock (util-linux)"
	echo 'rxe0 eth0' >"$d/rxe.conf"
	# Another editor holds the file's directory, as rdmactl's own edits do.
	flock -o "$d" sleep 30 >/dev/null 2>&1 3>&- &
	holder=$!
	sleep 0.3
	run --separate-stderr env RDMACTL_LOCK_TIMEOUT=1 "$RDMACTL" --config "$d/rxe.conf" persist add rxe1 eth1
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot edit $d/rxe.conf: another rdmactl has been editing it for 1 s (it holds its directory's lock); try again when it is done, or wait longer (RDMACTL_LOCK_TIMEOUT) (EAGAIN: Resource temporarily unavailable)"
	assert_equal "$(cat "$d/rxe.conf")" 'rxe0 eth0'
	run --separate-stderr env RDMACTL_LOCK_TIMEOUT=soon "$RDMACTL" --config "$d/rxe.conf" persist add rxe1 eth1
	assert_failure 1
	assert_equal "$stderr" "rdmactl: RDMACTL_LOCK_TIMEOUT is 'soon': give the seconds an edit waits for another's to end, 0 to 3600 (default 10) (EINVAL: Invalid argument)"
	# Within the wait, the other's end lets the edit through.
	kill "$holder"; wait "$holder" || true
	flock -o "$d" sleep 1 >/dev/null 2>&1 3>&- &
	holder=$!
	sleep 0.3
	run env RDMACTL_LOCK_TIMEOUT=5 "$RDMACTL" --config "$d/rxe.conf" persist add rxe1 eth1
	wait "$holder"
	assert_success
	assert_equal "$(grep -c '^rxe' "$d/rxe.conf")" 2
}

# Every command that reads a fixture, and what it reads there.
FIXTURE_READERS=('link show' status show 'show -s' gids netdevs stat qp check env)

# One regular file of fixture FIX, picked at random (sysfs, proc or netlink).
random_file() {
	local files
	mapfile -t files < <(find "$1" -type f ! -name CAPTURED)
	printf '%s\n' "${files[RANDOM % ${#files[@]}]}"
}

@test "files: a FIFO or socket anywhere in a fixture is refused within a second, named, by every reader" {
	for case in two-netdevs:fifo qps-failed:socket no-rdma:fifo; do
		fix=${case%:*}
		rm -rf "$d/fx" && cp -a "$TOP/bats/fixtures/$fix" "$d/fx"
		for kind in "${case#*:}"; do
			f=$(random_file "$d/fx")
			mv "$f" "$d/kept"
			if [ $kind = fifo ]; then
				mkfifo "$f"; want="$f is a FIFO"
			else
				python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$f"
				want="$f is a socket"
			fi
			for cmd in "${FIXTURE_READERS[@]}"; do
				# shellcheck disable=SC2086 # the command's words
				run --separate-stderr timeout 1 "$RDMACTL" --sysfs-root "$d/fx" $cmd
				[ "$status" = 2 ] || fail "$fix, $kind at $f, $cmd: exit $status: $stderr"
				[[ $stderr == *"$want; a fixture holds only directories, regular files and symlinks"* ]] ||
					fail "$fix, $cmd: $stderr"
			done
			rm "$f" && mv "$d/kept" "$f"
		done
	done
}

@test "files: a fixture's file that is a symlink to a FIFO outside it blocks no reader" {
	[ "$RDMACTL" = "$TOP/rdmactl" ] || skip "how files are opened is the offline tier's, not again here"
	mkfifo "$d/fifo"
	rm -rf "$d/fx" && cp -a "$TOP/bats/fixtures/qps" "$d/fx"
	for round in 1 2; do
		f=$(random_file "$d/fx")
		mv "$f" "$d/kept"
		ln -s "$d/fifo" "$f"
		for cmd in "${FIXTURE_READERS[@]}"; do
			# shellcheck disable=SC2086 # the command's words
			run timeout 1 "$RDMACTL" --sysfs-root "$d/fx" $cmd
			[ "$status" != 124 ] || fail "$f a symlink to a FIFO: '$cmd' blocked (round $round)"
		done
		rm "$f" && mv "$d/kept" "$f"
	done
}

@test "files: RDMACTL_SYSFS_ROOT is named as itself when it is not a directory" {
	RDMACTL_SYSFS_ROOT=$d/none run --separate-stderr "$RDMACTL" show
	assert_failure 2
	assert_equal "$stderr" "rdmactl: RDMACTL_SYSFS_ROOT=$d/none: no such directory; give a fixture captured with tools/capture-sysfs"
	run --separate-stderr "$RDMACTL" --sysfs-root "$d/none" show
	assert_equal "$stderr" "rdmactl: --sysfs-root $d/none: no such directory; give a fixture captured with tools/capture-sysfs"
	# A directory that is no fixture (no sys/) is said at once, its tree never walked.
	run --separate-stderr timeout 5 "$RDMACTL" --sysfs-root /usr show
	assert_failure 2
	assert_equal "$stderr" "rdmactl: --sysfs-root /usr: no fixture: it has no sys/ directory; give one captured with tools/capture-sysfs"
	# A fixture is walked for what no capture holds, then refused naming it.
	cp -a "$TOP/bats/fixtures/two-netdevs" "$d/fx"
	run -0 "$RDMACTL" --sysfs-root "$d/fx" show
	mkfifo "$d/fx/sys/fifo"
	run --separate-stderr "$RDMACTL" --sysfs-root "$d/fx" show
	assert_failure 2
	assert_equal "$stderr" "rdmactl: --sysfs-root $d/fx: $d/fx/sys/fifo is a FIFO; a fixture holds only directories, regular files and symlinks: capture it again with tools/capture-sysfs"
}

@test "files: a write refused says what became of the file: left as it was, or nothing written" {
	[ "$(id -u)" = 0 ] || skip "setpriv to another user needs root"
	# Where another user can look (the test's own directory is root's alone).
	d=$(mktemp -d /tmp/rdmactl-files.XXXXXX) && chmod 755 "$d" && mkdir -m 755 "$d/etc"
	printf 'rxe9 eth9\n' >"$d/etc/old.conf"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$RDMACTL" "$@"; }
	run --separate-stderr as_nobody --config "$d/etc/new.conf" persist add rxe0 eth0
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot write $d/etc/new.conf: run as root; nothing was written (EACCES: Permission denied)"
	[ ! -e "$d/etc/new.conf" ]
	run --separate-stderr as_nobody --config "$d/etc/old.conf" persist add rxe0 eth0
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot write $d/etc/old.conf: run as root; it was left as it was (EACCES: Permission denied)"
	assert_equal "$(cat "$d/etc/old.conf")" 'rxe9 eth9'
	rm -r "$d"
}
