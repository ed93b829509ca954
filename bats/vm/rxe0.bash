# SPDX-License-Identifier: GPL-2.0-or-later
# Loaded by the bats/vm files whose every test starts from rxe0 on the bed's
# netdev alone: the modules loaded once per file, rxe0 made before each test,
# the bed restored after it.
load ../helpers

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	rdmactl start >/dev/null
}

setup() {
	vm_rxe0_setup
}

teardown() {
	vm_restore
}
