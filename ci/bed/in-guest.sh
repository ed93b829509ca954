#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In each guest of the bed (ci/bed/run.sh): the link made ready on the
# guest's netdev as on a runner ('rdmactl ci-setup', its steps on standard
# error), its variables set, then the command under 'rdmactl record', whose
# report of what failed follows the command's output. With
# RDMACTL_SUMMARY=github the step summary, made here as on a runner and
# with the report where the command failed, goes out on standard error as
# lines marked "rdmactl-summary: " (nothing the guest writes reaches the
# runner but its output), which ci/bed/run.sh adds to the runner's.
set -uo pipefail
t=$(mktemp -d)
: >"$t/env" && : >"$t/out" && : >"$t/summary"
summary() {
	local l
	[ "${RDMACTL_SUMMARY:-github}" = github ] || return 0
	while IFS= read -r l; do
		printf 'rdmactl-summary: %s\n' "$l" >&2
	done <"$t/summary"
}
GITHUB_ACTIONS=true GITHUB_ENV=$t/env GITHUB_OUTPUT=$t/out GITHUB_STEP_SUMMARY=$t/summary \
	"$RDMACTL" ci-setup "$RXE_VM_NETDEV" >&2
status=$?
if [ "$status" -ne 0 ]; then
	summary
	exit "$status"
fi
eval "$("$RDMACTL" env)"
if [ "${RDMACTL_RECORD:-true}" = true ]; then
	"$RDMACTL" record -o "$t/record.jsonl" -- bash --noprofile --norc -eo pipefail -c "$RDMACTL_COMMAND"
else
	bash --noprofile --norc -eo pipefail -c "$RDMACTL_COMMAND"
fi
status=$?
{
	echo "### The command in the guest (kernel $(uname -r)): exit status $status"
	echo
	if [ "$status" -ne 0 ] && [ -s "$t/record.jsonl" ]; then
		echo '```'
		"$RDMACTL" report "$t/record.jsonl"
		echo '```'
	fi
} >>"$t/summary"
summary
exit "$status"
