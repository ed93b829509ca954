# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by bats/helpers.bash and bats/vm2/peer.

# Waits until something listens on TCP port $1, or an rdma_cm id on port $1
# with "cm" as $2 (as iproute2's `rdma res show cm_id` lists them): 10 s at most.
wait_listen() {
	local port=$1 kind=${2:-tcp}
	for _ in $(seq 100); do
		if [ "$kind" = cm ]; then
			rdma -j res show cm_id 2>/dev/null |
				jq -e --arg p ":$port" 'any(.[]; .state == "LISTEN" and
					(."src-addr" | endswith($p)))' >/dev/null && return 0
		else
			ss -Htln "sport = :$port" | grep -q . && return 0
		fi
		sleep 0.1
	done
	return 1
}
