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

@test "check: each check alone gives the verdict it gives in the whole run, here and on a fixture" {
	[ "$RDMACTL" = "$TOP/rdmactl" ] || skip "which checks run is the offline tier's, not again here"
	for root in '' "$TOP/bats/fixtures/qps-failed"; do
		args=()
		[ -z "$root" ] || args=(--sysfs-root "$root")
		whole=$("$RDMACTL" "${args[@]}" -j check || true)
		for id in $(rdmactl -j check --list | jq -r '.[] | select(.pid | not) | .id'); do
			want=$(jq -r --arg id "$id" '[.[] | select(.id == $id) | .result] | join(",")' <<<"$whole")
			got=$({ "$RDMACTL" "${args[@]}" -j check --only "$id" || true; } |
				jq -r '[.[].result] | join(",")')
			assert_equal "${root:-this host} $id: $got" "${root:-this host} $id: $want"
		done
	done
}

@test "check: every row that warns or fails has a fix to paste, here and on every fixture" {
	for root in '' "$TOP"/bats/fixtures/*/; do
		[ -z "$root" ] || [ -d "$root/sys" ] || continue
		args=()
		[ -z "$root" ] || args=(--sysfs-root "$root")
		run jq -r '.[] | select((.result == "warn" or .result == "fail") and .fix == null) |
			"\(.id): \(.detail)"' <<<"$("$RDMACTL" "${args[@]}" -j check || true)"
		assert_equal "${root:-this host}: $output" "${root:-this host}: "
	done
}

@test "check: on a kernel without RDMA, kernel fails naming the option, exit 1, no crash" {
	[ ! -d /sys/class/infiniband ] || skip "this kernel has RDMA"
	run --separate-stderr rdmactl check
	assert_failure 1
	assert_line --regexp '^FAIL  kernel +kernel .* (was built without CONFIG_INFINIBAND|has no RDMA netlink)'
	assert_line --partial 'fix: boot a kernel with CONFIG_RDMA_RXE=m'
	assert_line --partial "boot a kernel with CONFIG_RDMA_RXE=m (Debian's linux-image-amd64 has it)"
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

@test "check: JSON results carry id, result, detail and fix" {
	run rdmactl -j check
	run jq -e 'all(.[]; has("id") and has("result") and has("detail") and has("fix")) and
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

@test "selftest: option combinations that make no sense exit 2 and say why" {
	while IFS='|' read -r args why; do
		eval "run --separate-stderr rdmactl selftest $args"
		assert_failure 2
		[[ $stderr == *"$why"* ]] || fail "selftest $args: '$stderr' lacks '$why'"
	done <<'EOF'
loopback --pingpong rxe0|unknown option '--pingpong'
server client h rxe0|unexpected 'h'
server --pingpong|two hosts need the device
server|two hosts need the device
client h|two hosts need the device
server --pingpong --port 70000 rxe0|--port
loopback --bind 10.0.0.1 rxe0|unknown option '--bind'
client --once h rxe0|unknown option '--once'
--port 1234 rxe0|unknown option '--port'
--depth 4 rxe0|--depth is for --bench
--depth 0 --bench rxe0|--depth
--cm --bench rxe0|--bench measures over the verbs exchange
server --pingpong --cm rxe0|--pingpong is the rdma-core examples' exchange
--transport rc,rdm rxe0|--transport: 'rdm' is not a transport (rc, uc, ud, srq, xrc, mw, or all)
--transport , rxe0|is not a transport
--transport ud --bench rxe0|not with --bench or --cm
--events --cm rxe0|not with --bench or --cm
client --pingpong --transport xrc h rxe0|--pingpong --transport: one of rc, uc, ud or srq
server --transport ud rxe0|the server serves whatever transports its clients ask for
server --events rxe0|the server serves whatever transports its clients ask for
client --events --cm h rxe0|not with --bench or --cm
--iters 5 rxe0|--iters is for --bench
--bench --size 40000000 rxe0|at most 32 MiB
client --bench --size 40000000 h rxe0|at most 32 MiB
client --cm --size 10 h|rping's messages need at least 26 bytes
server --cm --size 10|rping's messages need at least 26 bytes
EOF
}

@test "selftest server with no RDMA fails at setup, exit 1, before it listens" {
	run --separate-stderr rdmactl selftest server --port 18599 rxe0
	assert_failure 1
	assert_line --regexp '^  setup +FAIL +[0-9]+ us  libibverbs cannot open rxe0$'
	[[ $stderr != *listening* ]]
	run --separate-stderr rdmactl -j selftest client 127.0.0.1 --port 18599 rxe0
	assert_failure 1
	run jq -r '.[0] | "\(.passed) \(.stages[0].stage) \(.stages[0].result)"' <<<"$output"
	assert_output 'false setup fail'
}

@test "check: a GID index past the table is out of range (0-1023), not an empty slot" {
	F=$TOP/bats/fixtures/two-netdevs
	run rdmactl --sysfs-root "$F" check --only gid-index --gid-index 1024
	assert_failure 1
	assert_line --regexp '^FAIL  gid-index +GID index mismatch on rxe0: -g 1024 is out of range \(0-1023\): the GID table of rxe0 has 1024 slots'
	run rdmactl --sysfs-root "$F" check --only gid-index --gid-index 1023
	assert_failure 1
	assert_line --partial 'slot 1023 of rxe0 is empty'
}

@test "check: the peer's family picks the GID index, with or without --gid-index" {
	F=$TOP/bats/fixtures/two-netdevs
	run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer 2001:db8:11::2
	assert_success
	assert_line --regexp '^PASS  gid-index +rxe0: RoCE v2 to 2001:db8:11::2: -g 3 \(2001:db8:11::1 on veth0\)$'
	# The same index --gid-index is told to use: one answer either way.
	run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer 2001:db8:11::2 --gid-index 1
	assert_failure 1
	assert_line --partial 'use -g 3 (2001:db8:11::1 on veth0)'
	run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer 2001:db8:11::2 --gid-index 3
	assert_success
	run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer 10.11.11.2
	assert_success
	assert_line --regexp '^PASS  gid-index +rxe0: RoCE v2 to 10\.11\.11\.2: -g 1 '
	# An IPv4-mapped peer, in either spelling, is the IPv4 peer it is.
	for p in ::ffff:10.11.11.2 ::ffff:a0b:b02 ::FFFF:10.11.11.2; do
		run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer "$p"
		assert_success
		assert_line --regexp '^PASS  gid-index +rxe0: RoCE v2 to 10\.11\.11\.2: -g 1 '
		run rdmactl --sysfs-root "$F" check --only gid-index --dev rxe0 --peer "$p" --gid-index 1
		assert_success
	done
	# A link-local peer with its zone: the zone's rxe device only, its fe80:: GID.
	run rdmactl --sysfs-root "$F" check --only gid-index --peer 'fe80::1%veth1'
	assert_success
	assert_line --regexp '^PASS  gid-index +rxe1: RoCE v2 to fe80::1: -g 0 \(fe80::[0-9a-f:]+ on veth1\)$'
	refute_line --partial 'rxe0'
	run rdmactl --sysfs-root "$F" check --only gid-index --peer 'fe80::1%veth9'
	assert_failure 1
	assert_line --regexp '^FAIL  gid-index +no rxe device is on veth9, the link --peer fe80::1%veth9 is on$'
	run --separate-stderr rdmactl check --peer '2001:db8::1%veth0'
	assert_failure 2
	[[ $stderr == *'a zone (%NETDEV) is for a link-local peer (fe80::/10) only'* ]] || fail "$stderr"
}

@test "check: fixes name the device named; a fixture reads nothing live; a missing fixture is said as one" {
	F=$TOP/bats/fixtures/two-netdevs
	run rdmactl --sysfs-root "$F" check --only link --dev veth0
	assert_failure 1
	assert_line --regexp '^FAIL  link +veth0 is a netdev, not an rxe device: .*; the one on it is rxe0$'
	assert_line '      fix: rdmactl check --dev rxe0'
	run rdmactl --sysfs-root "$F" check --only link --dev rxe7
	assert_failure 1
	assert_line --regexp '^      fix: rdmactl add rxe7 '
	run rdmactl --sysfs-root "$F" check --only memlock
	assert_success
	assert_line --regexp '^SKIP  memlock +the memlock limit is checked on the running system only$'
	run --separate-stderr rdmactl --sysfs-root "$BATS_TEST_TMPDIR/none" show
	assert_failure 2
	assert_equal "$stderr" "rdmactl: --sysfs-root $BATS_TEST_TMPDIR/none: no such directory; give a fixture captured with tools/capture-sysfs"
}

@test "check --pid: a process's RDMA variables held against the links, its libraries, its limits" {
	F=$TOP/bats/fixtures/two-netdevs
	# A process of the user's, started with an RDMA stack's variables as a job script sets them.
	NCCL_IB_HCA==rxe0:1 NCCL_IB_GID_INDEX=0 UCX_NET_DEVICES=mlx5_0:1 sleep 60 &
	pid=$!
	# Its /proc files copied into a fixture: the links there, the process as it runs here.
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	mkdir -p "$BATS_TEST_TMPDIR/f/proc/$pid/net"
	for n in comm status limits environ maps net/udp net/udp6; do
		cat "/proc/$pid/$n" >"$BATS_TEST_TMPDIR/f/proc/$pid/$n"
	done
	kill "$pid"
	run --separate-stderr rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --pid "$pid"
	assert_failure 1
	assert_line "PASS  process          $pid (sleep) has no libibverbs mapped: not an RDMA program, or not one yet"
	assert_line --regexp "^PASS  process-memlock  $pid \(sleep\)(: RLIMIT_MEMLOCK is| has CAP_IPC_LOCK)"
	assert_line "FAIL  process-env      $pid (sleep): UCX: UCX_NET_DEVICES=mlx5_0:1 names 'mlx5_0:1', a device UCX does not have here: UCX names an RDMA port as DEVICE:PORT (here rxe0:1, rxe1:1) and a netdev by its name, and says \"network device 'mlx5_0:1' is not available\""
	assert_line "      fix: 'rdmactl env' gives the settings for the links"
	# NCCL_IB_HCA==rxe0:1 takes rxe0 alone, whose index 0 is its fe80:: GID.
	assert_line --regexp "^FAIL  process-env      $pid \(sleep\): NCCL: on rxe0 port 1, GID index 0 is fe80::[0-9a-f:]+, the link-local IPv6 GID: it works only between fe80:: GIDs on one link \(NCCL_IB_GID_INDEX=0\)\$"
	assert_line "      fix: NCCL_IB_GID_INDEX=1, or unset it (NCCL 2.21 and later choose)"
	refute_line --partial rxe1\ port
	# A netdev is looked for in the fixture, not on the host running the check.
	host=$(for n in /sys/class/net/*; do
		[ -e "$F/sys/class/net/${n##*/}" ] || { echo "${n##*/}"; break; }; done)
	[ -n "$host" ] || skip "this host has no netdev the fixture lacks"
	FI_VERBS_DEVICE_NAME=$host sleep 60 &
	pid2=$!
	# Until it has exec'd, the child is a copy of bats' shell: its comm is bash.
	for _ in $(seq 50); do [ "$(cat "/proc/$pid2/comm")" = sleep ] && break; sleep 0.1; done
	mkdir -p "$BATS_TEST_TMPDIR/f/proc/$pid2"
	for n in comm status limits environ maps; do
		cat "/proc/$pid2/$n" >"$BATS_TEST_TMPDIR/f/proc/$pid2/$n"
	done
	kill "$pid2"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --pid "$pid2" --only process-env
	assert_failure 1
	assert_line "FAIL  process-env      $pid2 (sleep): libfabric: FI_VERBS_DEVICE_NAME=$host begins the name of no active RDMA device here (rxe0:1, rxe1:1): the verbs provider finds none"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --pid "$pid"
	# Its network namespace has no UDP 4791 socket (this host has no rxe).
	assert_line --regexp "^FAIL  process-netns    $pid \(sleep\): no rdma_rxe UDP 4791 socket in its network namespace"
	# Only the process's checks ran, each once in the registry's order.
	assert_equal "$(grep -E '^(PASS|WARN|FAIL|SKIP) ' <<<"$output" | cut -c7-22 | uniq | tr -s ' \n' ' ')" \
		"process process-memlock process-env process-uverbs process-netns process-qps "
}

