#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The GitHub action (ci/github) and the GitLab template (ci/gitlab) with a
# kernel of the bed's, from the host, as their runners run them
# (tools/ci-steps): each guest makes its own link as a runner would, the
# command runs under record in it, and the report of what failed follows its
# output; GitHub's step summary comes back to the runner's. A boot a test.

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

@test "ci: the GitHub action with two hosts: a pingpong between the guests, each one's report, the summary host by host" {
	local w=$BATS_TEST_TMPDIR/work s
	mkdir "$w" && cd "$w"
	# Host 1 serves, host 2 connects to it (RXE_VM_PEER) once it listens:
	# first with the link's variables, then both without -g.
	run --separate-stderr "$TOP/tools/ci-steps" github "$TOP/ci/github" "$w/runner" kernel=6.1 hosts=2 command='
		client() {
			local out
			for _ in $(seq 100); do
				out=$(ibv_rc_pingpong "$@" 2>&1) && { echo "$out"; return; }
				case $out in *"t connect to"*) sleep 0.2 ;; *) echo "$out"; return 1 ;; esac
			done
			return 1
		}
		if [ "$RXE_VM_HOST" = 1 ]; then
			ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18622 -n 20 | grep " iters in "
			ibv_rc_pingpong -d "$RDMA_DEVICE" -p 18623
		else
			client $RDMA_EXAMPLE_ARGS -p 18622 -n 20 "$RXE_VM_PEER" | grep " iters in "
			client -d "$RDMA_DEVICE" -p 18623 "$RXE_VM_PEER"
		fi'
	assert_failure 1
	assert_line --regexp '^\[1\] 20 iters in [0-9.]+ seconds = [0-9.]+ usec/iter$'
	assert_line --regexp '^\[2\] 20 iters in [0-9.]+ seconds = [0-9.]+ usec/iter$'
	assert_line '##[error]Process completed with exit code 1.'
	[[ $stderr == *"[1] ready: rxe0 on eth0, 10.11.12.1, GID index 1"* ]] || fail "no link on host 1: $stderr"
	[[ $stderr == *"[2] ready: rxe0 on eth0, 10.11.12.2, GID index 1"* ]] || fail "no link on host 2: $stderr"
	[[ $stderr != *rdmactl-summary:* ]] || fail "summary lines left in the log: $stderr"
	# The summary: host 1's part whole, then host 2's, each with its link
	# and the command's status. Host 1's server had its RTR refused, which
	# its report names; host 2's client only lost the server's answer (the
	# server closes the socket when its RTR fails), no verb of its own
	# refused: its report says nothing failed that record could see.
	s=$(cat "$w/runner/summary.md")
	[[ $s =~ ^'## Host 1'$'\n'(.*)$'\n''## Host 2'$'\n'(.*)$ ]] || fail "not host by host: $s"
	local one=${BASH_REMATCH[1]} two=${BASH_REMATCH[2]} h
	for h in 1 2; do
		[ "$h" = 1 ] && s=$one || s=$two
		[[ $s == *"### RDMA ready: rxe0 on eth0, 10.11.12.$h, GID index 1"* ]] || fail "host $h: $s"
		[[ $s =~ '### The command in the guest (kernel 6.1.'[^$'\n']*'): exit status 1' ]] || fail "host $h: $s"
		[[ $s != *"10.11.12.$((3 - h))"* ]] || fail "host $h's part names the other's address: $s"
	done
	[[ $one == *"(ibv_rc_pingpong): ibv_modify_qp (MODIFY_QP) refused with EINVAL"* ]] || fail "host 1: $one"
	[[ $two == *"nothing failed that record could see"* ]] || fail "host 2: $two"
}

@test "ci: the GitLab bed job: the guest's link, the command's output, then record's report in the job log; the job fails with the command" {
	local w=$BATS_TEST_TMPDIR/work
	mkdir -p "$w/ci/gitlab" && cd "$w"
	cp "$TOP/ci/gitlab/rdmactl.yml" ci/gitlab/
	printf '%s\n' 'include:' '  - local: /ci/gitlab/rdmactl.yml' 'rdma:' '  extends: .rdmactl-bed' \
		'  variables:' '    RDMACTL_KERNEL: "6.1"' >.gitlab-ci.yml
	# A pingpong without -g: no GRH, which RoCE needs.
	run --separate-stderr "$TOP/tools/ci-steps" gitlab .gitlab-ci.yml rdma "$w/gl" RDMACTL_SOURCE="$TOP" \
		RDMACTL_COMMAND='ibv_rc_pingpong -d "$RDMA_DEVICE" -p 18624 & for _ in $(seq 100); do
			ss -Htln "sport = :18624" | grep -q . && break; sleep 0.1; done
			echo client; ibv_rc_pingpong -d "$RDMA_DEVICE" -p 18624 127.0.0.1'
	assert_failure 1
	assert_line client
	assert_line 'ci-steps: job rdma failed: exit code 1'
	[[ $stderr == *$'\n'"ready: rxe0 on veth0, 10.11.11.251, GID index 1"$'\n'* ]] || fail "no link: $stderr"
	[[ $stderr == *"Failed to modify QP to RTR"*"FAIL  "*"(ibv_rc_pingpong): ibv_modify_qp (MODIFY_QP) refused with EINVAL"*"cause: its address vector has no GRH (is_global 0)"* ]] ||
		fail "no report after the program's words: $stderr"
	# GitLab's job log is its summary: no line marked for GitHub's.
	[[ "$output$stderr" != *rdmactl-summary:* ]] || fail "summary lines in the log: $stderr"
}
