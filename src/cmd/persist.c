// SPDX-License-Identifier: GPL-2.0-or-later
/* persist list|add|del: the persistent-links file, without touching the kernel. */
#include <string.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "views/persist.h"
#include "model/names.h"
#include "ops/op_err.h"
#include "ops/persist.h"

/* The file's links: plain text for list, JSON alone after an edit (one document always). */
static int print_links(struct cmd_ctx *ctx, bool plain)
{
	struct conf c;
	struct op_err e;

	if (persist_load(ctx->config, &c, &e))
		return cmd_fail(&e);
	view_persist_links(ctx->out, &c, plain);
	model_conf_free(&c);
	return 0;
}

int cmd_persist_list(struct cmd_ctx *ctx, const struct cli_args *a)
{
	(void)a;
	return print_links(ctx, true);
}

int cmd_persist_add(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct op_err e;
	int err;

	if ((err = cmd_valid_name(a, "device name", a->argv[0], true)) ||
	    (err = cmd_valid_name(a, "netdev", a->argv[1], false)) ||
	    (err = cmd_valid_field(a, "device name", a->argv[0])) ||
	    (err = cmd_valid_field(a, "netdev", a->argv[1])))
		return err;
	if (persist_add(ctx->config, a->argv[0], a->argv[1], &e))
		return cmd_fail(&e);
	view_persist_edited(ctx->config);
	return print_links(ctx, false);
}

int cmd_persist_del(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct op_err e;

	/* A word is a device name or a netdev: refused when it can be neither. */
	for (int i = 0; i < a->argc; i++)
		if (model_names_rdma_invalid(a->argv[i]) && model_names_netdev_invalid(a->argv[i]))
			return cmd_valid_name(a, "name", a->argv[i], true);
	if (persist_del(ctx->config, a->argv, a->argc, &e))
		return cmd_fail(&e);
	view_persist_edited(ctx->config);
	return print_links(ctx, false);
}

int cmd_persist_wants(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct op_err e;

	if (persist_wants(ctx->config, a->argv[0], &e))
		return cmd_fail(&e);
	view_persist_wants(ctx->out, a->argv[0]);
	return 0;
}