@test "check --pid: a fixture's QPs by owner, a process that is not there, and what goes with --pid" {
	Q=$TOP/bats/fixtures/qps
	pid=$(jq -r '[.[] | select(.state == "RTS" and .type == "RC")][0].pid' "$Q/oracle/rdma-res-qp.json")
	run rdmactl --sysfs-root "$Q" check --pid "$pid"
	assert_success
	assert_line "PASS  process-qps      $pid (ibv_rc_pingpong): 1 QP, none in error (one reading: resending is not told)"
	assert_line --regexp "^SKIP  process-env +$pid \(ibv_rc_pingpong\): its environment cannot be read"
	run rdmactl --sysfs-root "$Q" -j check --pid 4000000
	assert_failure 1
	assert_json_contract --exact check <<<"$output"
	assert_equal "$(jq -r '[.[] | "\(.id)=\(.result)"] | join(" ")' <<<"$output")" \
		"process=fail process-memlock=skip process-env=skip process-uverbs=skip process-netns=skip process-qps=skip"
	run --separate-stderr rdmactl check --pid 1 --dev rxe0
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --pid checks one process: not with --dev, --peer or --module-file; try 'rdmactl help check'"
	run --separate-stderr rdmactl check --pid 0
	assert_failure 2
	# Without --pid, the host's checks alone: no process check runs.
	run rdmactl --sysfs-root "$Q" check
	refute_line --partial 'process'
	# The host's live QPs: a fixture is one reading; one captured with no QP dump says so.
	assert_line "PASS  qps              6 QPs, none in error (one reading: resending is not told)"
	run rdmactl --sysfs-root "$TOP/bats/fixtures/two-netdevs" check --only qps
	assert_success
	assert_line "SKIP  qps              the fixture holds no QP dump"
}

