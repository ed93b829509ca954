// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qp [DEV]: every live QP, its owner and its peer on this host; a second
 * look, 300 ms on, when one of them could be resending unanswered.
 */
#include <errno.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "diag/qpwatch.h"
#include "ops/op_err.h"
#include "views/qp.h"

int cmd_qp(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct model_src src = cmd_model_src(ctx);
	struct diag_qpwatch w;
	struct op_err e;
	int err;

	if (dev && (err = cmd_valid_name(a, "device name", dev, true)))
		return err;
	err = cmd_netlink(ctx, &src.nl);
	if (err)
		return err;
	/* One reading cannot tell a QP resending from one idle: a second look, live. */
	err = diag_qpwatch(&src, dev, model_sys_live(&ctx->sys) ? DIAG_QPWATCH_GLANCE_MS : 0, false, &w);
	if (err == -ENODEV && dev)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, dev), &e));
	if (err)
		return cmd_fail((op_err_qp_dump(&e, err, nl_ext_msg(src.nl)), &e));
	diag_qpwatch_mark(&w);
	view_qp(ctx->out, &w.now->qs);
	diag_qpwatch_free(&w);
	return 0;
}
