#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdma_rxe for a kernel without it (Debian's cloud flavour), as a user would
# type it: up fails naming 'rdmactl module install'; install builds it from the
# kernel's own source with DKMS; up, a stock ibv_rc_pingpong and rping pass;
# each failure the issue lists is reproduced and explained; remove leaves the
# module tree as it was. The tests are steps of one story around one build
# (about 5 minutes under TCG): each needs the ones before it.
#
# The kernel tier runs this on the cloud kernels and passes, from the host:
#   RXE_TEST_OTHER_SOURCE  a linux-source tarball of another version
#   RXE_TEST_OTHER_RXE     rdma_rxe.ko of another kernel (the generic flavour)
#   RXE_TEST_BUILD_DEBS    headers and source .debs to install first, for a
#                          kernel whose packages the host cannot have
# bats file_tags=no-rxe

setup_file() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	KVER=$(uname -r)
	KRE=${KVER//+/\\+}	# for regular expressions: 6.12's releases have a '+'
	export KVER KRE
	if [ -n "${RXE_TEST_BUILD_DEBS:-}" ] && [ ! -e "/lib/modules/$KVER/build" ]; then
		# The files 'apt-get install linux-headers-KVER linux-source-X.Y' gives,
		# unpacked: dpkg -i would read its whole database, more files than the
		# bed's virtiofsd may hold open here (docs/kernels.md).
		# Unpacked aside and merged into /usr: unpacked onto / itself, tar would
		# replace merged-/usr's /lib link with a directory.
		for deb in "$RXE_TEST_BUILD_DEBS"/*.deb; do
			dpkg-deb -x "$deb" "$BATS_FILE_TMPDIR/debs" || return 1
		done
		cp -a "$BATS_FILE_TMPDIR/debs/usr/." /usr/ || return 1
		rm -rf "$BATS_FILE_TMPDIR/debs"
		[ -e "/lib/modules/$KVER/build" ] ||
			ln -s "/usr/src/linux-headers-$KVER" "/lib/modules/$KVER/build"
		ln -s "$RXE_TEST_BUILD_DEBS"/usr/src/linux-source-*.tar.xz /usr/src/
	fi
	tree_of >"$BATS_FILE_TMPDIR/tree.before"
}

setup() {
	load ../helpers
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	N=$RXE_VM_NETDEV
}

# What install may change: the module tree, DKMS's state and its sources.
# Not DKMS's signing key: DKMS makes it at its first build on the machine
# (this one or the host whose root the bed shares) and keeps it, enrolled or not.
tree_of() {
	{
		# Not modules.weakdep: a depmod newer than the bed's (Debian 13's kmod 34)
		# writes it the first time it runs, whatever it indexes.
		find "/lib/modules/$KVER" -path "/lib/modules/$KVER/build" -prune -o \
			-path "/lib/modules/$KVER/modules.weakdep" -prune -o -print
		find /var/lib/dkms /usr/src -maxdepth 1 2>/dev/null
	} | grep -v '^/var/lib/dkms/mok\.' | sort
}

assert_tree_unchanged() {
	run diff "$BATS_FILE_TMPDIR/tree.before" <(tree_of)
	assert_success
}

# A load order check names: exactly rdma_rxe's dependencies, ib_core before
# ib_uverbs, which needs it. Leaves $output alone.
# The dependencies are the built module's own, as modinfo reads them (7.x's
# rdma_rxe no longer needs ib_uverbs).
assert_order_loads_rxe() {
	local sorted want
	sorted=$(tr ' ' '\n' <<<"$1" | sort | paste -sd ' ')
	want=$(modinfo -F depends rdma_rxe | tr ',' '\n' | sort | paste -sd ' ')
	[ -n "$want" ] && [ "$sorted" = "$want" ] || fail "not rdma_rxe's dependencies ($want): $1"
	[[ " $1 " != *" ib_uverbs "* || " $1 " == *" ib_core "*" ib_uverbs "* ]] || fail "ib_uverbs before ib_core: $1"
}

status_json() {
	rdmactl -j module status | jq -rc "$1"
}

@test "module: status before: no rdma_rxe; the headers and a source of the same version are there" {
	if modinfo -F filename rdma_rxe >/dev/null 2>&1; then
		skip "this kernel has rdma_rxe"
	fi
	run status_json '[.kernel, .running, .rdma_rxe.origin, .rdma_rxe.loaded, (.headers != null), (.source != null)]'
	assert_output "[\"$KVER\",true,\"none\",false,true,true]"
	rdmactl -j module status | assert_json_contract --exact 'module status'
	run rdmactl module status
	assert_success
	assert_line --regexp "^kernel $KRE \\(Debian [^)]+\\), running$"
	assert_line 'rdma_rxe none, not loaded'
}

@test "module: up fails at start naming 'rdmactl module install'" {
	run rdmactl up "$N"
	assert_failure 1
	assert_output --partial "'rdmactl module install' builds it from the kernel's source"
	assert_line --partial 'stopped at start'
	run rdma_links
	assert_output ''
}

@test "module: no headers: install names the package, exit 1, nothing changed" {
	mv "/lib/modules/$KVER/build" "$BATS_FILE_TMPDIR/build"
	run --separate-stderr rdmactl module install
	mv "$BATS_FILE_TMPDIR/build" "/lib/modules/$KVER/build"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: building rdma_rxe for kernel $KVER needs its headers: apt-get install linux-headers-$KVER (or add --install-deps) (ENOENT: No such file or directory)"
	assert_tree_unchanged
}

@test "module: no dkms: install names it, exit 1, nothing changed" {
	# /dev/null has no execute bit: dkms is there but cannot run, as if not installed.
	mount --bind /dev/null /usr/sbin/dkms
	run --separate-stderr rdmactl module install
	umount /usr/sbin/dkms
	assert_failure 1
	[[ $stderr == *"needs dkms: apt-get install dkms (or add --install-deps)"* ]] || fail "$stderr"
	assert_tree_unchanged
}

@test "module: a source of another version is refused naming both versions, exit 1" {
	[ -r "${RXE_TEST_OTHER_SOURCE:-}" ] || skip "no other version's source (RXE_TEST_OTHER_SOURCE)"
	run --separate-stderr rdmactl module install --source "$RXE_TEST_OTHER_SOURCE"
	assert_failure 1
	upstream=$(status_json .upstream_version)
	[[ $stderr =~ ^"rdmactl: the source is version "[0-9.]+" but kernel $KVER is $upstream: build from the kernel's own version (--force builds anyway, unsupported)" ]] ||
		fail "$stderr"
	assert_tree_unchanged
}

@test "module: install builds rdma_rxe with DKMS, loads it and proves it with a link on lo" {
	start=$SECONDS
	run --separate-stderr rdmactl module install
	# The time from nothing to a loaded, proven module, into the TAP (docs/kernels.md).
	echo "# module install on $KVER: $((SECONDS - start)) s, $(grep -o 'with DKMS in [0-9.]* s' <<<"$output")" >&3
	[ "$status" -eq 0 ] || fail "exit $status; stdout: $output; stderr: $stderr"
	assert_line --regexp "^rdma_rxe [0-9][^ ]* built for $KRE and installed with DKMS in [0-9.]+ s$"
	assert_line 'rdma_rxe loaded; a link on lo was made and deleted'
	run rdma_links
	assert_output ''
	run dkms status rdma_rxe
	assert_line --regexp "^rdma_rxe/[^,]+, $KRE, x86_64: installed"
	run status_json '[.rdma_rxe.origin, .rdma_rxe.loaded, (.rdma_rxe.path | startswith("/lib/modules/'"$KVER"'/updates/dkms/")), (.rdma_rxe.dkms_version != null)]'
	assert_output '["dkms",true,true,true]'
	# The rxe tree as install staged it, for the damaged build (the last test).
	cp -a /usr/src/rdma_rxe-*/ "$BATS_FILE_TMPDIR/staged"
}

