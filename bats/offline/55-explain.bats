#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl explain, offline: every work completion status and rdma_cm event
# against the installed headers' enums, the libraries' own words for them
# read back, errnos against the C library's, and pasted lines as programs
# print them.

setup() {
	load ../helpers
}

# NAME VALUE for each member of enum TYPE in HEADER, in order (none has an initializer).
enum_members() {
	awk -v t="enum $2 {" '$0 == t { on = 1; n = 0; next } on && /^};/ { on = 0 }
		on && /^\t[A-Z_]+,?$/ { gsub(/[\t,]/, ""); print $0, n++ }' "$1"
}

# The library's words for the status explain -j gave in OUT.
ibv_text() {
	jq -r '.[0].text' <<<"$1"
}

@test "explain: every work completion status by number is the header's, with the library's words" {
	run enum_members /usr/include/infiniband/verbs.h ibv_wc_status
	assert_equal "${#lines[@]}" 24
	# The first entry's name, as the text output's first line begins with it.
	first() { local o; o=$(rdmactl explain "$1") && echo "${o%%:*}"; }
	for l in "${lines[@]}"; do
		read -r name value <<<"$l"
		out=$(rdmactl -j explain "$value")
		assert_equal "$(jq -r '.[] | "\(.name) \(.kind) \(.value) \(.text != null)"' <<<"$out")" \
			"$name wc_status $value true"
		# The library's words and the name each come back to the same status.
		[ "$value" = 0 ] || assert_equal "$(first "$(ibv_text "$out")")" "$name"
		assert_equal "$(first "${name,,}")" "$name"
		# Without its prefix too, where that is no common word (SUCCESS is).
		[[ ${name#IBV_WC_} != *_* ]] || assert_equal "$(first "${name#IBV_WC_}")" "$name"
	done
}

@test "explain: the failures users report name their causes on rxe and what tells which" {
	for s in 1 4 5 9 10 12 13; do
		out=$(rdmactl -j explain "$s")
		[ "$(jq '.[0].causes | length' <<<"$out")" -ge 1 ] || fail "status $s: no cause"
		[ "$(jq -r '.[0].tell' <<<"$out")" != null ] || fail "status $s: nothing tells"
	done
	# The catalogue's order, not held to this host (its ranking is tested below).
	run rdmactl explain --no-host 'transport retry counter exceeded'
	assert_success
	assert_line 'IBV_WC_RETRY_EXC_ERR: work completion status 12, "transport retry counter exceeded"'
	assert_line '  causes on rxe, most likely first:'
	assert_line '    - the peer is unreachable: a firewall on UDP 4791, the route, or the MTU'
	assert_line --partial "  tells which: 'rdmactl check --peer ADDR'"
	run rdmactl explain 'Work Request Flushed Error'
	assert_line --partial 'It is the consequence, not the cause'
}

@test "explain: a pasted line gives each failure in it, in order; a driver's own code is not a status" {
	run rdmactl -j explain 'NET/IB : Got completion from peer 10.0.0.2<44262> with error 12, opcode 0, len 0, vendor err 129 (Recv)'
	assert_success
	# NCCL's line, then the status it carries; vendor err is the device's own code.
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" \
		'NET/IB : Got completion from peer %s with error %d, opcode %d, len %d, vendor err %d,IBV_WC_RETRY_EXC_ERR'
	run rdmactl -j explain 'rdma_cm event RDMA_CM_EVENT_ADDR_ERROR, error -110'
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" RDMA_CM_EVENT_ADDR_ERROR,ETIMEDOUT
	run rdmactl -j explain 'ibv_reg_mr failed: Cannot allocate memory' 'and RNR retry counter exceeded'
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" ENOMEM,IBV_WC_RNR_RETRY_EXC_ERR
	# Beside an event, a positive number is its status (a reject reason), not a completion's.
	run rdmactl -j explain 'cma event RDMA_CM_EVENT_REJECTED, error 8'
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" RDMA_CM_EVENT_REJECTED
	assert_json_contract explain <<<"$output"
}

@test "explain: rdma_cm events are the header's; errnos by name, number and the C library's words" {
	while read -r name value; do
		case $name in
		RDMA_CM_EVENT_ADDR_ERROR | RDMA_CM_EVENT_ROUTE_ERROR | RDMA_CM_EVENT_CONNECT_ERROR | \
		RDMA_CM_EVENT_UNREACHABLE | RDMA_CM_EVENT_REJECTED | RDMA_CM_EVENT_DEVICE_REMOVAL)
			out=$(rdmactl -j explain "$name")
			assert_equal "$(jq -r '.[0] | "\(.kind) \(.value) \(.text)"' <<<"$out")" "cm_event $value $name"
			;;
		esac
	done < <(enum_members /usr/include/rdma/rdma_cma.h rdma_cm_event_type)
	for e in ENOMEM:12 ETIMEDOUT:110 ENODEV:19 EINVAL:22; do
		name=${e%:*} value=${e#*:}
		words=$(perl -e '$! = shift; print "$!"' "$value")
		for form in "$name" "errno $value" "error -$value" "$words"; do
			assert_equal "$(rdmactl -j explain "$form" | jq -r '.[0] | "\(.name) \(.value) \(.text)"')" \
				"$name $value $words"
		done
	done
	run rdmactl -j explain -- -12
	assert_equal "$(jq -r '.[0].name' <<<"$output")" ENOMEM
}

@test "explain: words with nothing known in them are refused with what to give, never echoed raw" {
	run --separate-stderr rdmactl explain 'all went well'
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "rdmactl: explain: nothing rdmactl knows is in 'all went well': give a work completion status (12, IBV_WC_RETRY_EXC_ERR, 'transport retry counter exceeded'), an rdma_cm event (RDMA_CM_EVENT_ADDR_ERROR), an errno (ENOMEM, 'errno 12', 'error -110') or a line rdma_rxe logged ('moved to error state'); try 'rdmactl help explain'"
	run --separate-stderr rdmactl explain $'\e]0;x\a'
	assert_failure 2
	[[ $stderr != *$'\e'* ]] || fail "an escape went out raw: $stderr"
	run --separate-stderr rdmactl explain
	assert_failure 2
	run --separate-stderr rdmactl explain "$(head -c 2000 /dev/zero | tr '\0' x)" 12
	assert_failure 2
}

@test "explain: rdma_rxe's log lines give their causes, the line's form, and the errno beside" {
	run rdmactl explain 'rxe0: qp#20 rxe_receiver: moved to error state'
	assert_success
	assert_line --index 0 'moved to error state: rdma_rxe'"'"'s kernel log, as in "rxe0: qp#N rxe_receiver: moved to error state"'
	assert_line '  causes on rxe, most likely first:'
	assert_line --partial '    - a remote access error: an RDMA READ or WRITE with a wrong rkey'
	assert_line --partial "  tells which: 'rdmactl check --only qps'"
	# 6.1's words for a resend name the same as 7.3's.
	run rdmactl -j explain 'rdma_rxe: retransmit_timer: fired for qp#17'
	assert_success
	assert_json_contract explain <<<"$output"
	assert_equal "$(jq -r '.[] | "\(.name)|\(.kind)|\(.value)|\(.text)"' <<<"$output")" \
		'retransmit timer fired|kernel_log|null|rxe0: qp#N retransmit_timer: retransmit timer fired'
	# A line with an errno in it gives both, in its order.
	run rdmactl -j explain 'rdma_rxe: rxe_mr_init_user: Unable to pin memory region err = -12'
	assert_equal "$(jq -r '[.[] | .name] | join(",")' <<<"$output")" 'unable to pin memory region,ENOMEM'
	assert_equal "$(jq -r '.[0].causes[0]' <<<"$output" | cut -d' ' -f1-4)" "the process's RLIMIT_MEMLOCK is"
}

@test "explain: a negative errno as typed, any white space between the words, as a log has them" {
	run -0 rdmactl explain -110
	assert_line --index 0 'ETIMEDOUT: errno 110, "Connection timed out"'
	run -0 rdmactl -j explain 12 -110
	assert_equal "$(jq -r '[.[].name] | join(" ")' <<<"$output")" 'IBV_WC_RETRY_EXC_ERR ETIMEDOUT'
	# Its option values stay what was typed: a negative index is refused as such.
	run --separate-stderr rdmactl check --gid-index -1
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --gid-index takes a number from 0 to 65535, not '-1'; try 'rdmactl help check'"
	run --separate-stderr rdmactl explain -x
	assert_failure 2
	assert_equal "$stderr" "rdmactl: explain: unknown option '-x'; try 'rdmactl help explain'"
	for words in $'transport\tretry counter exceeded' 'transport  retry   counter exceeded' \
		$'TRANSPORT retry\n counter exceeded'; do
		run -0 rdmactl explain "$words"
		assert_line --index 0 'IBV_WC_RETRY_EXC_ERR: work completion status 12, "transport retry counter exceeded"'
	done
}

# A log as ibv_rc_pingpong and the kernel leave one: noise, the first error,
# its flushes. The lines' words are the libraries' and the kernel's.
make_log() {
	{
		echo '  local address:  LID 0x0000, QPN 0x000011, PSN 0x4c4ad8, GID ::ffff:10.0.0.1'
		printf '[  312.000123] rxe0: qp#17 retransmit_timer: retransmit timer fired\n'
		for i in $(seq 200); do echo "noise line $i"; done
		echo 'Failed status transport retry counter exceeded (12) for wr_id 2'
		for i in 3 4 5 6 7 8 9 10 11 12; do
			echo "Failed status Work Request Flushed Error (5) for wr_id $i"
		done
		printf 'binary \x01\x02\xff\xfe\0 and a NUL\n'
	} >"$1"
}

@test "explain --file: a whole log's known lines by number, repeats counted, the first error first" {
	make_log "$BATS_TEST_TMPDIR/run.log"
	# The flushes come first in the log here: the cause is the first error that is none.
	# A status whose causes no check of the host's tells apart closes it.
	{ echo 'Failed status Work Request Flushed Error (5) for wr_id 1'; cat "$BATS_TEST_TMPDIR/run.log"
	  echo 'Failed status local protection error (4) for wr_id 0'; } >"$BATS_TEST_TMPDIR/flush-first.log"
	run -0 rdmactl -j explain --file "$BATS_TEST_TMPDIR/flush-first.log"
	assert_json_contract --exact 'explain --file' <<<"$output"
	assert_equal "$(jq -c '[.lines, .known, .cause]' <<<"$output")" '[216,14,"retransmit timer fired"]'
	assert_equal "$(jq -c '[.items[] | [.name, .count, .lines[0]]]' <<<"$output")" \
		'[["retransmit timer fired",1,3],["IBV_WC_WR_FLUSH_ERR",11,1],["IBV_WC_RETRY_EXC_ERR",1,204],["IBV_WC_LOC_PROT_ERR",1,216]]'
	assert_equal "$(jq -c '.items[1].lines' <<<"$output")" '[1,205,206,207,208,209,210,211]'
	run -0 rdmactl explain --file "$BATS_TEST_TMPDIR/flush-first.log"
	assert_line "$BATS_TEST_TMPDIR/flush-first.log: 216 lines, 14 with something rdmactl knows"
	assert_line --regexp '^most likely the cause: retransmit timer fired, line 3 '
	assert_line 'line 1 (11 lines in all: 1, 205, 206, 207, 208, 209, 210, 211, ...): Failed status Work Request Flushed Error (5) for wr_id 1'
	assert_line 'line 204: Failed status transport retry counter exceeded (12) for wr_id 2'
	# Only flushes: the first of them stands for the rest.
	grep -a Flushed "$BATS_TEST_TMPDIR/run.log" >"$BATS_TEST_TMPDIR/flushes.log"
	run -0 rdmactl -j explain --file "$BATS_TEST_TMPDIR/flushes.log"
	assert_equal "$(jq -r .cause <<<"$output")" IBV_WC_WR_FLUSH_ERR
}

@test "explain -: standard input, any size and bytes; nothing known is exit 1, not a usage error" {
	make_log "$BATS_TEST_TMPDIR/run.log"
	run -0 rdmactl -j explain - <"$BATS_TEST_TMPDIR/run.log"
	assert_equal "$(jq -c '[.source, .lines, .known]' <<<"$output")" '["-",214,12]'
	run -0 rdmactl -j explain --file - <"$BATS_TEST_TMPDIR/run.log"
	assert_equal "$(jq -r .source <<<"$output")" -
	# A line longer than the reader's buffer counts once, matched by its start.
	{ printf 'Failed status transport retry counter exceeded (12) '; head -c 200000 /dev/zero | tr '\0' x; echo; echo last; } |
		rdmactl -j explain - >"$BATS_TEST_TMPDIR/long.json"
	assert_equal "$(jq -c '[.lines, .known, .items[0].name, (.items[0].quote | length)]' "$BATS_TEST_TMPDIR/long.json")" \
		'[2,1,"IBV_WC_RETRY_EXC_ERR",159]'
	# Nothing known: said, and exit 1.
	run --separate-stderr rdmactl explain - <<<$'all\nwent\nwell'
	assert_failure 1
	assert_output '-: 3 lines, nothing rdmactl knows in them'
	run -1 rdmactl explain - </dev/null
	assert_output '-: 0 lines, nothing rdmactl knows in them'
}

@test "explain --file: what cannot be read is named with its errno; a FIFO is refused unread" {
	run --separate-stderr rdmactl explain --file "$BATS_TEST_TMPDIR/none.log"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: explain: cannot open $BATS_TEST_TMPDIR/none.log (ENOENT: No such file or directory)"
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr timeout 5 "$RDMACTL" explain --file "$BATS_TEST_TMPDIR/fifo"
	assert_failure 2
	assert_equal "$stderr" "rdmactl: explain: --file $BATS_TEST_TMPDIR/fifo is a FIFO, not a log file: give a regular file, or the log on standard input (-); try 'rdmactl help explain'"
	run --separate-stderr rdmactl explain --file "$BATS_TEST_TMPDIR/x.log" 12
	assert_failure 2
	assert_equal "$stderr" "rdmactl: explain: --file reads a whole log: give it or the words, not both; try 'rdmactl help explain'"
	if [ "$(id -u)" -ne 0 ]; then
		touch "$BATS_TEST_TMPDIR/closed.log" && chmod 000 "$BATS_TEST_TMPDIR/closed.log"
		run -1 rdmactl explain --file "$BATS_TEST_TMPDIR/closed.log"
		assert_output --partial '(EACCES: Permission denied)'
	fi
}

# The file a message's source names ("PROGRAM (...)"): a program in PATH, a
# library (UCX's transports in a folder of their own), a kernel module of a
# Debian kernel the bed has fetched; nothing for the kernel's ("Linux's ...").
source_file() {
	local prog=${1%% *}
	case "$prog" in
	*.so*) ls /usr/lib/*-linux-gnu/"$prog" /usr/lib/*-linux-gnu/*/"$prog" 2>/dev/null | head -1 ;;
	help-*.txt) ls /usr/share/openmpi/"$prog" 2>/dev/null || true ;;
	*.ko) find "${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmactl/vm}"/linux-image-* \
		-name "$prog" -o -name "$prog.xz" 2>/dev/null | head -1 ;;
	*) command -v "$prog" || true ;;
	esac
}

