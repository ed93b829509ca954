#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# rdma-core's own test suite (python3-pyverbs) over the link, with the device
# and GID index from 'rdmactl env'. Every failure must be one docs/stacks.md
# foretells for this kernel (its "Limits" table); any other fails the test.

load stacks

@test "stacks: rdma-core's tests pass over the link, but for what docs/stacks.md foretells for this kernel" {
	needs python3
	[ -e /usr/share/doc/rdma-core/tests/run_tests.py ] || skip "python3-pyverbs is not in this userland (tools/install-deps stacks)"
	cp -r /usr/share/doc/rdma-core/tests "$BATS_TEST_TMPDIR/tests"
	gunzip -f "$BATS_TEST_TMPDIR"/tests/*.gz
	before=$(rxe_sent)
	cd "$BATS_TEST_TMPDIR"
	run timeout 900 /usr/bin/python3 tests/run_tests.py --dev "$RDMA_DEVICE" --gid "$RDMA_GID_INDEX" -v
	assert_carried "$before" 1000
	ran=$(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' <<<"$output")
	[ -n "$ran" ] || fail "no summary from run_tests.py: $output"
	failed=$(grep -E '^(ERROR|FAIL): ' <<<"$output" | sed -E 's/^(ERROR|FAIL): ([a-z0-9_]+) .*/\2/' | sort -u)
	skipped=$(grep -cE ' \.\.\. skipped' <<<"$output" || true)
	nfailed=$(grep -c . <<<"$failed" || true)
	series=$(uname -r | cut -d. -f1,2)
	unforetold=$(comm -23 <(grep . <<<"$failed") <(foretold "$series" | sort))
	stack_result "rdma-core tests" "$ran run, $((ran - skipped - nfailed)) passed, $skipped skipped, $nfailed failed${failed:+: $(echo $failed)}"
	[ -z "$unforetold" ] || fail "failed and not foretold in docs/stacks.md for $series: $unforetold
$(grep -A12 -E '^(ERROR|FAIL): ' <<<"$output")"
	[ "$status" -eq 0 ] || [ -n "$failed" ] || fail "run_tests.py exited $status: $output"
}