@test "module: install again changes nothing, exit 0" {
	run -0 rdmactl -j module install
	assert_json_contract 'module install' <<<"$output"
	run jq -c '[.result, .detail]' <<<"$output"
	assert_output '["unchanged","rdma_rxe is installed already, by DKMS"]'
}

@test "module: ci-setup on the cloud kernel: the DKMS build found, a proven link, the variables in GitHub's and GitLab's files" {
	local d=$BATS_TEST_TMPDIR/runner gid
	# The runner's files as it makes them before a step: empty, or holding an earlier step's lines.
	mkdir "$d"
	echo EARLIER=1 >"$d/env"
	: >"$d/out"
	: >"$d/sum"
	GITHUB_ACTIONS=true GITHUB_ENV=$d/env GITHUB_OUTPUT=$d/out GITHUB_STEP_SUMMARY=$d/sum \
		run -0 --separate-stderr rdmactl ci-setup "$N"
	assert_line --regexp "^driver +ok +rdma_rxe is installed already, by DKMS \(kernel $KRE\)$"
	assert_line --regexp "^link +ok +rxe0 on $N: started, added, checked and its loopback selftest passed$"
	assert_line --regexp "^env +ok +the stacks' variables in \\\$GITHUB_ENV"
	assert_line --regexp "^ready: rxe0 on $N, [0-9.]+, GID index [0-9]+$"
	# The next step's environment: env's own variables, after the earlier step's.
	assert_equal "$(cat "$d/env")" "EARLIER=1"$'\n'"$(rdmactl env --format github rxe0)"
	gid=$(rdmactl -j env rxe0 | jq -r '"\(.gid_index) \(.address)"')
	assert_equal "$(cat "$d/out")" "device=rxe0"$'\n'"netdev=$N"$'\n'"gid_index=${gid% *}"$'\n'"address=${gid#* }"
	grep -qx "### RDMA ready: rxe0 on $N, ${gid#* }, GID index ${gid% *}" "$d/sum" || fail "summary: $(cat "$d/sum")"
	grep -q '^| driver | ok | rdma_rxe is installed already, by DKMS' "$d/sum" || fail "summary: $(cat "$d/sum")"
	# JUnit for the job's test report: a passing case a step; up's steps and the text on stderr.
	run -0 --separate-stderr rdmactl ci-setup --format junit "$N"
	printf '%s\n' "$output" >"$d/j.xml"
	[[ $stderr == *"== rdmactl selftest"*"ready: rxe0 on $N, "* ]] || fail "$stderr"
	run -0 junit_read "$d/j.xml"
	assert_equal "$(printf '%s\n' "${lines[@]}")" "3 0 0
rdmactl.ci-setup|driver|pass
rdmactl.ci-setup|link|pass
rdmactl.ci-setup|env|pass"
	# GitLab: a dotenv file of the same variables, for artifacts:reports:dotenv.
	cd "$d"
	GITLAB_CI=true run -0 --separate-stderr rdmactl -j ci-setup "$N"
	assert_json_contract ci-setup <<<"$output"
	assert_equal "$(jq -c '[.ready, .ci, [.steps[].ok], .wrote]' <<<"$output")" '[true,"gitlab",[true,true,true],["rdmactl.env"]]'
	assert_equal "$(cat rdmactl.env)" "$(rdmactl env --format github rxe0)"
}

