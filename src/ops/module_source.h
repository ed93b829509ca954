/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The source of rdma_rxe a module build takes: its version, and
 * drivers/infiniband/sw/rxe staged for DKMS (ops/module.c builds it).
 */
#ifndef RDMACTL_OPS_MODULE_SOURCE_H
#define RDMACTL_OPS_MODULE_SOURCE_H

#include "ops/module.h"

struct op_err;

/* The version to build (of the source, against the kernel's), into R. */
int module_source_pick_version(struct module_install_req *r, struct op_err *e);
/* drivers/infiniband/sw/rxe of R's source in DIR, with the dkms.conf for it. */
int module_source_stage(struct module_install_req *r, const char *dir, struct op_err *e);

#endif
