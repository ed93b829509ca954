/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel errors as people read them: the translation first, the raw errno kept. */
#ifndef RDMACTL_EXPLAIN_H
#define RDMACTL_EXPLAIN_H

/* "EEXIST" for -EEXIST (or EEXIST); "errno N" for what glibc does not name. */
const char *errname(int err);

/*
 * Prints "rdmactl: WHAT (ENAME: strerror; kernel: EXT)" to stderr; EXT is the
 * kernel's extended ACK message and may be NULL or empty.
 */
void pr_kerr(int err, const char *ext, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The hint for a kernel without RDMA netlink, shared by every command that needs it. */
void pr_no_rdma_kernel(void);

#endif
