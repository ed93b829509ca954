#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl monitor against real changes: a QP's move to ERR with its cause,
# devices made and deleted, GIDs and netdevs, kprobes or none, and a reader
# that goes away.

load rxe0

# The epoch seconds of monitor's UTC time T.
epoch() { date -d "$1" +%s.%N; }

# monitor -j as root in the background (its PID in monpid), its events into
# $1 and its stderr into $1.err, once it holds its kprobes on rxe's
# functions: perf events among its descriptors. The binary itself, not the
# helpers' function: a background subshell ignores SIGINT.
monitor_root() {
	"$RDMACTL" -j monitor >"$1" 2>"$1.err" &
	monpid=$!
	for _ in $(seq 50); do
		find "/proc/$monpid/fd" -lname '*perf_event*' | grep -q . && break
		sleep 0.1
	done
	find "/proc/$monpid/fd" -lname '*perf_event*' | grep -q . ||
		fail "monitor holds no perf event: $(ls -l "/proc/$monpid/fd")"
}

@test "monitor: a QP's move to ERR within a second with its cause; GIDs, the netdev and the end follow" {
	local mon=$BATS_TEST_TMPDIR/mon ev t rc
	monitor_root "$mon"
	start_qpfail rnr
	held=$(date +%s.%N)
	for _ in $(seq 30); do grep -q '"to":"ERR"' "$mon" && break; sleep 0.1; done
	ip addr add 10.11.11.78/24 dev "$N"
	for _ in $(seq 30); do grep -q '"event":"gid-added"' "$mon" && break; sleep 0.1; done
	ip addr del 10.11.11.78/24 dev "$N"
	ip link set "$N" down
	for _ in $(seq 30); do grep -q '"event":"port-state"' "$mon" && break; sleep 0.1; done
	kill "$prog"; wait "$prog" || true
	for _ in $(seq 30); do grep -q '"event":"qp-destroyed"' "$mon" && break; sleep 0.1; done
	ip link set "$N" up
	kill -INT "$monpid"
	rc=0
	wait "$monpid" || rc=$?
	assert_equal "$rc" 0
	assert_equal "$(cat "$mon.err")" ""
	# Every line one JSON object, in the contract.
	run jq -e -c 'select(type != "object")' "$mon"
	assert_failure 4
	assert_json_contract monitor <"$mon"
	# The sender's move to ERR: its owner, the cause, within a second of its program holding.
	ev=$(jq -c "select(.qpn == $qp_a and .to == \"ERR\")" "$mon")
	[ -n "$ev" ] || fail "no move to ERR of QP $qp_a: $(cat "$mon")"
	assert_equal "$(jq -r '.owner.pid' <<<"$ev")" "$prog"
	assert_equal "$(jq -r '.owner.comm' <<<"$ev")" qpfail
	assert_equal "$(jq -r '.cause' <<<"$ev")" "RNR retries ran out: its peer had no receive posted when its SEND came"
	t=$(epoch "$(jq -r '.time' <<<"$ev")")
	awk -v t="$t" -v h="$held" 'BEGIN { exit !(t <= h + 1.0) }' ||
		fail "QP $qp_a's move to ERR said at $t, its program held at $held"
	# The address's GID, come and gone; the netdev down, then its port; both QPs destroyed.
	assert_equal "$(jq -r 'select(.event == "gid-added" and (.gid | endswith("0a0b:0b4e"))) | .type' "$mon")" "RoCE v2"
	assert_equal "$(jq -r 'select(.event == "gid-removed" and (.gid | endswith("0a0b:0b4e"))) | .index' "$mon" | wc -l)" 1
	assert_equal "$(jq -r 'select(.event == "port-state") | "\(.ifname) \(.from) \(.to)"' "$mon" | head -1)" "rxe0 ACTIVE DOWN"
	assert_equal "$(jq -r 'select(.event == "netdev-state") | "\(.netdev) \(.from) \(.to)"' "$mon" | head -1)" "$N up down"
	assert_equal "$(jq -r 'select(.event == "qp-destroyed") | .qpn' "$mon" | sort -n | tr '\n' ' ')" \
		"$(printf '%s\n' "$qp_a" "$qp_b" | sort -n | tr '\n' ' ')"
	# Nothing was said of a QP resending: none was.
	assert_equal "$(grep -c '"event":"qp-resending"' "$mon")" 0
}

