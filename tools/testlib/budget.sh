# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/run-tests' shares of CI's time: each tier's, how fast this machine runs
# guests against the one they were sized on, and the judgement of a run
# (budget.tap). Sourced by tools/run-tests, which sets results and took.

# How fast this machine runs guests, against the one the shares below were
# sized on: the time of one fixed piece of a guest's work (bats reading
# bats/vm, bash and forks under the emulator as the tests are), measured in
# this run once the kernel is in the cache. Sets ref_ms; tried once, and
# if it fails the shares stay as they are, which is said.
ref_ms='' calibrated=''
calibrate() {
	local t0
	calibrated=1
	if tools/rxe-vm run --kernel 6.1 -- true >/dev/null 2>&1; then
		t0=${EPOCHREALTIME/./}
		RXE_VM_SMP=1 tools/rxe-vm run --kernel 6.1 -- bats --count bats/vm >/dev/null 2>&1 && ref_ms=1
	fi
	if [ -z "$ref_ms" ]; then
		echo "# no reference measured (tools/rxe-vm run --kernel 6.1 failed): the guests' shares are not scaled"
		return 0
	fi
	ref_ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	echo "# a guest's reference work took ${ref_ms} ms here; the shares were sized where it took ${ref_sized_ms} ms"
}
# Measured on the machine the shares were sized on: 23.2 s, 25.1 s.
ref_sized_ms=24000

# Each tier's share of CI's time, in seconds, on CI's 2-core machine. The
# shares add up to 4000 s of the 70 minutes a run may take (ci/run holds the
# whole run to that), the rest for installing, building and downloading. A
# tier past its share fails a test of its own: make it cheaper, or take the
# time from another tier's share here, keeping the sum. The guests' tiers
# share one pool, and one share. Judged where asked (RDMACTL_TEST_BUDGET=1,
# as ci/run sets it), and only for a tier run as make check runs it (no
# kernel list of one's own, every tier of the pool in it).
# Sized from CI's run of 2026-11-26 (a fresh clone and cache; whole run
# 60m14s): unit 0 s, fuzz 32, offline 74, offline-asan 72, bed 335, vm2
# 170, boot 277, the pool 2580, past its share of 2460 then. Since, the
# vm tier's memcheck runs of 244 s alone (398 s beside another guest) and
# two of vm2's are rdmactl built with the sanitizers, and the other
# tiers' shares were cut to some 20% or more above CI's times. A fresh
# clone and cache on a machine as fast as CI's, then: the whole run
# 51m44s; bed 454 s (its downloads slower there than CI's), vm2 126,
# boot 270, the pool 1999.
# The boot tier joined the pool (its share with it) on 2026-11-27.
# The guests' tiers (bed, vm2, the pool) are slower on a machine that
# emulates slower: CI's run of 2026-11-27 took the pool 1.56 times as long
# as here, and the tiers that boot nothing no longer. Their shares are
# scaled by this run's reference work against the machine the shares were
# sized on (calibrate), up to half as much again: a tier that grew fails
# whatever the machine, and ci/run still holds the whole run to 70 minutes.
# CI's run of 2026-11-27 took 73m26s: offline 112 s, offline-asan 120, the
# pool 3390 (at its 1.5 cap). The module build's story then left 6.1-cloud
# (some 900 s of a guest here, 1.7 times that on CI), and 100 s of the
# pool's share went to the offline tiers, which had grown by the tests of
# live QPs, rxe's log lines, racing edits and every name's bytes.
# CI's run of 2026-11-27's second submission passed in 40m06s. Then the
# tests of issue 46's properties (every fixture's JSON, garbage in
# attributes, FIFOs, each check alone) took the sanitizer tier here from
# 118 s to 184 s; three of them, logic the plain build holds, left it
# (161 s), and 30 s of the pool's share went to it. The whole run then, a
# fresh clone and cache here: 41m05s; the bed 9m02s against its 9m00s (it
# changed not; its downloads vary), the pool 22m03s: 30 s more to the bed.
# CI's run of 2026-11-27's third submission: the whole run 37m55s, the pool
# 21m57s of its 47m20s, and the tiers that boot nothing slower than here:
# offline 137 s, offline-asan 185 s past its 180 (87 s on a quiet machine
# here, 171 s in a whole run beside the host's own work). Their times vary
# with the machine by twice as much, the pool's no more: 90 s of the pool's
# share went to them.
# The offline tiers then ran one beside the other (2026-11-28): their
# shares are one, the sum of the two.
declare -A budget=([unit]=10 [fuzz]=50 [offline]=180 [offline-asan]=240
	[offline+offline-asan]=420 [bed]=570
	[vm2]=200 [boot+vm+kernels+cloud+stacks]=2750)
