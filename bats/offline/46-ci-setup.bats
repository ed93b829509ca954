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

@test "ci-setup --format junit: a test case a step, those after the failed one skipped; the words on stderr; -j apart" {
	run -1 --separate-stderr github ci-setup --format junit
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/j.xml"
	run -0 junit_read "$BATS_TEST_TMPDIR/j.xml"
	assert_equal "$(printf '%s\n' "${lines[@]}")" "3 1 2
rdmactl.ci-setup|driver|fail
rdmactl.ci-setup|link|skip
rdmactl.ci-setup|env|skip"
	grep -q '<skipped message="not tried: the driver step failed">' "$BATS_TEST_TMPDIR/j.xml" ||
		fail "$(cat "$BATS_TEST_TMPDIR/j.xml")"
	# The text, as a log shows it, on stderr; the summary written as in text.
	[[ $stderr == *"not ready: RDMA could not be made ready on this machine"* ]] || fail "$stderr"
	assert_equal "$(head -n 1 "$D/sum")" '### RDMA not ready'
	run -2 --separate-stderr github -j ci-setup --format junit
	[[ $stderr == *"-j prints JSON: --format junit is XML, leave one out"* ]] || fail "$stderr"
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

# The GitHub action (ci/github) and the GitLab job (ci/gitlab) as their
# runners run them (tools/ci-steps), on this runner without RDMA.
@test "ci: the GitHub action and the GitLab job without RDMA: the reason in the log and the summary, exit 1, the command never run; inputs are never code" {
	local w=$BATS_TEST_TMPDIR/work
	mkdir "$w" && cd "$w"
	run -1 "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/gh" command='echo the command ran'
	assert_line --regexp '^rdmactl: rdmactl [0-9.]+ installed in '
	assert_line --regexp "^driver +FAILED +the running kernel \(.*\) has no RDMA support: "
	assert_line '##[error]Process completed with exit code 1.'
	assert_line 'ci-steps: step 3 (the command) skipped'
	refute_line 'the command ran'
	assert_equal "$(head -n 1 "$w/gh/summary.md")" '### RDMA not ready'
	assert_equal "$(cat "$w/gh/outputs")" $'device=\nnetdev=\ngid_index=\naddress='
	# rdmactl where the runner empties it, on the PATH of the steps after.
	[ -x "$w/gh/temp/rdmactl/sbin/rdmactl" ] || fail "not in \$RUNNER_TEMP"
	# A hostile input is a netdev's name that is no name, not a command.
	run -2 --separate-stderr "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/bad" \
		netdev='$(touch owned)' hosts='2;touch owned'
	[[ $stderr == *"rdmactl: ci-setup: "* ]] || fail "$stderr"
	[ ! -e owned ] || fail "an input ran as code"
	# The bed's inputs checked before anything boots.
	run -2 --separate-stderr "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/bad" kernel=6.1 \
		hosts='3;touch owned' command=true
	[[ $stderr == *"rdmactl: the input hosts is '3?touch?owned': 1 or 2"* ]] || fail "$stderr"
	run -2 --separate-stderr "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/bad" kernel=6.1 \
		record='yes;touch owned' command=true
	[[ $stderr == *"rdmactl: the input record is 'yes?touch?owned': true or false"* ]] || fail "$stderr"
	[ ! -e owned ] || fail "an input ran as code"
	# GitLab: the template included, rdmactl's source a directory.
	mkdir -p ci/gitlab
	cp "$TOP/ci/gitlab/rdmactl.yml" ci/gitlab/
	printf '%s\n' 'include:' '  - local: /ci/gitlab/rdmactl.yml' 'rdma:' '  extends: .rdmactl' \
		'  script:' '    - echo the script ran' >.gitlab-ci.yml
	run -1 "$TOP/tools/ci-steps" gitlab .gitlab-ci.yml rdma "$w/gl" RDMACTL_SOURCE="$TOP"
	assert_line --regexp "^driver +FAILED +the running kernel \(.*\) has no RDMA support: "
	assert_line 'ci-steps: job rdma failed: exit code 1'
	refute_line 'the script ran'
	# Its test report, kept though the job failed: the driver failed, the rest not tried.
	run -0 junit_read "$w/gl/junit.xml"
	assert_equal "$(printf '%s\n' "${lines[@]}")" "3 1 2
rdmactl.ci-setup|driver|fail
rdmactl.ci-setup|link|skip
rdmactl.ci-setup|env|skip"
	cd "$w"
	run -2 "$TOP/tools/ci-steps" gitlab .gitlab-ci.yml rdma "$w/gl"
	assert_line "rdmactl: RDMACTL_SOURCE is empty: set it to rdmactl's git URL or a directory of its source"
	# The bed's job: its variables checked before anything boots; no kernel is an error.
	mkdir -p ci/gitlab
	cp "$TOP/ci/gitlab/rdmactl.yml" ci/gitlab/
	printf '%s\n' 'include:' '  - local: /ci/gitlab/rdmactl.yml' 'bed:' '  extends: .rdmactl-bed' >bed.yml
	run -2 --separate-stderr "$TOP/tools/ci-steps" gitlab bed.yml bed "$w/glb" RDMACTL_SOURCE="$TOP" \
		RDMACTL_KERNEL=6.1 RDMACTL_HOSTS='3;touch owned' RDMACTL_COMMAND=true
	[[ $stderr == *"rdmactl: the input hosts is '3?touch?owned': 1 or 2"* ]] || fail "$stderr"
	[ ! -e owned ] || fail "an input ran as code"
	run -2 --separate-stderr "$TOP/tools/ci-steps" gitlab bed.yml bed "$w/glb" RDMACTL_SOURCE="$TOP" \
		RDMACTL_COMMAND=true
	[[ $stderr == *"rdmactl: no kernel given: the bed boots one of rxe-vm's kernels"* ]] || fail "$stderr"
}
