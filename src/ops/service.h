/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start and stop: the kernel modules Soft-RoCE needs, loaded in order, and the
 * start sequence (rdmactl start's, up's first step and the boot unit's).
 */
#ifndef RDMACTL_OPS_SERVICE_H
#define RDMACTL_OPS_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/kmods.h"
#include "kernel/roce.h"
#include "model/conf.h"
#include "ops/persist.h"

struct model_sys;
struct nl;
struct op_err;

struct service_module {
	const char *name;
	enum kmod_state before, after;
	int err;		/* 0, or why it did not load */
};

/*
 * Loads each module of RXE_MODULES with its dependencies (libkmod, as modprobe
 * does; built-in counts as loaded), going on past a failure. RES gets one
 * entry a module. Returns the first failure, every one explained in E.
 */
int service_load_modules(struct service_module res[RXE_NMODULES], struct op_err *e);
/* Unloads NAME unless something holds it (-EBUSY, explained); *AFTER its state then. */
int service_unload_module(const char *name, enum kmod_state *after, struct op_err *e);

/* What the sequence did, each part filled once it was reached. */
struct service_result {
	bool mods_done;
	struct service_module mods[RXE_NMODULES];
	bool links_done;
	struct conf conf;		/* the links asked for (all, or those on the netdevs named) */
	enum start_state *state;	/* one per entry of conf */
};

/*
 * Reads CONFIG (a malformed file changes nothing), loads the Soft-RoCE
 * modules, opens SYS's RDMA netlink when it is not open (loading ib_core
 * is what makes it exist), then makes every listed link on one of
 * NETDEVS[0..N) (all when N is 0) whose netdev exists. 0, or the first
 * failure explained in E; R says how far it came. service_result_free() R.
 */
int service_start(struct model_sys *sys, const char *config, char *const *netdevs, int n,
		  struct service_result *r, struct op_err *e);
void service_result_free(struct service_result *r);

#endif
