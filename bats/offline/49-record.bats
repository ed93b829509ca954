#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# report on the records made in the bed (bats/fixtures/records,
# tools/capture-records) on 6.1 and 7.3: each failure named as record named
# it there, read on this machine with no RDMA; a record cut short; files
# that are no record. And record's own edges here: its command's status,
# a command that cannot run, a file it must not write, a hostile name.

setup() {
	load ../helpers
	R=$TOP/bats/fixtures/records
}

@test "report: the bed's records read here: each failure's process, cause and fix, -j to docs/json.md" {
	local k
	for k in 6.1 7.3; do
		run -0 rdmactl report "$R/$k-nogid.jsonl"
		assert_line --index 0 --regexp "^$R/$k-nogid.jsonl: bash -c .* exited 1\$"
		assert_line --regexp '^FAIL  [0-9T:.-]+Z  pid [0-9]+ \(ibv_rc_pingpong\): ibv_modify_qp \(MODIFY_QP\) refused with EINVAL$'
		assert_line "      cause: its address vector has no GRH (is_global 0): RoCE addresses the peer by GID, so RTR needs one, with a source GID index"
		assert_line --regexp '^      fix: give the GID index on both sides: -g [0-9]+ \(perftest: -x [0-9]+\), rxe0 port 1.s IPv4 GID$'
		# The probe libibverbs makes of every device it opens is no failure.
		refute_output --partial QUERY_DEVICE
		run -0 rdmactl report "$R/$k-memlock.jsonl"
		assert_line "      cause: the process's RLIMIT_MEMLOCK is 64 KiB and it lacks CAP_IPC_LOCK: registering this region pins memory past it"
		run -0 rdmactl report "$R/$k-linklocal.jsonl"
		assert_line --regexp "^      cause: source GID index 0 is rxe0's link-local fe80:: GID, and the destination [0-9.]+ is not: no route between them\$"
		run -0 rdmactl report "$R/$k-reject.jsonl"
		assert_line --regexp '^FAIL  [0-9T:.-]+Z  pid [0-9]+ \(rping\): RDMA_CM_EVENT_REJECTED, status 8$'
		# RNR: the QP's first completion in error, before what follows it, once.
		run -0 rdmactl report "$R/$k-rnr.jsonl"
		assert_equal "$(grep -c '^FAIL' <<<"$output")" 1
		assert_line --regexp '^FAIL  [0-9T:.-]+Z  pid [0-9]+ \(qpfail\): QP [0-9]+ \(RC\) on rxe0: its first completion in error, IBV_WC_RNR_RETRY_EXC_ERR$'
		run -0 rdmactl -j report "$R/$k-rnr.jsonl"
		assert_equal "$(jq -r '[.[0].failures[] | select(.follows | not)] | length' <<<"$output")" 1
		# Perftest's QP ended in error as its netdev went down, and as its address
		# went: not the status's own cause, but the change the record saw then.
		run -0 rdmactl report "$R/$k-netdev-down.jsonl"
		assert_line --regexp '^      cause: its (netdev|port) down while the QP ran \(rxe0: (netdev veth0 up -> down|port 1 ACTIVE -> DOWN)\): rdma_rxe ended its work requests in error; none of them was at fault$'
		assert_line --regexp '^      \(likely: the record.s (netdev|port)-state line at [0-9T:.-]+Z, [0-9]+ ms (before|after) this completion, the QP.s first in error \(status [0-9]+\), with no failure of its process before it\)$'
		run -0 rdmactl report "$R/$k-gid-removed.jsonl"
		assert_line --regexp '^      cause: one of its GIDs removed while the QP ran \(rxe0: GID 1 [0-9a-f:]+\): '
		# Every line of each file is a record's, held to docs/json.md.
		cat "$R/$k"-*.jsonl | assert_json_contract record
	done
	# Several files: an object each, in order.
	run -0 rdmactl -j report "$R"/7.3-{linklocal,memlock,nogid,reject,rnr}.jsonl
	assert_json_contract report <<<"$output"
	assert_equal "$(jq -r '[.[] | .failures[0].what] | join("|")' <<<"$output")" \
		'ibv_modify_qp (MODIFY_QP) refused with EINVAL|ibv_reg_mr (REG_MR) refused with ENOMEM|ibv_modify_qp (MODIFY_QP) refused with EINVAL|RDMA_CM_EVENT_REJECTED, status 8|QP 20 (RC) on rxe0: its first completion in error, IBV_WC_RNR_RETRY_EXC_ERR'
	assert_equal "$(jq -r '[.[] | .status] | join(",")' <<<"$output")" '1,1,1,255,0'
}