@test "module: the GitHub action and the GitLab job on the cloud kernel, as their runners run them: a proven link, the command given its variables" {
	local w=$BATS_TEST_TMPDIR/work d=$BATS_TEST_TMPDIR/runner cmd gid
	mkdir "$w" && cd "$w"
	# The command a workflow gives: the stock pingpong between two processes, as RDMA_EXAMPLE_ARGS says.
	cmd='ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18641 -n 50 >/dev/null & sleep 1
		ibv_rc_pingpong $RDMA_EXAMPLE_ARGS -p 18641 -n 50 localhost | grep " iters in "
		wait; echo "device $RDMA_DEVICE gid $RDMA_GID_INDEX"'
	run -0 "$TOP/tools/ci-steps" github "$TOP/ci/github" "$d" netdev="$N" command="$cmd"
	gid=$(rdmactl -j env rxe0 | jq -r '"\(.gid_index) \(.address)"')
	assert_line --regexp '^rdmactl: rdmactl [0-9.]+ installed in '
	assert_line --regexp "^driver +ok +rdma_rxe is installed already, by DKMS \(kernel $KRE\)$"
	assert_line --regexp '^50 iters in [0-9.]+ seconds = [0-9.]+ usec/iter$'
	assert_line "device rxe0 gid ${gid% *}"
	assert_equal "$(cat "$d/outputs")" "device=rxe0"$'\n'"netdev=$N"$'\n'"gid_index=${gid% *}"$'\n'"address=${gid#* }"
	grep -qx "### RDMA ready: rxe0 on $N, ${gid#* }, GID index ${gid% *}" "$d/summary.md" ||
		fail "summary: $(cat "$d/summary.md")"
	# Nothing outside the runner's temporary directory: rdmactl's files are there.
	[ -x "$d/temp/rdmactl/sbin/rdmactl" ] || fail "no rdmactl in \$RUNNER_TEMP"
	# GitLab: the template included from the project, rdmactl's source a directory.
	mkdir -p ci/gitlab
	cp "$TOP/ci/gitlab/rdmactl.yml" ci/gitlab/
	printf '%s\n' 'include:' '  - local: /ci/gitlab/rdmactl.yml' 'rdma:' '  extends: .rdmactl' \
		'  script:' '    - echo "device $RDMA_DEVICE gid $RDMA_GID_INDEX"' >.gitlab-ci.yml
	run -0 "$TOP/tools/ci-steps" gitlab .gitlab-ci.yml rdma "$d/gitlab" RDMACTL_SOURCE="$TOP" RDMACTL_NETDEV="$N"
	assert_line --regexp "^ready: rxe0 on $N, [0-9.]+, GID index [0-9]+$"
	assert_line "device rxe0 gid ${gid% *}"
	assert_equal "$(cat "$d/gitlab/dotenv")" "$(rdmactl env --format github rxe0)"
	run -0 junit_read "$d/gitlab/junit.xml"
	assert_equal "${lines[0]}" "3 0 0"
}

