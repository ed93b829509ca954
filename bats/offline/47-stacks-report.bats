#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/stacks.md and what writes it: tools/stacks-report on a TAP the stacks
# tier wrote in the bed (bats/fixtures/stacks/6.1.tap), the limits table the
# tier holds rdma-core's failures to, and the page against bats/stacks.

setup() {
	load ../stacks/stacks
	DOC=$BATS_TEST_TMPDIR/stacks.md
	cp "$TOP/docs/stacks.md" "$DOC"
	TAP=$TOP/bats/fixtures/stacks/6.1.tap
}

# The file without its generated part.
hand_part() {
	sed '/^<!-- results: /,/^<!-- end of results -->/d' "$1"
}

@test "stacks-report: each stack's line and each test's verdict, per kernel, between the markers only" {
	run -0 "$TOP/tools/stacks-report" "$TAP" "$DOC"
	assert_output ''
	run -0 cat "$DOC"
	assert_line '| | 6.1 (6.1.0-56-amd64) |'
	assert_line --regexp '^\| rdma-core tests \| 273 run, .* 1 failed: test_qp_ex_rc_atomic_write \|$'
	assert_line --regexp '^\| NFS over RDMA \(NFSv4\.2, proto=rdma\) \| 16 MiB written at [0-9]+ MiB/s'
	assert_line '| stacks: Open MPI over UCX: two ranks exchange 1 MiB through the link | pass |'
	run diff <(hand_part "$TOP/docs/stacks.md") <(hand_part "$DOC")
	assert_success
	[ "$(stat -c %a "$DOC")" = 644 ]
}

@test "stacks-report: a failed test, a skipped one and a kernel that did not run a stack are said so" {
	sed -e 's/^ok 8 \[6\.1\] \(.*\)$/not ok 8 [6.1] \1/' \
		-e 's/^ok 9 \[6\.1\] \(.*\)$/ok 9 [6.1] \1 # skip rpc.nfsd is not in this userland/' "$TAP" >"$BATS_TEST_TMPDIR/a.tap"
	sed -n '1,/^ok 1 /p' "$TAP" | sed 's/6\.1/6.12/g' >>"$BATS_TEST_TMPDIR/a.tap"
	run -0 "$TOP/tools/stacks-report" "$BATS_TEST_TMPDIR/a.tap" "$DOC"
	run -0 cat "$DOC"
	assert_line --regexp '^\| stacks: NVMe-oF .* \| \*\*failed\*\* \| not run \|$'
	assert_line --regexp '^\| stacks: NFS over RDMA: .* \| skipped: rpc\.nfsd is not in this userland \| not run \|$'
	assert_line --regexp '^\| Open MPI .* \| 2 ranks, .* \| not run \|$'
}

@test "stacks-report: a page without its markers is refused and left as it was" {
	printf '# nothing here\n' >"$DOC"
	run -1 "$TOP/tools/stacks-report" "$TAP" "$DOC"
	assert_output "stacks-report: $DOC lacks its result markers"
	assert_equal "$(cat "$DOC")" '# nothing here'
	[ -z "$(find "$BATS_TEST_TMPDIR" -name 'stacks.md.*')" ]
}

@test "stacks: the limits table names each test for its own kernels, a series exactly (6.1 is not 6.12)" {
	run -0 foretold 6.1
	assert_output 'test_qp_ex_rc_atomic_write'
	run -0 foretold 6.12
	assert_output 'test_resize_cq'
	run -0 foretold 7.3
	assert_output 'test_resize_cq'
	run -0 foretold 5.10
	assert_output ''
}

@test "stacks: docs/stacks.md has each test of bats/stacks in its results" {
	while IFS= read -r name; do
		grep -qF "| stacks: $name |" "$TOP/docs/stacks.md" ||
			fail "docs/stacks.md has no result for '$name': run 'make check-stacks'"
	done < <(sed -n 's/^@test "stacks: \(.*\)" {$/\1/p' "$TOP"/bats/stacks/*.bats)
}
