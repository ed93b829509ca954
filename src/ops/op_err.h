/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error shape above kernel/ (struct op_err), and the explainers of
 * the kernel operations several ops share (netlink opened, a dump, NEWLINK,
 * DELLINK, modprobe, rmmod, a file read or written): each errno such an
 * operation can return is turned here, once, into what happened and what to
 * do. An operation one ops file alone performs (a lab's namespaces, a device
 * moved) words its failures beside it; a command's refusal of what it was
 * given is worded in cmd/. The errno is kept; only the command layer prints,
 * after the explanation (cmd_fail).
 */
#ifndef RDMACTL_OPS_OP_ERR_H
#define RDMACTL_OPS_OP_ERR_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/errname.h"	/* ETOOL */

struct rdma_dev;
struct model;
struct dev_use;

/* A failed operation: its errno, the kernel's own words, and the explanation. */

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
int op_err_netlink_open(struct op_err *e, int err, const char *root);
/*
 * Whether the kernel at ROOT was built without CONFIG_INFINIBAND, by its
 * config: E then says so, with the one fix that works there. False when
 * that is not so or cannot be known.
 */
bool op_err_kernel_no_rdma(struct op_err *e, const char *root);
/*
 * No RDMA device to act on (-ENODEV, FMT said), unless the kernel at ROOT was
 * built without CONFIG_INFINIBAND: then that, and the one fix that works
 * there (-EPROTONOSUPPORT), for no other hint can.
 */
int op_err_no_devices(struct op_err *e, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ROOT/sys/class/infiniband is missing: op_err_no_devices's word for it. */
int op_err_no_class(struct op_err *e, const char *root);
int op_err_dump(struct op_err *e, int err, const char *ext);
/* The QP resource dump failed with ERR (EXT: the kernel's extended ACK). */
int op_err_qp_dump(struct op_err *e, int err, const char *ext);
/* M: the devices as the netlink has them now, to name who has NAME or NETDEV. */
int op_err_newlink(struct op_err *e, int err, const char *ext, const char *root,
		    const struct model *m, const char *name, const char *netdev);
int op_err_dellink(struct op_err *e, int err, const char *ext, const char *name);
int op_err_select(struct op_err *e, int err, const char *word, bool netdev_only,
		   const struct rdma_dev *bad);
int op_err_busy(struct op_err *e, const struct dev_use *u, size_t n);
int op_err_modprobe(struct op_err *e, int err, const char *root, const char *module);
int op_err_rmmod(struct op_err *e, int err, const char *module);
int op_err_kmod_index(struct op_err *e, int err);
struct safe_path;
/* PATH is not a regular file (P says what it is): refused before anything was opened. */
int op_err_not_regular(struct op_err *e, const char *verb, const char *path,
			const struct safe_path *p, const char *fix);
int op_err_conf_load(struct op_err *e, int err, const char *path, const char *line_msg,
		      const struct safe_path *p);
int op_err_conf_save(struct op_err *e, int err, const char *path, const struct safe_path *p);
int op_err_netdev_list(struct op_err *e, int err, const char *root);
int op_err_model_load(struct op_err *e, int err, const char *root, const char *dev);

/* The persistent-links file's edits (explain.c). */
int op_err_persist_conflict(struct op_err *e, int err, const char *name, const char *had,
			     const char *path, const char *netdev);
int op_err_persist_absent(struct op_err *e, const char *word, const char *path);
/* A link made for a record that failed: deleted again (UNDO_ERR 0), or why not. */
void op_err_persist_undo(struct op_err *e, const char *name, int undo_err, const char *undo);
/* ONE, a failure at LINE of PATH, into E: its first (FIRST) or one more. */
int op_err_at_line(struct op_err *e, bool first, const char *path, size_t line,
		    const struct op_err *one);

/* Module install and remove (op_err_module.c). */
int op_err_kbuild_facts(struct op_err *e, int err, const char *kver);
/* A tool run for WHAT: not there (-ENOENT), not run (ERR), or its STATUS and the line WHY. */
int op_err_tool(struct op_err *e, int err, const char *what, const char *tool, int status,
		 const char *why, size_t why_len);
/* What building for KVER lacks, and the PACKAGES that supply it (" a b"). */
int op_err_build_needs(struct op_err *e, const char *kver, bool headers, bool source,
			bool dkms, const char *packages);
int op_err_distro_package(struct op_err *e, const char *kver, const char *package);
/* The compiler's FIRST error line, and where LOG keeps DKMS's make.log ("" none). */
int op_err_build_failed(struct op_err *e, int err, const char *first, const char *log);
/* Why the installed rdma_rxe is not loaded (service_load_modules's ERR), and what then. */
void op_err_not_loaded(struct op_err *e, int err);
int op_err_not_ours(struct op_err *e, const char *version);
/* The package (or, NULL, DKMS) said it installed rdma_rxe, and KVER has none. */
int op_err_not_installed(struct op_err *e, const char *kver, const char *package);
/* DKMS answered but rdma_rxe/VERSION is still there (MODULE, its file, or ""); SAID its words. */
int op_err_dkms_kept(struct op_err *e, const char *version, const char *module,
		      const char *said);

enum source_problem { SRC_UNREADABLE, SRC_NO_TOP_DIR, SRC_NO_VERSION, SRC_NO_RXE };
int op_err_source(struct op_err *e, int err, enum source_problem what, const char *path);
/* SERIES: "6.1" for Debian's linux-source-6.1 tarball, NULL for a source given. */
int op_err_source_version(struct op_err *e, const char *have, const char *kver,
			   const char *want, const char *series);

enum file_step { FILE_WRITE, FILE_MKDIR, FILE_MKDIR_BESIDE, FILE_MOVE_TO, FILE_TEMP };
/* A file system step on PATH that failed with ERR. */
int op_err_file(struct op_err *e, int err, enum file_step step, const char *path);

#endif
