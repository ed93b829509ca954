// SPDX-License-Identifier: GPL-2.0-or-later
/* The live QPs: a row a QP, with its owner, its peer on this host and a verdict (plain and JSON). */
#include <inttypes.h>
#include <string.h>

#include "cli/out.h"
#include "model/qp.h"
#include "views/qp.h"

void view_qp_owner(struct out *o, const char *key, const char *label, const struct rdma_qp *q)
{
	out_obj_open(o, key);
	out_text(o, "%s", label);
	if (q->pid) {
		out_u64(o, "pid", "pid %" PRIu64, q->pid);
		/* Its command unknown: null in JSON; in text, "ended" where it has. */
		if (!*q->comm && q->owner_ended) {
			out_str(o, "comm", NULL, NULL);
			out_text(o, " (ended)");
		} else {
			out_str(o, "comm", " (%s)", *q->comm ? q->comm : NULL);
		}
	} else {
		out_str(o, "pid", NULL, NULL);	/* the kernel's: no process */
		out_str(o, "comm", "[%s]", *q->comm ? q->comm : NULL);
	}
	out_obj_close(o);
}

static void psn(struct out *o, const char *key, const char *label, bool has, uint32_t v)
{
	if (has)
		out_u64(o, key, label, v);
	else
		out_str(o, key, NULL, NULL);
}

void view_qp(struct out *o, const struct model_qps *qs)
{
	size_t untold = 0;

	out_arr_open(o, NULL);
	for (size_t i = 0; i < qs->n; i++) {
		const struct rdma_qp *q = &qs->v[i];
		const char *verdict;

		out_obj_open(o, NULL);
		out_str(o, "ifname", "%s", q->dev);
		if (q->port)
			out_u64(o, "port", "/%" PRIu64, q->port);
		else
			out_str(o, "port", "/%s", NULL);
		out_u64(o, "qpn", " qpn %" PRIu64, q->qpn);
		out_str(o, "type", " %s", model_qp_type_name(q->type));
		out_str(o, "state", " %s", model_qp_state_name(q->state));
		view_qp_owner(o, "owner", " ", q);
		psn(o, "rqpn", " rqpn %" PRIu64, q->has_rqpn, q->rqpn);
		psn(o, "sq_psn", " sq_psn %" PRIu64, q->has_sq_psn, q->sq_psn);
		psn(o, "rq_psn", " rq_psn %" PRIu64, q->has_rq_psn, q->rq_psn);
		if (q->peer >= 0) {
			const struct rdma_qp *p = &qs->v[q->peer];

			out_obj_open(o, "peer");
			out_str(o, "ifname", " peer %s", p->dev);
			out_u64(o, "qpn", " qpn %" PRIu64, p->qpn);
			out_str(o, "state", " %s", model_qp_state_name(p->state));
			view_qp_owner(o, "owner", " ", p);
			out_obj_close(o);
		} else {
			out_str(o, "peer", NULL, NULL);
		}
		verdict = model_qp_verdict(qs, i);
		out_str(o, "verdict", " %s", verdict);
		untold += !strcmp(verdict, "untold");
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_text(o, "%zu QP%s\n", qs->n, qs->n == 1 ? "" : "s");
	if (untold)
		out_text(o, "untold: read once (a fixture, or no counters to compare), an RC QP "
			 "whose peer is not on this host, or is behind, may be resending unanswered "
			 "or idle: one reading cannot tell\n");
}
