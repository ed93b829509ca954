# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench's host measures: the bed's boot against a bare qemu boot, the
# rdma_rxe build, fuzzing, capture -r of many conversations. Sourced by
# tools/bench, run on the host.

# One boot of each side, in seconds, appended to measure_boot's mine and theirs.
boot_mine() {
	local t0
	t0=$(ns)
	tools/rxe-vm run --kernel "$k" -- true >/dev/null 2>&1 || say "rxe-vm run --kernel $k failed"
	mine+="$(awk -v t=$(($(ns) - t0)) 'BEGIN { printf "%.2f", t / 1e9 }')"$'\n'
}

boot_peer() {
	local t0
	t0=$(ns)
	# The bed's own emulator and its firmware, so that both sides run on one.
	timeout 60 "$qemu" ${firmware:+-L "$firmware"} -accel "$accel" -cpu max -m 1536 -smp "$vcpus" -nographic \
		-no-reboot -kernel "$vmlinuz" -append 'console=ttyS0 quiet panic=-1' \
		</dev/null >/dev/null 2>&1 || true
	theirs+="$(awk -v t=$(($(ns) - t0)) 'BEGIN { printf "%.2f", t / 1e9 }')"$'\n'
}

# On the host: seconds from start to exit of 'rxe-vm run -- true' against a bare
# 'qemu -kernel vmlinuz' boot to its "unable to mount root" panic, the same
# kernel and accelerator, the two taken in turn.
measure_boot() {
	local k pkg vmlinuz accel qemu firmware cache mine theirs i ready
	cache=${RXE_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/rdmactl/vm}
	echo "## The bed's boot against a bare qemu boot"
	echo
	echo "Seconds from start to exit. Bare: \`qemu-system-x86_64 -accel ACCEL -cpu max -m 1536"
	echo "(the bed's own qemu, the same binary, TCG threading and vCPUs: tools/rxe-vm prepare says which)"
	echo "-smp N -nographic -no-reboot -kernel vmlinuz -append 'console=ttyS0 quiet panic=-1'\`,"
	echo "which stops at the kernel's panic for want of a root file system. The bed:"
	echo "\`tools/rxe-vm run --kernel K -- true\`, through its init, root over virtiofs,"
	echo "network and payload to power-off. Each: median of $boot_repeat runs, the two in turn."
	echo
	table_head
	for k in 6.1 6.1-cloud; do
		# "ready: kernel K, root over FS, accel A, N vCPU, cache DIR": the bed's own choice.
		ready=$(tools/rxe-vm prepare --kernel "$k" 2>&1 >/dev/null) || { say "cannot prepare kernel $k"; return 1; }
		# "ready: ..., accel tcg (thread=multi) with QEMU-PATH (QEMU 10.0.2), 1 vCPU, cache DIR".
		accel=$(sed -n 's/.*, accel \([a-z]*\)\( (\([^)]*\))\)\{0,1\} with .*/\1,\3/p' <<<"$ready")
		accel=${accel%,}
		vcpus=$(sed -n 's/.*, \([0-9]*\) vCPU, cache .*/\1/p' <<<"$ready")
		[ -n "$vcpus" ] || { say "tools/rxe-vm prepare named no vCPU count: $ready"; return 1; }
		qemu=$(sed -n 's/.* with \(.*\) (QEMU [^)]*), [0-9]* vCPU, cache .*/\1/p' <<<"$ready")
		# The bed's own qemu (in its cache) brings its firmware and modules.
		firmware=
		if [[ $qemu == "$cache"/* ]]; then
			firmware=${qemu%/bin/*}/share/qemu
			export QEMU_MODULE_DIR=${qemu%/bin/*}/lib/x86_64-linux-gnu/qemu
		fi
		pkg=$(tools/rxe-vm kernels 2>/dev/null | awk -v k="$k" '$1 == k { print $3 }')
		vmlinuz=$(ls "$cache/${pkg}"_*/boot/vmlinuz-* | head -n 1)
		mine='' theirs=''
		for ((i = 0; i < boot_repeat; i++)); do
			in_turn "$i" boot_mine boot_peer
		done
		row "rxe-vm run --kernel $k -- true, s" s "$mine" "bare qemu -kernel boot" "$theirs" "le 1.00"
	done
	echo
}

# On the host: the time to build rdma_rxe from nothing for the cloud kernel
# (which lacks it), as 'rdmactl module install --kernel KVER' does it with DKMS,
# against the same build by hand (extract the rxe directory, make M=). Needs
# the kernel's headers, linux-source-X.Y and dkms (make bench installs them);
# what install added is removed again.
measure_module() {
	local kver src tmpd i mine='' theirs='' t0
	kver=$(tools/rxe-vm kernels 2>/dev/null | awk '$1 == "6.1-cloud" { sub(/^linux-image-/, "", $3); print $3 }')
	src=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | head -n 1)
	echo "## Building rdma_rxe from nothing (on the host, for $kver)"
	echo
	if [ -z "$kver" ] || [ ! -e "/lib/modules/$kver/build" ] || [ -z "$src" ] || ! command -v dkms >/dev/null; then
		echo "Not measured: it needs linux-headers-$kver, a linux-source package and dkms."
		echo
		return 0
	fi
	if "$R" -j module status --kernel "$kver" | jq -e '.rdma_rxe.origin != "none"' >/dev/null; then
		echo "Not measured: $kver already has an rdma_rxe ('rdmactl module remove --kernel $kver')."
		echo
		return 0
	fi
	# apt's newest linux-source may be ahead of the kernel's headers (a
	# security upload of the source first): the kernel's own, as install
	# gets it with --install-deps, before anything is timed.
	if "$R" -j module status --kernel "$kver" | jq -e '.source_version != .kernel_version' >/dev/null; then
		say "the kernel's own source: rdmactl module install --kernel $kver --install-deps"
		if ! "$R" module install --kernel "$kver" --install-deps >"$tmp.module" 2>&1; then
			say "rdmactl module install --install-deps failed:"; tail -5 "$tmp.module" >&2
			return 1
		fi
		"$R" module remove --kernel "$kver" >/dev/null
	fi
	echo "Seconds, from no rxe source on the system to rdma_rxe.ko installed. rdmactl:"
	echo "\`rdmactl module install --kernel $kver\` (extracts drivers/infiniband/sw/rxe from"
	echo "$src, registers it with DKMS, builds and installs it; then removed). By hand:"
	echo "\`tar -xf SOURCE --wildcards '*/drivers/infiniband/sw/rxe/*'\` and"
	echo "\`make -j$(nproc) -C /lib/modules/$kver/build M=DIR CONFIG_RDMA_RXE=m modules\`, which installs nothing."
	echo
	echo "| measure | rdmactl median (min–max) | by hand | by hand median (min–max) | ratio | goal | met |"
	echo "|---|---|---|---|---|---|---|"
	for ((i = 0; i < ${BENCH_MODULE_REPEAT:-3}; i++)); do
		say "building rdma_rxe, run $((i + 1))"
		t0=$(ns)
		if ! "$R" module install --kernel "$kver" >"$tmp.module" 2>&1; then
			say "rdmactl module install failed:"; tail -5 "$tmp.module" >&2
			"$R" module remove --kernel "$kver" >/dev/null 2>&1
			return 1
		fi
		mine+="$(awk -v t=$(($(ns) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')"$'\n'
		"$R" module remove --kernel "$kver" >/dev/null
		tmpd=$(mktemp -d)
		t0=$(ns)
		tar -xf "$src" -C "$tmpd" --wildcards '*/drivers/infiniband/sw/rxe/*' &&
			make -s -j"$(nproc)" -C "/lib/modules/$kver/build" M="$(echo "$tmpd"/*/drivers/infiniband/sw/rxe)" \
				CONFIG_RDMA_RXE=m modules >/dev/null 2>&1 || say "the build by hand failed"
		theirs+="$(awk -v t=$(($(ns) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')"$'\n'
		rm -rf "$tmpd"
	done
	row "rdmactl module install --kernel $kver, s" s "$mine" "tar + make M=" "$theirs" "le 1.00"
	echo
}

