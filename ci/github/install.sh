#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The action's first step: what building rdmactl needs from apt (the bed's
# packages too, for a kernel of the bed's), then rdmactl (and rxe-vm) built
# from the action's own checkout and installed under $RUNNER_TEMP, which the
# runner empties after the job: on $GITHUB_PATH for the steps after this one.
set -euo pipefail
top=$(cd "$GITHUB_ACTION_PATH/../.." && pwd)
prefix=$RUNNER_TEMP/rdmactl
sets=runner targets=install
if [ -n "${RDMACTL_KERNEL:-}" ]; then
	sets=bed targets="install install-bed"
fi
root=()
[ "$(id -u)" -eq 0 ] || root=(sudo)
"${root[@]}" "$top/tools/install-deps" "$sets"
# shellcheck disable=SC2086 # targets: words
make -C "$top" -s -j"$(nproc)" PREFIX="$prefix" SYSCONFDIR="$prefix/etc" $targets >/dev/null
printf '%s\n' "$prefix/sbin" "$prefix/bin" >>"$GITHUB_PATH"
echo "rdmactl: $("$prefix/sbin/rdmactl" --version) installed in $prefix"
