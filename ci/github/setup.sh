#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the runner: 'rdmactl ci-setup' as root, which says what it tried and
# writes the link's variables to $GITHUB_ENV, its device, netdev, gid_index
# and address to $GITHUB_OUTPUT, and the steps to the step summary.
set -euo pipefail
root=()
# shellcheck disable=SC2054 # one word: sudo's list
[ "$(id -u)" -eq 0 ] ||
	root=(sudo --preserve-env=GITHUB_ACTIONS,GITHUB_ENV,GITHUB_OUTPUT,GITHUB_STEP_SUMMARY)
netdev=()
[ -z "${RDMACTL_NETDEV:-}" ] || netdev=("$RDMACTL_NETDEV")
"${root[@]}" "$(command -v rdmactl)" ci-setup --install-deps "${netdev[@]}"
