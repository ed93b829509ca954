# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's live diagnosis: rdmactl qp against rdma res show qp with a
# program holding 1,000 QPs, check --pid on that program, and monitor's CPU
# while nothing changes and its delay from a QP's move to ERR to the event.
# Sourced by tools/bench, run inside the bed (build/tests/qpfail holds the QPs).

# Waits for qpfail's output FILE to say it holds its QPs (120 s: 1,000 QPs are
# made one modify at a time under emulation).
held() {
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -q '^holding' "$1" && return 0
		sleep 0.1
	done
	echo "bench: qpfail never held its QPs: $(cat "$1")" >&2
	return 1
}

qp_mine() { q+=$(time_ms 10 "$R" -j qp)$'\n'; }
qp_peer() { r+=$(time_ms 10 rdma -j res show qp)$'\n'; }

# Per cent of a core that monitor used over S seconds, from its utime and stime.
monitor_cpu() {
	local s=$1 pid hz t0 t1
	hz=$(getconf CLK_TCK)
	"$R" monitor >/dev/null 2>&1 &
	pid=$!
	sleep 2	# its first readings, and the GIDs', are not the idle cost
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep "$s"
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	kill -INT "$pid"
	wait "$pid" || true
	awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$s" 'BEGIN { printf "%.2f\n", 100 * d / hz / s }'
}

# Milliseconds from starting qpfail's RNR failure to monitor's line for its
# sender's move to ERR: an upper bound of the delay (the program's own setup,
# tens of ms, is in it).
monitor_delay() {
	local mon pid t0 prog gid out i t
	mon=$(mktemp) out=$(mktemp)
	gid=$("$R" -j gids rxe0 | jq -r 'first(.[] | select(.recommended)) | .index')
	"$R" -j monitor >"$mon" 2>/dev/null &
	pid=$!
	sleep 2
	t0=$(ns)
	"$top/build/tests/qpfail" rxe0 "$gid" rnr >"$out" 2>&1 &
	prog=$!
	for ((i = 0; i < 300; i++)); do
		t=$(ns)
		grep -q '"to":"ERR"' "$mon" && break
		sleep 0.01
	done
	kill "$prog" 2>/dev/null || true
	kill -INT "$pid"
	wait "$prog" "$pid" 2>/dev/null || true
	rm -f "$mon" "$out"
	echo $(((t - t0) / 1000000))
}

measure_runtime() {
	local i gid prog out q r c cpu0 cpu1 d
	say "runtime: a program holding 1,000 QPs"
	rdma_clear
	"$R" add rxe0 "$RXE_VM_NETDEV" >/dev/null
	gid=$("$R" -j gids rxe0 | jq -r 'first(.[] | select(.recommended)) | .index')
	cpu0=$(monitor_cpu 20)
	out=$(mktemp)
	"$top/build/tests/qpfail" rxe0 "$gid" many 500 >"$out" 2>&1 &
	prog=$!
	held "$out"
	echo "## Live diagnosis: a program holding $(rdma res show qp | grep -c "pid $prog ") QPs"
	echo
	echo "Milliseconds a run; each sample the mean of 10 runs, the two in turn."
	echo
	table_head
	q='' r=''
	for ((i = 0; i < table_repeat; i++)); do in_turn "$i" qp_mine qp_peer; done
	row "rdmactl -j qp" ms "$q" "rdma -j res show qp" "$r" "le 1.00"
	echo
	c=''
	for ((i = 0; i < table_repeat; i++)); do
		c+=$(time_ms 1 "$R" check --pid "$prog" --only process-qps)$'\n'
	done
	cpu1=$(monitor_cpu 20)
	kill "$prog"
	wait "$prog" 2>/dev/null || true
	rm -f "$out"
	d=''
	for ((i = 0; i < repeat; i++)); do d+=$(monitor_delay)$'\n'; done
	echo "| measure | median (min–max) | goal | met |"
	echo "|---|---|---|---|"
	read -r -a c <<<"$(stats <<<"$c")"
	read -r -a d <<<"$(stats <<<"$d")"
	printf '| check --pid --only process-qps on it, ms | %s (%s–%s) | < 1000 | %s |\n' \
		"${c[0]}" "${c[1]}" "${c[2]}" "$(awk -v m="${c[0]}" 'BEGIN { print m < 1000 ? "yes" : "**no**" }')"
	printf '| monitor, %% of a core over 20 s, nothing changing, no QP | %s | < 1 | %s |\n' \
		"$cpu0" "$(awk -v m="$cpu0" 'BEGIN { print m < 1 ? "yes" : "**no**" }')"
	printf '| monitor, %% of a core over 20 s, nothing changing, 1,000 QPs | %s | < 1 | %s |\n' \
		"$cpu1" "$(awk -v m="$cpu1" 'BEGIN { print m < 1 ? "yes" : "**no**" }')"
	printf '| monitor, ms from a program started to its QP'"'"'s move to ERR said (at most) | %s (%s–%s) | < 1000 | %s |\n' \
		"${d[0]}" "${d[1]}" "${d[2]}" "$(awk -v m="${d[0]}" 'BEGIN { print m < 1000 ? "yes" : "**no**" }')"
	echo
	rdma_clear
}
