#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command: on the runner, where the step before made RDMA ready, by
# bash as the job's user; with a kernel, in the bed's guests (rxe-vm run),
# each making its own link first (ci/github/in-bed.sh), under 'rdmactl
# record', whose report of what failed follows the command's output; the
# guests' step summary added to the runner's.
set -euo pipefail
cmd=${RDMACTL_COMMAND:-}
if [ -z "${RDMACTL_KERNEL:-}" ]; then
	exec bash --noprofile --norc -eo pipefail -c "$cmd"
fi
if [ -z "$cmd" ]; then
	echo "rdmactl: the input command is empty: with a kernel, the command is what runs in the VM" >&2
	exit 2
fi
case ${RDMACTL_HOSTS:-1} in
1 | 2) ;;
*)
	echo "rdmactl: the input hosts is '${RDMACTL_HOSTS//[^[:alnum:]]/?}': 1 or 2" >&2
	exit 2
	;;
esac
case ${RDMACTL_RECORD:-true} in
true | false) ;;
*)
	echo "rdmactl: the input record is '${RDMACTL_RECORD//[^[:alnum:]]/?}': true or false" >&2
	exit 2
	;;
esac
if [ "${RDMACTL_USERLAND:-host}" != host ]; then
	echo "rdmactl: the input userland is '${RDMACTL_USERLAND//[^[:alnum:]]/?}': the action runs the guest on the runner's own root (host) alone for now" >&2
	exit 2
fi
# The guests' summary lines kept apart, a file a guest (their lines may
# come at once), the rest to stderr; then added to the runner's step
# summary, the first guest's before the second's.
sum=$(mktemp -d)
trap 'rm -rf "$sum"' EXIT
summary() {
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
	-- bash "$GITHUB_ACTION_PATH/in-bed.sh" 2> >(summary) || status=$?
# The filter's last lines written before the step ends.
wait
for h in 1 2; do
	[ -s "$sum/$h" ] || continue
	{
		[ "${RDMACTL_HOSTS:-1}" = 1 ] || printf '## Host %s\n\n' "$h"
		cat "$sum/$h"
	} >>"$GITHUB_STEP_SUMMARY"
done
exit "$status"
