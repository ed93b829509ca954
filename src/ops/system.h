/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA subsystem's settings and devices' namespaces. They never print. */
#ifndef RDMACTL_OPS_SYSTEM_H
#define RDMACTL_OPS_SYSTEM_H

#include "kernel/nldev.h"

struct nl;
struct op_err;

/* What RDMA_NLDEV_CMD_SYS_GET says, into S (-1 where it says nothing). */
int system_get(struct nl *nl, struct nldev_sys *s, struct op_err *e);


/*
 * Sets the namespace mode (1 shared, 0 exclusive). -EBUSY, explained, while a
 * network namespace other than the initial one exists: the kernel changes
 * it only then.
 */
int system_set_netns_mode(struct nl *nl, int mode, struct op_err *e);


/* Where the namespace mode is kept for boot: ib_core's netns_mode, a modprobe.d option. */
#define SYSTEM_MODPROBE_FILE "rdmactl-netns.conf"

/*
 * Makes the mode MODE the one ib_core starts with, in DIR/SYSTEM_MODPROBE_FILE
 * (DIR: /etc/modprobe.d): exclusive writes "options ib_core netns_mode=0",
 * shared (the kernel's default) removes the file. Into *HAD (HADLEN bytes)
 * what the file held before (for system_persist_restore), "" for none; a file
 * longer than fits is not rdmactl's (-EFBIG). Only a regular file is written
 * or removed.
 */
int system_persist_netns_mode(const char *dir, int mode, char *had, size_t hadlen,
			   struct op_err *e);
/* Puts back what system_persist_netns_mode found (HAD, "" for no file); a failure is added to E. */
int system_persist_restore(const char *dir, const char *had, struct op_err *e);

/*
 * The namespace mode ib_core would start with at the next boot, from its
 * modprobe.d options and the kernel command line as libkmod reads them (in
 * DIR alone when DIR is not NULL): 1 shared (also when nothing says), 0
 * exclusive, or a negative errno.
 */
int system_boot_netns_mode(const char *dir);

#endif
