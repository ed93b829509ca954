# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A boot of the bed: the payload the guest runs, its console and status, and
# the clean-up. Sourced by tools/rxe-vm.

# CMD as a script for the guest, in the caller's directory with the -e
# variables; --setup's script likewise.
write_payload() {
	local dir=$1
	# For a plain run stage 1 reads argv: the directory, the count of -e
	# variables, the variables, CMD and its arguments, each ended by a NUL; it
	# looks CMD up in PATH itself, as env would. A shell and systemd's unit
	# run the payload script, through bash.
	printf '%s\0' "$PWD" "${#envs[@]}" "${envs[@]+"${envs[@]}"}" "${cmd[@]}" >"$dir/argv"
	{ payload_head; printf 'exec /usr/bin/env --'; printf ' %q' "${cmd[@]}"; printf '\n'; } >"$dir/payload"
	[ -z "$setup" ] || { payload_head; printf '%s\n' "$setup"; } >"$dir/setup"
}

payload_head() {
	local e
	printf 'cd -- %q || { echo "%s: cannot enter %q in the guest" >&2; exit %d; }\n' \
		"$PWD" "$prog" "$PWD" $EX_BED
	for e in "${envs[@]+"${envs[@]}"}"; do
		printf 'export %q\n' "$e"
	done
}

console_tail() {
	local dir=$1 why
	# A panic's own line comes before its call trace: show it apart.
	why=$(tr -d '\r' <"$dir/console" |
		grep -m 1 -E 'Kernel panic|BUG:|Oops|Attempted to kill init|rxe-vm: stage')
	[ -n "$why" ] && say "the guest kernel said: $why"
	say "last lines of the guest console:"
	tr -d '\r' <"$dir/console" | tail -n 30 | sed 's/^/  | /' >&2
	[ -s "$dir/qemu.err" ] && sed 's/^/  qemu: /' "$dir/qemu.err" >&2
}

# Whether guest directory $1's kernel crashed before CMD started (and not in
# the bed's own stages, whose failures would only repeat).
crashed_booting() {
	# grep reads the file itself: piped under pipefail, its early exit on a
	# match could fail the writer and hide the crash.
	! grep -q '^started' "$1/ctl" &&
		grep -qE 'Kernel panic|BUG:|Oops' "$1/console" &&
		! grep -q 'rxe-vm: stage' "$1/console"
}

# The status of guest $1 after qemu ended with $2.
guest_status() {
	local h=$1 qrc=$2 tag='' st
	local dir=$rundir/$h
	[ "$hosts" = 2 ] && tag="host $h: "
	st=$(sed -n 's/^exit \([0-9]*\).*/\1/p' "$dir/ctl" | tail -n 1)
	if [ -n "$st" ]; then
		echo "$st"
	elif ! grep -q '^started' "$dir/ctl"; then
		if [ "$qrc" -eq 124 ]; then
			say "${tag}the guest did not reach CMD within $timeout s"
		else
			say "${tag}the guest did not reach CMD (qemu status $qrc)"
		fi
		[ "$mode" = shell ] || console_tail "$dir"
		echo $EX_BED
	elif [ "$qrc" -eq 124 ]; then
		say "${tag}timed out after $timeout s"
		echo $EX_TIMEOUT
	else
		say "${tag}the guest died while CMD ran (qemu status $qrc)"
		[ "$mode" = shell ] || console_tail "$dir"
		echo $EX_DIED
	fi
}

cleanup() {
	local p
	for p in "${qpid[@]+"${qpid[@]}"}" "${vpid[@]+"${vpid[@]}"}"; do
		kill "$p" 2>/dev/null
	done
	[ -n "${rundir-}" ] && rm -rf "$rundir"
}

boot() {
	local h st=() rc
	mode=$1
	prepare
	rundir=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm.XXXXXX") || die "mktemp failed"
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	declare -gA qpid=() vpid=()
	if [ "$hosts" = 2 ]; then
		port=$(free_port) || die "no free TCP port on 127.0.0.1 for the guests' link"
		start_guest 1 "$mode"
		for _ in $(seq 100); do
			[ -n "$(ss -Htln "sport = :$port")" ] && break
			kill -0 "${qpid[1]}" 2>/dev/null || break
			sleep 0.05
		done
		start_guest 2 "$mode"
	else
		start_guest 1 "$mode"
	fi
	for h in $(seq "$hosts"); do
		wait "${qpid[$h]}"
		rc=$?
		unset "qpid[$h]"
		st[$h]=$(guest_status "$h" "$rc")
	done
	wait # the output readers: all output is out before the status
	# The emulator now and then crashes a guest kernel while it boots (an
	# "Oops: int3" in the idle loop was seen under TCG with 6.12). CMD has not
	# run then, so booting again is safe: once, and said.
	if [ "$hosts" = 1 ] && [ "$mode" != shell ] && [ "${st[1]}" -eq $EX_BED ] &&
		crashed_booting "$rundir/1"; then
		say "the guest kernel crashed before CMD started: booting it once more"
		rm -rf "${rundir:?}/1"
		start_guest 1 "$mode"
		wait "${qpid[1]}"
		rc=$?
		unset "qpid[1]"
		st[1]=$(guest_status 1 "$rc")
		wait
	fi
	if [ "$hosts" = 2 ]; then
		say "host 1 exited ${st[1]}, host 2 exited ${st[2]}"
		[ "${st[1]}" -ne 0 ] && exit "${st[1]}"
		exit "${st[2]}"
	fi
	exit "${st[1]}"
}
