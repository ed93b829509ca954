/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel accepts as RDMA device and network device names. */
#ifndef RDMACTL_NAMES_H
#define RDMACTL_NAMES_H

/* NULL when NAME is acceptable, else why not (a phrase to follow "NAME: "). */
const char *rdma_name_invalid(const char *name);
const char *netdev_name_invalid(const char *name);

#endif
