# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's verbs measures: selftest --bench against perftest, the ping-pong
# against ibv_rc_pingpong. Sourced by tools/bench, run inside the bed.

# Until something listens on TCP port $1 (at most 20 s).
listening() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -n "$(ss -Htln "sport = :$1")" ] && return 0
		sleep 0.1
	done
	say "nothing listens on port $1"
	return 1
}

# A perftest pair on rxe0 over the loopback address: the server, then the
# client. A caller's pt_srv, pt_cli, pt_gid and pt_addr (bash's scope is
# dynamic) put the ends on other devices, GID index and address; its pt_wrap
# array runs the client under a command (rdmactl record --).
perftest() {
	local tool=$1 port=$2
	shift 2
	timeout 300 "$tool" -d "${pt_srv:-rxe0}" -x "${pt_gid:-1}" -p "$port" "$@" >/dev/null 2>&1 &
	local srv=$!
	listening "$port" || true
	${pt_wrap[@]+"${pt_wrap[@]}"} timeout 300 "$tool" -d "${pt_cli:-rxe0}" -x "${pt_gid:-1}" \
		-p "$port" "$@" "${pt_addr:-$RXE_VM_ADDR}" 2>/dev/null
	wait "$srv" || true
}

# The data line of perftest's report: FIELD (1-based; 0: the whole line) of the
# line after the header.
perftest_field() {
	awk -v f="$1" '/^ *#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print $f; exit }'
}

# One run of each side of a measure of measure_verbs, its figure appended to
# the caller's samples (bash's dynamic scope): a and b, or sm, st, pm and pt.
bw_mine() {
	a+=$("$R" -j selftest --bench=bw --size "$size" --iters "$iters" rxe0 |
		jq -r '.[0].stages[] | select(.stage == "bw_write") | .stats.mib_s')$'\n'
}

bw_peer() {
	# MB/sec, perftest's default report: MiB (2^20 bytes) a second, to two
	# decimals, where --report_gbits gives two decimals of a figure below 1.
	b+=$(perftest ib_write_bw 18700 -s "$size" -n "$iters" -F | perftest_field 4)$'\n'
}

lat_mine() {
	local j s k=0
	j=$("$R" -j selftest --bench=lat --size 2 --iters "$lat_iters" rxe0)
	for s in lat_send lat_write; do
		sm[k]+=$(jq -r ".[0].stages[] | select(.stage == \"$s\") | .stats.t_min_us" <<<"$j")$'\n'
		st[k]+=$(jq -r ".[0].stages[] | select(.stage == \"$s\") | .stats.t_typical_us" <<<"$j")$'\n'
		k=$((k + 1))
	done
}

lat_peer() {
	local line s k=0
	for s in ib_send_lat ib_write_lat; do
		line=$(perftest "$s" $((18701 + k)) -s 2 -n "$lat_iters" -F | perftest_field 0)
		pm[k]+=$(awk '{ print $3 }' <<<"$line")$'\n'
		pt[k]+=$(awk '{ print $5 }' <<<"$line")$'\n'
		k=$((k + 1))
	done
}

pp_mine() {
	timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -p 18703 >/dev/null 2>&1 &
	listening 18703 || true
	a+=$("$R" selftest client "$RXE_VM_ADDR" --pingpong --port 18703 rxe0 |
		sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1/p')$'\n'
	wait || true
}

pp_peer() {
	timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -p 18704 >/dev/null 2>&1 &
	listening 18704 || true
	b+=$(timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -p 18704 "$RXE_VM_ADDR" 2>/dev/null |
		sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1/p')$'\n'
	wait || true
}

measure_verbs() {
	local i a b c d size iters
	echo "## selftest --bench against perftest and ibv_rc_pingpong (rxe0, loopback)"
	echo
	table_head
	for size in 65536 4096; do
		iters=$((size == 65536 ? 2000 : 5000))
		say "RDMA WRITE bandwidth, $size bytes"
		a='' b=''
		for ((i = 0; i < bw_repeat; i++)); do
			in_turn "$i" bw_mine bw_peer
		done
		row "RDMA WRITE bandwidth, $size B x $iters, MiB/s" MiB/s "$a" "ib_write_bw" "$b" "ge 1.00"
	done
	say "latency"
	# t_min and t_typical: the third and fifth columns of perftest's latency report.
	local sm=() st=() pm=() pt=()
	for ((i = 0; i < lat_repeat; i++)); do
		in_turn "$i" lat_mine lat_peer
	done
	row "SEND latency, 2 B x $lat_iters, t_min usec" usec "${sm[0]}" "ib_send_lat" "${pm[0]}" "le 1.00"
	row "SEND latency, 2 B x $lat_iters, t_typical usec" usec "${st[0]}" "ib_send_lat" "${pt[0]}" "le 1.00"
	row "RDMA WRITE latency, 2 B x $lat_iters, t_min usec" usec "${sm[1]}" "ib_write_lat" "${pm[1]}" "le 1.00"
	row "RDMA WRITE latency, 2 B x $lat_iters, t_typical usec" usec "${st[1]}" "ib_write_lat" "${pt[1]}" "le 1.00"
	a='' b=''
	say "ibv_rc_pingpong"
	for ((i = 0; i < pp_repeat; i++)); do
		in_turn "$i" pp_mine pp_peer
	done
	row "SEND ping-pong, 4096 B x 1000, usec/iter (client vs stock server)" usec "$a" \
		"ibv_rc_pingpong client" "$b" "le 1.00"
	echo
}
