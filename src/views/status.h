/* SPDX-License-Identifier: GPL-2.0-or-later */
/* status: rxe_cfg's table of Ethernet devices and their rxe links (plain, JSON). */
#ifndef RDMACTL_VIEWS_STATUS_H
#define RDMACTL_VIEWS_STATUS_H

#include <stddef.h>

#include "kernel/netdev.h"

struct out;
struct rdma_dev;

/* A netdev as read, the rxe device on it (NULL: none) and that port's active MTU (-1 unknown). */
struct view_status_row {
	struct netdev nd;
	const struct rdma_dev *rxe;
	int rmtu;
};

/* The N rows, under rxe_cfg's heads, each column as wide as its widest cell. */
void view_status(struct out *o, const struct view_status_row *rows, size_t n);

#endif
