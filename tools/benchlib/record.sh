# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's cost of record: perftest's client run under 'rdmactl record --'
# against the same client bare, in turn, on two QPs of rxe0: ib_write_bw's
# bandwidth and ib_send_lat's typical latency (the goal: within 5% of bare);
# and a program that makes and destroys 1,000 QPs a second (qpfail churn):
# each QP in the record (none lost), record's memory the same whether it
# runs 5 s or 20.
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

# qpfail's churn of N QPs under record: record's peak resident set (kB, GNU
# time's %M) appended to the caller's variable $2; the record's qp-made lines
# of the program's process and the program's own count, to $3 and $4 (the
# caller's variables), and as a pair to $pairs, every run's.
rec_churn() {
	local n=$1 pid m p
	local -n rss_into=$2 m_into=$3 p_into=$4
	rss_into+=$(/usr/bin/time -f %M "$R" record -o "$cap_tmp.rec" -- \
		"$top/build/tests/qpfail" rxe0 1 churn "$n" 2>&1 >"$cap_tmp.out" | tail -1)$'\n'
	p=$(awk '$1 == "made" { print $2 }' "$cap_tmp.out")
	pid=$(jq -r 'select(.event == "record-started") | .pid' "$cap_tmp.rec")
	m=$(jq -s --argjson p "$pid" \
		'[.[] | select(.event == "qp-made" and .owner.pid == $p)] | length' "$cap_tmp.rec")
	m_into+=$m$'\n'
	p_into+=$p$'\n'
	pairs+="$m ${p:-none}"$'\n'
}

rec_churn_short() { rec_churn 5000 rs cms cps; }
rec_churn_long() { rec_churn 20000 rl cm cp; }

measure_record() {
	local i u='' b='' ut='' bt='' cap_tmp
	cap_tmp=$(mktemp)
	say "record: bandwidth and latency, the client under record -- and bare"
	echo "## Under \`rdmactl record --\`: perftest's client against it bare, and 1,000 QPs a second"
	echo
	echo "record's probes follow the client's process tree: fexit on ib_uverbs' and rdma_ucm's"
	echo "handlers and fentry on rdma_rxe's rxe_cq_post where the modules carry BTF, kprobes"
	echo "where not; the server runs bare (two QPs of rxe0). Ratio = under record / bare."
	echo "Then a program of libibverbs alone (qpfail churn) makes a QP, moves it to INIT and"
	echo "destroys it, one a millisecond, for 5 s or 20 s under record: the record's QPs made"
	echo "by its process against its own count, and record's memory over the two lengths."
	echo
	table_head
	for ((i = 0; i < bw_repeat; i++)); do in_turn "$i" rec_bw_on rec_bw_off; done
	row "RDMA WRITE bandwidth, 65536 B x 2000, MiB/s, client under record" MiB/s "$u" \
		"ib_write_bw bare" "$b" "ge 0.95"
	for ((i = 0; i < lat_repeat; i++)); do in_turn "$i" rec_lat_on rec_lat_off; done
	row "SEND latency, 2 B x $lat_iters, t_typical usec, client under record" usec "$ut" \
		"ib_send_lat bare" "$bt" "le 1.05"
	local cm='' cp='' cms='' cps='' rs='' rl='' pairs='' churn_repeat=$(((repeat + 1) / 2))
	for ((i = 0; i < churn_repeat; i++)); do in_turn "$i" rec_churn_short rec_churn_long; done
	row "QPs made and destroyed, 1,000 a second for 20 s: in the record" QPs "$cm" \
		"made (the program's count)" "$cp" "ge 1.00"
	row "record's peak resident set, the churn for 20 s, kB" kB "$rl" \
		"the churn for 5 s" "$rs" "le 1.05"
	echo
	echo "Runs (5 s and 20 s) whose record held another count of QPs made than the"
	echo "program's: $(awk '$1 != $2' <<<"${pairs%$'\n'}" | grep -c . || true) of $((2 * churn_repeat))."
	echo
	rm -f "$cap_tmp" "$cap_tmp.out" "$cap_tmp.rec"
}
