# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by every bats tier: bats-support and bats-assert from Debian, and the
# rdmactl under test (the build tree's, unless RDMACTL names another).
bats_require_minimum_version 1.5.0

# Loads Debian's bats library $1 as its load.bash does, without the
# $(dirname ...) it runs for each of its files: a fork and an exec each, 1.2 s
# of every test under TCG for the two libraries (bash sourcing them with their
# load.bash: 1.34 s a time; a bare bash: 0.12 s). A load.bash with any other
# line is left to load itself.
bats_lib_load() {
	local dir=/usr/lib/bats/$1 line files=()
	local re='^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/([A-Za-z0-9_./-]+)"$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			files+=("$dir/${BASH_REMATCH[1]}")
		elif [[ -n $line && $line != '#'* ]]; then
			load "$dir/load"
			return
		fi
	done <"$dir/load.bash"
	for line in "${files[@]}"; do
		# shellcheck disable=SC1090
		source "$line" || return
	done
}
# Loaded without bats' DEBUG trap, which runs for every command a test runs
# to keep its stack trace: under TCG 300 commands took 2.6 s with it and 0.1 s
# without, and loading is no test. Put back at the end of this file.
bats_debug_trap_saved=$(trap -p DEBUG)
trap - DEBUG

# Runs "$@" without that trap: for the helpers that set the bed up and put
# it back around each test, which hold no assertion of their own. A failure
# there still fails the test, with its message; only the line is not traced.
untraced() {
	local rc
	trap - DEBUG
	"$@"
	rc=$?
	eval "$bats_debug_trap_saved"
	return "$rc"
}
bats_lib_load bats-support
bats_lib_load bats-assert

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RDMACTL=${RDMACTL:-$TOP/rdmactl}
# shellcheck disable=SC2034 # used by the bed tier
RXE_VM_TOOL=$TOP/tools/rxe-vm

rdmactl() {
	"$RDMACTL" "$@"
}

# rdmactl built with ASan, UBSan and LeakSanitizer (build/asan, as the
# offline-asan tier runs it): 99 for a memory error, undefined behaviour or a
# leak. Under the emulator, valgrind's memcheck took 160 s for the commands of
# 60-hardening.bats's first test, 63 s for its second and 21 s for a loopback
# selftest; this build 7 s, 3 s and 1.6 s (tools/rxe-vm run --kernel 6.1).
# memcheck still runs the transports' test (55-transports.bats), where one
# run of 20 s also sees the data path's reads of uninitialised memory.
san() {
	ASAN_OPTIONS=exitcode=99:detect_leaks=1 \
		UBSAN_OPTIONS=exitcode=99:halt_on_error=1:print_stacktrace=1 \
		"$TOP/build/asan/rdmactl" "$@"
}

# The sanitizers' build is there: make check's unit-tests make it.
san_ready() {
	[ -x "$TOP/build/asan/rdmactl" ] || skip "no build/asan/rdmactl: run 'make unit-tests' first"
}

# The command names in `rdmactl help`, one a line.
help_commands() {
	"$RDMACTL" help | sed -n '/^Commands/,/^$/ { s/^  \([a-z][a-z-]*\).*/\1/p }' | uniq
}

# shellcheck source=bats/deb.bash
source "${BASH_SOURCE[0]%/*}/deb.bash"

# --- VM tier helpers (real kernel, iproute2's `rdma` as the oracle) ---

# "name netdev state" of every RDMA link, as iproute2 sees them.
rdma_links() {
	rdma -j link show | jq -r '.[] | "\(.ifname) \(.netdev // "-") \(.state)"'
}

# Deletes every RDMA link: each test starts from none. The devices are
# the ones sysfs shows this namespace, as 'rdma link show' lists them (a
# pipe through jq cost 0.6 s under TCG, twice a test).
rdma_links_clear() {
	local d
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] || continue
		rdma link delete "${d##*/}" 2>/dev/null || true
	done
}

# Unloads rdma_rxe alone: 'modprobe -r' would also take the softdeps the
# installed modprobe snippet adds, and fail where another user (rdma-core's
# units, in a guest booted by systemd) holds ib_uverbs.
rdma_rxe_unload() {
	rmmod_loaded rdma_rxe
}

# Unloads each of the modules named that is loaded, in the order given.
rmmod_loaded() {
	local m
	for m in "$@"; do
		! grep -q "^$m " /proc/modules || rmmod "$m" || return
	done
}