# On the host: each fuzz target for FUZZ_BENCH_TIME seconds (default 100), its
# runs against the goal of 10 million a 100 s.
measure_fuzz() {
	local secs=${FUZZ_BENCH_TIME:-100} line t runs
	echo "## Fuzzing: runs of each target in $secs s (tools/fuzz, on the host)"
	echo
	echo "| target | runs | per 100 s | goal | met |"
	echo "|---|---|---|---|---|"
	tools/fuzz --time "$secs" 2>/dev/null | while read -r line; do
		[[ $line =~ ^ok\ [0-9]+\ -\ fuzz\ ([a-z]+):\ ([0-9]+)\ runs ]] || continue
		t=${BASH_REMATCH[1]} runs=${BASH_REMATCH[2]}
		awk -v t="$t" -v r="$runs" -v s="$secs" 'BEGIN { p = r * 100 / s
			printf "| fuzz_%s | %d | %.1f M | ≥ 10 M | %s |\n", t, r, p / 1e6, (p >= 1e7 ? "yes" : "**no**") }'
	done
	echo
}

# On the host: 'rdmactl capture -r' of files of 25,000 and 50,000
# conversations (tools/pcap-many, from a capture made in the bed) against
# tcpdump -r of the same, each run's output discarded; and rdmactl's time
# for twice the conversations against its own for half, which a reader
# linear in its input keeps near 2.
measure_capture_read() {
	local tmpd i n mine theirs half whole
	tmpd=$(mktemp -d)
	echo "## Reading a capture file of many conversations (on the host)"
	echo
	echo "\`rdmactl capture -r FILE\` against \`tcpdump -r FILE -nn\`, both printing every packet"
	echo "to /dev/null; FILE the first request and answer of bats/fixtures/packets/bad-rkey.pcap"
	echo "made again for N QP pairs (tools/pcap-many): 2N packets, 2N conversations."
	echo "rdmactl also keeps every conversation for its summary. Milliseconds, median of"
	echo "$repeat runs, the two in turn."
	echo
	table_head
	for n in 25000 50000; do
		tools/pcap-many bats/fixtures/packets/bad-rkey.pcap "$tmpd/$n.pcap" "$n"
	done
	read_mine() { mine+=$(time_ms 1 "$R" capture -r "$tmpd/$n.pcap")$'\n'; }
	read_peer() { theirs+=$(time_ms 1 tcpdump -r "$tmpd/$n.pcap" -nn)$'\n'; }
	for n in 25000 50000; do
		mine='' theirs=''
		for ((i = 0; i < repeat; i++)); do
			in_turn "$i" read_mine read_peer
		done
		row "capture -r of $((2 * n)) packets in $((2 * n)) conversations, ms" ms "$mine" \
			"tcpdump -r -nn" "$theirs" "le 4.00"
		[ "$n" = 25000 ] && half=$mine || whole=$mine
	done
	row "capture -r of 100000 conversations against 50000, ms (linear: 2)" ms "$whole" \
		"capture -r of 50000" "$half" "le 2.50"
	echo
	rm -rf "$tmpd"
}

