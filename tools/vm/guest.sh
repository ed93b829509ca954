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

# A kernel crash on the console, whatever else it says.
crash_re='Kernel panic|BUG:|Oops|general protection fault'

# What a guest's console shows when it died, and what to do: a regex, the
# cause, the fix, apart by " ;; ". The first that matches names the cause;
# the last matches any crash.
boot_causes=(
	"Oops: int3 ;; a breakpoint the kernel had already patched away ran again: a second vCPU ran the emulator's stale translation of code the kernel had just rewritten (multi-threaded TCG: often before QEMU 8.1, about 1 boot in 200 with 10.0) ;; boot again; under TCG the bed gives a guest one vCPU, which cannot meet this, unless --smp or RXE_VM_SMP asks more; RXE_VM_TCG=single keeps more vCPUs safe, at half their speed (docs/kernels.md)"
	"rxe-vm: stage 1: ;; the bed's own start in the guest failed, as the line above says ;; check the option or path it names"
	"Attempted to kill init ;; the guest's PID 1 died ;; look for SIGBUS or an error above: a root file system that went away (9p) does this; --root-fs virtiofs"
	"Out of memory|oom-kill ;; the guest ran out of memory ;; give it more with --mem"
	"Unable to mount root|No working init found ;; the kernel found no init to start ;; the initramfs was not loaded: see qemu's lines below"
	"$crash_re ;; the guest kernel crashed, by no cause the bed knows ;; boot again; if it repeats, report the console below"
)

# Says what the console of guest directory $1 shows and the known cause it
# matches, with what to do, then the console's tail. $2: hang when qemu was
# stopped by the time-out.
console_tail() {
	local dir=$1 how=${2-} c re why last reached
	# A panic's own line comes before its call trace: show it apart.
	why=$(tr -d '\r' <"$dir/console" |
		grep -m 1 -E "$crash_re|Attempted to kill init|rxe-vm: stage|Out of memory")
	if [ -n "$why" ]; then
		say "the guest kernel said: $why"
		for c in "${boot_causes[@]}"; do
			re=${c%% ;; *} c=${c#* ;; }
			grep -qE "$re" "$dir/console" || continue
			say "cause: ${c%% ;; *}"
			say "what to do: ${c#* ;; }"
			break
		done
	elif [ "$how" = hang ]; then
		# Stage 1 names each step of the boot it reached (the kernel is quiet).
		last=$(tr -d '\r' <"$dir/console" | sed '/^[[:space:]]*$/d' | tail -n 1)
		reached=$(tr -d '\r' <"$dir/console" | sed -n 's/^rxe-vm: step: //p' | tail -n 1)
		say "cause: the guest hung, with no crash on its console${last:+; its last line: $last}"
		say "the last step of the boot it reached: ${reached:-none, the kernel had not started stage 1}"
		say "what to do: a busy host boots slower: give it more time (--timeout, RXE_VM_BOOT_TIMEOUT); under --accel kvm try --accel tcg; a hang at the same step each time is a fault to report with this console"
	elif [ ! -s "$dir/console" ]; then
		say "cause: the guest printed nothing: qemu or the kernel image failed before the console started"
		say "what to do: see qemu's lines below; tools/rxe-vm prepare --refresh fetches the kernel again"
	fi
	say "last lines of the guest console:"
	tr -d '\r' <"$dir/console" | tail -n 30 | sed 's/^/  | /' >&2
	if [ -s "$dir/qemu.err" ]; then sed 's/^/  qemu: /' "$dir/qemu.err" >&2; fi
}

# Whether guest directory $1's kernel crashed before CMD started (and not in
# the bed's own stages, whose failures would only repeat).
crashed_booting() {
	# grep reads the file itself: piped under pipefail, its early exit on a
	# match could fail the writer and hide the crash.
	! grep -q '^started' "$1/ctl" &&
		grep -qE "$crash_re" "$1/console" &&
		! grep -q 'rxe-vm: stage' "$1/console"
}

# Watches guest $1 (directory $2) boot: a guest that has not reached CMD
# within $boot_limit seconds (a boot takes 2 to 10 here) is stopped and
# marked, so that a boot that hangs costs minutes, not CMD's whole --timeout.
# Builtins only while it waits, but for sleep.
boot_watch() {
	local h=$1 dir=$2 first i
	for ((i = 0; i < boot_limit * 4; i++)); do
		first=
		read -r first <"$dir/ctl" 2>/dev/null
		[ "$first" = started ] && return
		kill -0 "${qpid[$h]}" 2>/dev/null || return
		sleep 0.25
	done
	echo hang >"$dir/boot-hang"
	kill "${qpid[$h]}" 2>/dev/null
}

# Whether guest directory $1's boot hung, or its kernel crashed, before CMD
# started (and not in the bed's own stages, whose failures would only
# repeat): booting again is safe then, CMD never ran.
failed_booting() {
	[ -f "$1/boot-hang" ] || crashed_booting "$1"
}

# The status of guest $1 after qemu ended with $2.
guest_status() {
	local h=$1 qrc=$2 tag='' st='' l
	local dir=$rundir/$h
	[ "$hosts" = 2 ] && tag="host $h: "
	# The last "exit N" the guest's init wrote (a file, not a FIFO).
	[ -f "$dir/ctl" ] && while IFS= read -r l; do
		[[ $l =~ ^exit\ ([0-9]+) ]] && st=${BASH_REMATCH[1]}
	done <"$dir/ctl"
	if [ -n "$st" ]; then
		echo "$st"
	elif [ -f "$dir/boot-hang" ]; then
		say "${tag}the guest did not reach CMD within $boot_limit s of its start (RXE_VM_BOOT_TIMEOUT)"
		[ "$mode" = shell ] || console_tail "$dir" hang
		echo $EX_BED
	elif ! grep -q '^started' "$dir/ctl"; then
		if [ "$qrc" -eq 124 ]; then
			say "${tag}the guest did not reach CMD within $timeout s"
			[ "$mode" = shell ] || console_tail "$dir" hang
		else
			say "${tag}the guest did not reach CMD (qemu status $qrc)"
			[ "$mode" = shell ] || console_tail "$dir"
		fi
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
	for p in "${qpid[@]+"${qpid[@]}"}" "${vpid[@]+"${vpid[@]}"}" "${wpid[@]+"${wpid[@]}"}"; do
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
	declare -gA qpid=() vpid=() wpid=()
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
	# The last defence against a boot that fails by chance (the emulator's
	# stale int3 before the bed ran a fixed qemu, or a hang): CMD has not run
	# then, so booting again is safe: once, said (tools/run-tests counts it).
	if [ "$hosts" = 1 ] && [ "$mode" != shell ] && [ "${st[1]}" -eq $EX_BED ] &&
		failed_booting "$rundir/1"; then
		if [ -f "$rundir/1/boot-hang" ]; then
			say "the guest hung before CMD started: booting it once more"
		else
			say "the guest kernel crashed before CMD started: booting it once more"
		fi
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