# A test's starting point in the bed: no RDMA link but rxe0 on the bed's netdev,
# which is in N. Skips outside the bed.
vm_rxe0_setup() {
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	N=$RXE_VM_NETDEV
	untraced rdma_links_clear
	rdmactl add rxe0 "$N" >/dev/null
}

# A provisioning test's start in the bed: no RDMA link, a persistent-links file
# of its own, the bed's netdev in N. Skips outside the bed.
vm_provision_setup() {
	[ "${RXE_VM:-}" = 1 ] || skip "not inside tools/rxe-vm"
	N=$RXE_VM_NETDEV
	export RDMACTL_CONFIG=$BATS_TEST_TMPDIR/rxe.conf
	untraced rdma_links_clear
}

# Undoes what the check and selftest tests change in the bed. Under TCG each
# command costs: a pkill 0.25 s, nft 0.16 s, ip 0.1 s; so one pkill, and the
# netdev's state read from sysfs, put back only where a test changed it.
vm_restore() {
	[ "${RXE_VM:-}" = 1 ] || return 0
	untraced vm_restore_untraced
}

vm_restore_untraced() {
	local n=$RXE_VM_NETDEV flags mtu v6 v
	# A process with the device open makes 'rdma link delete' wait for it.
	# (A pattern that a bats process's own arguments could hold kills the test run.)
	pkill -f -- '^([^ ]*/)?(ibv_rc_pingpong|ib_write_bw|rping|qpfail)( |$)|rdmactl.* selftest server|^([^ ]*/)?rdmactl (-j )?monitor( |$)' 2>/dev/null &&
		sleep 0.2
	rdma_links_clear
	read -r flags <"/sys/class/net/$n/flags"
	read -r mtu <"/sys/class/net/$n/mtu"
	[ $((flags & 1)) = 1 ] && [ "$mtu" = 1500 ] || ip link set "$n" up mtu 1500 2>/dev/null || true
	[ ! -e /sys/class/net/veth1 ] || ip addr flush dev veth1 2>/dev/null || true
	[ ! -e /sys/class/net/dummy9 ] || ip link del dummy9 2>/dev/null || true
	v6=/proc/sys/net/ipv6/conf/$n/disable_ipv6
	if [ -e "$v6" ] && read -r v <"$v6" && [ "$v" != 0 ]; then echo 0 >"$v6" 2>/dev/null || true; fi
	[ -z "${nft_table-}" ] || nft delete table inet rdmactltest 2>/dev/null || true
}

# Adds the nftables table inet rdmactltest for a test's rules; vm_restore
# deletes it after that test (and, to spare each other test an nft run,
# only after a test that called this).
nft_test_table() {
	nft_table=1
	nft add table inet rdmactltest
}

# Asserts selftest's plain output has every proving stage passed with SIZE bytes
# verified by SEND, WRITE and READ, and the closing line.
assert_stages_passed() {
	local size=$1 st
	for st in send write read; do
		assert_line --regexp "^  $st +pass +[0-9]+ us  $size bytes verified$"
	done
	assert_line --regexp '^  cmp_swap +pass +[0-9]+ us  16 bytes verified$'
	assert_line --regexp '^  fetch_add +pass +[0-9]+ us  8 bytes verified$'
	assert_line 'rxe0: selftest passed'
}

# JUnit XML of $1 (a file) read as a CI system reads it: "tests failures
# skipped" of the suite, then a line a test case, "classname|name|result",
# or a parse error.
junit_read() {
	python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
print(suite.get("tests"), suite.get("failures"), suite.get("skipped"))
for c in suite.iter("testcase"):
    r = "fail" if c.find("failure") is not None else "skip" if c.find("skipped") is not None else "pass"
    print("%s|%s|%s" % (c.get("classname"), c.get("name"), r))
PY
}

# wait_listen PORT [cm]: shared with bats/vm2/peer, which runs outside bats.
# shellcheck source=bats/listen.bash
source "$TOP/bats/listen.bash"
eval "$bats_debug_trap_saved"

# A stock ibv_rc_pingpong server and client on rxe0 over GID 1, PORT, ITERS
# iterations: both must pass.
stock_rc_pingpong() {
	local port=$1 iters=$2 server
	timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -n "$iters" -p "$port" >"$BATS_TEST_TMPDIR/server" 2>&1 &
	server=$!
	wait_listen "$port"
	run timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -n "$iters" -p "$port" "$RXE_VM_ADDR"
	assert_success
	assert_output --partial "$iters iters in"
	wait "$server" || fail "ibv_rc_pingpong server: $(cat "$BATS_TEST_TMPDIR/server")"
}

