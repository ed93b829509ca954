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
	run rdmactl explain 'transport retry counter exceeded'
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
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" IBV_WC_RETRY_EXC_ERR
	run rdmactl -j explain 'rdma_cm event RDMA_CM_EVENT_ADDR_ERROR, error -110'
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" RDMA_CM_EVENT_ADDR_ERROR,ETIMEDOUT
	run rdmactl -j explain 'ibv_reg_mr failed: Cannot allocate memory' 'and RNR retry counter exceeded'
	assert_equal "$(jq -r '[.[].name] | join(",")' <<<"$output")" ENOMEM,IBV_WC_RNR_RETRY_EXC_ERR
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