# The strings of FILE, a compressed module's inflated first.
file_strings() {
	case "$1" in
	*.xz) xz -dc "$1" | strings ;;
	*) strings "$1" ;;
	esac
}

@test "explain: every program's message is its binary's own format, and its example is read as it" {
	run -0 rdmactl -j explain --list
	mapfile -t msgs < <(jq -c '.[] | select(.kind == "message") | [.name, .text, .source]' <<<"$output")
	[ "${#msgs[@]}" -ge 15 ] || fail "only ${#msgs[@]} messages"
	checked=0
	for m in "${msgs[@]}"; do
		name=$(jq -r '.[0]' <<<"$m") example=$(jq -r '.[1]' <<<"$m") src=$(jq -r '.[2]' <<<"$m")
		# Its example, as a user pastes it, names it (first, or beside a status).
		assert_equal "$(rdmactl -j explain "$example" | jq -r --arg n "$name" 'map(.name) | index($n) != null')" true
		bin=$(source_file "$src")
		if [ -z "$bin" ]; then
			echo "# '$name': no binary of ${src%% *} here to hold it to" >&3
			continue
		fi
		# The format is in the binary's strings, as its source wrote it.
		file_strings "$bin" | grep -qF -- "$name" || fail "'$name' is not in $bin"
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || skip "none of the programs is installed (tools/install-deps vm)"
}

