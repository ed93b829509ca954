// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qp [DEV]: every live QP, its owner and its peer on this host; a second
 * look, 300 ms on, when one of them could be resending unanswered.
 */
#include <errno.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "model/qp.h"
#include "model/qpdiag.h"
#include "ops/explain.h"
#include "views/qp.h"

/*
 * The second look's delay, when an RC QP could be resending: some four of
 * rxe's retry timeouts at 14 (67 ms), the rdma-core examples' and rping's.
 */
#define QP_WATCH_MS 300

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
	/* One reading cannot tell a QP resending from one idle: a second look, live. */
	if (!*ctx->sysfs_root)
		model_qpdiag_watch(&src, dev, &q, QP_WATCH_MS);
	view_qp(ctx->out, &q);
	model_qps_free(&q);
	return 0;
}
