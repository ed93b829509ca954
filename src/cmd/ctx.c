// SPDX-License-Identifier: GPL-2.0-or-later
/* What commands share: the netlink socket, failures said once, names checked. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "kernel/errname.h"
#include "model/model.h"
#include "model/names.h"
#include "ops/op_err.h"

int cmd_netlink(struct cmd_ctx *ctx, struct nl **nlp)
{
	struct op_err e;
	int err = model_sys_rdma(&ctx->sys, nlp);

	return err ? cmd_fail((op_err_netlink_open(&e, err, ctx->sys.root), &e)) : 0;
}

struct model_src cmd_model_src(const struct cmd_ctx *ctx)
{
	return model_sys_src(&ctx->sys);
}

int cmd_device(struct cmd_ctx *ctx, const char *only, struct model_ask ask, struct model *m)
{
	struct op_err e;
	struct nl *nl;
	int err = cmd_netlink(ctx, &nl);

	if (err)
		return err;
	ask.source = MODEL_NETLINK;
	err = model_sys_load(&ctx->sys, only, ask, -1, m);
	if (err == -ENODEV && only)
		return err;	/* the caller says what that means */
	return err ? cmd_fail((op_err_dump(&e, err, nl_ext_msg(nl)), &e)) : 0;
}

int cmd_devices(struct cmd_ctx *ctx, struct model *m)
{
	return cmd_device(ctx, NULL, (struct model_ask){ .source = MODEL_NETLINK }, m);
}

int cmd_fail(const struct op_err *e)
{
	int err = e->err < 0 ? -e->err : e->err;

	/* A tool's failure (ETOOL) carries its own words; an errno is named. */
	pr_err_cause(e->what, err == ETOOL ? NULL : errname(err), strerror(err), e->ext);
	return e->err;
}

int cmd_valid_field(const struct cli_args *a, const char *what, const char *name)
{
	const char *why = model_names_conf_field_invalid(name);

	return why ? cli_usage(a, "%s '%s': %s", what, name, why) : 0;
}

int cmd_valid_name(const struct cli_args *a, const char *what, const char *name, bool rdma)
{
	const char *why = rdma ? model_names_rdma_invalid(name) : model_names_netdev_invalid(name);

	if (!why)
		return 0;
	return cli_usage(a, "%s '%s': %s", what, name, why);
}

int cmd_junit_asked(const struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *format = cli_str(a, "format");

	if (!format || strcmp(format, "junit"))
		return 0;
	if (ctx->json)
		return cli_usage(a, "-j prints JSON: --format junit is XML, leave one out");
	return 1;
}

int cmd_junit_written(const char *cmd, int err)
{
	if (err && !out_reader_gone(err)) {
		char what[64];

		snprintf(what, sizeof(what), "%s: cannot write the JUnit report", cmd);
		pr_err_cause(what, errname(-err), strerror(-err), NULL);
	}
	return err;
}
