# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's provisioning measures: add and del against rdma link, process
# start, the footprint. Sourced by tools/bench, run inside the bed.

rdma_clear() {
	local d
	for d in $(rdma -j link show | jq -r '.[].ifname'); do rdma link delete "$d"; done
}

# 32 links added, then deleted: each figure appended to the caller's samples.
prov_mine() {
	local i t0
	t0=$(ns)
	for ((i = 0; i < 32; i++)); do "$R" add "rxe$i" "bd$i" >/dev/null; done
	a+=$((($(ns) - t0) / 1000000))$'\n'
	t0=$(ns)
	for ((i = 0; i < 32; i++)); do "$R" del "rxe$i" >/dev/null; done
	c+=$((($(ns) - t0) / 1000000))$'\n'
}

prov_peer() {
	local i t0
	t0=$(ns)
	for ((i = 0; i < 32; i++)); do rdma link add "rxe$i" type rxe netdev "bd$i"; done
	b+=$((($(ns) - t0) / 1000000))$'\n'
	t0=$(ns)
	for ((i = 0; i < 32; i++)); do rdma link delete "rxe$i"; done
	d+=$((($(ns) - t0) / 1000000))$'\n'
}

measure_provisioning() {
	local r a b c d
	say "provisioning"
	make_dummies 32
	echo "## Provisioning: 32 rxe links added, then deleted"
	echo
	echo "Milliseconds for all 32; each figure a median of $prov_repeat runs, the two in turn."
	echo
	table_head
	a='' b='' c='' d=''
	for ((r = 0; r < prov_repeat; r++)); do
		in_turn "$r" prov_mine prov_peer
	done
	row "rdmactl add x 32" ms "$a" "rdma link add x 32" "$b" "le 1.00"
	row "rdmactl del x 32" ms "$c" "rdma link delete x 32" "$d" "le 1.00"
	echo
	del_dummies
}

# One round of measure_start's three commands, each side's figures appended
# to the caller's samples: a, c and e for rdmactl, b, d and f for rdma.
start_mine() {
	a+=$(time_ms 20 "$R" --version)$'\n'
	c+=$(time_ms 20 "$R" help)$'\n'
	e+=$(time_ms 20 "$R" link)$'\n'
}

start_peer() {
	b+=$(time_ms 20 rdma -V)$'\n'
	d+=$(time_ms 20 rdma help)$'\n'
	f+=$(time_ms 20 rdma link)$'\n'
}

# Process start: what a command costs before it does anything, against iproute2's rdma.
measure_start() {
	local i a b c d e f
	say "process start"
	echo "## Process start: rdmactl against rdma (iproute2)"
	echo
	echo "Milliseconds a run, each sample the mean of 20 runs; rxe0 exists."
	echo
	table_head
	a='' b='' c='' d='' e='' f=''
	for ((i = 0; i < repeat; i++)); do
		in_turn "$i" start_mine start_peer
	done
	row "rdmactl --version" ms "$a" "rdma -V" "$b" "le 1.00"
	row "rdmactl help" ms "$c" "rdma help" "$d" "le 1.00"
	row "rdmactl link" ms "$e" "rdma link" "$f" "le 1.00"
	echo
	echo "Shared objects loaded: rdmactl --version $(LD_DEBUG=files "$R" --version 2>&1 >/dev/null |
		grep -c 'generating link map'), rdma -V $(LD_DEBUG=files rdma -V 2>&1 >/dev/null |
		grep -c 'generating link map') (glibc's LD_DEBUG=files)."
	echo
}

measure_footprint() {
	local size stripped rss_st
	size=$(stat -c %s "$R")
	stripped=$(strip -o /tmp/rdmactl.stripped "$R" && stat -c %s /tmp/rdmactl.stripped)
	"$R" add rxe0 "$RXE_VM_NETDEV" >/dev/null 2>&1 || true
	rss_st=$(/usr/bin/time -f %M "$R" selftest rxe0 2>&1 >/dev/null | tail -1)
	echo "## Footprint"
	echo
	echo "| measure | rdmactl | for reference |"
	echo "|---|---|---|"
	echo "| binary size, bytes | $size (stripped: $stripped) | ibv_devinfo: $(stat -c %s "$(command -v ibv_devinfo)") |"
	echo "| peak RSS of gids -j (16 devices), KiB | $footprint_gids | ibv_devinfo -v: $footprint_devinfo |"
	echo "| peak RSS of selftest rxe0 (12411-byte buffers), KiB | $rss_st | |"
	echo
}
