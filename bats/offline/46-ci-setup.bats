#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl ci-setup on a runner whose kernel has no RDMA at all (this host's,
# as many CI runners' are): what it tried and why it failed, said on the
# terminal and in GitHub's step summary; nothing written where the next
# steps would take it as RDMA; the runner's files refused when they are not
# regular files, never waited on. The success path runs in the bed
# (bats/vm/16-module.bats), on a kernel given rdma_rxe by DKMS.

setup() {
	load ../helpers
	# A kernel with the RDMA core would have ci-setup build and load modules here.
	if [ -e /sys/module/ib_core ] || modinfo ib_core >/dev/null 2>&1; then
		skip "this kernel has the RDMA core: ci-setup would change it (the bed tests that)"
	fi
	D=$BATS_TEST_TMPDIR/runner
	mkdir -p "$D"
	echo EARLIER=1 >"$D/env"
	: >"$D/out"
	: >"$D/sum"
}

# ci-setup as a GitHub Actions step runs it, its files in $D.
github() {
	GITHUB_ACTIONS=true GITHUB_ENV=$D/env GITHUB_OUTPUT=$D/out GITHUB_STEP_SUMMARY=$D/sum \
		"$RDMACTL" "$@"
}

@test "ci-setup: no RDMA in the kernel: the driver step fails naming the bed, exit 1; the summary says so, nothing else written" {
	run --separate-stderr github ci-setup
	assert_failure 1
	# The kernel's words translated, and what to do: the bed among it.
	assert_line --regexp "^driver +FAILED +the running kernel \(.*\) has no RDMA support: .* \(EPROTONOSUPPORT\); .*rxe-vm run "
	assert_line 'not ready: RDMA could not be made ready on this machine'
	# Said once, in its step.
	assert_equal "$stderr" ''

	# The step summary, as the run's page shows it first; the next steps' files as they were.
	assert_equal "$(head -n 1 "$D/sum")" '### RDMA not ready'
	grep -q "^| driver | \*\*failed\*\* | the running kernel (.*) has no RDMA support: " "$D/sum" || fail "$(cat "$D/sum")"
	assert_equal "$(cat "$D/env")" EARLIER=1
	assert_equal "$(cat "$D/out")" ''
	# The same in JSON, as docs/json.md gives it.
	run -1 --separate-stderr github -j ci-setup
	assert_json_contract ci-setup <<<"$output"
	assert_equal "$(jq -c '[.ready, .ci, [.steps[] | .step, .ok], .gid_index, .wrote]' <<<"$output")" \
		'[false,"github",["driver",false],null,[]]'
}

@test "ci-setup: a runner file that is no regular file is refused, never waited on; a bad netdev stops it before anything" {
	rm "$D/sum"
	mkfifo "$D/sum"
	run --separate-stderr timeout 20 env GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$D/sum" \
		"$RDMACTL" ci-setup
	assert_failure 1
	[[ $stderr == *"$D/sum"*"not a regular file"* ]] || fail "$stderr"
	# Checked before anything is loaded: a usage error, no step tried.
	run --separate-stderr github ci-setup 'a b'
	assert_failure 2
	assert_output ''
	[[ $stderr == "rdmactl: ci-setup: "* ]] || fail "$stderr"
	run --separate-stderr github ci-setup nosuchnetdev0
	assert_failure 1
	assert_output ''
	[[ $stderr == *"there is no network device named nosuchnetdev0"*"nothing was done"* ]] || fail "$stderr"
	[ ! -s "$D/out" ] || fail "an output written: $(cat "$D/out")"
}
