// SPDX-License-Identifier: GPL-2.0-or-later
/* show, gids, netdevs: devices, ports and GID tables read (sysfs; libibverbs for MTUs, GID tables). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op_err.h"
#include "model/model.h"
#include "model/names.h"
#include "cli/out.h"
#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "views/show.h"
#include "kernel/netdev.h"
#include "kernel/sysfs.h"

/* Loads the model for DEV (NULL: all), explaining a failure. */
static int load(struct cmd_ctx *ctx, const struct cli_args *a, struct model_ask ask,
		struct model *m)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct op_err e;
	int err;

	if (dev && (err = cmd_valid_name(a, "device name", dev, true)))
		return err;
	if (!sysfs_exists(ctx->sys.root, "/sys/class/infiniband"))
		return cmd_fail((op_err_no_class(&e, ctx->sys.root), &e));
	err = model_sys_load(&ctx->sys, dev, ask, -1, m);
	if (err)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, dev), &e));
	if (m->n == 0)
		pr_err("no RDMA devices ('rdmactl add NAME NETDEV' creates an rxe link)");
	return 0;
}

int cmd_show(struct cmd_ctx *ctx, const struct cli_args *a)
{
	bool stats = cli_flag(a, "stats");
	struct model m;
	int err;

	err = load(ctx, a, (struct model_ask){ .mtu = MODEL_MTU_LINK, .counters = stats }, &m);
	if (err)
		return err;
	view_show(ctx->out, &m, stats);
	model_free(&m);
	return 0;
}

int cmd_gids(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct model m;
	int err;

	err = load(ctx, a,
		   (struct model_ask){ .gids = cli_flag(a, "all") ? MODEL_GIDS_ALL : MODEL_GIDS_USED },
		   &m);
	if (err)
		return err;
	view_gids(ctx->out, &m);
	model_free(&m);
	return 0;
}

int cmd_netdevs(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct netdev *nd;
	struct op_err e;
	struct model m;
	int err;

	err = load(ctx, a, (struct model_ask){ .ports = MODEL_PORTS_STATES }, &m);
	if (err)
		return err;
	nd = calloc(m.n + 1, sizeof(*nd));
	if (!nd) {
		model_free(&m);
		return cmd_fail((op_err_set(&e, -ENOMEM, NULL, "out of memory"), &e));
	}
	/* Each device's netdev read now: an empty operstate where it cannot be. */
	for (size_t i = 0; i < m.n; i++)
		if (*m.devs[i].netdev && netdev_get_link(ctx->sys.root, m.devs[i].netdev, &nd[i]))
			memset(&nd[i], 0, sizeof(nd[i]));
	view_netdevs(ctx->out, &m, nd);
	free(nd);
	model_free(&m);
	return 0;
}