@test "check: a captured bed's failing programs: each QP in ERR named with its owner and likely cause" {
	F=$TOP/bats/fixtures/qps-failed
	res=$F/oracle/rdma-res-qp.json
	# What 'rdma res show qp' saw: an RNR sender in ERR beside its receiver in RTS,
	# a pair both in ERR after a WRITE with a wrong rkey, a sender alone in RTS.
	read -r rnr rnr_a rnr_b < <(jq -r '. as $all | .[] | select(.state == "ERR") | . as $q |
		select(any($all[]; .ifname == $q.ifname and .lqpn == $q.rqpn and .state == "RTS")) |
		"\(.pid) \(.lqpn) \(.rqpn)"' "$res")
	read -r bad bad_a bad_b < <(jq -r '[.[] | select(.state == "ERR" and .lqpn != '"$rnr_a"')][0] |
		"\(.pid) \(.lqpn) \(.rqpn)"' "$res")
	dead=$(jq -r '.[] | select(.state == "RTS" and .type == "RC" and .pid != '"$rnr"') | .pid' "$res")
	run rdmactl --sysfs-root "$F" check --only qps
	assert_failure 1
	assert_line --regexp "^FAIL  qps +QP $rnr_a \(RC\) of $rnr \(qpfail\) on rxe0 is in ERR: RNR retries ran out: its peer had no receive posted when its SEND came \(likely: its peer QP $rnr_b of $rnr \(qpfail\) is in RTS; retry_rnr_exceeded_err is [1-9][0-9]* on rxe0\)$"
	for pair in "$bad_a $bad_b" "$bad_b $bad_a"; do
		read -r q p <<<"$pair"
		assert_line "FAIL  qps              QP $q (RC) of $bad (qpfail) on rxe0 is in ERR: a remote access error most likely (a wrong rkey, address, length or access flags in an RDMA READ or WRITE); one end's error flushed the other (likely: its peer QP $p of $bad (qpfail) is in ERR; RNR and unanswered requests leave the receiver in RTS; rxe counts remote access errors nowhere)"
	done
	# Three, with a fix each; the receiver in RTS is not named; the hung
	# sender, read once, is named as not told, never passed.
	assert_equal "$(grep -c '^FAIL  qps ' <<<"$output")" 3
	assert_equal "$(grep -c '^      fix: ' <<<"$output")" 3
	assert_line --regexp "^SKIP  qps +QP [0-9]+ of $dead \(qpfail\) on rxe0 in RTS, read once: whether it is resending with no answer is not told "
	run rdmactl --sysfs-root "$F" -j check --only qps
	assert_json_contract --exact check <<<"$output"
	# The hung sender's own check: its one QP is in RTS, and one reading cannot tell resending.
	run rdmactl --sysfs-root "$F" check --pid "$dead" --only process-qps
	assert_success
	assert_line "PASS  process-qps      $dead (qpfail): 1 QP, none in error (one reading: resending is not told)"
}

@test "check: on a fixture, mtu names the RoCE MTU link shows, and skips only the device's own word" {
	F=$TOP/bats/fixtures/two-netdevs
	for dev in rxe0 rxe1; do
		mtu=$(rdmactl --sysfs-root "$F" -j link show "$dev" | jq -r '.[0].active_mtu')
		nmtu=$(rdmactl --sysfs-root "$F" -j link show "$dev" | jq -r '.[0].netdev_mtu')
		run rdmactl --sysfs-root "$F" check --only mtu
		assert_line --regexp "^SKIP  mtu +$dev: veth[01]'s MTU $nmtu gives RoCE MTU $mtu, as link shows; "
	done
}

@test "check: an --only that would run nothing is refused, and --module-file is never ignored" {
	# A CI gate on these would pass whatever the host or process did.
	run --separate-stderr rdmactl check --only process-env
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --only process-env is a check of one process's: give --pid PID; try 'rdmactl help check'"
	run --separate-stderr rdmactl check --pid $$ --only qps,process
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --only qps is a check of the host's, not of --pid's process (its checks: 'rdmactl check --list', those marked --pid); try 'rdmactl help check'"
	run --separate-stderr rdmactl --sysfs-root "$TOP/bats/fixtures/two-netdevs" check --module-file /x.ko
	assert_failure 2
	run --separate-stderr rdmactl check --only link --module-file /x.ko
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --module-file is vetted by the modules check: add it to --only; try 'rdmactl help check'"
	# Vetted even on a kernel with no rdma_rxe (this host's), where it matters most.
	run rdmactl check --only kernel,modules --module-file "$BATS_TEST_TMPDIR/none.ko"
	assert_failure 1
	assert_line "FAIL  modules          $BATS_TEST_TMPDIR/none.ko: no such file"
}

@test "check --since: journalctl's times; a wrong one, or one no check reads, is refused" {
	for t in now -2h '30min ago' '1h 30min ago' today yesterday '2026-12-03 09:10' \
		'2026-12-03T09:10:11Z' 09:30 @1796288400; do
		run --separate-stderr rdmactl check --only journal --since "$t"
		assert_success
		assert_line --regexp '^(SKIP|PASS|WARN)  journal '
	done
	run --separate-stderr rdmactl check --since ''
	assert_failure 2
	for t in -2 '2 ago' 'two hours ago' tomorrow '2026-13-01' "$(printf 'a\033[2Jb')"; do
		run --separate-stderr rdmactl check --since "$t"
		assert_failure 2
		assert_equal "$stderr" "rdmactl: check: --since takes a time as journalctl does: '-2h', '30min ago', 'today', '2026-12-03 09:10', '@EPOCH'; not '$(printf '%s' "$t" | sed 's/\x1b/\\x1b/')'; try 'rdmactl help check'"
	done
	run --separate-stderr rdmactl check --only link --since -1h
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --since is for the journal check: add it to --only; try 'rdmactl help check'"
	run --separate-stderr rdmactl check --pid $$ --since -1h
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: --since is for the journal check: not with --pid; try 'rdmactl help check'"
	# A user who cannot read the system's journal is told that, not that no monitor ran.
	if [ "$(id -u)" = 0 ]; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups "$RDMACTL" check --only journal
		assert_success
		assert_line --regexp '^SKIP  journal +no rdmactl monitor --journal entry is readable by this user: .* \(run check as root\)$'
	fi
	# A fixture has no journal; the check says so rather than pass.
	run rdmactl --sysfs-root "$TOP/bats/fixtures/two-netdevs" -j check --only journal
	assert_success
	run jq -r '.[] | "\(.result) \(.detail)"' <<<"$output"
	assert_output 'skip a fixture tree has no journal'
}

@test "monitor --journal: refused with --count and on a fixture, before anything is armed" {
	run --separate-stderr rdmactl monitor --journal --count 3
	assert_failure 2
	run --separate-stderr rdmactl --sysfs-root "$TOP/bats/fixtures/two-netdevs" monitor --journal
	assert_failure 2
	assert_equal "$stderr" "rdmactl: monitor: monitor watches the running system: not with --sysfs-root; try 'rdmactl help monitor'"
}

@test "check --format junit: a test case a verdict, as CI reads it; the text's exit status; -j apart" {
	local f=$TOP/bats/fixtures/qps-failed
	run rdmactl --sysfs-root "$f" -j check
	assert_failure 1
	want=$(jq -r '.[] | "rdmactl.check.\(.id)|\(.detail)|\(.result | sub("warn"; "pass"))"' <<<"$output")
	count=$(jq -r '"\(length) \([.[] | select(.result == "fail")] | length) \([.[] | select(.result == "skip")] | length)"' <<<"$output")
	run -1 rdmactl --sysfs-root "$f" check --format junit
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/j.xml"
	run -0 junit_read "$BATS_TEST_TMPDIR/j.xml"
	assert_equal "${lines[0]}" "$count"
	assert_equal "$(printf '%s\n' "${lines[@]:1}")" "$want"
	# A warning passes and says so, or fails with --strict, as the exit status does.
	grep -q '<system-out>warn: rxe0 port 1: rcvd_rnr_err is 1' "$BATS_TEST_TMPDIR/j.xml"
	run -1 rdmactl --sysfs-root "$f" check --only counters --format junit --strict
	[ "$(grep -c '<failure message="rxe0 port 1: ' <<<"$output")" -eq 3 ]
	run -0 rdmactl --sysfs-root "$f" check --only counters --format junit
	run --separate-stderr rdmactl --sysfs-root "$f" -j check --format junit
	assert_failure 2
	assert_equal "$stderr" "rdmactl: check: -j prints JSON: --format junit is XML, leave one out; try 'rdmactl help check'"
}

@test "check --format junit: a hostile device name is well-formed XML, escaped as the text shows it" {
	cp -a "$TOP/bats/fixtures/two-netdevs" "$BATS_TEST_TMPDIR/f"
	mv "$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe1" "$BATS_TEST_TMPDIR/f/sys/class/infiniband/r<x\"e&"$'\e'"1"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --only link --format junit
	[[ $output != *$'\e'* ]] || fail "an escape went out raw"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/j.xml"
	run -0 junit_read "$BATS_TEST_TMPDIR/j.xml"
	text=$(rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --only link | sed -n 's/^[A-Z]* *link *//p' | grep 'r<x')
	[ -n "$text" ] || fail "the text names no such device"
	assert_line --partial "rdmactl.check.link|$text|"
}

@test "check under GitHub Actions: each FAIL and WARN an annotation, one line whatever a name holds" {
	local f=$TOP/bats/fixtures/qps-failed
	GITHUB_ACTIONS=true run -1 rdmactl --sysfs-root "$f" check
	[ "$(grep -c '^::error title=rdmactl check%3A qps::QP ' <<<"$output")" -eq 3 ]
	[ "$(grep -c '^::warning title=rdmactl check%3A counters::rxe0 port 1: ' <<<"$output")" -eq 3 ]
	assert_line "::error title=rdmactl check%3A qps::QP 17 (RC) of 123 (qpfail) on rxe0 is in ERR: RNR retries ran out: its peer had no receive posted when its SEND came (likely: its peer QP 18 of 123 (qpfail) is in RTS; retry_rnr_exceeded_err is 1 on rxe0)%0Afix: have the receiver post its receives before the sender sends, or set a larger rnr_retry (7 retries for ever)"
	# Not outside GitHub Actions, nor in JSON or JUnit, which a program reads whole.
	for args in check "-j check" "check --format junit"; do
		# shellcheck disable=SC2086
		GITHUB_ACTIONS=false run -1 rdmactl --sysfs-root "$f" $args
		refute_line --regexp '^::'
		# shellcheck disable=SC2086
		GITHUB_ACTIONS=true run -1 rdmactl --sysfs-root "$f" $args
		[ "$args" = check ] || refute_line --regexp '^::'
	done
	# A name that would end the line, start a command or break a property.
	cp -a "$TOP/bats/fixtures/two-netdevs" "$BATS_TEST_TMPDIR/f"
	mv "$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe1" "$BATS_TEST_TMPDIR/f/sys/class/infiniband/r%0A"$'\n'"::x,:"$'\r'
	echo 1 >"$BATS_TEST_TMPDIR/f/sys/class/infiniband/r%0A"$'\n'"::x,:"$'\r'/ports/1/hw_counters/rcvd_rnr_err
	GITHUB_ACTIONS=true run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" check --only counters
	[[ $output != *$'\r'* ]] || fail "a carriage return went out raw"
	assert_line --regexp '^::warning title=rdmactl check%3A counters::r%250A\\x0a::x,:\\x0d port 1: rcvd_rnr_err is 1: .*%0Afix: '
	refute_line --regexp '^::x'
}