@test "explain: the ping-pong's -g 0 failure and its words around it, in a line as printed" {
	run -0 rdmactl -j explain 'Failed to modify QP to RTR'
	assert_equal "$(jq -r '.[0] | "\(.kind) \(.source | split(" ")[0])"' <<<"$output")" 'message ibv_rc_pingpong'
	assert_output --partial '-g 0 where the RoCE v2 IPv4 GID is at index 1'
	# perftest's, its QP number any, beside the errno a wrapper printed.
	run -0 rdmactl -j explain 'Failed to modify QP 322 to RTR: Invalid argument'
	assert_equal "$(jq -c 'map(.name)' <<<"$output")" '["Failed to modify QP %d to RTR","EINVAL"]'
	# A format's words in another order are not it.
	run -2 rdmactl explain 'to RTR Failed to modify QP'
	# In a whole log, with libibverbs' warning before it.
	printf '%s\n' 'libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.' '  local address:  LID 0x0000' \
		'Couldn'"'"'t register MR' >"$BATS_TEST_TMPDIR/pp.log"
	run -0 rdmactl -j explain --file "$BATS_TEST_TMPDIR/pp.log"
	assert_equal "$(jq -c '[.cause, [.items[].lines[0]]]' <<<"$output")" \
		'["libibverbs: Warning: RLIMIT_MEMLOCK is %llu bytes.",[1,3]]'
}

