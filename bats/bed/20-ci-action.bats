#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The GitHub action (ci/github) with a kernel of the bed's, from the host, as
# the runner runs it (tools/ci-steps): the guest makes its own link as a
# runner would, the command runs under record in it, and the step summary
# comes back to the runner's. One boot.

setup() {
	load ../helpers
}

@test "ci: the GitHub action with a kernel: the guest's link made as on a runner, the command's output, then record's report of what failed; the status stays the command's" {
	local w=$BATS_TEST_TMPDIR/work
	mkdir "$w" && cd "$w"
	# A pingpong that passes with the link's variables, then one without -g:
	# no GRH, which RoCE needs.
	run --separate-stderr "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/runner" kernel=6.1 command='
		listen() { for _ in $(seq 100); do ss -Htln "sport = :$1" | grep -q . && return; sleep 0.1; done; }
		ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18620 -n 20 >/dev/null & listen 18620
		ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18620 -n 20 127.0.0.1 | grep " iters in "; wait
		ibv_rc_pingpong -d "$RDMA_DEVICE" -p 18621 & listen 18621
		echo client; ibv_rc_pingpong -d "$RDMA_DEVICE" -p 18621 127.0.0.1'
	assert_failure 1
	assert_line --regexp '^20 iters in [0-9.]+ seconds = [0-9.]+ usec/iter$'
	assert_line client
	assert_line '##[error]Process completed with exit code 1.'
	[[ $stderr == *$'\n'"ready: rxe0 on veth0, 10.11.11.251, GID index 1"$'\n'* ]] || fail "no link: $stderr"
	[[ $stderr == *"Failed to modify QP to RTR"*"FAIL  "*"(ibv_rc_pingpong): ibv_modify_qp (MODIFY_QP) refused with EINVAL"*"cause: its address vector has no GRH (is_global 0)"* ]] ||
		fail "no report after the program's words: $stderr"
	# The step summary, as the run's page shows it: the guest's steps, the status, the report.
	grep -qx '### RDMA ready: rxe0 on veth0, 10.11.11.251, GID index 1' "$w/runner/summary.md" ||
		fail "$(cat "$w/runner/summary.md")"
	grep -qx '### The command in the guest (kernel 6\.1\..*): exit status 1' "$w/runner/summary.md" ||
		fail "$(cat "$w/runner/summary.md")"
	grep -q '^      cause: its address vector has no GRH (is_global 0)' "$w/runner/summary.md" ||
		fail "$(cat "$w/runner/summary.md")"
	[[ $stderr != *rdmactl-summary:* ]] || fail "summary lines left in the log: $stderr"
	# The link was the guest's: no output names a device on the runner.
	assert_equal "$(cat "$w/runner/outputs")" $'device=\nnetdev=\ngid_index=\naddress='
}
