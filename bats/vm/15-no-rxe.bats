#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel with the RDMA core but without rdma_rxe (Debian's cloud flavour):
# rdmactl names the missing driver in every command that needs it. Run by the
# kernel tier on 6.1-cloud; the vm tier leaves these out.
# bats file_tags=no-rxe

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	if modinfo -F filename rdma_rxe >/dev/null 2>&1; then
		skip "this kernel has rdma_rxe"
	fi
	N=$RXE_VM_NETDEV
	rdma_links_clear
}

@test "no rxe: the kernel has the RDMA core but no rdma_rxe" {
	run grep -E '^(CONFIG_INFINIBAND|# CONFIG_RDMA_RXE)[ =]' "/boot/config-$(uname -r)"
	assert_line 'CONFIG_INFINIBAND=m'
	assert_line '# CONFIG_RDMA_RXE is not set'
	run modinfo -F filename ib_core
	assert_success
}

@test "no rxe: start says rdma_rxe is not installed, loads the RDMA core, exit 1" {
	run --separate-stderr rdmactl start
	assert_failure 1
	[[ $stderr == *'rdmactl: module rdma_rxe is not installed for kernel'* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *'CONFIG_RDMA_RXE'* ]] || fail "stderr: $stderr"
	assert_line 'module rdma_rxe failed'
	[ -d /sys/module/ib_core ] || fail "ib_core is not loaded"
}

@test "no rxe: up NETDEV stops at start naming the driver, exit 1, no link made" {
	run rdmactl up "$N"
	assert_failure 1
	assert_line --partial 'rdmactl: module rdma_rxe is not installed for kernel'
	assert_line --partial 'stopped at start'
	run rdma_links
	assert_output ''
}

@test "no rxe: check fails kernel with one fix; what needs rdma_rxe is skipped" {
	run rdmactl check
	assert_failure 1
	kver=$(uname -r)
	assert_line --regexp "^FAIL  kernel +kernel ${kver//+/\\+} was built without CONFIG_RDMA_RXE "
	assert_line --regexp '^SKIP  modules +rdma_rxe cannot be loaded on this kernel \(see the kernel check\)$'
	assert_line --regexp '^SKIP  link +no rxe link can be made without rdma_rxe'
	assert_line "      fix: rdmactl module install (builds rdma_rxe from the kernel's own source with DKMS); or boot a kernel with CONFIG_RDMA_RXE=m (Debian's linux-image-amd64 has it)"
	run grep -c '^      fix:' <<<"$output"
	assert_output 1
	run rdmactl -j check
	assert_failure 1
	run jq -r '[.[] | select(.result == "fail") | .id] | join(" ")' <<<"$output"
	assert_output 'kernel'
}

@test "no rxe: add says the module is missing, exit 1, and leaves no link" {
	run --separate-stderr rdmactl add rxe0 "$N"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: cannot add rxe0: the rdma_rxe module is not installed for kernel $(uname -r): 'rdmactl module install' builds it from the kernel's source (or use a kernel with CONFIG_RDMA_RXE) (EINVAL: Invalid argument)"
	run rdma_links
	assert_output ''
}
