/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which processes hold an RDMA device open: the kernel waits for them on delete. */
#ifndef RDMACTL_HOLDERS_H
#define RDMACTL_HOLDERS_H

#include <stddef.h>

/*
 * The processes (other than this one) with DEV's uverbs node open, read below
 * ROOT ("" for the live system) from /sys/class/infiniband_verbs and
 * /proc/PID/fd. BUF gets "comm (pid N), ..." (cut at LEN). Returns how many;
 * processes whose descriptors this user may not read are not counted.
 */
int dev_holders(const char *root, const char *dev, char *buf, size_t len);

#endif