@test "explain: a module's loading, as the kernel log and modprobe say it, names what rdmactl does about it" {
	run -0 rdmactl -j explain '[    5.120] rdma_rxe: Unknown symbol udp_sock_create4 (err -2)'
	assert_equal "$(jq -r '.[0].name' <<<"$output")" '%s: Unknown symbol %s (err %d)'
	assert_output --partial "check --only modules"
	run -0 rdmactl -j explain "modprobe: ERROR: could not insert 'rdma_rxe': Invalid module format"
	assert_equal "$(jq -r '.[0] | "\(.name)|\(.source | split(" ")[0])"' <<<"$output")" 'Invalid module format|modprobe'
	run -0 rdmactl -j explain 'modprobe: FATAL: Module rdma_rxe not found in directory /lib/modules/6.1.0-31-cloud-amd64'
	assert_output --partial 'rdmactl module install'
	# The signature notice is no failure: the module loaded.
	run -0 rdmactl explain 'rdma_rxe: module verification failed: signature and/or required key missing - tainting kernel'
	assert_output --partial 'the module works'
	# In a log it is never the cause; the failure after it is.
	printf '%s\n' '[ 4.9] rdma_rxe: module verification failed: signature and/or required key missing - tainting kernel' \
		'[ 5.1] rdma_rxe: Unknown symbol udp_sock_create4 (err -2)' >"$BATS_TEST_TMPDIR/dmesg"
	run -0 rdmactl -j explain --file "$BATS_TEST_TMPDIR/dmesg"
	assert_equal "$(jq -c '[.cause, .items[0].lines[0]]' <<<"$output")" '["%s: Unknown symbol %s (err %d)",2]'
	# The kernel's NVMe and NFS print a negative errno in parentheses.
	run -0 rdmactl -j explain 'nvme nvme0: rdma connection establishment failed (-110)'
	assert_equal "$(jq -c 'map(.name)' <<<"$output")" '["rdma connection establishment failed (%d)","ETIMEDOUT"]'
}

