#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Ansible collection rdmactl.rxe as a fleet runs it: Debian's
# ansible-core on host 1 drives both guests over SSH with the collection's
# own playbooks, installed from the checkout with ansible-galaxy, and the
# package of this tree (bats/vm2/prepare: RDMACTL_TEST_DEB). Host 2 (its
# peer script) starts with no rxe link and serves SSH; so does host 1.
# Run by tools/run-tests fleet, which sets RDMACTL_TEST_FLEET=1 for
# bats/vm2/run: under the emulator a run of the play takes minutes.
# bats file_tags=fleet

setup_file() {
	[ "${RXE_VM_HOST:-}" = 1 ] || return 0
	load ../helpers
	load ../sshd
	P=$RXE_VM_PEER
	"$TOP/rdmactl" del --all >/dev/null 2>&1 || true
	command -v ansible-playbook >/dev/null ||
		{ echo "no ansible-playbook in this guest's root: apt-get install ansible-core" >&2; return 1; }
	ssh-keygen -q -t ed25519 -N '' -f "$BATS_FILE_TMPDIR/id" || return 1
	start_sshd "$BATS_FILE_TMPDIR/id.pub" || return 1
	# Host 2 listens for the key from its start (bats/vm2/peer).
	local sent= i
	for i in $(seq 600); do
		if cat "$BATS_FILE_TMPDIR/id.pub" 2>/dev/null >"/dev/tcp/$P/18602"; then
			sent=1
			break
		fi
		# Host 2's guest powers off when its script ends (it could not make
		# its link, say): then nothing will take the key.
		if [ $((i % 25)) = 0 ] && ! busybox ping -c 1 -W 2 "$P" >/dev/null 2>&1; then
			echo "host 2 ($P) is gone: its script ended before it took the SSH key (its lines follow this run's)" >&2
			return 1
		fi
		sleep 0.2
	done
	[ -n "$sent" ] || { echo "host 2 never took the SSH key on TCP port 18602" >&2; return 1; }
	ssh_client_config "$BATS_FILE_TMPDIR/ssh_config" "$BATS_FILE_TMPDIR/id"
	# Its sshd starts once the key came.
	local end=$((SECONDS + 300))
	until ssh -F "$BATS_FILE_TMPDIR/ssh_config" "$P" true 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || { echo "no SSH to host 2 ($P) within 300 s of its key" >&2; return 1; }
		sleep 0.5
	done
	ansible-galaxy collection install -p "$BATS_FILE_TMPDIR/collections" "$TOP/tools/ansible" \
		>"$BATS_FILE_TMPDIR/galaxy.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/galaxy.log" >&2; return 1; }
	# The inventory a user writes: the group rxe, each host's links, root,
	# the package of this tree.
	cat >"$BATS_FILE_TMPDIR/inventory" <<-EOF
	[rxe]
	host1 ansible_host=$RXE_VM_ADDR rxe_links='[{"name": "rxe0", "netdev": "eth0"}]'
	host2 ansible_host=$RXE_VM_PEER rxe_links='[{"name": "rxe0", "netdev": "eth0"}]'

	[rxe:vars]
	ansible_user=root
	ansible_python_interpreter=/usr/bin/python3
	ansible_ssh_common_args='-F $BATS_FILE_TMPDIR/ssh_config'
	node_install=deb
	node_deb=$RDMACTL_TEST_DEB
	node_prove_pairs=true
	EOF
}

teardown_file() {
	[ "${RXE_VM_HOST:-}" = 1 ] || return 0
	: 2>/dev/null >"/dev/tcp/$RXE_VM_PEER/18603" || true
}

setup() {
	load ../helpers
	[ "${RXE_VM_HOST:-}" = 1 ] || skip "not host 1 of 'tools/rxe-vm run --hosts 2'"
	[ -n "${RDMACTL_TEST_DEB:-}" ] || fail "no package of this tree: bats/vm2/prepare did not build one"
	P=$RXE_VM_PEER
	export ANSIBLE_COLLECTIONS_PATH=$BATS_FILE_TMPDIR/collections ANSIBLE_NOCOLOR=1
	export ANSIBLE_PIPELINING=1 ANSIBLE_RETRY_FILES_ENABLED=0
	INV=$BATS_FILE_TMPDIR/inventory
}

on2() { ssh -F "$BATS_FILE_TMPDIR/ssh_config" "$P" "$@"; }