@test "module: up passes on the cloud kernel; stock ibv_rc_pingpong and rping run over it" {
	run rdmactl up "$N"
	assert_success
	assert_line "up: $N: rxe0 is up and proven: modules loaded, link ACTIVE, every check passed, selftest passed"
	stock_rc_pingpong 18815 200
	timeout 60 rping -s -a "$RXE_VM_ADDR" -p 7190 -C 5 -v >"$BATS_TEST_TMPDIR/rping" 2>&1 &
	server=$!
	wait_listen 7190 cm
	run timeout 60 rping -c -a "$RXE_VM_ADDR" -p 7190 -C 5 -v
	assert_success
	assert_line --partial 'ping data: rdma-ping-4:'
	wait "$server" || fail "rping server: $(cat "$BATS_TEST_TMPDIR/rping")"
}

@test "module: check passes modules with the taint explained" {
	run rdmactl check --only modules
	assert_success
	assert_line --regexp '^WARN  modules +the loaded rdma_rxe taints the kernel OE: it is built out of the kernel.s tree .*; it is not signed by a key the kernel trusts'
	refute_line --regexp '^FAIL'
}

@test "module: remove while ibv_rc_pingpong holds rxe0 names it and removes nothing" {
	ibv_rc_pingpong -d rxe0 -g 1 -p 18816 >/dev/null 2>&1 &
	bg=$!
	wait_listen 18816
	run --separate-stderr rdmactl module remove
	kill "$bg"
	wait "$bg" || true
	assert_failure 1
	[[ $stderr == *"rxe0 is in use by ibv_rc_pingpong (pid $bg)"* ]] || fail "$stderr"
	run status_json '[.rdma_rxe.origin, .rdma_rxe.loaded]'
	assert_output '["dkms",true]'
	run rdma_links
	assert_output "rxe0 $N ACTIVE"
}

