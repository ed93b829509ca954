#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# stat on fixture trees captured from real rxe devices in the test bed: each
# counter named and explained, its changes, and Prometheus's format, which
# promtool (Debian's prometheus) holds to its parser.

setup() {
	load ../helpers
	F=$TOP/bats/fixtures/two-netdevs
}

@test "tables: stat names and explains each counter sysfs has, with its value" {
	run rdmactl --sysfs-root "$F" -j stat rxe0
	assert_success
	assert_json_contract --exact stat <<<"$output"
	dir=$F/sys/class/infiniband/rxe0/ports/1/hw_counters
	want=$(cd "$dir" && for c in *; do [ "$c" = lifespan ] || echo "$c $(cat "$c")"; done | sort)
	assert_equal "$(jq -r '.[0].counters[] | "\(.kernel_name) \(.value)"' <<<"$output" | sort)" "$want"
	# Every rxe counter is known: a meaning and a unit each, the errors marked.
	assert_equal "$(jq '[.[0].counters[] | select(.meaning == null or .unit == null)] | length' <<<"$output")" 0
	assert_equal "$(jq -r '[.[0].counters[] | select(.error) | .name] | sort | join(",")' <<<"$output")" \
		completer_retry_err,link_downed,out_of_seq_request,rcvd_rnr_err,rcvd_seq_err,retry_exceeded_err,retry_rnr_exceeded_err,send_err
	run rdmactl --sysfs-root "$F" stat rxe0
	assert_success
	assert_line 'rxe0/1:'
	assert_line --regexp '^    retry_exceeded_err +[0-9]+  QPs that gave up after their retry count: no ACK came$'
	refute_line --partial lifespan
}

@test "tables: stat gives one name to a counter older kernels named otherwise" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	dir=$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe0/ports/1/hw_counters
	mv "$dir/ack_deferred" "$dir/ack_deffered"
	mv "$dir/out_of_seq_request" "$dir/out_of_sequence"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j stat rxe0
	assert_success
	run jq -r '.[0].counters[] | select(.kernel_name != .name) | "\(.kernel_name) \(.name) \(.meaning != null)"' <<<"$output"
	assert_output $'ack_deffered ack_deferred true\nout_of_sequence out_of_seq_request true'
}

@test "tables: stat --interval prints each change as it comes, a JSON document a line" {
	run rdmactl --sysfs-root "$F" -j stat --interval 1 --count 2
	assert_success
	assert_equal "${#lines[@]}" 2
	for l in "${lines[@]}"; do
		assert_json_contract --exact stat <<<"$l"
		assert_equal "$(jq -c '[.[].interval_s] | unique' <<<"$l")" '[1]'
		assert_equal "$(jq -c '[.[].counters[].change] | unique' <<<"$l")" '[0]'
	done
	run rdmactl --sysfs-root "$F" stat rxe1 --interval 1
	assert_success
	assert_line 'rxe1/1: change over 1 s'
	assert_line --regexp '^    sent_pkts +[0-9]+ +\+0  packets sent$'
}

@test "tables: stat --format prometheus: each family once, every port's sample, the values sysfs has" {
	run rdmactl --sysfs-root "$F" stat --format prometheus
	assert_success
	# Families whole: a HELP and a TYPE each, then only that family's samples.
	run awk '/^# HELP /{ if (seen[$3]++) print "again: " $3; fam = $3; next }
		/^# TYPE /{ if ($3 != fam || $4 != "counter") print "type: " $0; next }
		{ split($1, n, "{"); if (n[1] != fam) print "stray: " $0 }' <<<"$output"
	assert_output ''
	run rdmactl --sysfs-root "$F" stat --format prometheus
	for dev in rxe0 rxe1; do
		v=$(cat "$F/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts")
		assert_line "rdma_sent_pkts_total{device=\"$dev\",port=\"1\"} $v"
	done
	refute_line --partial lifespan
	# Every sample line is NAME{LABELS} VALUE.
	run grep -cvE '^(# (HELP|TYPE) .*|rdma_[a-z0-9_]+_total\{device="[^"]+",port="[0-9]+"\} [0-9]+)$' <<<"$output"
	assert_output 0
}

@test "tables: stat refuses what does not go together, and a device that is none" {
	run --separate-stderr rdmactl --sysfs-root "$F" stat --count 2
	assert_failure 2
	assert_equal "$stderr" "rdmactl: stat: --count is for --interval: how many changes to print; try 'rdmactl help stat'"
	run --separate-stderr rdmactl --sysfs-root "$F" -j stat --format prometheus
	assert_failure 2
	run --separate-stderr rdmactl --sysfs-root "$F" stat --interval 0
	assert_failure 2
	run --separate-stderr rdmactl --sysfs-root "$F" stat rxe9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: no RDMA device named rxe9 ('rdmactl show' lists them) (ENODEV: No such device)"
	run --separate-stderr rdmactl --sysfs-root "$TOP/bats/fixtures/no-rdma" stat
	assert_success
}

