#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A CI job's command in the bed's guests (rxe-vm run), for the GitHub
# action and the GitLab template alike: the inputs checked before anything
# boots, then each guest makes its own link and runs the command under
# 'rdmactl record' (ci/bed/in-guest.sh), whose report of what failed
# follows the command's output in the job's log. Under GitHub Actions
# ($GITHUB_STEP_SUMMARY) the guests' step summaries are added to the
# runner's, host 1's then host 2's; GitLab's job log is its summary.
# Inputs, as environment variables (never code): RDMACTL_KERNEL,
# RDMACTL_COMMAND, RDMACTL_HOSTS (1 or 2), RDMACTL_USERLAND (host),
# RDMACTL_RECORD (true or false), RDMACTL_TIMEOUT (seconds).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cmd=${RDMACTL_COMMAND:-}
# An input's bytes other than letters and digits shown as '?'.
shown() { printf '%s' "${1//[^[:alnum:]]/?}"; }
if [ -z "${RDMACTL_KERNEL:-}" ]; then
	echo "rdmactl: no kernel given: the bed boots one of rxe-vm's kernels (6.1, 6.12, 7.3, 7.3-cloud, ...; rxe-vm kernels lists them)" >&2
	exit 2
fi
if [ -z "$cmd" ]; then
	echo "rdmactl: the command is empty: with a kernel, the command is what runs in the VM" >&2
	exit 2
fi
case ${RDMACTL_HOSTS:-1} in
1 | 2) ;;
*)
	echo "rdmactl: the input hosts is '$(shown "$RDMACTL_HOSTS")': 1 or 2" >&2
	exit 2
	;;
esac
case ${RDMACTL_RECORD:-true} in
true | false) ;;
*)
	echo "rdmactl: the input record is '$(shown "$RDMACTL_RECORD")': true or false" >&2
	exit 2
	;;
esac
if [ "${RDMACTL_USERLAND:-host}" != host ]; then
	echo "rdmactl: the input userland is '$(shown "$RDMACTL_USERLAND")': the guest runs on the runner's own root (host) alone for now" >&2
	exit 2
fi
summary=none
[ -z "${GITHUB_STEP_SUMMARY:-}" ] || summary=github
# The guests' summary lines kept apart, a file a guest (their lines may
# come at once), the rest to stderr; then added to the runner's step
# summary, the first guest's before the second's.
sum=$(mktemp -d)
trap 'rm -rf "$sum"' EXIT
route() {
	local l
	while IFS= read -r l; do
		case $l in
		'rdmactl-summary: '*) printf '%s\n' "${l#rdmactl-summary: }" >>"$sum/1" ;;
		'['[12]'] rdmactl-summary: '*) printf '%s\n' "${l#\[?\] rdmactl-summary: }" >>"$sum/${l:1:1}" ;;
		*) printf '%s\n' "$l" >&2 ;;
		esac
	done
}
status=0
rxe-vm run --kernel "$RDMACTL_KERNEL" --hosts "${RDMACTL_HOSTS:-1}" \
	--timeout "${RDMACTL_TIMEOUT:-1800}" \
	-e RDMACTL="$(command -v rdmactl)" -e RDMACTL_COMMAND="$cmd" -e RDMACTL_RECORD="${RDMACTL_RECORD:-true}" \
	-e RDMACTL_SUMMARY="$summary" -- bash "$here/in-guest.sh" 2> >(route) || status=$?
# The filter's last lines written before the step ends.
wait
# (Outside GitHub the guests send none: nothing to add.)
for h in 1 2; do
	[ "$summary" = github ] && [ -s "$sum/$h" ] || continue
	{
		[ "${RDMACTL_HOSTS:-1}" = 1 ] || printf '## Host %s\n\n' "$h"
		cat "$sum/$h"
	} >>"$GITHUB_STEP_SUMMARY"
done
exit "$status"