@test "explain: the words of rdma_cm's tools, UCX, libfabric, MPICH, NCCL, SPDK, NVMe and NFS over RDMA, with their causes" {
	# Each line as its program prints it, the entry it names, a cause's words.
	while IFS='|' read -r line name cause; do
		run -0 rdmactl -j explain "$line"
		assert_equal "$(jq --arg n "$name" --arg c "$cause" \
			'map(select(.name == $n) | .causes | map(contains($c)) | any) == [true]' <<<"$output")" true
	done <<'LINES'
No RDMA devices were detected|No RDMA devices were detected|no rxe link exists
cmatose: failed to create RDMA CM event channel|failed to create RDMA CM event channel|rdma_ucm is not loaded
rping: rdma_buf reg_mr failed|buf reg_mr failed|memlock limit
[1744644100.553280] [node:188662:0]  ib_iface.c:1230 UCX  ERROR mlx5_0: ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)|Please set max locked memory (ulimit -l) to 'unlimited' (current: %llu kbytes)|memlock limit
ucp_context.c:1582 UCX  ERROR No usable transports/devices, asked rc_x on network: mlx5_0:1|no usable transports/devices|UCX_NET_DEVICES names a device
fi_getinfo: -61|fi_getinfo: %d|no rxe link
[  981.641676] nvme nvme0: rdma connection establishment failed (-12)|rdma connection establishment failed (%d)|(-12, ENOMEM)
nvme nvme0: Connect rejected: status 8 (invalid service ID).|Connect rejected: status %d (%s).|no nvmet port listens
gpu-201:9981:10021 [2] NCCL WARN NET/IB : Got completion from peer 10.0.1.12<48133> with error 12, opcode 0, len 32768, vendor err 129 (Recv)|NET/IB : Got completion from peer %s with error %d, opcode %d, len %d, vendor err %d|NCCL_IB_GID_INDEX
gpu-201:9981:10021 [2] NCCL WARN NET/IB : Got completion from peer 10.0.1.12<48133> with error 12, opcode 0, len 32768, vendor err 129 (Recv)|IBV_WC_RETRY_EXC_ERR|the peer is unreachable
node-2:5776:5902 [0] NCCL WARN NET/IB : Got completion from peer 10.5.0.34<33956> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.6.0.35 remoteGid ::ffff:10.5.0.34|NET/IB : Got completion from peer %s with status=%d opcode=%d len=%d vendor err %d (%s)|localGid and remoteGid
NCCL WARN Call to ibv_modify_qp failed with 22 Invalid argument, on dev rxe0:1, curr state INIT, next state RTR, local GID index 0, local GID fe80::1, remote GID fe80::2|Call to ibv_modify_qp failed with %d %s, %s|fe80:: GIDs are at 0 and 1
NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory|Call to ibv_reg_mr failed with error %s|memlock limit
node-2:880:887 [0] NCCL INFO NET/IB : No device found.|NET/IB : No device found.|NCCL_IB_HCA names devices
libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0|libibverbs: Warning: no userspace device-specific driver found for %s|ibverbs-providers is not installed
open /dev/infiniband/uverbs0: operation not permitted|EPERM|device cgroup refuses
Abort(1091215) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error, error stack: MPIDI_OFI_mpi_init_hook(596): OFI fi_getinfo() failed (ofi_init.c:596:MPIDI_OFI_mpi_init_hook:No data available)|OFI fi_getinfo() failed (%s:%d:%s:%s)|verbs;ofi_rxm
MPIDI_UCX_mpi_init_hook(185): ucx function returned with failed status(ucx_init.c 185 MPIDI_UCX_mpi_init_hook No such device)|ucx function returned with failed status(%s %d %s %s)|UCX_NET_DEVICES names one
[2026-12-01 10:00:00.123456] nvme_rdma.c:1384:nvme_rdma_process_event: *ERROR*: Expected RDMA_CM_EVENT_ADDR_RESOLVED but received RDMA_CM_EVENT_ADDR_ERROR (1) from CM event channel (status = -19)|Expected %s but received %s (%d) from CM event channel (status = %d)|no rxe link on the netdev
[2026-12-01 10:00:00.123456] nvme_rdma.c:1384:nvme_rdma_process_event: *ERROR*: Expected RDMA_CM_EVENT_ADDR_RESOLVED but received RDMA_CM_EVENT_ADDR_ERROR (1) from CM event channel (status = -19)|RDMA_CM_EVENT_ADDR_ERROR|no rxe link
mount.nfs4: Connection refused|ECONNREFUSED|/proc/fs/nfsd/portlist lacks 'rdma 20049'
mount.nfs4: Protocol error|EPROTO|whose netdev has no rxe link
mount.nfs4: requested NFS version or transport protocol is not supported|%s: requested NFS version or transport protocol is not supported|the rpcrdma module
LINES
	# The kernel's lines of a refused NVMe connect and nvme connect's own: the refusal first.
	printf '%s\n' 'nvme nvme0: Connect rejected: status 8 (invalid service ID).' \
		'nvme nvme0: rdma connection establishment failed (-104)' \
		'could not add new controller: failed to write to nvme-fabrics device' >"$BATS_TEST_TMPDIR/nvme.log"
	run -0 rdmactl -j explain - <"$BATS_TEST_TMPDIR/nvme.log"
	assert_equal "$(jq -c '[.cause, (.items | map(.name))]' <<<"$output")" \
		'["Connect rejected: status %d (%s).",["Connect rejected: status %d (%s).","rdma connection establishment failed (%d)","ECONNRESET","failed to write to nvme-fabrics device"]]'
	# SPDK's host: the event it received is the cause, its reject reason no completion status.
	printf '%s\n' '[2026-12-01 10:00:00.123456] nvme_rdma.c:1384:nvme_rdma_process_event: *ERROR*: Expected RDMA_CM_EVENT_ESTABLISHED but received RDMA_CM_EVENT_REJECTED (8) from CM event channel (status = 8)' \
		'[2026-12-01 10:00:00.123470] nvme_rdma.c:1123:nvme_rdma_connect_established: *ERROR*: RDMA connect error -74' >"$BATS_TEST_TMPDIR/spdk.log"
	run -0 rdmactl -j explain --no-host - <"$BATS_TEST_TMPDIR/spdk.log"
	assert_equal "$(jq -c '[.cause, (.items | map(.name))]' <<<"$output")" \
		'["RDMA_CM_EVENT_REJECTED",["RDMA_CM_EVENT_REJECTED","Expected %s but received %s (%d) from CM event channel (status = %d)","RDMA connect error %d"]]'
}

