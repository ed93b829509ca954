/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Operations on rxe links: add, delete, select, refuse busy ones. They never print. */
#ifndef RDMACTL_OPS_LINK_H
#define RDMACTL_OPS_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/nldev.h"

struct nl;
struct model;
struct rdma_dev;
struct op_err;

struct link_add_req {
	const char *name;	/* NULL: the first free rxeN (with exist_ok: NETDEV's own) */
	const char *netdev;
	bool exist_ok;		/* an rxe link NAME on NETDEV already is success */
	bool force;		/* allow loopback and non-Ethernet devices */
	/* Out: the link's name, and whether this call made it. */
	char made[RDMA_DEV_NAME_MAX];
	bool created;
};

/*
 * Validates R (a netdev that carries no RoCE traffic is refused unless force),
 * then creates the link. ROOT is "" : operations act on the running system.
 */
int link_add(struct nl *nl, struct link_add_req *r, struct op_err *e);
/* Deletes rxe device D; one that is gone meanwhile is what was asked: 0. */
int link_del(struct nl *nl, const struct rdma_dev *d, struct op_err *e);
/*
 * Deletes the rxe link named NAME when there is one (undoing an add): 1 when
 * it deleted one, 0 when there was none, or a negative errno.
 */
int link_del_name(struct nl *nl, const char *name, struct op_err *e);

/*
 * The rxe devices to delete, in *TARGETS (of M; the caller frees the array):
 * those WORDS name, each an RDMA device or else a netdev carrying one (only a
 * netdev when NETDEV_ONLY), or every rxe device when NWORDS is 0. Hardware is
 * never a target (-EPERM). Unless WAIT, -EBUSY when a process holds one open
 * (deleting it would hang): asked of the kernel through NL first (its count of
 * user contexts), then found in /proc to name who. On an error, nothing is
 * chosen.
 */
int link_pick(struct nl *nl, const struct model *m, char *const *words, size_t nwords,
	     bool netdev_only, bool wait, const struct rdma_dev ***targets, size_t *n,
	     struct op_err *e);

/*
 * Moves RDMA device NAME into the network namespace NSFD is open on (SPEC as
 * the user named it, for messages): exclusive mode only (-EOPNOTSUPP,
 * explained, in shared mode).
 */
int link_move(struct nl *nl, const char *name, int nsfd, const char *spec, struct op_err *e);

#endif
