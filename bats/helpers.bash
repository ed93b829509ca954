# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by every bats tier: bats-support and bats-assert from Debian, and the
# rdmactl under test (the build tree's, unless RDMACTL names another).
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RDMACTL=${RDMACTL:-$TOP/rdmactl}
# shellcheck disable=SC2034 # used by the bed tier
RXE_VM_TOOL=$TOP/tools/rxe-vm

rdmactl() {
	"$RDMACTL" "$@"
}

# The command names in `rdmactl help`, one a line.
help_commands() {
	"$RDMACTL" help | sed -n '/^Commands/,/^$/ { s/^  \([a-z][a-z-]*\).*/\1/p }'
}
