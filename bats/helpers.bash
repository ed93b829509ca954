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

# --- VM tier helpers (real kernel, iproute2's `rdma` as the oracle) ---

# "name netdev state" of every RDMA link, as iproute2 sees them.
rdma_links() {
	rdma -j link show | jq -r '.[] | "\(.ifname) \(.netdev // "-") \(.state)"'
}

# Deletes every RDMA link iproute2 lists: each test starts from none.
rdma_links_clear() {
	local d
	for d in $(rdma -j link show | jq -r '.[].ifname'); do
		rdma link delete "$d" 2>/dev/null || true
	done
}

# Runs the rest of the line as an unprivileged user.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@"
}
