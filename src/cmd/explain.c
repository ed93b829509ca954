// SPDX-License-Identifier: GPL-2.0-or-later
/* explain WORDS|NUMBER: what a failing program's status, event, errno or rxe's log line means. */
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "model/failure.h"
#include "views/explain.h"

/* The installed libraries' own words for a status or an event. */
static const char *library_text(enum model_failure_kind k, int value)
{
	if (k == MODEL_FAILURE_WC_STATUS)
		return ibv_wc_status_str((enum ibv_wc_status)value);
	if (k == MODEL_FAILURE_CM_EVENT)
		return rdma_event_str((enum rdma_cm_event_type)value);
	return NULL;
}

int cmd_explain(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const struct model_failure *f[16];
	char text[1024] = "";
	size_t n, len = 0;

	for (int i = 0; i < a->argc; i++) {
		int w = snprintf(text + len, sizeof(text) - len, "%s%s", i ? " " : "", a->argv[i]);

		if (w < 0 || (size_t)w >= sizeof(text) - len)
			return cli_usage(a, "the words to explain are longer than %zu bytes: give the "
					 "line with the status or error alone", sizeof(text) - 1);
		len += (size_t)w;
	}
	n = model_failure_match(text, library_text, f, sizeof(f) / sizeof(f[0]));
	if (!n)
		return cli_usage(a, "nothing rdmactl knows is in '%s': give a work completion "
				 "status (12, IBV_WC_RETRY_EXC_ERR, 'transport retry counter "
				 "exceeded'), an rdma_cm event (RDMA_CM_EVENT_ADDR_ERROR), an errno "
				 "(ENOMEM, 'errno 12', 'error -110') or a line rdma_rxe logged "
				 "('moved to error state')", text);
	view_explain(ctx->out, f, n, library_text);
	return 0;
}
