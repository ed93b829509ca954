# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's CI step: the GitHub action's own time (ci/github, run as its
# runner runs it by tools/ci-steps), against the issue's goals: under 10 s
# on a runner whose kernel has rdma_rxe, the bed's boot plus under 5 s where
# the command needs the bed. Sourced by tools/bench.

# Seconds the rest of the line takes, appended to the variable named $1.
ci_timed() {
	local var=$1 t0
	shift
	t0=$(ns)
	"$@" >/dev/null 2>&1 || say "failed: $*"
	printf -v "$var" '%s%s\n' "${!var}" "$(awk -v t=$(($(ns) - t0)) 'BEGIN { printf "%.2f", t / 1e9 }')"
}

# One row of an absolute goal: what, the samples (seconds), the goal's bound
# in seconds (empty: none).
ci_row() {
	local what=$1 vals=$2 bound=$3 m
	read -r -a m <<<"$(stats <<<"$vals")"
	if [ -n "$bound" ]; then
		printf '| %s | %s (%s–%s) | ≤ %s | %s |\n' "$what" "${m[0]}" "${m[1]}" "${m[2]}" "$bound" \
			"$(awk -v a="${m[0]}" -v b="$bound" 'BEGIN { print a <= b ? "yes" : "**no**" }')"
	else
		printf '| %s | %s (%s–%s) | | |\n' "$what" "${m[0]}" "${m[1]}" "${m[2]}"
	fi
	printf -- '- %s: `%s`\n' "$what" "$(flat <<<"$vals")" >>"$samples"
}

ci_action() {
	rm -rf "$ci_dir" && mkdir -p "$ci_dir" && (cd "$ci_dir" && "$top/tools/ci-steps" github "$top/ci/github" \
		"$ci_dir/runner" "$@")
}

# In the bed, as on a runner whose kernel has rdma_rxe: each run from
# nothing loaded ('rdmactl stop'), the action whole (its build of a built
# tree a no-op), and ci-setup alone.
measure_ci_runner() {
	local ci_dir whole='' alone='' i
	ci_dir=$(mktemp -d)
	echo "## The CI step on a runner whose kernel has rdma_rxe"
	echo
	echo "Seconds, from nothing loaded (\`rdmactl stop\` before each run): the GitHub action"
	echo "(ci/github) run as its runner runs it (tools/ci-steps), rdmactl already built, and"
	echo "\`rdmactl ci-setup\` alone; median (min–max) of $repeat runs each."
	echo
	echo '| measure | seconds | goal | met |'
	echo '| --- | --- | --- | --- |'
	for ((i = 0; i < repeat; i++)); do
		"$R" stop >/dev/null 2>&1
		ci_timed whole ci_action netdev="$RXE_VM_NETDEV"
		"$R" stop >/dev/null 2>&1
		ci_timed alone "$R" ci-setup "$RXE_VM_NETDEV"
	done
	ci_row "the action, kernel input empty" "$whole" 10
	ci_row "rdmactl ci-setup alone" "$alone" 10
	echo
	rm -rf "$ci_dir"
	"$R" start >/dev/null
	"$R" add rxe0 "$RXE_VM_NETDEV" >/dev/null 2>&1 || true
}

# On the host: the action with a kernel of the bed's and the command true,
# against the bed's boot with the same command ('rxe-vm run -- true'), in turn.
measure_ci_bed() {
	local ci_dir action='' bare='' boot='' extra extra_bare i
	ci_dir=$(mktemp -d)
	echo "## The CI step in the bed"
	echo
	echo "Seconds: the GitHub action with \`kernel: 6.1\` and \`command: true\` (its guest makes"
	echo "and proves its link, then runs the command under record) against the bed's own"
	echo "\`tools/rxe-vm run --kernel 6.1 -- true\`; the action's cost is the difference of"
	echo "the medians. Median (min–max) of $repeat runs each, in turn."
	echo
	for ((i = 0; i < repeat; i++)); do
		if ((i % 2)); then
			ci_timed boot tools/rxe-vm run --kernel 6.1 -- true
			ci_timed action ci_action kernel=6.1 command=true
			ci_timed bare ci_action kernel=6.1 command=true record=false
		else
			ci_timed bare ci_action kernel=6.1 command=true record=false
			ci_timed action ci_action kernel=6.1 command=true
			ci_timed boot tools/rxe-vm run --kernel 6.1 -- true
		fi
	done
	extra=$(awk -v a="$(stats <<<"$action" | cut -d' ' -f1)" -v b="$(stats <<<"$boot" | cut -d' ' -f1)" \
		'BEGIN { printf "%.2f", a - b }')
	extra_bare=$(awk -v a="$(stats <<<"$bare" | cut -d' ' -f1)" -v b="$(stats <<<"$boot" | cut -d' ' -f1)" \
		'BEGIN { printf "%.2f", a - b }')
	echo '| measure | seconds | goal | met |'
	echo '| --- | --- | --- | --- |'
	ci_row "rxe-vm run --kernel 6.1 -- true (the boot)" "$boot" ""
	ci_row "the action, kernel 6.1, command true" "$action" ""
	ci_row "the action, kernel 6.1, command true, record false" "$bare" ""
	printf '| the action less the boot (medians) | %s | ≤ 5 | %s |\n' "$extra" \
		"$(awk -v a="$extra" 'BEGIN { print a <= 5 ? "yes" : "**no**" }')"
	printf '| the action with record false, less the boot | %s | ≤ 5 | %s |\n' "$extra_bare" \
		"$(awk -v a="$extra_bare" 'BEGIN { print a <= 5 ? "yes" : "**no**" }')"
	echo
	rm -rf "$ci_dir"
}