@test "explain: held to the host it runs on, the checks its causes name; --no-host when it is another" {
	# The fixture's rxe0 and rxe1 have their RoCE v2 IPv4 GID at index 1, fe80:: at 0.
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" -j explain 'Failed to modify QP to RTR'
	assert_json_contract explain <<<"$output"
	assert_equal "$(jq -c '.[0].host | [.held, .command, (.results | map([.id, .result, .fix]))]' <<<"$output")" \
		'[true,"rdmactl check --only gid-index --gid-index 0",[["gid-index","fail","-g 1   (perftest: -x 1)"],["gid-index","fail","-g 1   (perftest: -x 1)"]]]'
	assert_equal "$(jq -r '.[0].host.results[0].detail' <<<"$output")" \
		"$(rdmactl --sysfs-root "$TOP/bats/fixtures/qps" -j check --only gid-index --gid-index 0 | jq -r '.[0].detail')"
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" explain 'Failed to modify QP to RTR'
	assert_line '  on this host (rdmactl check --only gid-index --gid-index 0, now):'
	assert_line --regexp '^    gid-index: fail, GID index mismatch on rxe0: -g 0 is fe80::.*use -g 1 \(10\.11\.11\.251 on veth0\)$'
	# The causes ranked by it: -g 0's mismatch, which the check shows, first.
	assert_line '  causes on rxe, as this host'"'"'s checks rank them (shown here first, then untold, then not here):'
	assert_line --index "$(( $(printf '%s\n' "${lines[@]}" | grep -n 'rank them' | cut -d: -f1) ))" \
		'    - the GID index given (-g) is not one that reaches the peer: -g 0 where the RoCE v2 IPv4 GID is at index 1 (rxe puts the fe80:: GID at 0), or an index with no GID'
	assert_line '      shown here: gid-index fails (above)'
	refute_line '  causes on rxe, most likely first:'
	# The RC example's second cause and a retry error's third move up; JSON keeps the catalogue's order in causes.
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" -j explain 'failed to modify QP state to RTR'
	assert_json_contract explain <<<"$output"
	assert_equal "$(jq -c '.[0].host.causes | map([.index, .check, .standing])' <<<"$output")" \
		'[[1,"gid-index","shown"],[0,null,"open"],[2,null,"open"]]'
	assert_equal "$(jq -r '.[0].host.causes[0].cause == .[0].causes[1]' <<<"$output")" true
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" -j explain 'status 12'
	assert_equal "$(jq -c '.[0].host.causes[0] | [.index, .check, .standing]' <<<"$output")" '[2,"gid-index","shown"]'
	# A memlock line: this host's limit, whatever it is here; its pass clears nothing of the program's.
	run -0 rdmactl -j explain "Couldn't register MR"
	assert_equal "$(jq -r '.[0].host.results | map(.id) | unique | join(",")' <<<"$output")" memlock
	if [ "$(jq -r '.[0].host.results[0].result' <<<"$output")" = pass ]; then
		assert_equal "$(jq -c '.[0].host.causes | map([.index, .check, .standing])' <<<"$output")" \
			'[[0,"memlock","open"],[1,null,"open"]]'
		run -0 rdmactl explain "Couldn't register MR"
		assert_line "      memlock passes here, which does not clear it: it reads this shell's limit, not the program's own (a service's, a container's)"
	fi
	# Words from another machine: named, not held.
	run -0 rdmactl --sysfs-root "$TOP/bats/fixtures/qps" -j explain --no-host 'Failed to modify QP to RTR'
	assert_equal "$(jq -c '.[0].host | [.held, .why_not, .results]' <<<"$output")" \
		'[false,"--no-host: the words are from another machine",[]]'
	run -0 rdmactl explain --no-host "Couldn't register MR"
	assert_line '  on this host (rdmactl check --only memlock): not held to it, --no-host: the words are from another machine'
	# An entry whose tell names no check of the host's has none.
	run -0 rdmactl -j explain 4
	assert_equal "$(jq -c '.[0].host' <<<"$output")" null
}

