#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In each guest of the bed: the link made ready on the guest's netdev as on
# a runner ('rdmactl ci-setup', its steps on standard error), its variables
# set, then the command.
set -euo pipefail
"$RDMACTL" ci-setup "$RXE_VM_NETDEV" >&2
eval "$("$RDMACTL" env)"
exec bash --noprofile --norc -eo pipefail -c "$RDMACTL_COMMAND"
