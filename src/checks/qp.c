// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live QPs' checks: every QP in ERR or SQE, and every RC QP resending
 * with no answer, named with its owner, its likeliest cause, what that rests
 * on, and the fix; of the host (qps) or of one process (process-qps).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "kernel/errname.h"
#include "kernel/nl.h"
#include "diag/qpwatch.h"

/* At most this many QPs are named a check; the rest are counted. */
#define MAX_NAMED 16

/*
 * The QPs of the host, watched as a check watches them: on the running
 * system read again when one could be resending, and diagnosed. 0, or the
 * netlink's error.
 */
static int watch(struct check_ctx *c, struct diag_qpwatch *w)
{
	struct model_src src = model_sys_src(c->sys);
	int err = model_sys_rdma(c->sys, &src.nl);

	if (err)
		return err;
	return diag_qpwatch(&src, c->o.dev, check_ctx_live(c) ? DIAG_QPWATCH_CHECK_MS : 0, true, w);
}

static void report(struct check_ctx *c, const struct diag_qpwatch *w, size_t i)
{
	const struct rdma_qp *q = &w->now->qs.v[i];
	const struct diag_qp *d = &w->diag[i];
	size_t others = d->trouble == DIAG_QPT_STALLED ? diag_qpwatch_stalled_on(w, i) : 1;
	char who[64];

	if (d->trouble == DIAG_QPT_ERROR)
		check_report(c, V_FAIL, d->fix, "QP %u (%s) of %s on %s is in %s: %s (%s: %s)",
			     q->qpn, model_qp_type_name(q->type), model_qp_owner(q, who, sizeof(who)),
			     q->dev, model_qp_state_name(q->state), d->cause,
			     d->sure ? "certain" : "likely", d->evidence);
	else if (others == 1)
		check_report(c, V_FAIL, d->fix, "QP %u (RC) of %s on %s is in RTS and resending "
			     "with no answer: %s (likely: %s)", q->qpn,
			     model_qp_owner(q, who, sizeof(who)), q->dev, d->cause, d->evidence);
	else
		check_report(c, V_WARN, d->fix, "QP %u (RC) of %s on %s may be resending with no "
			     "answer, one of %zu on %s that made no progress while it resent (rxe "
			     "counts resends per device, not per QP): if so, %s (%s)", q->qpn,
			     model_qp_owner(q, who, sizeof(who)), q->dev, others, q->dev, d->cause,
			     d->evidence);
}

/*
 * What one reading cannot tell: the RC QPs in RTS of PID (0: any) that may
 * owe their peer packets (qp's "untold"), named in one line, skipped.
 */
static void untold(struct check_ctx *c, const struct model_qps *qs,
		   const struct diag_qp *diag, int pid)
{
	char list[512] = "", who[64];
	size_t n = 0;

	for (size_t i = 0; i < qs->n; i++) {
		const struct rdma_qp *q = &qs->v[i];

		if (diag[i].trouble != DIAG_QPT_NONE || (pid && q->pid != (uint32_t)pid) ||
		    strcmp(model_qp_verdict(qs, i), "untold"))
			continue;
		if (n++ < MAX_NAMED)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%sQP %u of %s on %s",
				 n > 1 ? ", " : "", q->qpn, model_qp_owner(q, who, sizeof(who)), q->dev);
	}
	if (n)
		check_report(c, V_SKIP, NULL, "%s%s in RTS, read once: whether %s resending with no "
			     "answer is not told (its peer is not on this host, or is behind; a second "
			     "reading with the ports' counters tells, on the running system)", list,
			     n > MAX_NAMED ? " and more" : "", n == 1 ? "it is" : "they are");
}

/*
 * The QPs that PID owns (0: every one) in trouble, reported; on the running
 * system, watched a while when one could be resending. WHO names the
 * process in the verdict that all is well, or is NULL for the host.
 */
static void check_qps_of(struct check_ctx *c, int pid, const char *who)
{
	struct diag_qpwatch w;
	const struct model_qps *now;
	size_t mine = 0, bad = 0, rts;
	int err;

	/*
	 * PID's own QP may be the one resending while its peer owes: the peer
	 * took in its requests and its answers are what is lost. Any QP on
	 * the host that could be resending is watched for, then; and every QP
	 * is diagnosed, not PID's alone: how many of a device stalled
	 * together is told.
	 */
	err = watch(c, &w);
	if (err == -ENOMSG && !check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "the fixture holds no QP dump");
		return;
	}
	if (err == -ENOMEM) {
		check_report(c, V_SKIP, NULL, "out of memory");
		return;
	}
	if (err) {
		check_report(c, V_SKIP, NULL, "the QPs cannot be read from the RDMA netlink (%s: %s)",
			     errname(err), strerror(-err));
		return;
	}
	now = &w.now->qs;
	diag_qpwatch_could_resend(&w.r[0].qs, pid, &rts);
	for (size_t i = 0; i < now->n; i++) {
		mine += !pid || now->v[i].pid == (uint32_t)pid;
		if (w.diag[i].trouble == DIAG_QPT_NONE || (pid && now->v[i].pid != (uint32_t)pid))
			continue;
		if (bad++ < MAX_NAMED)
			report(c, &w, i);
	}
	if (bad > MAX_NAMED)
		check_report(c, V_WARN, "'rdmactl qp' lists them all", "%zu more QPs in trouble",
			     bad - MAX_NAMED);
	/* Read once: each QP that may owe its peer is named as not told, as qp's untold. */
	if (!w.before)
		untold(c, now, w.diag, pid);
	if (!bad)
		check_report(c, V_PASS, NULL, "%s%s%zu QP%s, none in error%s", who ? who : "",
			     who ? ": " : "", mine, mine == 1 ? "" : "s",
			     w.before ? ", none resending unanswered" :
			     !check_ctx_live(c) ? " (one reading: resending is not told)" :
			     rts ? ", none owing its peer a packet" : "");
	diag_qpwatch_free(&w);
}

void check_qps(struct check_ctx *c)
{
	check_qps_of(c, 0, NULL);
}

void check_process_qps(struct check_ctx *c)
{
	const struct proc_info *p = check_ctx_proc(c);

	if (p) {
		char who[64];

		check_qps_of(c, p->pid, check_proc_who(p, who, sizeof(who)));
	}
}