@test "explain: the lines users bring from the tutorials and the stock tools, each named" {
	# Each line as pasted, and the entry it names first.
	while IFS='|' read -r line name; do
		run -0 rdmactl -j explain --no-host -- "$line"
		assert_equal "$(jq -r '.[0].name' <<<"$output")" "$name"
	done <<'LINES'
failed to modify QP state to RTR|failed to modify QP state to RTR
failed to connect QPs|failed to connect QPs
could not get gid for port 1, index 0|could not get gid for port %d, index %d
failed to create QP|failed to create QP
Failed to modify QP to RTR|Failed to modify QP to RTR
Couldn't register MR|Couldn't register MR
Couldn't connect to 10.0.0.2:18515|Couldn't connect to %s:%d
Failed to modify QP 322 to RTR|Failed to modify QP %d to RTR
rdma_rxe: Unknown symbol udp_sock_create4 (err -2)|%s: Unknown symbol %s (err %d)
rdma_rxe: module verification failed: signature and/or required key missing - tainting kernel|%s: module verification failed: signature and/or required key missing - tainting kernel
error: too many arguments to function 'ib_umem_get'|too many arguments to function
Receiver-Not-Ready Retry Error|IBV_WC_RNR_RETRY_EXC_ERR
libibverbs: Warning: RLIMIT_MEMLOCK is 32768 bytes.|libibverbs: Warning: RLIMIT_MEMLOCK is %llu bytes.
nvme nvme0: rdma connection establishment failed (-104)|rdma connection establishment failed (%d)
rdma_bind_addr: No such file or directory|ENOENT
rdma_rxe: check_rkey: no MR matches rkey 0x18d8|no mr matches rkey
[   12.345678] rdma_rxe: rxe_newlink: failed to add veth0|failed to add %s
-110|ETIMEDOUT
LINES
	# A compiler's error with nothing of the RDMA core in it is not rdma_rxe's,
	# nor another program's failure to add something.
	run -2 rdmactl explain --no-host "error: too many arguments to function 'foo'"
	run -2 rdmactl explain --no-host 'systemd-networkd[312]: eth0: failed to add route'
	# "state" is no QP number: the RC example's line is not perftest's.
	run -0 rdmactl -j explain --no-host 'failed to modify QP state to RTR'
	assert_equal "$(jq -c 'map(.name)' <<<"$output")" '["failed to modify QP state to RTR"]'
	# perftest's words around a failing run, as its binary has them: the status is the cause.
	printf '%s\n' '---------------------------------------------------------------------------------------' \
		' Completion with error at client' ' Failed status 12: wr_id 0 syndrom 0x81' \
		'scnt=128, ccnt=0' ' Failed to complete run_iter_bw function successfully' >"$BATS_TEST_TMPDIR/pt.log"
	run -0 rdmactl -j explain --no-host - <"$BATS_TEST_TMPDIR/pt.log"
	assert_equal "$(jq -c '[.cause, (.items | map(.name))]' <<<"$output")" \
		'["IBV_WC_RETRY_EXC_ERR",["IBV_WC_RETRY_EXC_ERR","Completion with error at","Failed status %d: wr_id %d syndrom 0x%x"]]'
	# Before any RDMA: the TCP connection, then what follows from it.
	printf '%s\n' "Couldn't connect to 10.0.0.2:18515" 'Unable to open file descriptor for socket connection' \
		' Unable to init the socket connection' >"$BATS_TEST_TMPDIR/pt2.log"
	run -0 rdmactl -j explain --no-host - <"$BATS_TEST_TMPDIR/pt2.log"
	assert_equal "$(jq -r .cause <<<"$output")" "Couldn't connect to %s:%d"
}

