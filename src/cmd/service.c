// SPDX-License-Identifier: GPL-2.0-or-later
/* start and stop: rxe_cfg's boot-time workflow. Parse, call the operations, print. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cli/rdmactl.h"
#include "cmd/views.h"
#include "kernel/nl.h"
#include "model/model.h"
#include "ops/explain.h"
#include "ops/modules.h"
#include "ops/persist.h"
#include "ops/rxe.h"

int start_run(struct rc_ctx *ctx, struct out *o, char *const *netdevs, int nnetdevs)
{
	static const char *const words[] = { "present", "added", "failed", "absent" };
	struct module_result res[RXE_NMODULES];
	enum start_state *state = NULL;
	struct conf c = { 0 };
	struct rc_err e;
	struct nl *nl;
	int err;

	/* The file first: a broken file is reported before anything changes. */
	err = persist_load(ctx->config, &c, &e);
	if (err)
		return rc_fail(&e);
	persist_only_netdevs(&c, netdevs, nnetdevs);
	err = modules_load(res, &e);
	view_modules(o, res);
	if (err) {
		rc_fail(&e);
		goto out;
	}
	err = rc_netlink(ctx, &nl);
	if (err)
		goto out;
	state = calloc(c.n + 1, sizeof(*state));
	if (!state) {
		err = -ENOMEM;
		goto out;
	}
	err = persist_start(nl, ctx->config, &c, state, &e);
	if (err)
		rc_fail(&e);
	out_arr_open(o, "links");
	for (size_t i = 0; i < c.n; i++) {
		out_obj_open(o, NULL);
		out_str(o, "ifname", "link %s", c.e[i].name);
		out_str(o, "netdev", " netdev %s", c.e[i].netdev);
		out_str(o, "result", " %s", words[state[i]]);
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(o);
out:
	free(state);
	conf_free(&c);
	return err;
}

/* start and stop take netdevs: each checked before anything is touched. */
static int check_netdevs(const struct cli_args *a)
{
	int err = 0;

	for (int i = 0; !err && i < a->argc; i++)
		err = rc_check_name(a, "netdev", a->argv[i], false);
	return err;
}

int cmd_start(struct rc_ctx *ctx, const struct cli_args *a)
{
	int err = check_netdevs(a);

	if (err)
		return err;
	out_obj_open(ctx->out, NULL);
	err = start_run(ctx, ctx->out, a->argv, a->argc);
	out_obj_close(ctx->out);
	return err;
}

static bool model_carries_rxe(const struct model *m, const char *netdev)
{
	for (size_t i = 0; i < m->n; i++)
		if (dev_is_rxe(&m->devs[i]) && !strcmp(m->devs[i].netdev, netdev))
			return true;
	return false;
}

int cmd_stop(struct rc_ctx *ctx, const struct cli_args *a)
{
	const struct rdma_dev **rxe = NULL;
	struct model m = { 0 };
	enum kmod_state after;
	char **mine = calloc(a->argc + 1, sizeof(*mine));
	size_t n = 0, nmine = 0;
	struct rc_err e;
	struct nl *nl;
	int err = 0, ret = 0;

	err = check_netdevs(a);
	if (err || !mine) {
		free(mine);
		return err ? err : -ENOMEM;
	}
	err = rc_netlink(ctx, &nl);
	if (!err)
		err = rc_devices(ctx, &m);
	if (err) {
		free(mine);
		return err;
	}
	/* Netdevs named: their links only (a netdev without one has nothing to stop). */
	for (int i = 0; i < a->argc; i++)
		if (model_carries_rxe(&m, a->argv[i]))
			mine[nmine++] = a->argv[i];
	if (!a->argc || nmine)
		err = rxe_pick(nl, &m, mine, nmine, true, cli_flag(a, "wait"), &rxe, &n, &e);
	if (err) {
		rc_fail(&e);
		goto out;
	}
	out_obj_open(ctx->out, NULL);
	out_arr_open(ctx->out, "deleted");
	for (size_t i = 0; i < n; i++) {
		if (rxe_del(nl, rxe[i], &e)) {
			ret = rc_fail(&e);
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
		err = modules_unload("rdma_rxe", &after, &e);
		out_obj_open(ctx->out, "module");
		out_str(ctx->out, "module", "%s", "rdma_rxe");
		out_str(ctx->out, "state", " %s\n", err == -EBUSY ? "in use: left loaded" :
			err ? "failed" : after == KMOD_BUILTIN ? "built in" : "unloaded");
		out_obj_close(ctx->out);
		if (err && err != -EBUSY)
			ret = rc_fail(&e);
	}
	out_obj_close(ctx->out);
	err = ret;
out:
	free(mine);
	free(rxe);
	model_free(&m);
	return err;
}