# Runs the rest of the line as an unprivileged user.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@"
}

# --- table helpers: what ibv_devinfo -v says, in rdmactl's terms ---

# "dev index address type" for every GID ibv_devinfo -v lists (from FILE or stdin).
devinfo_gids() {
	awk '/^hca_id:/ { dev = $2 }
	     /GID\[ *[0-9]+\]:/ {
		idx = $0; sub(/.*GID\[ */, "", idx); sub(/\].*/, "", idx)
		rest = $0; sub(/.*\]:[[:space:]]*/, "", rest)
		split(rest, a, ", ")
		print dev, idx, a[1], a[2]
	     }' "$@"
}

# The same from `rdmactl -j gids` (stdin), mapped GIDs written as ibv_devinfo does.
rdmactl_gids_as_devinfo() {
	jq -r '.[] | "\(.ifname) \(.index) \(if (.address | test("^[0-9.]+$")) then "::ffff:" + .address else .address end) \(.type)"'
}

# "dev port field value" for the port fields ibv_devinfo -v shows.
devinfo_ports() {
	awk '/^hca_id:/ { dev = $2 }
	     /^[[:space:]]+port:/ { port = $2 }
	     port && /^[[:space:]]+(state|phys_state|link_layer|gid_tbl_len|pkey_tbl_len|active_width|max_mtu|active_mtu):/ {
		f = $1; sub(/:$/, "", f); print dev, port, f, $2
	     }
	     port && /^[[:space:]]+active_speed:/ { print dev, port, "speed_mbps", $2 * 1000 }' "$@"
}

# The same fields from `rdmactl -j show` (stdin), in ibv_devinfo's words.
rdmactl_ports_as_devinfo() {
	jq -r '.[] | .ifname as $d | .ports[] |
		"\($d) \(.port) state PORT_\(.state)",
		"\($d) \(.port) phys_state \(.physical_state)",
		"\($d) \(.port) link_layer \(.link_layer)",
		"\($d) \(.port) gid_tbl_len \(.gid_tbl_len)",
		"\($d) \(.port) pkey_tbl_len \(.pkey_tbl_len)",
		"\($d) \(.port) active_width \(.width)",
		"\($d) \(.port) speed_mbps \(.speed_mbps)",
		(if .max_mtu then "\($d) \(.port) max_mtu \(.max_mtu)" else empty end),
		(if .active_mtu then "\($d) \(.port) active_mtu \(.active_mtu)" else empty end)'
}

# A --pingpong server on rxe0 and TCP PORT (ARGS... added) fed by FEED's
# output, which must fail it: its exit status 1 is asserted and its output
# left in $output and $lines for the caller's assertions.
pingpong_server_fed() {
	local port=$1 feed=$2 server rc=0
	shift 2
	rdmactl selftest server rxe0 --pingpong --port "$port" --timeout 5 "$@" \
		>"$BATS_TEST_TMPDIR/fed-$port" 2>&1 &
	server=$!
	wait_listen "$port" || fail "nothing listens on $port"
	"$feed" >"/dev/tcp/127.0.0.1/$port"
	wait "$server" || rc=$?
	assert_equal "$rc" 1
	run cat "$BATS_TEST_TMPDIR/fed-$port"
}

# --- The JSON contract (docs/json.md) ---

# The members of the JSON documents on stdin, one "PATH TYPE" line each: "[]"
# for each array element, TYPE as jq names it (string, number, boolean, null).
json_paths() {
	jq -r 'paths(type != "object" and type != "array") as $p
		| ($p | map(if type == "number" then "[]" else . end) | join("."))
		+ " " + (getpath($p) | type)' |
		sed 's/\.\[\]/[]/g' | sort -u
}

# The "PATH TYPES" lines docs/json.md lists for CMD (its "json-paths CMD"
# block); TYPES is one type or several joined by "|".
doc_paths() {
	awk -v c="$1" '$0 == "```json-paths " c { on = 1; next } on && /^```/ { on = 0 } on' \
		"$TOP/docs/json.md" | sort -u
}

