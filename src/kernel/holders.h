/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which processes hold RDMA devices open: the kernel waits for them on delete. */
#ifndef RDMACTL_HOLDERS_H
#define RDMACTL_HOLDERS_H

#include <stddef.h>

struct dev_use {
	const char *dev;	/* in: an RDMA device */
	char node[300];		/* its uverbs node, "" when it has none */
	int count;		/* out: processes (other than this one) holding it open */
	char who[512];		/* out: "comm (pid N), ..." (cut when long) */
};

/*
 * Fills in each of U[0..N) from one pass over ROOT's ("" for the live system)
 * /sys/class/infiniband_verbs and one over /proc/PID/fd. Processes whose
 * descriptors this user may not read are not counted.
 */
void holders_scan(const char *root, struct dev_use *u, size_t n);

#endif