@test "report: two hosts' records read together name the peer of a failed QP, and which end went first" {
	local c=$R/6.1-two-hosts-client.jsonl s=$R/6.1-two-hosts-server.jsonl o
	# The client alone: its QP's failure, no peer (the server's QP is in no file given).
	run -0 rdmactl report "$c"
	assert_line --regexp '^FAIL  [0-9T:.-]+Z  pid [0-9]+ \(ib_write_bw\): QP [0-9]+ \(RC\) on rxe0 resends with no answer$'
	refute_output --partial 'peer:'
	# With the server's: the peer QP its connect named, on the other host, killed first.
	for o in "$c $s" "$s $c"; do
		# shellcheck disable=SC2086 # two files
		run -0 rdmactl report $o
		assert_line --regexp "^      peer: QP [0-9]+ of pid [0-9]+ \(ib_write_bw\) on rxe-vm2 in $s: its process was killed by signal 9 first, at [0-9T:.-]+Z\$"
	done
	run -0 rdmactl -j report "$c" "$s"
	assert_json_contract report <<<"$output"
	assert_equal "$(jq -r --slurpfile s "$s" '.[0].failures[0].peer | "\(.qpn == ([$s[] |
		select(.event == "qp-made")][0].qpn)) \(.host) \(.first) \(.failed) \(.ended_at < ($s | map(select(.event
		== "record-ended"))[0].time | . + "~"))"' <<<"$output")" "true rxe-vm2 true null true"
	assert_equal "$(jq -r '.[1].failures | length' <<<"$output")" 0
	# A server's record from another host (not the GID the client connected to): no peer.
	jq -c 'if .event == "record-started" then .gids = ["fe80:0000:0000:0000:0000:0000:0000:0001"]
		else . end' "$s" >"$BATS_TEST_TMPDIR/elsewhere.jsonl"
	run -0 rdmactl report "$c" "$BATS_TEST_TMPDIR/elsewhere.jsonl"
	refute_output --partial 'peer:'
}

@test "report: JUnit for a CI job's report, as CI reads it; annotations under GitHub Actions alone" {
	run -0 rdmactl report --format junit "$R"/6.1-{linklocal,memlock,nogid,reject,rnr}.jsonl
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/j.xml"
	run -0 junit_read "$BATS_TEST_TMPDIR/j.xml"
	assert_equal "${lines[0]}" '5 5 0'
	assert_equal "${lines[1]}" 'rdmactl.record.ibv_rc_pingpong|ibv_modify_qp (MODIFY_QP) refused with EINVAL|fail'
	assert_equal "${lines[2]}" 'rdmactl.record.ibv_rc_pingpong|ibv_reg_mr (REG_MR) refused with ENOMEM|fail'
	assert_equal "${lines[4]}" 'rdmactl.record.rping|RDMA_CM_EVENT_REJECTED, status 8|fail'
	grep -q '<failure message="its address vector has no GRH' "$BATS_TEST_TMPDIR/j.xml"
	run -2 rdmactl -j report --format junit "$R/6.1-nogid.jsonl"
	# A record where nothing failed is one passing case.
	grep -v -e verb-refused -e cm-event "$R/7.3-memlock.jsonl" >"$BATS_TEST_TMPDIR/ok.jsonl"
	rdmactl report --format junit "$BATS_TEST_TMPDIR/ok.jsonl" >"$BATS_TEST_TMPDIR/j.xml"
	run -0 junit_read "$BATS_TEST_TMPDIR/j.xml"
	assert_equal "${lines[0]}" '1 0 0'
	# Annotations: under GitHub Actions only, and never in JSON.
	run -0 rdmactl report "$R/7.3-memlock.jsonl"
	refute_output --partial '::error'
	GITHUB_ACTIONS=true run -0 rdmactl report "$R/7.3-memlock.jsonl"
	assert_line --regexp '^::error title=rdmactl record%3A ibv_rc_pingpong::ibv_reg_mr \(REG_MR\) refused with ENOMEM%0Acause: the process.s RLIMIT_MEMLOCK is 64 KiB .*%0Afix: raise the limit'
	GITHUB_ACTIONS=true run -0 rdmactl -j report "$R/7.3-memlock.jsonl"
	refute_output --partial '::error'
}

