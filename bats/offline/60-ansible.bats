#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Ansible collection rdmactl.rxe (tools/ansible) without RDMA: lint, its
# documentation, its install from the checkout, and its modules run here by
# Debian's ansible-core against a captured fixture (RDMACTL_SYSFS_ROOT),
# where rdmactl reads and refuses to change anything. The modules' Python is
# the same under the sanitizers' build: the offline-asan tier leaves it out.
# bats file_tags=ansible

setup_file() {
	command -v ansible-playbook >/dev/null || return 0
	ansible-galaxy collection install -p "$BATS_FILE_TMPDIR/collections" \
		"$BATS_TEST_DIRNAME/../../tools/ansible" >"$BATS_FILE_TMPDIR/galaxy.log" 2>&1
}

setup() {
	load ../helpers
	command -v ansible-playbook >/dev/null || skip "no ansible-core (tools/install-deps test)"
	export ANSIBLE_COLLECTIONS_PATH=$BATS_FILE_TMPDIR/collections ANSIBLE_NOCOLOR=1
	export ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
	# The modules find rdmactl on PATH: the build's, reading a fixture with
	# two rxe links (rxe0 on veth0, rxe1 on veth1), and a links file of the test's.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -s "$RDMACTL" "$BATS_TEST_TMPDIR/bin/rdmactl"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
	export RDMACTL_SYSFS_ROOT=$TOP/bats/fixtures/two-netdevs
	export RDMACTL_CONFIG=$BATS_TEST_TMPDIR/rxe.conf
}

# mod MODULE ARGS [ansible OPTIONS]: the module on this host, its result as
# JSON in a file (ansible-core's own tree callback; the json one is another
# collection's, which ansible-core does not ship). -vvv: the result keeps
# its diff, as a playbook's --diff shows it.
mod() {
	local m=$1 a=$2
	shift 2
	rm -rf "$BATS_TEST_TMPDIR/tree"
	ansible localhost -c local -m "rdmactl.rxe.$m" -a "$a" --tree "$BATS_TEST_TMPDIR/tree" -vvv "$@"
}

# The result of mod's one task.
result() { jq -c . "$BATS_TEST_TMPDIR/tree/localhost"; }

@test "ansible: the collection installs from the checkout with ansible-galaxy, its version its own" {
	run -0 cat "$BATS_FILE_TMPDIR/galaxy.log"
	assert_output --partial 'rdmactl.rxe:1.0.0 was installed successfully'
	for f in plugins/modules/link.py plugins/modules/netns_mode.py plugins/modules/facts.py \
		plugins/module_utils/rdmactl.py roles/node/tasks/main.yml roles/node/tasks/report.yml \
		playbooks/site.yml playbooks/absent.yml playbooks/report.yml; do
		[ -f "$BATS_FILE_TMPDIR/collections/ansible_collections/rdmactl/rxe/$f" ] || fail "$f not installed"
	done
}

@test "ansible: ansible-lint passes the collection on its production profile" {
	command -v ansible-lint >/dev/null || skip "no ansible-lint (tools/install-deps lint)"
	cd "$TOP/tools/ansible"
	run ansible-lint -p --nocolor
	assert_success
	assert_output --partial 'Passed with production profile: 0 failure(s), 0 warning(s)'
}

@test "ansible: each module's documentation renders, with its options and examples" {
	for m in link:persist netns_mode:reboot_required facts:fail_on_check; do
		run -0 ansible-doc -t module "rdmactl.rxe.${m%%:*}"
		assert_output --partial "${m#*:}"
		assert_output --partial 'EXAMPLES:'
	done
	run -0 ansible-doc -t role rdmactl.rxe.node
	assert_output --partial 'node_prove_pairs'
}

@test "ansible: link in check mode says what it would run and shows the links before and after" {
	run -0 mod link 'name=rxe2 netdev=veth2' --check --diff
	run -0 result
	assert_equal "$(jq -cS '[.changed, (.commands | map(.[1:])), .link]' <<<"$output")" \
		'[true,[["-j","add","--persist","rxe2","veth2"]],{"ifname":"rxe2","netdev":"veth2","persisted":true,"running":true}]'
	assert_equal "$(jq -r '.commands[0][0]' <<<"$output")" "$BATS_TEST_TMPDIR/bin/rdmactl"
	assert_equal "$(jq -r '.diff[0].after' <<<"$output")" "$(printf 'rxe0 veth0\nrxe1 veth1\nrxe2 veth2')"
	assert_equal "$(jq -r '.diff[1].before_header, .diff[1].before, .diff[1].after' <<<"$output")" \
		"$(printf '/etc/rdmactl/rxe.conf\n\nrxe2 veth2')"
	[ ! -e "$RDMACTL_CONFIG" ] || fail "check mode wrote the links file"
}