@test "explain: the logs of the stacks' failures captured in the bed, each cause named" {
	# tools/capture-logs keeps them from bats/stacks/70-explain.bats's runs.
	d=$TOP/bats/fixtures/logs
	while read -r file cause; do
		[ -e "$d/$file" ] || fail "no $file in bats/fixtures/logs (tools/capture-logs)"
		run -0 rdmactl -j explain --no-host --file "$d/$file"
		assert_json_contract 'explain --file' <<<"$output"
		assert_equal "$(jq -r .cause <<<"$output")" "$cause"
	done <<'LOGS'
6.12-both.log Failed to modify QP to RTR
6.12-client.log client read/write
6.12-memlock.log Couldn't register MR
6.12-rping.log ENODEV
6.12-ucx.log not available, please use one or more of: %s
6.12-fi.log fi_getinfo: %d
6.12-nvme.log Connect rejected: status %d (%s).
6.12-nfs-refused.log ECONNREFUSED
6.12-nfs-nolink.log EPROTO
6.12-pt-memlock.log Couldn't allocate MR
6.12-pt-server.log ethernet_read_keys: Couldn't read remote address
6.12-pt-nodev.log IB device %s not found
6.12-devinfo-perm.log Failed to open device
6.12-pt-cm-refused.log Unexpected CM event bl blka %d
6.12-rdma-client.log ECONNREFUSED
6.12-rdma-client-lo.log ENODEV
6.12-second-server.log Couldn't listen to port %d
LOGS
	# Every log kept is one of these.
	assert_equal "$(ls "$d" | wc -l)" 17
	# Pasted the other way round, nvme's verdict and its errno first: the
	# kernel's refusal is still the cause, a bare errno and a verdict that
	# follows from it are not.
	{ grep -v '^\[' "$d/6.12-nvme.log"; grep '^\[' "$d/6.12-nvme.log"; } >"$BATS_TEST_TMPDIR/nvme"
	run -0 rdmactl -j explain --no-host --file "$BATS_TEST_TMPDIR/nvme"
	assert_equal "$(jq -c '[.cause, .items[0].lines[0]]' <<<"$output")" '["Connect rejected: status %d (%s).",4]'
}
