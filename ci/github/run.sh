#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command: on the runner, where the step before made RDMA ready, by
# bash as the job's user; with a kernel, in the bed's guests (ci/bed/run.sh:
# each guest makes its own link, the command runs under 'rdmactl record',
# the guests' step summaries are added to the runner's).
set -euo pipefail
if [ -n "${RDMACTL_KERNEL:-}" ]; then
	exec "$GITHUB_ACTION_PATH/../bed/run.sh"
fi
exec bash --noprofile --norc -eo pipefail -c "${RDMACTL_COMMAND:-}"
