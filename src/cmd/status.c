// SPDX-License-Identifier: GPL-2.0-or-later
/* status: rxe_cfg's table of Ethernet devices and their rxe links, read (views/status.c prints it). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "kernel/verbs.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "views/status.h"

int cmd_status(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct netdev *nds = NULL;
	struct view_status_row *rows = NULL;
	struct model m = { 0 };
	size_t n = 0, nrows = 0;
	struct op_err e;
	int err;

	(void)a;
	err = cmd_device(ctx, NULL, (struct model_ask){ .mtu = MODEL_MTU_LINK }, &m);
	if (err)
		return err;
	err = netdev_list(ctx->sys.root, &nds, &n);
	if (err) {
		cmd_fail((op_err_netdev_list(&e, err, ctx->sys.root), &e));
		goto out;
	}
	rows = calloc(n + 1, sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	/* rxe_cfg's view: every Ethernet device, and any other device carrying rxe. */
	for (size_t i = 0; i < n; i++) {
		struct view_status_row *r = &rows[nrows];

		r->nd = nds[i];
		r->rxe = model_rxe_on(&m, nds[i].name);
		if (!netdev_is_ethernet(&nds[i]) && !r->rxe)
			continue;
		/* The model's answer, as link and show print it (rxe has one port). */
		r->rmtu = r->rxe && r->rxe->nports ? r->rxe->ports[0].active_mtu : -1;
		nrows++;
	}
	view_status(ctx->out, rows, nrows);
out:
	free(rows);
	free(nds);
	model_free(&m);
	return err;
}
