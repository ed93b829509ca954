/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One explainer per kernel operation: every errno that operation can return is
 * turned here, and only here, into what happened and what to do. The errno is
 * kept; the output layer prints it after the explanation (pr_rc_err).
 */
#ifndef RDMACTL_EXPLAIN_H
#define RDMACTL_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

struct rdma_dev;
struct model;
struct dev_use;

/* A failed operation: its errno, the kernel's own words, and the explanation. */
/*
 * Not an errno: a program rdmactl ran (tar, dkms, apt-get) exited non-zero.
 * Its own words are in the message; no errno name follows them.
 */
#define ETOOL 4097

struct op_err {
	int err;		/* negative errno, or -ETOOL; 0 for none */
	char ext[256];		/* the kernel's extended ACK, "" when it gave none */
	char what[1024];	/* what happened and what to do; lines split by '\n' */
};

/* Sets E (EXT may be NULL) and returns ERR. */
int op_err_set(struct op_err *e, int err, const char *ext, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Adds a line to E's explanation. */
void op_err_add(struct op_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What each operation's errnos mean. ROOT is the sysfs root, for the facts they look up. */
int explain_netlink_open(struct op_err *e, int err, const char *root);
int explain_dump(struct op_err *e, int err, const char *ext);
/* M: the devices as they are now (MODEL_NETLINK), to name who has NAME or NETDEV. */
int explain_newlink(struct op_err *e, int err, const char *ext, const char *root,
		    const struct model *m, const char *name, const char *netdev);
int explain_dellink(struct op_err *e, int err, const char *ext, const char *name);
int explain_select(struct op_err *e, int err, const char *word, bool netdev_only,
		   const struct rdma_dev *bad);
int explain_busy(struct op_err *e, const struct dev_use *u, size_t n);
int explain_modprobe(struct op_err *e, int err, const char *root, const char *module);
int explain_rmmod(struct op_err *e, int err, const char *module);
int explain_kmod_index(struct op_err *e, int err);
int explain_conf_load(struct op_err *e, int err, const char *path, const char *line_msg);
int explain_conf_save(struct op_err *e, int err, const char *path);
int explain_netdev_list(struct op_err *e, int err, const char *root);
int explain_model_load(struct op_err *e, int err, const char *root, const char *dev);

#endif
