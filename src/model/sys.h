/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One handle per run: the system a command reads (the running one, or a
 * fixture), decided once in main and passed down. Its RDMA netlink socket is
 * opened at first use, once, live or as the fixture's recorded answers; one
 * more in another process's network namespace when asked; its route netlink
 * socket likewise, live only; and the netlink's device list is read once and
 * kept. What builds namespaces (lab) and what listens to a netlink group
 * (monitor, start --watch) open sockets of their own: one per namespace
 * made, and a socket joined to a group makes no requests.
 */
#ifndef RDMACTL_MODEL_SYS_H
#define RDMACTL_MODEL_SYS_H

#include <stdbool.h>

#include "model/model.h"

struct nl;

struct model_sys {
	/* Prefix for every sysfs and proc path; "" for the running system. */
	const char *root;
	/* The RDMA netlink of this process's namespace, NULL until opened. */
	struct nl *rdma;
	/* The same in process ns_pid's network namespace, when it is not this one's. */
	struct nl *ns_rdma;
	int ns_pid;
	/* The route netlink of this process's namespace, NULL until opened. */
	struct nl *route;
	/* The devices each of those lists (MODEL_NETLINK, MODEL_PORTS_STATES), once: [0] rdma's, [1] ns_rdma's. */
	struct model_sys_devs {
		struct model m;
		int err;
		bool done;
	} devs[2];
};

/* S for ROOT ("" the running system, else a fixture's directory), nothing opened. */
void model_sys_init(struct model_sys *s, const char *root);
void model_sys_close(struct model_sys *s);
/* The readings S keeps forgotten, its sockets kept: what a command that runs again reads anew. */
void model_sys_forget(struct model_sys *s);
bool model_sys_live(const struct model_sys *s);
/*
 * The RDMA netlink, opened now on first use: a socket on the running system,
 * the fixture's recorded answers (model_netlink_recording) on a fixture. The
 * same error each time after a failure; S keeps the socket.
 */
int model_sys_rdma(struct model_sys *s, struct nl **nl);
/*
 * The route netlink, opened now on first use, kept as model_sys_rdma keeps
 * its own; -EOPNOTSUPP on a fixture, which records no route.
 */
int model_sys_route(struct model_sys *s, struct nl **nl);
/*
 * The RDMA netlink as process PID sees it: model_sys_rdma's own when PID is
 * 0, shares this process's network namespace or S is a fixture, else a
 * socket opened in PID's namespace, once (S asks in one other namespace).
 */
int model_sys_rdma_of(struct model_sys *s, int pid, struct nl **nl);
/*
 * Where model_load reads from: S's root, its RDMA netlink when opened (open
 * it with model_sys_rdma first for a netlink list), libibverbs live only.
 */
struct model_src model_sys_src(const struct model_sys *s);
/*
 * The devices and their ports' states and netdevs as the RDMA netlink lists
 * them to process PID (model_sys_rdma_of), read once; NULL with *ERR when
 * they cannot be read.
 */
const struct model *model_sys_devices_of(struct model_sys *s, int pid, int *err);
/*
 * The devices from S as ASK says (model_load), the one way a command reads
 * them. A netlink list is this process's namespace's, its socket opened
 * here. A sysfs list, when HERE_OF >= 0 on the running system, has the
 * netlink's facts merged into each device: its kernel index, and whether
 * the netlink of process HERE_OF's namespace (0 this one's) lists it
 * (rdma_dev.here), from model_sys_devices_of's list; here_known false where
 * that list cannot be read.
 */
int model_sys_load(struct model_sys *s, const char *only, struct model_ask ask, int here_of,
		   struct model *m);

#endif
