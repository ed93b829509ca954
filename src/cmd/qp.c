// SPDX-License-Identifier: GPL-2.0-or-later
/* qp [DEV]: every live QP, its owner and its peer on this host. */
#include <errno.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "model/qp.h"
#include "ops/explain.h"
#include "views/qp.h"

int cmd_qp(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct model_src src = cmd_model_src(ctx);
	struct model_qps q;
	struct op_err e;
	int err;

	if (dev && (err = cmd_check_name(a, "device name", dev, true)))
		return err;
	err = cmd_netlink(ctx, &src.nl);
	if (err)
		return err;
	err = model_load_qps(&src, dev, &q);
	if (err == -ENODEV && dev)
		return cmd_fail((explain_model_load(&e, err, ctx->sysfs_root, dev), &e));
	if (err)
		return cmd_fail((explain_qp_dump(&e, err, nl_ext_msg(src.nl)), &e));
	view_qp(ctx->out, &q);
	model_qps_free(&q);
	return 0;
}
