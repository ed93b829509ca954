# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by the tests: a veth pair of the test's own with an address, an
# rxe link on one end, both gone when the test ends.
set -euo pipefail
NETDEV=rdmactl-at0 DEV=rxe-at0 ADDR=10.233.0.1
cleanup() {
	rdmactl del "$DEV" >/dev/null 2>&1 || true
	ip link del "$NETDEV" 2>/dev/null || true
}
trap cleanup EXIT
# The link's start: the modules, the veth, its address.
link_setup() {
	rdmactl start
	ip link add "$NETDEV" type veth peer name rdmactl-at1
	ip addr add "$ADDR/24" dev "$NETDEV"
	ip link set rdmactl-at1 up
	ip link set "$NETDEV" up
	rdmactl add "$DEV" "$NETDEV"
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