# The bed's tests joined the pool (2026-11-28). The whole run on a fresh
# clone and cache then took 41m42s here, the pool with the bed 32m42s
# (1962 s) where the reference work took 17.6 s: some 2680 s at the 24 s
# the shares were sized at. Its share is 3000 s, not the 3320 s of the two
# it was, so that what the pool gained is kept for the 50 minutes a run
# aims at and a new feature pays for its own boots.
budget[bed+boot+vm+kernels+cloud+stacks]=3000
# The kube tier joined make check (2026-11-29): 4m11s alone here, most of
# it podman's packages installed and the image loaded in the guest. Its
# share came from the pool's, which took 27m01s of its 50 minutes then.
budget[kube]=480
budget[bed+boot+vm+kernels+cloud+stacks]=$((budget[bed+boot+vm+kernels+cloud+stacks] - budget[kube]))
# The fleet tier joined make check (2026-11-29) on 7.3/trixie alone: 6m30s
# here, with Ansible and sshd in the userland and two vCPUs a guest (13m54s
# before those, 15m48s in a whole run, which had no room for it). Its share:
# the 320 s the shares had left of the 4000, and 280 s of the pool's (27 to
# 31 of its 42 minutes in CI's last runs).
budget[fleet]=600
budget[bed+boot+vm+kernels+cloud+stacks]=$((budget[bed+boot+vm+kernels+cloud+stacks] - 280))
# The vm2 and kube tiers joined the pool (2026-12-03): alone, their guests
# kept the host's cores some 1.5 and 1.2 busy of 2. CI's run of that day
# took 61m17s, past the 60 minutes the developers' guide keeps a run to:
# the pool 40m14s, vm2 3m25s, kube 2m33s. The pool's share is now the sum
# of the three, less 200 s of kube's, which took half of its 480.
budget[bed+vm2+kube+boot+vm+kernels+cloud+stacks]=$((budget[bed+boot+vm+kernels+cloud+stacks] + budget[vm2] + budget[kube] - 200))

# Each tier of TOOK ("TIER SECONDS") held to its share, scaled for this
# machine's guests, as TAP lines in $results/budget.tap and on stdout.
budget_judge() {
	local f t tier secs share scaled scale line
	f=$results/budget.tap
	: >"$f"
	for t in "${took[@]}"; do
		tier=${t% *} secs=${t#* }
		case "$tier" in
		*kernels*|*cloud*|*stacks*)
			[ -z "${RDMACTL_TEST_KERNELS-}${RDMACTL_TEST_CLOUD_KERNELS-}${RDMACTL_TEST_STACK_KERNELS-}" ] ||
				continue ;;
		fleet) [ -z "${RDMACTL_TEST_FLEET_KERNELS-}" ] || continue ;;
		fuzz) [ -z "${FUZZ_CHECK_TIME-}" ] || continue ;;
		esac
		[ -n "${budget[$tier]-}" ] || continue
		share=${budget[$tier]} scaled=
		case "$tier" in
		unit|fuzz|offline*) ;;
		*) if [ -n "$ref_ms" ] && [ "$ref_ms" -gt "$ref_sized_ms" ]; then
				scale=$((ref_ms * 100 / ref_sized_ms))
				[ "$scale" -le 150 ] || scale=150
				share=$((share * scale / 100))
				scaled=$(printf ' (%dm%02ds, times %d.%02d for this machine'"'"'s guests)' \
					$((budget[$tier] / 60)) $((budget[$tier] % 60)) $((scale / 100)) $((scale % 100)))
			fi ;;
		esac
		line=$(printf 'budget: the %s tier took %dm%02ds; its share of CI is %dm%02ds%s' "$tier" \
			$((secs / 60)) $((secs % 60)) $((share / 60)) $((share % 60)) "$scaled")
		if [ "$secs" -le "$share" ]; then echo "ok - $line"; else echo "not ok - $line"; fi
	done | tee "$f"
}