@test "tables: stat never prints a hostile device name raw, in text or Prometheus's format" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	mv "$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe1" "$BATS_TEST_TMPDIR/f/sys/class/infiniband/rx\"e"$'\e'"1"
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" stat --format prometheus
	assert_success
	[[ $output != *$'\e'* ]] || fail "an escape went out raw"
	assert_line --regexp '^rdma_sent_pkts_total\{device="rx\\"e\?1",port="1"\} [0-9]+$'
	run rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" stat
	assert_success
	[[ $output != *$'\e'* ]] || fail "an escape went out raw"
	assert_line 'rx"e\x1b1/1:'
}

# promtool's verdict on stat --format prometheus of fixture $1: the
# parser node_exporter's textfile collector shares refuses what it refuses.
promtool_ok() {
	local out
	out=$(rdmactl --sysfs-root "$1" stat --format prometheus) || return
	"$PROMTOOL" check metrics <<<"$out" || { echo "$out"; return 1; }
}

@test "tables: stat --format prometheus passes promtool on every fixture, two kernels' names and hostile ones" {
	# On PATH, or the binary alone as tools/install-deps unpacks it from Debian's prometheus.
	PROMTOOL=$(command -v promtool || echo "${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/rdmactl/promtool/usr/bin/promtool")
	[ -x "$PROMTOOL" ] || skip "no promtool (Debian's prometheus): tools/install-deps test"
	local f n=0
	for f in "$TOP"/bats/fixtures/*/; do
		[ -d "$f/sys/class/infiniband" ] || continue
		promtool_ok "$f" || fail "promtool refused $f's"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n fixtures"
	# One counter named two ways across two devices (an older kernel's
	# ack_deffered beside ack_deferred): one family, both samples.
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	dir=$BATS_TEST_TMPDIR/f/sys/class/infiniband
	mv "$dir/rxe1/ports/1/hw_counters/ack_deferred" "$dir/rxe1/ports/1/hw_counters/ack_deffered"
	mv "$dir/rxe0/ports/1/hw_counters/out_of_seq_request" "$dir/rxe0/ports/1/hw_counters/out_of_sequence"
	# Counters no kernel of ours names, as a newer one may: odd bytes, a
	# name that is another's once made a metric, one past 64 bits.
	echo 7 >"$dir/rxe0/ports/1/hw_counters/New-Thing.x"
	echo 8 >"$dir/rxe0/ports/1/hw_counters/new_thing_x"
	echo 99999999999999999999 >"$dir/rxe1/ports/1/hw_counters/huge"
	mv "$dir/rxe1" "$dir/rx\"e"$'\\'"1"
	promtool_ok "$BATS_TEST_TMPDIR/f" || fail "promtool refused it"
	run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" stat --format prometheus
	assert_equal "$(grep -c '^# HELP rdma_ack_deferred_total ' <<<"$output")" 1
	assert_equal "$(grep -c '^rdma_ack_deferred_total{' <<<"$output")" 2
	assert_equal "$(grep -c '^rdma_out_of_seq_request_total{' <<<"$output")" 2
	# The first of two names that make one metric on one port is its sample.
	assert_equal "$(grep '^rdma_new_thing_x_total{' <<<"$output")" 'rdma_new_thing_x_total{device="rxe0",port="1"} 7'
	# rxe's rdma_sends once prefixed, and no sample of what is no counter.
	assert_line --regexp '^rdma_sends_total\{device="rxe0",port="1"\} [0-9]+$'
	refute_line --partial rdma_rdma_
	refute_line --partial huge
	refute_line --partial lifespan
}

@test "tables: stat -j --interval: a counter that went back or came new has change null, as json.md says" {
	cp -a "$F" "$BATS_TEST_TMPDIR/f"
	c=$BATS_TEST_TMPDIR/f/sys/class/infiniband/rxe0/ports/1/hw_counters
	echo 500 >"$c/sent_pkts"
	# Between the two readings: one counter reset, one new.
	(sleep 0.5; echo 3 >"$c/sent_pkts"; echo 9 >"$c/sent_bytes") &
	run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" -j stat --interval 2 rxe0
	wait
	assert_json_contract --exact stat <<<"$output"
	assert_equal "$(jq -c '.[0].counters[] | select(.name == "sent_pkts" or .name == "sent_bytes") | [.name, .value, .change]' <<<"$output" | sort)" \
		$'["sent_bytes",9,null]\n["sent_pkts",3,null]'
	assert_equal "$(jq -c '[.[0].counters[] | select(.name != "sent_pkts" and .name != "sent_bytes") | .change] | unique' <<<"$output")" '[0]'
	# In text, a dash for the same.
	(sleep 0.5; echo 1 >"$c/sent_pkts") &
	run -0 rdmactl --sysfs-root "$BATS_TEST_TMPDIR/f" stat --interval 2 rxe0
	wait
	assert_line --regexp '^    sent_pkts +1 +-  packets sent$'
}
