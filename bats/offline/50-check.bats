#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl check without RDMA: ids and docs in step, usage, this host's kernel.

setup() {
	load ../helpers
}

@test "check: every id has a section in docs/checks.md, and every section an id" {
	ids=$(rdmactl -j check --list | jq -r '.[].id')
	docs=$(sed -n 's/^## \([a-z0-9-]*\)$/\1/p' "$TOP/docs/checks.md")
	[ "$(wc -l <<<"$ids")" -ge 13 ]
	assert_equal "$ids" "$docs"
	for id in $ids; do
		for part in Symptom Cause Detection Fix; do
			sed -n "/^## $id\$/,/^## /p" "$TOP/docs/checks.md" | grep -q "^- \*\*$part\*\*" ||
				fail "docs/checks.md: $id has no $part"
		done
	done
}

@test "check: on a kernel without RDMA, kernel fails naming the option, exit 1, no crash" {
	[ ! -d /sys/class/infiniband ] || skip "this kernel has RDMA"
	run --separate-stderr rdmactl check
	assert_failure 1
	assert_line --regexp '^FAIL  kernel +kernel .* (was built without CONFIG_INFINIBAND|has no RDMA netlink)'
	assert_line --partial 'fix: boot a kernel with CONFIG_RDMA_RXE=m'
	assert_line --partial 'tools/rxe-vm run -- rdmactl check'
	assert_line --regexp '^check: [0-9]+ pass, [0-9]+ warn, [1-9][0-9]* fail, [0-9]+ skip$'
	run rdmactl -j check --only kernel
	assert_failure 1
	run jq -r '.[0] | "\(.id) \(.result) \(.fix != null)"' <<<"$output"
	assert_output 'kernel fail true'
}

@test "check: usage errors exit 2" {
	run rdmactl check --only nosuch
	assert_failure 2
	assert_output --partial "unknown check 'nosuch'"
	run rdmactl check --gid-index x
	assert_failure 2
	run rdmactl check --gid-index -1
	assert_failure 2
	run rdmactl check --peer not-an-address
	assert_failure 2
	run rdmactl check extra
	assert_failure 2
	run rdmactl check --dev 'a b'
	assert_failure 2
}

@test "check: --only runs just those checks, in the registry's order" {
	run rdmactl -j check --only memlock,kernel
	run jq -r '[.[].id] | unique | join(",")' <<<"$output"
	assert_output 'kernel,memlock'
}

@test "check: JSON results carry id, result, message and fix" {
	run rdmactl -j check
	run jq -e 'all(.[]; has("id") and has("result") and has("message") and has("fix")) and
		(map(.result) - ["pass","warn","fail","skip"] | length == 0)' <<<"$output"
	assert_success
}

@test "selftest: usage errors exit 2 before touching a device" {
	for args in '--size 0' '--size x' '--timeout 0' '--gid-index -1' 'a b' "'a b'" '--bogus'; do
		eval "run rdmactl selftest $args"
		assert_failure 2
	done
}

@test "up: bad arguments exit 2" {
	run rdmactl up 'a b'
	assert_failure 2
	run rdmactl up eth0 eth1
	assert_failure 2
}

@test "selftest: --server and --client need --pingpong; --pingpong needs a role and DEV" {
	run rdmactl selftest --server rxe0
	assert_failure 2
	assert_output --partial "rdmactl's own two-host exchange is not built yet"
	run rdmactl selftest --pingpong rxe0
	assert_failure 2
	run rdmactl selftest --pingpong --server --client h rxe0
	assert_failure 2
	run rdmactl selftest --pingpong --server
	assert_failure 2
	run rdmactl selftest --pingpong --server --port 70000 rxe0
	assert_failure 2
}
