# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's statistics and tables: medians and spreads, a row with its ratio
# to the peer and its goal, the samples appendix, runs taken in turn. Sourced by
# tools/bench.

# "median min max" of the numbers on stdin. A sample a tool printed as inf or
# nan (perftest does, now and then, under emulation) is left out. Four
# figures, but a whole number of more (a count, kB) whole: 20000, not 2e+04.
stats() {
	sort -g | awk 'function f(x) { if (x == int(x) && x >= 10000) return sprintf("%d", x)
			return sprintf("%.4g", x) }
		NF && $1 ~ /^[0-9.]+$/ { a[++n] = $1 } END { NR = n
		if (!NR) { print "nan nan nan"; exit }
		m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		print f(m), f(a[1]), f(a[NR]) }'
}

# One line of the appendix: the samples, one row's side, on one line.
flat() { tr '\n' ' ' | sed 's/ *$//'; }

# The appendix: "## Samples" and every row's samples; the host adds its own
# after the bed's.
samples_section() {
	echo "## Samples"
	echo
	echo "Each figure's samples in the order they were taken (rdmactl's and its peer's"
	echo "in turn, the first of a pair alternating round by round)."
	echo
	cat "$samples"
}

# One table row: what, unit, rdmactl's samples, the peer's name and samples,
# and the goal: "ge R" (rdmactl/peer at least R) or "le R" (at most R).
row() {
	local what=$1 unit=$2 mine=$3 peer=$4 theirs=$5 goal=$6 m p ratio met
	read -r -a m <<<"$(stats <<<"$mine")"
	read -r -a p <<<"$(stats <<<"$theirs")"
	ratio=$(awk -v a="${m[0]}" -v b="${p[0]}" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
	met=$(awk -v r="$ratio" -v g="${goal#* }" -v op="${goal% *}" 'BEGIN {
		ok = op == "ge" ? r >= g : r <= g; print ok ? "yes" : "**no**" }')
	printf '| %s | %s (%s–%s) | %s | %s (%s–%s) | %s | %s %s | %s |\n' "$what" "${m[0]}" \
		"${m[1]}" "${m[2]}" "$peer" "${p[0]}" "${p[1]}" "${p[2]}" "$ratio" \
		"$([ "${goal% *}" = ge ] && echo '≥' || echo '≤')" "${goal#* }" "$met"
	printf -- '- %s: rdmactl `%s`; %s `%s`\n' "$what" "$(flat <<<"$mine")" "$peer" \
		"$(flat <<<"$theirs")" >>"$samples"
	[ -n "$unit" ] || true
}

ns() { date +%s%N; }

# Milliseconds a run of the rest of the line takes, the mean of N; output discarded.
time_ms() {
	local n=$1 t0 i
	shift
	t0=$(ns)
	for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1; done
	awk -v t=$(($(ns) - t0)) -v n="$n" 'BEGIN { printf "%.1f\n", t / n / 1e6 }'
}

# Runs the functions after $1 in round $1's turn of their order (two: $2 then
# $3 in even rounds, $3 then $2 in odd ones): a slow spell of the emulated
# machine (one comes later in a boot, for every tool; docs/benchmarks.md) then
# falls on every side alike, not on whichever runs last.
# Its own variables have names no caller uses: bash's scope is dynamic, and a
# side reads its caller's (measure_boot's k, the kernel).
in_turn() {
	local in_turn_round=$1 in_turn_i in_turn_arg
	shift
	for ((in_turn_i = 0; in_turn_i < $#; in_turn_i++)); do
		in_turn_arg=$(((in_turn_i + in_turn_round) % $# + 1))
		"${!in_turn_arg}"
	done
}

# The head of a measures table: every row says rdmactl's figure, its peer's,
# their ratio and the goal.
table_head() {
	echo "| measure | rdmactl median (min–max) | peer | peer median (min–max) | ratio | goal | met |"
	echo "|---|---|---|---|---|---|---|"
}
