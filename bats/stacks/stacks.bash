# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by bats/stacks: a link made as a user makes it ('rdmactl up'), and
# every stack's settings from 'rdmactl env', nothing typed by hand.
load ../helpers

# setup_file's part: the link, once per file; its variables exported.
stacks_link() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	echo "# stack: kernel: $(uname -r)" >&3
	rdmactl up "$RXE_VM_NETDEV" >/dev/null || return 1
	eval "$(rdmactl env)" || return 1
	export RDMA_DEVICE RDMA_PORT RDMA_NETDEV RDMA_ADDRESS RDMA_GID_INDEX
}

stacks_setup() {
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	eval "$(rdmactl env)"
}

# Each file's, unless it has its own (which calls stacks_setup first).
setup_file() {
	stacks_link
}

setup() {
	stacks_setup
}

# needs CMD...: skips naming the first command this userland lacks.
needs() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "$c is not in this userland (tools/install-deps stacks)"
	done
}

# The packets rxe sent on the link's port so far: a stack that ran over
# something else (TCP, shared memory) leaves it where it was.
rxe_sent() {
	cat "/sys/class/infiniband/$RDMA_DEVICE/ports/$RDMA_PORT/hw_counters/sent_pkts"
}

# assert_carried BEFORE MIN: rxe sent at least MIN packets since BEFORE.
assert_carried() {
	local now
	now=$(rxe_sent)
	[ $((now - $1)) -ge "$2" ] || fail "rxe sent $((now - $1)) packets, fewer than $2: the stack went around it"
}

# seconds NS0 NS1: "T.T s" between two date +%s%N.
seconds() {
	awk -v t="$(($2 - $1))" 'BEGIN { printf "%.1f s", t / 1e9 }'
}

# rate BYTES NS0 NS1: "N.N MB/s (T.T s)" for BYTES moved between two date +%s%N.
rate() {
	awk -v b="$1" -v t="$(($3 - $2))" 'BEGIN { printf "%.1f MB/s", b / t * 1000 }'
	echo " ($(seconds "$2" "$3"))"
}

# stack_result STACK TEXT: a line of docs/stacks.md (tools/stacks-report).
stack_result() {
	echo "# stack: $1: $2" >&3
}

# The tests docs/stacks.md's limits table names for kernel series $1 (6.1).
foretold() {
	awk -F'|' -v k="$1" '/^## Limits/ { on = 1; next } /^## / { on = 0 }
		on && NF > 3 && $3 ~ ("(^| )" k "( |,|$)") { gsub(/[ `]/, "", $2); print $2 }' \
		"${STACKS_DOC:-$TOP/docs/stacks.md}"
}
