# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's tables measures: gids, show and a show_gids-style loop over many
# devices. Sourced by tools/bench, run inside the bed.

# show_gids' way: one cat per sysfs file, the attributes only of GIDs in use.
gids_loop() {
	local d p g i gid
	for d in /sys/class/infiniband/*; do
		for p in "$d"/ports/*; do
			for g in "$p"/gids/*; do
				i=${g##*/}
				gid=$(cat "$g")
				[ "$gid" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${d##*/}" "${p##*/}" "$i" "$gid" \
					"$(cat "$p/gid_attrs/types/$i" 2>/dev/null)" \
					"$(cat "$p/gid_attrs/ndevs/$i" 2>/dev/null)"
			done
		done
	done
}

make_dummies() {
	local n=$1 i
	for ((i = 0; i < n; i++)); do
		ip link add "bd$i" type dummy
		ip link set "bd$i" up
	done
}

del_dummies() {
	local d
	for d in $(ip -o link show type dummy | awk -F': ' '{ print $2 }'); do
		ip link del "$d"
	done
}

measure_tables() {
	local i k a b c s
	say "tables"
	rdma_clear
	make_dummies 16
	for ((i = 0; i < 16; i++)); do
		for ((k = 1; k <= 4; k++)); do ip addr add "10.$((100 + i)).$k.1/24" dev "bd$i"; done
		"$R" add "rxe$i" "bd$i" >/dev/null
	done
	sleep 1
	local ngids
	ngids=$("$R" -j gids | jq length)
	echo "## Tables: 16 rxe devices, 4 IPv4 addresses each ($ngids GIDs)"
	echo
	echo "Milliseconds a run. rdmactl gids -j, rdmactl show and ibv_devinfo -v, in turn: each sample the mean of 10 runs."
	echo "The shell loop: $loops run(s) in all, since one run forks two processes for each"
	echo "of the 16 x 1024 GID slots and takes minutes under emulation."
	echo
	table_head
	a='' b='' c='' s=''
	for ((i = 0; i < table_repeat; i++)); do
		in_turn "$i" gids_mine show_mine devinfo_peer
	done
	for ((i = 0; i < loops; i++)); do
		say "tables: the shell loop, run $((i + 1)) of $loops"
		c+=$(time_ms 1 gids_loop)$'\n'
	done
	row "rdmactl gids -j" ms "$a" "ibv_devinfo -v" "$b" "le 1.00"
	row "rdmactl gids -j" ms "$a" "show_gids-style loop (cat per file)" "$c" "le 1.00"
	row "rdmactl show" ms "$s" "ibv_devinfo -v" "$b" "le 1.00"
	echo
	footprint_gids=$(/usr/bin/time -f %M "$R" -j gids 2>&1 >/dev/null | tail -1)
	footprint_devinfo=$(/usr/bin/time -f %M ibv_devinfo -v 2>&1 >/dev/null | tail -1)
	rdma_clear
	del_dummies
}

# One run of each side of the tables' measure, appended to the caller's a and b.
gids_mine() {
	a+=$(time_ms 10 "$R" -j gids)$'\n'
}

show_mine() {
	s+=$(time_ms 10 "$R" show)$'\n'
}

devinfo_peer() {
	b+=$(time_ms 10 ibv_devinfo -v)$'\n'
}