# Fails unless every member of the JSON on stdin is one docs/json.md lists for
# the blocks named (a NAME there matches any member), of a type listed there;
# with --exact, every listed member must be there too. RDMACTL_JSON_RECORD=FILE
# appends the members seen to FILE, for typing a new member in docs/json.md.
assert_json_contract() {
	local exact=false doc got msg
	[ "$1" = --exact ] && { exact=true; shift; }
	got=$(json_paths)
	doc=$(for b in "$@"; do doc_paths "$b"; done | sort -u)
	[ -n "$doc" ] || fail "docs/json.md has no block for: $*" || return
	[ -n "$got" ] || fail "no JSON members for: $*" || return
	[ -z "${RDMACTL_JSON_RECORD:-}" ] || printf '%s\n' "$got" | sed "s|^|$*\t|" >>"$RDMACTL_JSON_RECORD"
	msg=$(json_contract_says "$*" "$exact" "$doc" "$got")
	[ -z "$msg" ] || fail "$msg"
}

# What breaks the contract, in one line ("" when nothing does): WHAT names
# the blocks, EXACT is true when every listed member must be there, DOC the
# blocks' "PATH TYPES" lines (a NAME matches any member's name), GOT the
# output's (json_paths).
json_contract_says() {
	awk -v what="$1" -v exact="$2" '
		NR == FNR {
			type[$1] = $2
			if ($1 ~ /NAME/) {
				re = $1; gsub(/[].[]/, "\\\\&", re); gsub(/NAME/, "[^.]+", re)
				pat[$1] = "^" re "$"
			}
			next
		}
		!bad {
			d = ""
			if ($1 in type) d = $1
			else for (k in pat) if ($1 ~ pat[k]) { d = k; break }
			if (d == "") { bad = what ": member '\''" $1 "'\'' is not in docs/json.md"; next }
			if (index("|" type[d] "|", "|" $2 "|") == 0) {
				bad = what ": member '\''" $1 "'\'' is a " $2 ", docs/json.md says " \
				      (type[d] == "" ? "nothing of its type" : type[d])
				next
			}
			seen[d] = 1
		}
		END {
			if (!bad && exact == "true")
				for (k in type)
					if (k !~ /NAME/ && !(k in seen)) {
						bad = what ": docs/json.md lists '\''" k "'\'', the output lacks it"
						break
					}
			if (bad) print bad
		}' <(printf '%s\n' "$3") <(printf '%s\n' "$4")
}

# wire_frame KIND LEN: a message of the selftest's exchange (src/selftest/wire.h),
# its header for KIND and LEN, then LEN bytes of body from stdin.
wire_frame() {
	printf 'RCST\0\1\0%b\0\0\0%b\0\0\0\0' "\\0$(printf %o "$1")" "\\0$(printf %o "$2")"
	head -c "$2"
}

# Network namespace NS holding NSDEV with NSADDR/24, joined by a veth pair to
# HOSTDEV with HOSTADDR/24 in the initial one; everything up.
# Usage: netns_veth NS NSDEV NSADDR HOSTDEV HOSTADDR
netns_veth() {
	ip netns add "$1"
	ip link add "$2" type veth peer name "$4"
	ip link set "$2" netns "$1"
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$1" link set lo up
	ip -n "$1" link set "$2" up
	ip addr add "$5/24" dev "$4"
	ip link set "$4" up
}

# Starts build/tests/qpfail (a user's program failing one way) on rxe0 in MODE,
# after the words that follow it (a wrapper such as setpriv), and waits until
# it holds its QPs: its PID in $prog, its output in $BATS_TEST_TMPDIR/MODE.out,
# its two QP numbers (the sender's, the receiver's) in $qp_a and $qp_b.
start_qpfail() {
	local mode=$1 gid
	shift
	gid=$(rdmactl -j gids rxe0 | jq -r 'first(.[] | select(.recommended)) | .index')
	"$@" "$TOP/build/tests/qpfail" rxe0 "$gid" "$mode" >"$BATS_TEST_TMPDIR/$mode.out" 2>&1 &
	# shellcheck disable=SC2034 # the caller's: the program's PID
	prog=$!
	for _ in $(seq 100); do
		if grep -q '^holding' "$BATS_TEST_TMPDIR/$mode.out"; then
			# shellcheck disable=SC2034 # the caller's: the program's QPs
			# None in the memlock mode, which makes no QP.
			read -r qp_a qp_b < <(sed -n 's/^QPs \([0-9]*\) -> \([0-9]*\)$/\1 \2/p' \
				"$BATS_TEST_TMPDIR/$mode.out") || true
			return 0
		fi
		sleep 0.1
	done
	fail "qpfail $mode never held its QPs: $(cat "$BATS_TEST_TMPDIR/$mode.out")"
}