# recap HOST: "ok=N changed=N failed=N" of HOST's PLAY RECAP line.
recap() {
	sed -n "s/^$1 *: \(ok=[0-9]*\) *\(changed=[0-9]*\).* \(failed=[0-9]*\).*/\1 \2 \3/p" <<<"$output"
}

@test "fleet: the first run installs the package, makes rxe0 on both hosts, records it and proves the pair" {
	run ansible-playbook -i "$INV" rdmactl.rxe.site
	assert_success
	[[ $(recap host1) =~ changed=[1-9][0-9]*\ failed=0 ]] || fail "host1: $(recap host1)"
	[[ $(recap host2) =~ changed=[1-9][0-9]*\ failed=0 ]] || fail "host2: $(recap host2)"
	assert_output --partial '"host1 -> host2: passed"'
	assert_output --partial '"host2 -> host1: passed"'
	for h in local 2; do
		if [ $h = local ]; then x=(); else x=(on2); fi
		run -0 "${x[@]}" rdma -j link show
		assert_equal "$(jq -r '[.[] | "\(.ifname) \(.netdev) \(.state)"] | join(",")' <<<"$output")" \
			"rxe0 eth0 ACTIVE"
		run -0 "${x[@]}" grep -v '^#' /etc/rdmactl/rxe.conf
		assert_output 'rxe0 eth0'
		# No format of dpkg-query's: ssh hands the words to a shell there.
		run -0 "${x[@]}" dpkg-query -s rdmactl
		assert_line 'Status: install ok installed'
		assert_line "Version: $(dpkg-deb -f "$RDMACTL_TEST_DEB" Version)"
	done
}

@test "fleet: a second run of the same play changes nothing" {
	run ansible-playbook -i "$INV" rdmactl.rxe.site
	assert_success
	[[ $(recap host1) == *"changed=0 failed=0" ]] || fail "host1: $(recap host1)"
	[[ $(recap host2) == *"changed=0 failed=0" ]] || fail "host2: $(recap host2)"
	assert_output --partial '"host1 -> host2: passed"'
}

@test "fleet: the report play fetches each host's records of a job and reads them together" {
	local f=$TOP/bats/fixtures/records to=$BATS_TEST_TMPDIR/records
	# The two records perftest's client and server left on two guests of the bed.
	cp "$f/6.1-two-hosts-client.jsonl" /var/tmp/rdmactl-record-job.jsonl
	on2 'cat >/var/tmp/rdmactl-record-job.jsonl' <"$f/6.1-two-hosts-server.jsonl"
	run ansible-playbook -i "$INV" -e "node_records_to=$to" rdmactl.rxe.report
	rm -f /var/tmp/rdmactl-record-job.jsonl
	on2 rm -f /var/tmp/rdmactl-record-job.jsonl
	assert_success
	[[ $(recap host1) == *"changed=1 failed=0" ]] || fail "host1: $(recap host1)"
	[[ $(recap host2) == *"changed=1 failed=0" ]] || fail "host2: $(recap host2)"
	cmp "$to/host2/rdmactl-record-job.jsonl" "$f/6.1-two-hosts-server.jsonl"
	assert_output --regexp "\"$to/host1/rdmactl-record-job.jsonl: ib_write_bw .* was killed by signal 15 \\(its --timeout ran out\\)\","
	assert_output --regexp "\"      peer: QP [0-9]+ of pid [0-9]+ \\(ib_write_bw\\) on rxe-vm2 in $to/host2/rdmactl-record-job.jsonl: its process was killed by signal 9 first, at [0-9T:.-]+Z\","
}

@test "fleet: the absent play removes every link and its record, then has nothing to do" {
	run ansible-playbook -i "$INV" rdmactl.rxe.absent
	assert_success
	[[ $(recap host1) == *"changed=1 failed=0" ]] || fail "host1: $(recap host1)"
	[[ $(recap host2) == *"changed=1 failed=0" ]] || fail "host2: $(recap host2)"
	for h in local 2; do
		if [ $h = local ]; then x=(); else x=(on2); fi
		run -0 "${x[@]}" rdma -j link show
		assert_output '[]'
		run "${x[@]}" grep -v '^#' /etc/rdmactl/rxe.conf
		assert_failure 1
	done
	run ansible-playbook -i "$INV" rdmactl.rxe.absent
	assert_success
	[[ $(recap host2) == *"changed=0 failed=0" ]] || fail "host2: $(recap host2)"
}
