/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start sequence: rdmactl start's, up's first step and the boot unit's. */
#ifndef RDMACTL_OPS_START_H
#define RDMACTL_OPS_START_H

#include <stdbool.h>

#include "model/conf.h"
#include "ops/modules.h"
#include "ops/persist.h"

struct nl;
struct op_err;

/* What the sequence did, each part filled once it was reached. */
struct start_result {
	bool mods_done;
	struct module_result mods[RXE_NMODULES];
	bool links_done;
	struct conf conf;		/* the links asked for (all, or those on the netdevs named) */
	enum start_state *state;	/* one per entry of conf */
};

/*
 * Reads CONFIG (a malformed file changes nothing), loads the Soft-RoCE
 * modules, opens the RDMA netlink into *NLP when it is not open (loading
 * ib_core is what makes it exist), then makes every listed link on one of
 * NETDEVS[0..N) (all when N is 0) whose netdev exists. 0, or the first
 * failure explained in E; R says how far it came. start_result_free() R.
 */
int rxe_start(struct nl **nlp, const char *config, char *const *netdevs, int n,
	      struct start_result *r, struct op_err *e);
void start_result_free(struct start_result *r);

#endif