# Waits until the background command writing stderr to $1 said it captures
# (or said $2).
wait_capturing() {
	for _ in $(seq 200); do
		grep -q "${2:-capturing on}" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "never started capturing: $(cat "$1")"
}

# tcpdump on NETDEV ($3, else veth0) into $T/td.pcap and 'rdmactl capture DEV
# ($2, else rxe0) -w $T/$1' (its lines into $T/cap.out and $T/cap.err), in
# network namespace $4 when given; both capturing once this returns, their
# PIDs in $td and $cap (and bg).
capture_both() {
	local in=()
	[ -z "${4-}" ] || in=(ip netns exec "$4")
	# -Z root: tcpdump keeps to the user who can write the test's directory.
	# 3>&-: a process left running must not hold bats's own descriptor.
	# --immediate-mode: else tcpdump reads its ring a block at a time, and at
	# SIGINT leaves what it has not read (68 of 200 captured in one try here).
	# Its ring then has a slot a snapshot length long: with the default
	# (262144 bytes) 2 MiB held 8 packets, and under CI's load it dropped 16
	# of 500. -s 2048 holds every frame of these tests whole (path MTU 1024).
	"${in[@]}" tcpdump -Z root --immediate-mode -s 2048 -B 8192 -i "${3:-veth0}" -U \
		-w "$T/td.pcap" udp dst port 4791 2>"$T/td.err" 3>&- &
	td=$!
	"${in[@]}" "$RDMACTL" capture "${2:-rxe0}" -w "$T/$1" >"$T/cap.out" 2>"$T/cap.err" 3>&- &
	cap=$!
	bg=("$td" "$cap")
	wait_capturing "$T/td.err" listening
	wait_capturing "$T/cap.err"
}

# Both ended at once (the capture reads its ring's last block before it ends).
end_both() {
	kill -INT "$cap" "$td"
	wait "$cap" || fail "capture: $(cat "$T/cap.err")"
	wait "$td" || true
	# shellcheck disable=SC2034 # the caller's teardown kills what is left in it
	bg=()
}

# Each packet of pcap $1, its header line and bytes on one line, sorted.
packets_sorted() {
	local dump
	dump=$(tcpdump -r "$1" -t -nn -xx 2>"$T/read.err") || fail "tcpdump cannot read $1: $(cat "$T/read.err")"
	awk '/^\t/ { line = line " " $0; next } { if (line != "") print line; line = $0 }
		END { if (line != "") print line }' <<<"$dump" | LC_ALL=C sort
}

# rdmactl's pcap $T/$1 holds the same packets, byte for byte, as tcpdump's
# $T/td.pcap (each capture took its own timestamps). In any order: each
# packet socket's ring is filled by the CPU that sent or received the frame,
# so two frames crossing veth0 at once on two CPUs can reach the two rings
# in either order (an ACK and the next request swapped, seen one run in
# three on 6.1 with two CPUs).
same_as_tcpdump() {
	local mine theirs
	mine=$(packets_sorted "$T/$1")
	theirs=$(packets_sorted "$T/td.pcap")
	[ -n "$mine" ] || fail "rdmactl's pcap $1 holds no packet"
	[ "$mine" = "$theirs" ] || fail "rdmactl's pcap and tcpdump's differ: $(cat "$T/td.err");" \
		"only in rdmactl's: $(LC_ALL=C comm -23 <(echo "$mine") <(echo "$theirs") | head -3);" \
		"only in tcpdump's: $(LC_ALL=C comm -13 <(echo "$mine") <(echo "$theirs") | head -3)"
}

# With RDMACTL_RECORD_KEEP set, record's file $1 said on a "# keep-record"
# line under the name $2 (the kernel series before it), in base64:
# tools/capture-records keeps it in bats/fixtures/records.
keep_record() {
	if [ -n "${RDMACTL_RECORD_KEEP:-}" ]; then
		echo "# keep-record $(uname -r | cut -d. -f1,2)-$2.jsonl $(base64 -w0 <"$1")" >&3
	fi
}
