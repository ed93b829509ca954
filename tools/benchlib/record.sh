# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's cost of record: perftest's client run under 'rdmactl record --'
# against the same client bare, in turn, on two QPs of rxe0: ib_write_bw's
# bandwidth and ib_send_lat's typical latency (the goal: within 5% of bare).
# Sourced by tools/bench, run inside the bed; bw_run and lat_run are
# capture.sh's.

# The pair "$@" with its client under record (perftest's pt_wrap), its output
# into $cap_tmp.out as capture.sh's runners leave it.
with_record() {
	local pt_wrap=("$R" record -o "$cap_tmp.rec" --)
	"$@" >"$cap_tmp.out"
}

rec_bw_on() { bw_run u with_record perftest 18720; }
rec_bw_off() { bw_run b none perftest 18721; }
rec_lat_on() { lat_run ut with_record perftest 18722 5; }
rec_lat_off() { lat_run bt none perftest 18723 5; }

measure_record() {
	local i u='' b='' ut='' bt='' cap_tmp
	cap_tmp=$(mktemp)
	say "record: bandwidth and latency, the client under record -- and bare"
	echo "## perftest's client under \`rdmactl record --\`, against it bare (two QPs of rxe0)"
	echo
	echo "record's probes follow the client's process tree: fexit on ib_uverbs' and rdma_ucm's"
	echo "handlers and fentry on rdma_rxe's rxe_cq_post where the modules carry BTF, kprobes"
	echo "where not; the server runs bare. Ratio = under record / bare."
	echo
	table_head
	for ((i = 0; i < bw_repeat; i++)); do in_turn "$i" rec_bw_on rec_bw_off; done
	row "RDMA WRITE bandwidth, 65536 B x 2000, MiB/s, client under record" MiB/s "$u" \
		"ib_write_bw bare" "$b" "ge 0.95"
	for ((i = 0; i < lat_repeat; i++)); do in_turn "$i" rec_lat_on rec_lat_off; done
	row "SEND latency, 2 B x $lat_iters, t_typical usec, client under record" usec "$ut" \
		"ib_send_lat bare" "$bt" "le 1.05"
	echo
	rm -f "$cap_tmp" "$cap_tmp.out" "$cap_tmp.rec"
}
