# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's capture measures: perftest between rxe0 on veth0 and rxe1 on
# veth1, over their fe80:: GIDs so that the packets cross the veth, with
# 'rdmactl capture' running on rxe0 against without, and against tcpdump -w
# on veth0; and every packet rxe's counters say were sent, captured. Then the
# same between two QPs of rxe0 (loopback, which only the capture's eBPF
# source sees; no tcpdump row). Sourced by tools/bench, run inside the bed.

# rxe0 on veth0 and rxe1 on veth1 (the groups before may have left no link),
# with both fe80:: GIDs (index 0) there.
capture_devices() {
	local d i
	rdma_clear
	"$R" add rxe0 veth0 >/dev/null || { say "cannot add rxe0 on veth0"; return 1; }
	"$R" add rxe1 veth1 >/dev/null || { say "cannot add rxe1 on veth1"; return 1; }
	for ((i = 0; i < 100; i++)); do
		for d in rxe0 rxe1; do
			[ "$(cat "/sys/class/infiniband/$d/ports/1/gids/0")" != \
				0000:0000:0000:0000:0000:0000:0000:0000 ] || continue 2
		done
		return 0
	done
	say "no fe80:: GID on rxe0 and rxe1"
	return 1
}

sent_both() {
	echo $(($(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts) +
		$(cat /sys/class/infiniband/rxe1/ports/1/hw_counters/sent_pkts)))
}

# A perftest pair across the veth: the server on rxe1, the client on rxe0.
perftest_across() {
	local pt_srv=rxe1 pt_cli=rxe0 pt_gid=0 pt_addr=127.0.0.1
	perftest "$@"
}

# Runs the rest of the line with 'rdmactl capture rxe0 -w FILE' running, its
# stdout into $cap_tmp.out; then appends to the caller's caught, counted and
# dropped the packets the capture saw, those rxe0 and rxe1 sent meanwhile, and
# those the kernel dropped. In this shell: bash's scope is dynamic.
with_capture() {
	local err=$cap_tmp.err before i line
	: >"$err"
	"$R" capture rxe0 -w "$cap_tmp.pcap" >"$cap_tmp.sum" 2>"$err" &
	local cap=$!
	for ((i = 0; i < 200; i++)); do
		grep -q "capturing on" "$err" && break
		sleep 0.05
	done
	before=$(sent_both)
	"$@" >"$cap_tmp.out"
	counted+=$(($(sent_both) - before))$'\n'
	kill -INT "$cap" 2>/dev/null
	wait "$cap" || true
	# "N RoCE v2 packets in S s, D dropped, ...": the summary's last line.
	line=$(tail -n 1 "$cap_tmp.sum")
	caught+=$(sed -n 's/^\([0-9]*\) RoCE v2 packets in.*/\1/p' <<<"$line")$'\n'
	dropped+=$(sed -n 's/.*, \([0-9]*\) dropped,.*/\1/p' <<<"$line")$'\n'
}

# The same with tcpdump -w on veth0 running instead, its packets not counted.
with_tcpdump() {
	local err=$cap_tmp.tderr i
	: >"$err"
	tcpdump -i veth0 -w "$cap_tmp.td.pcap" 'udp dst port 4791' 2>"$err" &
	local td=$!
	for ((i = 0; i < 200; i++)); do
		grep -q "listening on" "$err" && break
		sleep 0.05
	done
	"$@" >"$cap_tmp.out"
	kill -INT "$td" 2>/dev/null
	wait "$td" || true
}

# One run of ib_write_bw (ib_send_lat) through pair $3 (perftest_across, or
# perftest: two QPs of rxe0) on port $4, under $2 (with_capture,
# with_tcpdump, with_record, or none), its MiB/s (t_min; with $5 5,
# t_typical) appended to the caller's variable named $1.
bw_run() {
	local -n bw_into=$1
	if [ "$2" = none ]; then
		bw_into+=$("$3" ib_write_bw "$4" -s 65536 -n 2000 -F | perftest_field 4)$'\n'
	else
		"$2" "$3" ib_write_bw "$4" -s 65536 -n 2000 -F
		bw_into+=$(perftest_field 4 <"$cap_tmp.out")$'\n'
	fi
}

lat_run() {
	local -n lat_into=$1
	local line
	if [ "$2" = none ]; then
		line=$("$3" ib_send_lat "$4" -s 2 -n "$lat_iters" -F | perftest_field 0)
	else
		"$2" "$3" ib_send_lat "$4" -s 2 -n "$lat_iters" -F
		line=$(perftest_field 0 <"$cap_tmp.out")
	fi
	lat_into+=$(awk -v f="${5:-3}" '{ print $f }' <<<"$line")$'\n'
}