@test "module: insmod before the dependencies; check names them in load order; history once loaded" {
	rdmactl stop >/dev/null
	ko=$(status_json .rdma_rxe.path)
	cp "$ko" "$BATS_FILE_TMPDIR/rdma_rxe.ko"
	# 7.x adds ib_uverbs_support, which holds ib_core too.
	# shellcheck disable=SC2046 # a name or none
	modprobe -r rdma_ucm rdma_cm iw_cm ib_cm ib_uverbs $(lsmod | awk '$1 == "ib_uverbs_support" { print $1 }') \
		ib_core ip6_udp_tunnel udp_tunnel
	[ ! -d /sys/module/udp_tunnel ] || fail "udp_tunnel is still loaded"
	run insmod "$BATS_FILE_TMPDIR/rdma_rxe.ko"
	assert_failure
	assert_output --partial 'Unknown symbol in module'
	run dmesg
	assert_output --regexp 'rdma_rxe: Unknown symbol [a-z_0-9]+ \(err -2\)'
	run rdmactl check --only modules
	assert_failure 1
	assert_line --regexp '^FAIL  modules +the kernel log says "rdma_rxe: Unknown symbol [a-z_0-9]+ \(err -2\)" \(and [0-9]+ more like it\): rdma_rxe was loaded \(insmod\) before the modules it needs; load them first, in this order: [a-z_0-9 ]+$'
	order=$(sed -n 's/^FAIL  modules .* in this order: //p' <<<"$output")
	assert_order_loads_rxe "$order"
	assert_line "      fix: modprobe rdma_rxe (it loads them in order); or modprobe -a $order before insmod"
	# shellcheck disable=SC2086 # the names, one word each
	modprobe -a $order
	run insmod "$BATS_FILE_TMPDIR/rdma_rxe.ko"
	assert_success
	run rdmactl check --only modules
	refute_line --partial 'Unknown symbol'
	refute_line --regexp '^FAIL'
	rmmod rdma_rxe
}

@test "module: the generic kernel's rdma_rxe on the cloud kernel: Invalid module format, check says why" {
	[ -r "${RXE_TEST_OTHER_RXE:-}" ] || skip "no other kernel's rdma_rxe.ko (RXE_TEST_OTHER_RXE)"
	other=$(modinfo -F vermagic "$RXE_TEST_OTHER_RXE")
	run insmod "$RXE_TEST_OTHER_RXE"
	assert_failure
	assert_output --partial 'Invalid module format'
	run rdmactl check --only modules
	assert_failure 1
	# With modversions the loader may find module_layout's version first (6.12).
	if grep -q 'rdma_rxe: disagrees about version of symbol module_layout' <(dmesg); then
		want="the kernel log says \"rdma_rxe: disagrees about version of symbol module_layout\": rdma_rxe was built for another kernel than $KVER (module_layout, which every module uses, differs), so it cannot load (insmod says \"Invalid module format\")"
	else
		want="the kernel log says \"rdma_rxe: version magic '$other' should be '$(modinfo -F vermagic "$(status_json .rdma_rxe.path)")'\": rdma_rxe was built for kernel ${other%% *}, this is $KVER, so it cannot load (insmod says \"Invalid module format\")"
	fi
	# The id column is as wide as the widest id shown.
	assert_equal "$(sed -n -E 's/^FAIL  modules +//p' <<<"$output")" "$want"
	assert_line '      fix: rdmactl module install (builds rdma_rxe for this kernel)'
	# The earlier insmod's lines are history now that its dependencies are loaded.
	refute_line --partial 'Unknown symbol'
}