@test "ansible: link has nothing to do for a link that runs and is recorded, and refuses a second on a netdev" {
	run -0 rdmactl persist add rxe0 veth0
	run -0 mod link 'name=rxe0 netdev=veth0'
	run -0 result
	assert_equal "$(jq -c '[.changed, .commands]' <<<"$output")" '[false,[]]'
	run -0 mod link 'name=rxe0 netdev=veth0 persist=false state=absent' --check
	run -0 result
	assert_equal "$(jq -c '[.changed, (.commands | map(.[1:]))]' <<<"$output")" '[true,[["-j","del","rxe0"]]]'
	run mod link 'name=rxe5 netdev=veth1' --check
	assert_failure
	run -0 result
	assert_equal "$(jq -r .msg <<<"$output")" \
		'veth1: the rxe link rxe1 runs on it, and a netdev carries one rxe link: remove rxe1 first (state: absent), or name it here'
}

@test "ansible: a change the fixture cannot take fails with rdmactl's own words, and the file is left" {
	run mod link 'name=rxe2 netdev=veth2'
	assert_failure
	run -0 result
	assert_equal "$(jq -r .msg <<<"$output")" \
		"add works on the running system only, not on the fixture $RDMACTL_SYSFS_ROOT (--sysfs-root or RDMACTL_SYSFS_ROOT); leave that out"
	assert_equal "$(jq -r '.rc, .cmd[2]' <<<"$output")" "$(printf '2\nadd')"
	[ ! -e "$RDMACTL_CONFIG" ] || fail "the links file was written"
	run mod link 'name=rxe2' --check
	assert_failure
	run -0 result
	assert_equal "$(jq -r .msg <<<"$output")" 'state is present but all of the following are missing: netdev'
}

@test "ansible: facts gives the fixture's devices, links, records and GIDs as rdmactl's JSON does" {
	run -0 mod facts 'check=false'
	run -0 result
	f=$(jq -c .ansible_facts.rdmactl <<<"$output")
	assert_equal "$(jq -r '.version' <<<"$f")" "$(rdmactl -j version | jq -r .version)"
	assert_equal "$(jq -cS '.links' <<<"$f")" "$(rdmactl -j link show | jq -cS .)"
	assert_equal "$(jq -cS '.gids' <<<"$f")" "$(rdmactl -j gids | jq -cS .)"
	assert_equal "$(jq -cS '.devices' <<<"$f")" "$(rdmactl -j show | jq -cS .)"
	assert_equal "$(jq -c '[.persisted, .check]' <<<"$f")" '[[],null]'
}

@test "ansible: the role in check mode takes an INI inventory's \"false\" as false and proves nothing" {
	# Group variables of an INI inventory are strings, as -e's are.
	cat >"$BATS_TEST_TMPDIR/inventory" <<-EOF
	[rxe]
	localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3

	[rxe:vars]
	rxe_links=[{"name": "rxe0", "netdev": "veth0"}]
	node_install=none
	node_build_module=false
	node_enable_units=false
	node_fail_on_check=false
	node_prove_pairs=true
	EOF
	run -0 ansible-playbook --check -i "$BATS_TEST_TMPDIR/inventory" rdmactl.rxe.site
	# The task's name, then its one line for localhost.
	task() { grep -A1 -F "TASK [rdmactl.rxe.node : $1]" <<<"$output" | tail -n 1; }
	assert_equal "$(task 'Read where rdma_rxe comes from')" 'skipping: [localhost]'
	assert_equal "$(task 'Enable rdmactl.service for boot')" 'skipping: [localhost]'
	# Running, not yet recorded: check mode says it would record it.
	assert_equal "$(task 'Make the links')" 'changed: [localhost] => (item=rxe0 on veth0)'
	assert_equal "$(task 'Prove every pair of hosts')" 'skipping: [localhost]'
	refute_output --partial 'Serve the selftest'
	[ ! -e "$RDMACTL_CONFIG" ] || fail "check mode wrote the links file"
}
