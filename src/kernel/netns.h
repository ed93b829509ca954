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

/*
 * An open descriptor (O_CLOEXEC) of the network namespace SPEC (as
 * netns_path takes it), its file in PATH; or a negative errno: -EINVAL when
 * SPEC names none.
 */
int netns_open(const char *spec, char *path, size_t len);

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

/* 1 when process PID is in this process's network namespace, 0 when not, or a negative errno. */
int netns_shared_with(int pid);
/*
 * FN(ARG) run in process PID's network namespace, this process back in its
 * own after: what FN opens there (a netlink socket) stays there. FN's
 * result, or a negative errno when the namespace cannot be entered or left.
 */
int netns_run_in(int pid, int (*fn)(void *arg), void *arg);

/*
 * 1 when this process is in the initial network namespace, 0 when in another,
 * a negative errno when ROOT/proc cannot say. The kernel registers some
 * net.core sysctls (netdev_max_backlog) in the initial namespace only, and
 * /proc/sys/net shows the namespace of the process reading it: no PID 1 or
 * inode number to compare, so it holds in a container too.
 */
int netns_initial(const char *root);

/*
 * 1 when a UDP socket of this process's network namespace (IPv4 or IPv6) is
 * bound to local PORT, 0 when none is, a negative errno when ROOT/proc/net/udp
 * cannot be read.
 */
int netns_udp_bound(const char *root, unsigned int port);
/* The same in the network namespace of process PID (ROOT/proc/PID/net); PID 0 is this one. */
int netns_udp_bound_pid(const char *root, int pid, unsigned int port);

/*
 * A network namespace named NAME (/run/netns/NAME, which 'ip netns' lists),
 * made as 'ip netns add' makes it; -EEXIST when the name is taken, -EINVAL
 * for a name netns_path does not take as one (a PID). This process stays in
 * its own.
 */
int netns_add(const char *name);
/* Removes the name; the namespace ends when nothing is left in it. -ENOENT when none. */
int netns_del(const char *name);

#endif