@test "module: signatures enforced: install loads nothing, keeps the DKMS entry and says how to enroll the key" {
	# The switch module.sig_enforce=1 sets at boot; it can only be turned on, so this comes last.
	echo 1 >/sys/module/module/parameters/sig_enforce
	run --separate-stderr rdmactl module install
	assert_failure 1
	[[ $stderr == *"the kernel refused module rdma_rxe: it demands signed modules"*"mokutil --import /var/lib/dkms/mok.pub"* ]] ||
		fail "$stderr"
	[[ $stderr == *"rdma_rxe stays installed (DKMS), not loaded"* ]] || fail "$stderr"
	[[ $stderr == *"(EKEYREJECTED: Key was rejected by service)"* ]] || fail "$stderr"
	run status_json '[.rdma_rxe.origin, .rdma_rxe.loaded, .sig_enforce]'
	assert_output '["dkms",false,true]'
	run rdmactl check --only modules
	assert_failure 1
	assert_line --regexp '^FAIL  modules +the kernel log says "Loading of (unsigned module|module with unavailable key) is rejected": this kernel demands signed modules'
}

@test "module: remove looks at the result: DKMS failing (no /dev/fd) is said, and nothing is claimed removed" {
	[ -L /dev/fd ] || skip "/dev/fd is no symlink here: cannot take it away and put it back"
	# Measured: DKMS 3.0.10 (Debian 12) fails without /dev/fd, 3.2.2 (Debian 13) does not.
	dpkg --compare-versions "$(dkms --version | sed 's/^dkms-//')" lt 3.2 ||
		skip "$(dkms --version) works without /dev/fd: DKMS cannot be made to fail this way here"
	fd=$(readlink /dev/fd)
	rm /dev/fd
	run --separate-stderr rdmactl module remove
	ln -s "$fd" /dev/fd
	assert_failure 1
	[[ $stderr == *"DKMS did not remove rdma_rxe/"* ]] || fail "$stderr"
	[[ $output != *removed* ]] || fail "it claimed: $output"
	# What was there still is: the module file and DKMS's entry.
	run status_json '.rdma_rxe.origin'
	assert_output 'dkms'
	[ -n "$(dkms status rdma_rxe)" ] || fail "DKMS's entry went after all"
}

@test "module: remove takes away exactly what install added" {
	run rdmactl module remove
	assert_success
	assert_line --regexp '^rdma_rxe [^ ]+ removed from DKMS and /usr/src$'
	# But DKMS's signing key, made at its first build: it may be enrolled by now.
	[ -f /var/lib/dkms/mok.pub ] || fail "DKMS's signing key is gone"
	run diff "$BATS_FILE_TMPDIR/tree.before" <(tree_of)
	assert_success
	run status_json '.rdma_rxe.origin'
	assert_output 'none'
	run dkms status rdma_rxe
	assert_output ''
}

@test "module: a damaged source file: the compiler's first error and its file, exit 1, nothing left" {
	# The rxe tree install staged, kept by the install test: taking it from
	# the tarball again decompresses half of it, 50 s under TCG. The top
	# Makefile, which gives the version, is the tarball's, near its start.
	[ -d "$BATS_FILE_TMPDIR/staged" ] || fail "install kept no staged tree to damage"
	src=$(status_json .source)
	top=$(tar -tf "$src" | head -n 1)
	top=${top%%/*}
	mkdir "$BATS_FILE_TMPDIR/damaged"
	tar -xf "$src" -C "$BATS_FILE_TMPDIR/damaged" --occurrence "$top/Makefile"
	tree=$BATS_FILE_TMPDIR/damaged/$top
	mkdir -p "$tree/drivers/infiniband/sw"
	cp -a "$BATS_FILE_TMPDIR/staged" "$tree/drivers/infiniband/sw/rxe"
	rm -f "$tree/drivers/infiniband/sw/rxe/dkms.conf"
	sed -i '0,/^#include/s//this is not C;\n#include/' "$tree/drivers/infiniband/sw/rxe/rxe.c"
	run --separate-stderr rdmactl module install --source "$tree"
	assert_failure 1
	[[ $stderr == *"rxe.c:"*"error:"* ]] || fail "no compiler error naming rxe.c: $stderr"
	[[ $stderr =~ "(DKMS's whole make.log: "(/tmp/rdmactl-rdma_rxe-make-[A-Za-z0-9]+\.log)")" ]] ||
		fail "no kept make.log: $stderr"
	grep -q 'this is not C' "${BASH_REMATCH[1]}"
	assert_tree_unchanged
}
