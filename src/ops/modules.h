/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Operations on kernel modules: load what Soft-RoCE needs, unload rdma_rxe. */
#ifndef RDMACTL_OPS_MODULES_H
#define RDMACTL_OPS_MODULES_H

#include <stddef.h>

#include "kernel/kmods.h"
#include "model/roce.h"

struct op_err;


struct module_result {
	const char *name;
	enum kmod_state before, after;
	int err;		/* 0, or why it did not load */
};

/*
 * Loads each module of RXE_MODULES with its dependencies (libkmod, as modprobe
 * does; built-in counts as loaded), going on past a failure. RES gets one
 * entry a module. Returns the first failure, every one explained in E.
 */
int modules_load(struct module_result res[RXE_NMODULES], struct op_err *e);
/* Unloads NAME unless something holds it (-EBUSY, explained); *AFTER its state then. */
int modules_unload(const char *name, enum kmod_state *after, struct op_err *e);

#endif
