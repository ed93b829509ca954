# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# An SSH server for root in a guest of the bed, for what drives hosts over
# SSH (Ansible). The guest's root is the host's or a userland of the bed's
# own: where it has no sshd, the packages 'rxe-vm host-debs openssh-server'
# downloaded (RXE_TEST_SSHD_DEBS) are unpacked under /run/sshd-root (the
# guest's overlay; nothing reaches the host) and run from there.

# start_sshd PUBKEY: root logs in by the key in the file PUBKEY, and by no
# password. Its host key is made for this boot, under /run: a key in the
# root's /etc/ssh would be every guest's (one root serves them all), or the
# host's own.
start_sshd() {
	local sshd=/usr/sbin/sshd sftp=/usr/lib/openssh/sftp-server r=/run/sshd-root f libs=
	if [ ! -x "$sshd" ]; then
		[ -d "${RXE_TEST_SSHD_DEBS-}" ] || {
			echo "no sshd here and no RXE_TEST_SSHD_DEBS ('rxe-vm host-debs openssh-server')" >&2
			return 1
		}
		for f in "$RXE_TEST_SSHD_DEBS"/*.deb; do
			dpkg-deb -x "$f" "$r" || return 1
		done
		sshd=$r/usr/sbin/sshd sftp=$r/usr/lib/openssh/sftp-server
		libs=$r/usr/lib/x86_64-linux-gnu:$r/lib/x86_64-linux-gnu
	fi
	mkdir -p /run/sshd /root/.ssh && chmod 0755 /run/sshd && chmod 0700 /root/.ssh || return 1
	# One host key, ed25519: RSA's takes many seconds under the emulator.
	rm -f /run/sshd_host_ed25519_key /run/sshd_host_ed25519_key.pub
	ssh-keygen -q -t ed25519 -N '' -f /run/sshd_host_ed25519_key || return 1
	getent passwd sshd >/dev/null ||
		useradd --system --no-create-home --home-dir /run/sshd --shell /usr/sbin/nologin sshd || return 1
	cat "$1" >>/root/.ssh/authorized_keys && chmod 0600 /root/.ssh/authorized_keys || return 1
	# sshd runs itself again by its full path: LD_LIBRARY_PATH goes with it.
	LD_LIBRARY_PATH=$libs "$sshd" -f /dev/null -E /run/sshd.log \
		-o HostKey=/run/sshd_host_ed25519_key -o KexAlgorithms=curve25519-sha256 \
		-o PermitRootLogin=prohibit-password -o PasswordAuthentication=no \
		-o KbdInteractiveAuthentication=no -o UsePAM=no -o "Subsystem=sftp $sftp" \
		-o AcceptEnv=LANG
}

# The client's settings for these servers, into the file $1 (ssh -F), with
# the private key $2: root, no host key kept, and the cheapest key exchange
# that is still a modern one. OpenSSH 9's default, sntrup761x25519, took
# some 40 s of a guest's CPU a connection under the emulator beside three
# other guests.
ssh_client_config() {
	cat >"$1" <<-EOF
	Host *
	  User root
	  IdentityFile $2
	  StrictHostKeyChecking no
	  UserKnownHostsFile /dev/null
	  LogLevel ERROR
	  KexAlgorithms curve25519-sha256
	  HostKeyAlgorithms ssh-ed25519
	  Ciphers aes128-gcm@openssh.com
	  ControlMaster auto
	  ControlPersist 300
	  ControlPath /run/ssh-%C
	EOF
}
