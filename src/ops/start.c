// SPDX-License-Identifier: GPL-2.0-or-later
/* The start sequence: rdmactl start's, up's first step and the boot unit's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/nl.h"
#include "ops/explain.h"
#include "ops/start.h"

int rxe_start(struct nl **nlp, const char *config, char *const *netdevs, int n,
	      struct start_result *r, struct op_err *e)
{
	int err;

	memset(r, 0, sizeof(*r));
	/* The file first: a broken file is reported before anything changes. */
	err = persist_load(config, &r->conf, e);
	if (err)
		return err;
	persist_only_netdevs(&r->conf, netdevs, n);
	err = modules_load(r->mods, e);
	r->mods_done = true;
	if (err)
		return err;
	if (!*nlp && (err = nl_open(nlp)))
		return explain_netlink_open(e, err, "");
	r->state = calloc(r->conf.n + 1, sizeof(*r->state));
	if (!r->state)
		return op_err_set(e, -ENOMEM, NULL, "out of memory");
	err = persist_start(*nlp, config, &r->conf, r->state, e);
	r->links_done = true;
	return err;
}

void start_result_free(struct start_result *r)
{
	free(r->state);
	conf_free(&r->conf);
	memset(r, 0, sizeof(*r));
}
