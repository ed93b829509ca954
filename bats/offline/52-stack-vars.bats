#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# check --pid's process-env: the RDMA stacks' variables read by each stack's
# own rules (NCCL, UCX, libfabric, Open MPI), against the links of fixtures
# captured in the bed. A process here is a /proc/PID of the fixture's, its
# environ written as the kernel shows it (NUL-separated).

setup() {
	load ../helpers
	F=$BATS_TEST_TMPDIR/f
	cp -a "$TOP/bats/fixtures/two-netdevs" "$F"
}

# A process 4242 in fixture $F with the environment "$@" (and $MAPS its maps);
# its verdicts then.
verdicts() {
	local p=$F/proc/4242
	rm -rf "$p"
	mkdir -p "$p"
	echo job >"$p/comm"
	printf 'Name:\tjob\nCapEff:\t0000000000000000\n' >"$p/status"
	printf 'Max locked memory         unlimited            unlimited            bytes\n' >"$p/limits"
	printf '%s' "${MAPS:-}" >"$p/maps"
	if [ $# -gt 0 ]; then printf '%s\0' "$@"; fi >"$p/environ"
	rdmactl --sysfs-root "$F" check --pid 4242 --only process-env |
		grep -E '^(PASS|WARN|FAIL|SKIP)  |^      fix: '
}

# The one word of each verdict, a line each.
results() {
	verdicts "$@" | grep -v '^      fix: ' | cut -c1-4 | tr '\n' ' ' | sed 's/ $//'
}

@test "stack vars: what 'rdmactl env' prints for each device and family passes check --pid, every stack" {
	local dev fam n=0
	for dev in rxe0 rxe1; do
		for fam in ipv4 ipv6; do
			mapfile -t vars < <(rdmactl --sysfs-root "$F" -j env --family "$fam" "$dev" |
				jq -r '.env | to_entries[] | "\(.key)=\(.value)"')
			[ "${#vars[@]}" -gt 10 ] || fail "env gave ${#vars[@]} variables"
			run verdicts "${vars[@]}"
			# NCCL, UCX, libfabric and Open MPI, each saying what it uses.
			assert_equal "$(grep -c '^PASS' <<<"$output")" 4
			refute_line --regexp '^(WARN|FAIL)'
			idx=$(rdmactl --sysfs-root "$F" -j env --family "$fam" "$dev" | jq -r .gid_index)
			assert_line --regexp "NCCL: uses $dev port 1 with GID $idx \\("
			assert_line --regexp "UCX: uses $dev port 1 with GID $idx \\("
			n=$((n + 1))
		done
	done
	[ "$n" = 4 ]
}

@test "stack vars: each stack's defaults and 'choose for me' values are never failed" {
	# NCCL's own default (-1: choose), UCX's (auto, all), an empty HCA (all).
	run verdicts NCCL_IB_GID_INDEX=-1
	assert_line --regexp 'PASS .*NCCL: uses rxe0 port 1 with GID 1 \(10\.11\.11\.251\), rxe1 port 1 with GID 1 \(10\.11\.13\.1\)'
	assert_line --partial '(NCCL_IB_GID_INDEX=-1: NCCL chooses, for AF_INET RoCE v2)'
	run results UCX_IB_GID_INDEX=auto UCX_NET_DEVICES=all UCX_UD_ETH_DGID_CHECK=n
	assert_output PASS
	run results UCX_IB_GID_INDEX=AUTO UCX_TLS=all UCX_UD_ETH_DGID_CHECK=no
	assert_output PASS
	run results NCCL_IB_HCA= NCCL_IB_GID_INDEX=1
	assert_output PASS
	run results OMPI_MCA_pml=ucx UCX_UD_ETH_DGID_CHECK=n
	assert_output 'PASS PASS'
	# Nothing of a stack's set: one pass saying so.
	run verdicts PATH=/bin HOME=/root
	assert_output --partial 'it sets none of the RDMA stacks'"'"' variables'
}

@test "stack vars: NCCL_IB_HCA as NCCL reads it: prefixes, '=' exact, '^' excludes, ':N' a port" {
	run verdicts NCCL_IB_HCA=rxe NCCL_IB_GID_INDEX=1
	assert_output --partial 'NCCL: uses rxe0 port 1 with GID 1 (10.11.11.251), rxe1 port 1 with GID 1 (10.11.13.1)'
	run verdicts NCCL_IB_HCA=rxe1 NCCL_IB_GID_INDEX=1
	assert_output --partial 'NCCL: uses rxe1 port 1 with GID 1'
	refute_output --partial 'rxe0 port'
	run verdicts NCCL_IB_HCA=^rxe0 NCCL_IB_GID_INDEX=1
	assert_output --partial 'NCCL: uses rxe1 port 1 with GID 1'
	refute_output --partial 'rxe0 port'
	run verdicts NCCL_IB_HCA=^=rxe NCCL_IB_GID_INDEX=1	# exact: excludes no device
	assert_output --partial 'NCCL: uses rxe0 port 1 with GID 1 (10.11.11.251), rxe1 port 1'
	run verdicts NCCL_IB_HCA=rxe0:1,rxe1:1 NCCL_IB_GID_INDEX=1
	assert_output --partial 'uses rxe0 port 1 with GID 1 (10.11.11.251), rxe1 port 1'
	# What takes nothing: an exact name that is only a prefix, a port rxe has not.
	for hca in =rxe rxe0:2 mlx5 ^rxe; do
		run verdicts "NCCL_IB_HCA=$hca" NCCL_IB_GID_INDEX=1
		assert_output --partial "NCCL: NCCL_IB_HCA=$hca takes no active RDMA port here (rxe0:1, rxe1:1): NCCL finds no IB device and falls back to sockets"
	done
}

@test "stack vars: a GID index is judged by one rule: check --gid-index and every stack agree" {
	local i nccl ucx fi check
	for i in 0 1 2 3 4 1023 1024 9999; do
		check=$(rdmactl --sysfs-root "$F" check --only gid-index --gid-index "$i" --dev rxe0 |
			grep -oE '^(PASS|FAIL)' | head -1)
		nccl=$(results NCCL_IB_HCA==rxe0 "NCCL_IB_GID_INDEX=$i")
		ucx=$(results UCX_NET_DEVICES=rxe0:1 "UCX_IB_GID_INDEX=$i" UCX_UD_ETH_DGID_CHECK=n)
		[ "$nccl" = "$check" ] || fail "index $i: check says $check, NCCL's $nccl"
		[ "$ucx" = "$check" ] || fail "index $i: check says $check, UCX's $ucx"
		# libfabric takes 0 to 255, and its index is read by DGRAM endpoints alone.
		if [ "$i" -le 255 ]; then
			fi=$(results FI_VERBS_DEVICE_NAME=rxe0 "FI_VERBS_GID_IDX=$i")
			[ "$fi" = "$( [ "$check" = PASS ] && echo PASS || echo WARN)" ] ||
				fail "index $i: check says $check, libfabric's $fi"
		fi
	done
	run verdicts NCCL_IB_HCA==rxe0 NCCL_IB_GID_INDEX=9999
	assert_output --partial 'NCCL: on rxe0 port 1, GID index 9999 is out of range (0-1023): the GID table of rxe0 has 1024 slots (NCCL_IB_GID_INDEX=9999)'
	run verdicts NCCL_IB_HCA==rxe0 NCCL_IB_GID_INDEX=4
	assert_output --partial 'NCCL: on rxe0 port 1, slot 4 of rxe0 is empty'
	# NCCL reads numbers as C does: 0x1 is 1.
	run results NCCL_IB_HCA==rxe0 NCCL_IB_GID_INDEX=0x1
	assert_output PASS
}

@test "stack vars: NCCL_IB_GID_INDEX=0 with no device named fails on each device that needs 1" {
	run verdicts NCCL_IB_GID_INDEX=0
	assert_line --regexp '^FAIL .*NCCL: on rxe0 port 1, GID index 0 is fe80::'
	assert_line --regexp '^FAIL .*NCCL: on rxe1 port 1, GID index 0 is fe80::'
	# Left unset: NCCL 2.21 and later choose right; older ones would take 0, which is said.
	run verdicts NCCL_IB_HCA==rxe0
	assert_line --regexp "^WARN .*NCCL: uses rxe0 port 1 with GID 1 \\(10\\.11\\.11\\.251\\) \\(chosen by NCCL 2\\.21 and later for AF_INET RoCE v2, NCCL_IB_GID_INDEX unset\\); but NCCL before 2\\.21 takes index 0"
}

@test "stack vars: NCCL's choice follows NCCL_IB_ADDR_FAMILY and NCCL_IB_ADDR_RANGE" {
	run verdicts NCCL_IB_GID_INDEX=-1 NCCL_IB_ADDR_FAMILY=AF_INET6
	assert_output --partial 'uses rxe0 port 1 with GID 3 (2001:db8:11::1), rxe1 port 1 with GID 2 (fd00:13::1)'
	# The second IPv4 address of rxe0 when the range names its subnet alone.
	run verdicts NCCL_IB_HCA==rxe0 NCCL_IB_GID_INDEX=-1 NCCL_IB_ADDR_RANGE=10.11.11.252/32
	assert_output --partial 'uses rxe0 port 1 with GID 2 (10.11.11.252)'
	run verdicts NCCL_IB_HCA==rxe0 NCCL_IB_GID_INDEX=-1 NCCL_IB_ADDR_FAMILY=inet6
	assert_line --regexp '^WARN .*NCCL_IB_ADDR_FAMILY=inet6 is neither AF_INET nor AF_INET6: NCCL keeps AF_INET'
	assert_output --partial 'uses rxe0 port 1 with GID 1 (10.11.11.251)'
	run verdicts NCCL_IB_DISABLE=1
	assert_output --partial 'NCCL: NCCL_IB_DISABLE=1: NCCL uses its socket transport, no RDMA device'
}

@test "stack vars: UCX's lists: DEVICE:PORT names, patterns, '^', transports and their aliases" {
	run verdicts UCX_NET_DEVICES=rxe0 UCX_UD_ETH_DGID_CHECK=n
	assert_line --regexp "^FAIL .*UCX: UCX_NET_DEVICES=rxe0 names 'rxe0', a device UCX does not have here"
	assert_line '      fix: UCX_NET_DEVICES=rxe0:1'
	run verdicts 'UCX_NET_DEVICES=rxe?:1' UCX_UD_ETH_DGID_CHECK=n
	assert_output --partial 'UCX: uses rxe0 port 1 with GID 1 (10.11.11.251), rxe1 port 1 with GID 1 (10.11.13.1)'
	run verdicts UCX_NET_DEVICES=^rxe0:1 UCX_UD_ETH_DGID_CHECK=n
	assert_output --partial 'UCX: uses rxe1 port 1 with GID 1 (10.11.13.1)'
	# A netdev is a UCX device too (TCP): no RDMA port left is said as such.
	run verdicts UCX_NET_DEVICES=veth0
	assert_line --regexp '^WARN .*UCX: UCX_NET_DEVICES=veth0 leaves UCX no RDMA port \(active here: rxe0:1, rxe1:1\): it uses TCP'
	run verdicts UCX_NET_DEVICES=all,rxe0:1
	assert_line --regexp "^FAIL .*UCX: UCX_NET_DEVICES=all,rxe0:1 puts 'all' beside other names"
	run verdicts UCX_TLS=tcp,sm,self
	assert_line --regexp '^WARN .*UCX_TLS=tcp,sm,self enables neither rc_verbs nor ud_verbs'
	run verdicts UCX_TLS=^ib
	assert_line --regexp '^WARN .*UCX_TLS=\^ib enables neither rc_verbs nor ud_verbs'
	run verdicts UCX_TLS=rc,self UCX_UD_ETH_DGID_CHECK=n
	assert_output --partial 'with rc_verbs (ud_verbs for its connection set-up)'
	# UD, and RC's set-up over it, with rxe: the DGID check must be off.
	run verdicts UCX_TLS=rc_v
	assert_line --regexp "^WARN .*UCX_UD_ETH_DGID_CHECK is unset \\(y\\): UCX's UD"
	run results UCX_TLS=rc_verbs UCX_UD_ETH_DGID_CHECK=y
	assert_output PASS	# no UD at all: the check never runs
	run verdicts UCX_IB_GID_INDEX=one
	assert_line --regexp '^FAIL .*UCX_IB_GID_INDEX=one is neither a number nor auto'
}

@test "stack vars: libfabric's verbs names are prefixes, its index 0 to 255 read by DGRAM alone" {
	run results FI_VERBS_DEVICE_NAME=rxe FI_VERBS_IFACE=veth
	assert_output PASS
	run verdicts FI_VERBS_DEVICE_NAME=rxe1 FI_VERBS_IFACE=veth1 FI_VERBS_GID_IDX=1
	assert_output --partial 'libfabric: the verbs provider uses rxe1 port 1 with GID 1 (10.11.13.1)'
	run verdicts FI_VERBS_IFACE=eth
	assert_line --regexp '^FAIL .*FI_VERBS_IFACE=eth begins the name of no netdev here'
	run verdicts FI_VERBS_GID_IDX=-1
	assert_line --regexp '^FAIL .*FI_VERBS_GID_IDX=-1 is not an index from 0 to 255'
	run verdicts FI_VERBS_DEVICE_NAME=rxe0 FI_VERBS_GID_IDX=0
	assert_line --regexp '^WARN .*libfabric: on rxe0 port 1, GID index 0 is fe80::.*read by DGRAM endpoints'
	run verdicts FI_PROVIDER=tcp FI_VERBS_DEVICE_NAME=rxe0
	assert_line --regexp '^WARN .*FI_PROVIDER=tcp leaves out the verbs provider'
	run results 'FI_PROVIDER=verbs;ofi_rxm' FI_VERBS_DEVICE_NAME=rxe0
	assert_output PASS
}

@test "stack vars: Open MPI's pml and btl lists, '^' excluding" {
	run verdicts OMPI_MCA_pml=^ucx OMPI_MCA_btl=self,tcp
	assert_line --regexp '^WARN .*Open MPI: OMPI_MCA_pml=\^ucx leaves out UCX and OMPI_MCA_btl=self,tcp every RDMA btl'
	run verdicts OMPI_MCA_pml=ob1 UCX_TLS=rc_verbs
	assert_line --regexp '^WARN .*Open MPI: OMPI_MCA_pml=ob1 leaves out UCX: the UCX_\* variables it sets do not reach its MPI traffic'
	run results OMPI_MCA_pml=^ob1 UCX_UD_ETH_DGID_CHECK=n
	assert_output 'PASS PASS'
}

@test "stack vars: hostile values are printed escaped, never raw" {
	run verdicts $'NCCL_IB_HCA=\e[31mrxe9' $'UCX_NET_DEVICES=a\nb'
	[[ $output != *$'\e'* ]] || fail "an escape went out raw"
	assert_output --partial 'NCCL_IB_HCA=\x1b[31mrxe9'
}

@test "stack vars: NCCL's GID index default read by the NCCL the process has mapped" {
	# NCCL's library is named by its version (its Makefile's libnccl.so.MAJOR.MINOR.PATCH).
	maps='7f1c2a000000-7f1c2c000000 r-xp 00000000 08:01 1234 /usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3
'
	# Before 2.21, unset is index 0: here the fe80:: GID, a failure, not a caution.
	MAPS=$maps run verdicts NCCL_IB_HCA=rxe0
	assert_line --regexp '^FAIL .*NCCL: on rxe0 port 1, GID index 0 is fe80::.*\(NCCL 2\.18\.3 takes index 0 where NCCL_IB_GID_INDEX is unset\)$'
	assert_line '      fix: NCCL_IB_GID_INDEX=1'
	# Before 2.21, -1 is no choice but the index asked for.
	MAPS=$maps run verdicts NCCL_IB_GID_INDEX=-1
	assert_line --regexp '^FAIL .*NCCL_IB_GID_INDEX=-1 is no index for NCCL 2\.18\.3, which chooses none of its own before 2\.21'
	MAPS=$maps run results NCCL_IB_GID_INDEX=1
	assert_output PASS
	# 2.21 and later choose: unset passes, with no caution about older ones.
	MAPS=${maps/2.18.3/2.21.5} run verdicts NCCL_IB_HCA=rxe0
	assert_line --regexp '^PASS .*NCCL: uses rxe0 port 1 with GID 1 .*chosen by NCCL 2\.21\.5 for AF_INET RoCE v2, NCCL_IB_GID_INDEX unset\)$'
	refute_output --partial 'before 2.21'
	# A name without the version (a Python wheel's libnccl.so.2): both said.
	MAPS=${maps/.2.18.3/.2} run verdicts NCCL_IB_HCA=rxe0
	assert_line --regexp '^WARN .*chosen by NCCL 2\.21 and later .*; but NCCL before 2\.21 takes index 0'
}