# Each side of a measure, for in_turn: across the veth (captured, not,
# under tcpdump), then in loopback (captured, not).
cap_bw_on() { bw_run a with_capture perftest_across 18710; }
cap_bw_off() { bw_run b none perftest_across 18711; }
cap_bw_td() { bw_run c with_tcpdump perftest_across 18714; }
cap_lat_on() { lat_run a with_capture perftest_across 18712; }
cap_lat_off() { lat_run b none perftest_across 18713; }
cap_lat_td() { lat_run c with_tcpdump perftest_across 18715; }
cap_lbw_on() { bw_run a with_capture perftest 18716; }
cap_lbw_off() { bw_run b none perftest 18717; }
cap_llat_on() { lat_run a with_capture perftest 18718; }
cap_llat_off() { lat_run b none perftest 18719; }

# The packet counts of the runs since the last call, as a row and a sentence.
capture_counts() {
	row "packets captured, of those rxe0 and rxe1 counted sent" packets "$caught" \
		"sent_pkts" "$counted" "ge 1.00"
	echo
	echo "Runs whose capture saw another count than rxe's counters: $(paste -d' ' <(echo "$caught") \
		<(echo "$counted") | awk 'NF == 2 && $1 != $2' | wc -l) of $(grep -c . <<<"$counted");"
	echo "packets the kernel dropped before the capture read them, per run: $(flat <<<"$dropped")."
	echo
	caught='' counted='' dropped=''
}

# The loopback rows, where this kernel's rdma_rxe has BTF for the eBPF source.
measure_capture_loopback() {
	echo "## perftest with 'rdmactl capture' running, against without (two QPs of rxe0: loopback)"
	echo
	if [ ! -e /sys/kernel/btf/rdma_rxe ]; then
		echo "Not measured: this kernel's rdma_rxe has no BTF, so capture cannot see its loopback."
		echo
		return 0
	fi
	echo "rdma_rxe delivers these packets to itself: capture reads them through eBPF at rxe_rcv"
	echo "(docs/capture.md), which no other capture tool does, so the run without is the peer."
	echo
	table_head
	say "RDMA WRITE bandwidth in loopback with a capture"
	a='' b=''
	for ((i = 0; i < bw_repeat; i++)); do
		in_turn "$i" cap_lbw_on cap_lbw_off
	done
	row "RDMA WRITE bandwidth in loopback, 65536 B x 2000, MiB/s, captured" MiB/s "$a" \
		"ib_write_bw uncaptured" "$b" "ge 0.90"
	say "SEND latency in loopback with a capture"
	a='' b=''
	for ((i = 0; i < lat_repeat; i++)); do
		in_turn "$i" cap_llat_on cap_llat_off
	done
	row "SEND latency in loopback, 2 B x $lat_iters, t_min usec, captured" usec "$a" \
		"ib_send_lat uncaptured" "$b" "le 1.10"
	capture_counts
}

measure_capture() {
	local i a b c caught='' counted='' dropped='' cap_tmp
	cap_tmp=$(mktemp)
	echo "## perftest with 'rdmactl capture' running, against without (rxe0 on veth0 to rxe1 on veth1)"
	echo
	echo "The packets cross the veth (fe80:: GIDs, index 0); the capture writes every one to a"
	echo "pcap (-w) and is stopped with SIGINT after each run; so does \`tcpdump -w\` (its filter"
	echo "'udp dst port 4791', rdmactl's own), the peer any capture is measured against."
	echo
	if ! capture_devices; then
		echo "Not measured: rxe0 on veth0 or rxe1 on veth1 could not be made or got no fe80:: GID."
		echo
		rm -f "$cap_tmp" "$cap_tmp".*
		return 0
	fi
	table_head
	say "RDMA WRITE bandwidth with a capture"
	a='' b='' c=''
	for ((i = 0; i < bw_repeat; i++)); do
		in_turn "$i" cap_bw_on cap_bw_off cap_bw_td
	done
	row "RDMA WRITE bandwidth across the veth, 65536 B x 2000, MiB/s, captured" MiB/s "$a" \
		"ib_write_bw uncaptured" "$b" "ge 0.90"
	row "RDMA WRITE bandwidth across the veth, 65536 B x 2000, MiB/s, captured" MiB/s "$a" \
		"ib_write_bw under tcpdump -w" "$c" "ge 1.00"
	say "SEND latency with a capture"
	a='' b='' c=''
	for ((i = 0; i < lat_repeat; i++)); do
		in_turn "$i" cap_lat_on cap_lat_off cap_lat_td
	done
	row "SEND latency across the veth, 2 B x $lat_iters, t_min usec, captured" usec "$a" \
		"ib_send_lat uncaptured" "$b" "le 1.10"
	row "SEND latency across the veth, 2 B x $lat_iters, t_min usec, captured" usec "$a" \
		"ib_send_lat under tcpdump -w" "$c" "le 1.00"
	# Every run's packets: the capture's count against rxe's sent_pkts.
	capture_counts
	measure_capture_loopback
	rm -f "$cap_tmp" "$cap_tmp".*
	"$R" del rxe1 >/dev/null 2>&1 || true
}