# bats test_tags=kernels
@test "monitor: an rxe device made and deleted is said at once, as root between its timed readings" {
	local mon=$BATS_TEST_TMPDIR/mon t0 t1 t2 rc
	monitor_root "$mon"
	# Past its first readings: the next timed one is 5 s away, so what is
	# said sooner came from what woke it (its kprobes on rxe, or the
	# kernel's notification on 6.12 and later).
	sleep 1.5
	t0=$(date +%s.%N)
	rdma link add rxe1 type rxe netdev veth1
	for _ in $(seq 40); do grep -q '"event":"device-added"' "$mon" && break; sleep 0.05; done
	t1=$(date +%s.%N)
	rdma link delete rxe1
	for _ in $(seq 40); do grep -q '"event":"device-removed"' "$mon" && break; sleep 0.05; done
	t2=$(date +%s.%N)
	kill -INT "$monpid"
	rc=0
	wait "$monpid" || rc=$?
	assert_equal "$rc" 0
	assert_equal "$(cat "$mon.err")" ""
	assert_equal "$(jq -r 'select(.event | startswith("device-")) | "\(.event) \(.ifname)"' "$mon")" \
		$'device-added rxe1\ndevice-removed rxe1'
	awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { exit !(b - a < 2 && c - b < 2) }' ||
		fail "said $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s after the add, $(awk -v b="$t1" -v c="$t2" 'BEGIN { print c - b }') s after the del"
}

@test "monitor: without the rights for kprobes, a QP's move to ERR comes all the same" {
	local mon=$BATS_TEST_TMPDIR/mon ev rc
	local -a nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --)
	"${nobody[@]}" "$RDMACTL" -j monitor >"$mon" 2>"$mon.err" &
	monpid=$!
	sleep 1
	# No kprobe for a user without CAP_PERFMON: it reads the QPs every half second.
	if find "/proc/$monpid/fd" -lname '*perf_event*' | grep -q .; then
		fail "an unprivileged monitor holds perf events"
	fi
	start_qpfail rnr "${nobody[@]}"
	for _ in $(seq 30); do grep -q '"to":"ERR"' "$mon" && break; sleep 0.1; done
	kill "$prog"; wait "$prog" || true
	kill -INT "$monpid"
	rc=0
	wait "$monpid" || rc=$?
	assert_equal "$rc" 0
	assert_equal "$(cat "$mon.err")" ""
	ev=$(jq -c "select(.qpn == $qp_a and .to == \"ERR\")" "$mon")
	[ -n "$ev" ] || fail "no move to ERR of QP $qp_a: $(cat "$mon")"
	assert_equal "$(jq -r '.owner.pid' <<<"$ev")" "$prog"
	assert_equal "$(jq -r '.cause' <<<"$ev")" "RNR retries ran out: its peer had no receive posted when its SEND came"
}

@test "monitor: a reader that goes away ends it quietly with status 0" {
	local out=$BATS_TEST_TMPDIR/out sh i
	# head takes the first event and goes: the next event's write finds no reader.
	bash -c '"$1" monitor 2>&1 | head -n 1; echo "monitor status ${PIPESTATUS[0]}"' _ "$RDMACTL" >"$out" &
	sh=$!
	for i in $(seq 60); do
		kill -0 "$sh" 2>/dev/null || break
		ip addr add "10.11.11.$((100 + i % 2))/24" dev "$N"
		sleep 0.3
		ip addr del "10.11.11.$((100 + i % 2))/24" dev "$N"
		sleep 0.2
	done
	kill -0 "$sh" 2>/dev/null && { pkill -f -- "$RDMACTL monitor"; fail "monitor still ran 30 s after its reader went"; }
	wait "$sh"
	run cat "$out"
	assert_equal "${#lines[@]}" 2
	# The first event it saw: an address's GID come or gone.
	assert_line --index 0 --regexp ' gid-(added|removed) rxe0/1 index '
	assert_line --index 1 'monitor status 0'
}
