// SPDX-License-Identifier: GPL-2.0-or-later
/* up: from nothing to a proven link: load, add, check, selftest, through the operations. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "views/check.h"
#include "views/link.h"
#include "views/selftest.h"
#include "views/service.h"
#include "ops/service.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "ops/link.h"
#include "selftest/selftest.h"

/* A step's output: plain text, on stdout, or on stderr when stdout has a report (-j, JUnit). */
static struct out *step(struct cmd_ctx *ctx, const char *title)
{
	FILE *f = ctx->json || ctx->report_on_stdout ? stderr : stdout;

	fprintf(f, "== %s\n", title);
	fflush(f);
	return out_new(f, false, false);
}

static int end_step(struct out *o, int err)
{
	int oerr = out_finish(o);

	return err ? err : oerr;
}

static int do_start(struct cmd_ctx *ctx)
{
	struct out *o = step(ctx, "rdmactl start");
	struct service_result r;
	struct op_err e;
	int err;

	if (!o)
		return -ENOMEM;
	err = service_start(&ctx->sys, ctx->config, NULL, 0, &r, &e);
	view_service_start(o, &r);
	if (err)
		cmd_fail(&e);
	service_result_free(&r);
	return end_step(o, err);
}

static int do_add(struct cmd_ctx *ctx, struct nl *nl, struct link_add_req *r)
{
	struct out *o = step(ctx, "rdmactl add --exist-ok");
	struct model m = { 0 };
	const struct rdma_dev *k;
	struct op_err e;
	int err;

	if (!o)
		return -ENOMEM;
	err = link_add(nl, r, &e);
	if (!err && (err = model_sys_load(&ctx->sys, NULL, (struct model_ask){ .source = MODEL_NETLINK,
									 .mtu = MODEL_MTU_LINK }, -1, &m)))
		op_err_dump(&e, err, nl_ext_msg(nl));
	if (err)
		cmd_fail(&e);
	else if ((k = model_find(&m, r->made)))
		view_link(o, k);
	model_free(&m);
	return end_step(o, err);
}

static int do_check(struct cmd_ctx *ctx, const char *dev)
{
	struct check_opts opts = { .dev = dev, .gid_index = -1 };
	struct out *o = step(ctx, "rdmactl check");
	struct check_ctx c;
	size_t count[4];

	if (!o)
		return -ENOMEM;
	checks_run(&opts, &ctx->sys, &c);
	view_check(o, &c, count);
	check_ctx_free(&c);
	return end_step(o, count[V_FAIL] ? -EAGAIN : 0);
}

static int do_selftest(struct cmd_ctx *ctx, const char *dev)
{
	struct out *o = step(ctx, "rdmactl selftest");
	struct st_report r;
	struct st_opts opts;
	int err;

	if (!o)
		return -ENOMEM;
	st_opts_init(&opts, dev);
	err = st_loopback(&opts, &r);
	view_selftest_alone(o, &opts, &r);
	return end_step(o, err ? -EIO : 0);
}

int cmd_up_netdev(const struct cli_args *a, const char *given, char netdev[IF_NAMESIZE + 1])
{
	struct netdev nd;
	struct op_err e;

	*netdev = '\0';
	if (given) {
		int err = cmd_valid_name(a, "netdev", given, false);

		if (err)
			return err;
		snprintf(netdev, IF_NAMESIZE + 1, "%s", given);
	} else {
		netdev_default_route("", netdev, IF_NAMESIZE + 1);
		if (!*netdev)
			return cli_usage(a, "there is no default route to take the netdev from: "
					 "name it, 'rdmactl %s NETDEV'", a->path);
	}
	if (netdev_get("", netdev, &nd))
		return cmd_fail((op_err_set(&e, -ENODEV, NULL, "there is no network device named "
					    "%s ('ip link' lists them); nothing was done", netdev), &e));
	if (!netdev_is_ethernet(&nd))
		return cmd_fail((op_err_set(&e, -EINVAL, NULL, "%s is not an Ethernet device: an "
					    "rxe port on it carries no RoCE traffic to other hosts; "
					    "nothing was done", netdev), &e));
	return 0;
}

int cmd_up_steps(struct cmd_ctx *ctx, struct link_add_req *r, const char **failed)
{
	struct nl *nl;
	int err;

	*failed = NULL;
	err = do_start(ctx);
	if (!err)
		err = cmd_netlink(ctx, &nl);
	if (err) {
		*failed = "start";
		return err;
	}
	err = do_add(ctx, nl, r);
	if (err) {
		*failed = "add";
		return err;
	}
	err = do_check(ctx, r->made);
	if (err) {
		*failed = "check";
		return err;
	}
	err = do_selftest(ctx, r->made);
	if (err)
		*failed = "selftest";
	return err;
}

int cmd_up(struct cmd_ctx *ctx, const struct cli_args *a)
{
	char netdev[IF_NAMESIZE + 1];
	struct link_add_req r = { .exist_ok = true, .netdev = netdev };
	const char *failed;
	/* Everything is checked before anything is loaded. */
	int err = cmd_up_netdev(a, a->argc ? a->argv[0] : NULL, netdev);

	if (err)
		return err;
	err = cmd_up_steps(ctx, &r, &failed);
	view_up(ctx->out, netdev, r.made, failed);
	return err;
}