@test "report: a record cut mid-line still tells what it has; what is no record is refused, no FIFO waited on" {
	local d=$BATS_TEST_TMPDIR f
	f=$d/cut.jsonl
	# As a record killed mid-write leaves it: no end, the last line half written.
	grep -v record-ended "$R/7.3-memlock.jsonl" | head -c -20 >"$f"
	run -0 rdmactl report "$f"
	assert_line --index 0 --partial 'has no end in the record (record was killed, or is still running); 1 lines unreadable'
	assert_line --partial 'ibv_reg_mr (REG_MR) refused with ENOMEM'
	run -0 rdmactl -j report "$f"
	assert_equal "$(jq -r '.[0] | .ended, .unreadable_lines, has("status")' <<<"$output")" $'false\n1\nfalse'
	printf 'not a record\n' >"$d/text"
	run --separate-stderr rdmactl report "$d/text"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: $d/text holds no record: no line of it is one 'rdmactl record' writes; name a file record wrote (-o FILE)"
	mkfifo "$d/fifo"
	run --separate-stderr timeout 5 "$RDMACTL" report "$d/fifo"
	assert_failure 1
	[[ $stderr == *"will not read $d/fifo: it is a FIFO, not a regular file"* ]] || fail "$stderr"
	run --separate-stderr rdmactl report "$d/absent"
	assert_failure 1
	[[ $stderr == *"cannot read $d/absent (ENOENT"* ]] || fail "$stderr"
	run rdmactl report
	assert_failure 2
}

@test "record: its command's status passed through, 127 for none, a file it must not write refused before anything runs" {
	local d=$BATS_TEST_TMPDIR
	cd "$d"
	run --separate-stderr "$RDMACTL" record -o "$d/r.jsonl" -- sh -c 'echo out; echo err >&2; exit 3'
	assert_failure 3
	assert_output out
	# CMD's own words come before the report of it.
	[[ $stderr == *$'\nerr\n'*"exited 3"* || $stderr == $'err\n'*"exited 3"* ]] ||
		fail "CMD's stderr is not before the report: $stderr"
	assert_equal "$(head -n1 "$d/r.jsonl" | jq -r '.event, (.command | join(" "))')" \
		$'record-started\nsh -c echo out; echo err >&2; exit 3'
	assert_equal "$(tail -n1 "$d/r.jsonl" | jq -r '.event, .status')" $'record-ended\n3'
	# What it cannot see here is said, never silently less.
	[[ $(jq -r 'select(.event == "record-started") | .sees.qps' "$d/r.jsonl") == true ]] ||
		[[ $stderr == *"rdmactl: warning: record: not seen: "* ]] || fail "nothing said of what is not seen: $stderr"
	# record yields the CPUs to its command, whose niceness stays the shell's.
	run -0 --separate-stderr "$RDMACTL" record -o "$d/r.jsonl" -- sh -c 'ps -o ni= -p "$PPID"; ps -o ni= -p "$$"'
	assert_equal "$(tr -s ' \n' ' ' <<<"$output")" " 10 $(($(nice) + 0)) "
	# libpcap is loaded for --capture alone.
	run -0 --separate-stderr "$RDMACTL" record -o "$d/r.jsonl" -- sh -c 'grep -c libpcap "/proc/$PPID/maps"; true'
	assert_output 0
	run -0 --separate-stderr "$RDMACTL" record --capture -o "$d/r.jsonl" -- sh -c 'grep -c libpcap "/proc/$PPID/maps"; true'
	refute_output 0
	# Options end at the command's first word: its own -g is its.
	run "$RDMACTL" record -o "$d/r.jsonl" sh -c 'exit 4' -g 0
	assert_failure 4
	run --separate-stderr "$RDMACTL" record -o "$d/none.jsonl" -- /nonexistent/prog
	assert_failure 127
	[[ $stderr == *"rdmactl: record: cannot run /nonexistent/prog (ENOENT: No such file or directory)"* ]] ||
		fail "$stderr"
	[ ! -e "$d/none.jsonl" ] || fail "a record of nothing was left"
	mkdir "$d/dir"
	run --separate-stderr "$RDMACTL" record -o "$d/dir" -- touch "$d/ran"
	assert_failure 1
	[[ $stderr == *"will not write $d/dir: it is a directory, not a regular file"* ]] || fail "$stderr"
	[ ! -e "$d/ran" ] || fail "the command ran"
	run "$RDMACTL" record
	assert_failure 2
	run "$RDMACTL" --sysfs-root "$TOP/bats/fixtures/two-netdevs" record -- true
	assert_failure 2
	# A hostile name is escaped in the report: no control byte reaches the terminal.
	run --separate-stderr "$RDMACTL" record -o "$d/h.jsonl" -- sh -c 'exit 0' $'\e]0;pwned\a'
	assert_success
	[[ $stderr != *$'\e'* && $stderr != *$'\a'* ]] || fail "a control byte reached stderr"
	assert_equal "$(head -n1 "$d/h.jsonl" | jq -r '.command[3]')" $'\e]0;pwned\a'
}
