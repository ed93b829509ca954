// SPDX-License-Identifier: GPL-2.0-or-later
/* add, del, link show: rxe links. Parse, call the operations, print. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cli/rdmactl.h"
#include "cmd/views.h"
#include "kernel/nl.h"
#include "model/conf.h"
#include "model/link.h"
#include "ops/explain.h"
#include "ops/persist.h"
#include "ops/rxe.h"

int cmd_add(struct rc_ctx *ctx, const struct cli_args *a)
{
	struct rxe_add_req r = { .exist_ok = cli_flag(a, "exist-ok"),
				 .force = cli_flag(a, "force") };
	struct link_list l = { 0 };
	const struct rdma_link *k;
	struct rc_err e;
	struct nl *nl;
	int err;

	/* [NAME] NETDEV, or iproute2's NAME type rxe netdev NETDEV. */
	if (a->argc == 5 && !strcmp(a->argv[1], "type") && !strcmp(a->argv[3], "netdev")) {
		if (strcmp(a->argv[2], "rxe"))
			return cli_usage(a, "rdmactl makes links of type rxe only, not '%s'",
					 a->argv[2]);
		r.name = a->argv[0];
		r.netdev = a->argv[4];
	} else if (a->argc <= 2) {
		r.name = a->argc == 2 ? a->argv[0] : NULL;
		r.netdev = a->argv[a->argc - 1];
	} else {
		return cli_usage(a, "expected [NAME] NETDEV, or NAME type rxe netdev NETDEV");
	}
	if ((r.name && (err = rc_check_name(a, "device name", r.name, true))) ||
	    (err = rc_check_name(a, "netdev", r.netdev, false)))
		return err;

	err = rc_netlink(ctx, &nl);
	if (err)
		return err;
	err = cli_flag(a, "persist") ? persist_add_link(nl, ctx->config, &r, &e) :
				       rxe_add(nl, &r, &e);
	if (err)
		return rc_fail(&e);
	err = rc_links(ctx, &l);
	if (err)
		return err;
	k = links_find_dev(&l, r.made);
	if (k)
		view_link(ctx->out, ctx->sysfs_root, k);
	else
		err = rc_fail((rc_err_set(&e, -ENODEV, NULL, "%s vanished right after it was "
					  "created", r.made), &e));
	links_free(&l);
	return err;
}

int cmd_del(struct rc_ctx *ctx, const struct cli_args *a)
{
	const char *netdev = cli_str(a, "netdev");
	bool all = cli_flag(a, "all"), persist = cli_flag(a, "persist");
	const struct rdma_link **targets = NULL;
	struct link_list l = { 0 };
	struct conf c = { 0 };
	struct rc_err e;
	size_t n = 0;
	struct nl *nl;
	int err, ret = 0;

	if ((a->argc > 0) + !!netdev + all != 1)
		return cli_usage(a, "give NAME..., --netdev NETDEV or --all");
	for (int i = 0; i < a->argc; i++)
		if ((err = rc_check_name(a, "device name", a->argv[i], true)))
			return err;
	if (netdev && (err = rc_check_name(a, "netdev", netdev, false)))
		return err;

	err = rc_netlink(ctx, &nl);
	if (err)
		return err;
	/* The file first: a broken one is reported before anything changes. */
	if (persist && (err = persist_load(ctx->config, &c, &e)))
		return rc_fail(&e);
	err = rc_links(ctx, &l);
	if (err)
		goto out;
	targets = calloc(l.n + 1, sizeof(*targets));
	if (!targets) {
		err = -ENOMEM;
		goto out;
	}
	/* Every target is checked before anything is deleted. */
	if (a->argc == 0)
		err = rxe_select(&l, netdev, !!netdev, targets, &n, &e);
	for (int i = 0; !err && i < a->argc; i++)
		err = rxe_select(&l, a->argv[i], false, targets, &n, &e);
	/* A device a process holds open would hang the delete: nothing is deleted. */
	if (!err && !cli_flag(a, "wait"))
		err = rxe_refuse_busy(targets, n, &e);
	if (err) {
		rc_fail(&e);
		goto out;
	}
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < n; i++) {
		err = rxe_del(nl, targets[i], &e);
		if (err) {
			ret = rc_fail(&e);
			continue;
		}
		out_str(ctx->out, NULL, NULL, targets[i]->p.dev_name);
		if (persist)
			conf_del(&c, targets[i]->p.dev_name);
	}
	out_arr_close(ctx->out);
	if (persist && (err = persist_save(ctx->config, &c, &e)))
		ret = rc_fail(&e);
	err = ret;
out:
	free(targets);
	links_free(&l);
	conf_free(&c);
	return err;
}

int cmd_link_show(struct rc_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct link_list l = { 0 };
	const struct rdma_link *k = NULL;
	struct rc_err e;
	int err;

	if (dev && (err = rc_check_name(a, "device name", dev, true)))
		return err;
	err = rc_links(ctx, &l);
	if (err)
		return err;
	if (dev && (!(k = links_find_dev(&l, dev)) || !k->is_rxe)) {
		links_free(&l);
		return rc_fail((rc_err_set(&e, -ENODEV, NULL, k ? "%s is not an rxe device" :
					   "there is no RDMA device named %s ('rdmactl show' lists "
					   "them)", dev), &e));
	}
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < l.n; i++)
		if (l.v[i].is_rxe && (!dev || !strcmp(l.v[i].p.dev_name, dev)))
			view_link(ctx->out, ctx->sysfs_root, &l.v[i]);
	out_arr_close(ctx->out);
	links_free(&l);
	return 0;
}
