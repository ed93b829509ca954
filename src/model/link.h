/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA links (device ports and their netdevs): list, create and delete rxe links. */
#ifndef RDMACTL_LINK_H
#define RDMACTL_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/nldev.h"

struct nl;

struct rdma_link {
	struct nldev_port p;
	char driver[32];	/* "rxe", "siw", or the hardware's kernel driver */
	bool is_rxe;
};

struct link_list {
	struct rdma_link *v;
	size_t n;
};

/* Every port of every RDMA device, by netlink, with each device's driver from sysfs. */
int links_get(struct nl *nl, const char *root, struct link_list *l);
void links_free(struct link_list *l);
const struct rdma_link *links_find_dev(const struct link_list *l, const char *name);
const struct rdma_link *links_find_netdev(const struct link_list *l, const char *netdev);

/*
 * Adds to TARGETS (room for every link in L) the rxe links named NAME, or on
 * NETDEV, or all rxe links when both are NULL, skipping ones already there.
 * -ENODEV when NAME or NETDEV matches nothing; -EPERM when NAME is a device of
 * another driver (*BAD says which): hardware is never a target.
 */
int links_select(const struct link_list *l, const char *name, const char *netdev,
		 const struct rdma_link **targets, size_t *n, const struct rdma_link **bad);

/* Raw kernel answers (negative errno); the commands explain them. */
int link_create(struct nl *nl, const char *name, const char *netdev);
int link_delete(struct nl *nl, uint32_t dev_index);

#endif
