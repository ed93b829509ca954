// SPDX-License-Identifier: GPL-2.0-or-later
/* start and stop: rxe_cfg's boot-time workflow. Parse, call the operations, print. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "views/service.h"
#include "kernel/nl.h"
#include "model/model.h"
#include "ops/explain.h"
#include "ops/service.h"
#include "ops/persist.h"
#include "ops/link.h"

/* start and stop take netdevs: each checked before anything is touched. */
static int check_netdevs(const struct cli_args *a)
{
	int err = 0;

	for (int i = 0; !err && i < a->argc; i++)
		err = cmd_check_name(a, "netdev", a->argv[i], false);
	return err;
}

int cmd_start(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct service_result r;
	struct op_err e;
	int err = check_netdevs(a);

	if (err)
		return err;
	err = service_start(&ctx->nl, ctx->config, a->argv, a->argc, &r, &e);
	out_obj_open(ctx->out, NULL);
	view_service_start(ctx->out, &r);
	out_obj_close(ctx->out);
	if (err)
		cmd_fail(&e);
	service_result_free(&r);
	return err;
}

int cmd_stop(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const struct rdma_dev **rxe = NULL;
	struct model m = { 0 };
	enum kmod_state after;
	char **mine = calloc(a->argc + 1, sizeof(*mine));
	size_t n = 0, nmine = 0;
	struct op_err e;
	struct nl *nl;
	int err = 0, ret = 0;

	err = check_netdevs(a);
	if (err || !mine) {
		free(mine);
		return err ? err : -ENOMEM;
	}
	err = cmd_netlink(ctx, &nl);
	if (!err)
		err = cmd_devices(ctx, &m);
	if (err) {
		free(mine);
		return err;
	}
	/* Netdevs named: their links only (a netdev without one has nothing to stop). */
	for (int i = 0; i < a->argc; i++)
		if (model_rxe_on(&m, a->argv[i]))
			mine[nmine++] = a->argv[i];
	if (!a->argc || nmine)
		err = link_pick(nl, &m, mine, nmine, true, cli_flag(a, "wait"), &rxe, &n, &e);
	if (err) {
		cmd_fail(&e);
		goto out;
	}
	out_obj_open(ctx->out, NULL);
	out_arr_open(ctx->out, "deleted");
	for (size_t i = 0; i < n; i++) {
		if (link_del(nl, rxe[i], &e)) {
			ret = cmd_fail(&e);
			continue;
		}
		out_str(ctx->out, NULL, "deleted %s\n", rxe[i]->name);
	}
	out_arr_close(ctx->out);
	/*
	 * rdma_rxe goes when nothing holds it; a busy module stays, and that is
	 * fine. Stopping some netdevs' links leaves it for the others.
	 */
	if (!ret && !a->argc) {
		err = service_unload_module("rdma_rxe", &after, &e);
		out_obj_open(ctx->out, "module");
		out_str(ctx->out, "module", "%s", "rdma_rxe");
		out_str(ctx->out, "state", " %s\n", err == -EBUSY ? "in use: left loaded" :
			err ? "failed" : after == KMOD_BUILTIN ? "built in" : "unloaded");
		out_obj_close(ctx->out);
		if (err && err != -EBUSY)
			ret = cmd_fail(&e);
	}
	out_obj_close(ctx->out);
	err = ret;
out:
	free(mine);
	free(rxe);
	model_free(&m);
	return err;
}
