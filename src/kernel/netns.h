/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Entering a network namespace as 'ip -n' and 'ip netns exec' do. */
#ifndef RDMACTL_NETNS_H
#define RDMACTL_NETNS_H

#include <stddef.h>

/*
 * SPEC is a name 'ip netns add' made (/run/netns/SPEC) or a process's PID (a
 * container's: /proc/PID/ns/net). Into PATH the file that names it; -EINVAL
 * when SPEC is neither (empty, a path, "." or "..").
 */
int netns_path(const char *spec, char *path, size_t len);

/* The step of netns_enter that failed. */
enum netns_step { NETNS_NAME, NETNS_OPEN, NETNS_SETNS, NETNS_SYSFS };

/*
 * Moves this process into the network namespace SPEC, and gives it a mount
 * namespace of its own in which /sys is mounted again, so that sysfs shows
 * that namespace's devices, as 'ip netns exec' does. Sockets opened before
 * stay where they were: call it first. 0, or a negative errno with *STEP the
 * step that failed and PATH (LEN bytes) the file SPEC names.
 */
int netns_enter(const char *spec, enum netns_step *step, char *path, size_t len);

#endif