# grep's count of the lines the patterns in $1 match in $2, into $3: to a file,
# as GNU grep stops at its first match when its output is /dev/null.
grep_counted() { LC_ALL=C grep -c -E -i -f "$1" "$2" >"$3" || true; }

# On the host: explain --file of a 100 MiB log against grep -E -i -f of the
# catalogue's own patterns, and its peak memory on a log ten times smaller.
measure_explain_read() {
	local tmpd i mine theirs small big noise=/var/log/dpkg.log
	[ -s "$noise" ] || { say "no $noise to make a log's noise of"; return 1; }
	tmpd=$(mktemp -d)
	echo "## Reading a whole log (on the host)"
	echo
	echo "\`rdmactl explain --file LOG\` against \`LC_ALL=C grep -c -E -i -f PATTERNS LOG\`."
	echo "LOG: 100 MiB of $noise's lines (real lines of this machine's package log),"
	echo "one line in a hundred the example of an entry of \`rdmactl -j explain --list\` in turn;"
	echo "PATTERNS: every entry's words as an extended regular expression (a message's printf"
	echo "conversions as \`.*\`), case ignored as explain ignores it. Milliseconds, median"
	echo "of $repeat runs, the two in turn; memory: peak RSS (GNU time's %M) on that log and"
	echo "on its first 10 MiB."
	echo
	"$R" -j explain --list >"$tmpd/list.json"
	jq -r '.[] | select(.name != "IBV_WC_SUCCESS") | .text // empty' "$tmpd/list.json" >"$tmpd/real"
	jq -r '.[] | (if .kind == "message" or .kind == "kernel_log" then [.name] else [.name, .text] end)
		| .[] | select(. != null and . != "")' "$tmpd/list.json" |
		sed -e 's/[][\.*^$+?(){}|]/\\&/g' -e 's/%[-+ #0-9.*]*[hlLqjzt]*[a-zA-Z]/.*/g' \
			-e 's/%%/%/g' >"$tmpd/patterns"
	awk -v target=$((100 << 20)) 'NR == FNR { real[n++] = $0; next } { noise[m++] = $0 }
		END { while (size < target) {
			l = i % 100 == 99 ? real[int(i / 100) % n] : noise[i % m]
			print l; size += length(l) + 1; i++ } }' "$tmpd/real" "$noise" >"$tmpd/log"
	head -c $((10 << 20)) "$tmpd/log" >"$tmpd/small"
	table_head
	read_mine() { mine+=$(time_ms 1 "$R" explain --file "$tmpd/log")$'\n'; }
	read_peer() { theirs+=$(time_ms 1 grep_counted "$tmpd/patterns" "$tmpd/log" "$tmpd/count")$'\n'; }
	mine='' theirs=''
	for ((i = 0; i < repeat; i++)); do
		in_turn "$i" read_mine read_peer
	done
	row "explain --file of a 100 MiB log, 1 line in 100 known, ms" ms "$mine" \
		"grep -c -E -i -f ($(wc -l <"$tmpd/patterns") patterns)" "$theirs" "le 2.00"
	big='' small=''
	for ((i = 0; i < repeat; i++)); do
		big+=$(/usr/bin/time -f %M "$R" explain --file "$tmpd/log" 2>&1 >/dev/null | tail -1)$'\n'
		small+=$(/usr/bin/time -f %M "$R" explain --file "$tmpd/small" 2>&1 >/dev/null | tail -1)$'\n'
	done
	row "peak RSS of explain --file, 100 MiB log against 10 MiB, KiB (flat: 1)" KiB "$big" \
		"the same of 10 MiB" "$small" "le 1.10"
	echo
	echo "Lines known in the log: rdmactl $("$R" -j explain --file "$tmpd/log" | jq .known), grep $(cat "$tmpd/count")."
	echo
	rm -rf "$tmpd"
}
