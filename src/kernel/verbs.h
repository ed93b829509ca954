/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What libibverbs gives better than sysfs: MTUs, and whole GID tables in one call. */
#ifndef RDMACTL_VERBS_H
#define RDMACTL_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MTUs in bytes; -ENODEV when the device has no usable uverbs node. */
int verbs_port_mtu(const char *dev, uint32_t port, int *active, int *max);

/* One GID in use, as libibverbs gives it. */
struct verbs_gid {
	uint32_t index;
	uint8_t raw[16];
	bool roce_v2;		/* else RoCE v1 (IB's type on an IB port) */
	unsigned int ifindex;	/* its netdev; 0 when none */
};

/*
 * The GIDs in use on DEV's PORT, sorted by index, and the table's length, from
 * the kernel's table in one call (ibv_query_gid_table) instead of a sysfs file
 * a slot. *GIDS is allocated; a negative errno when libibverbs cannot give
 * them (no uverbs node, no permission to open it, an old kernel).
 */
int verbs_gids(const char *dev, uint32_t port, struct verbs_gid **gids, size_t *n,
	       uint32_t *tbl_len);

/* Whether libibverbs lists DEV, that is, has a working provider for it. */
bool verbs_lists(const char *dev);

#endif
