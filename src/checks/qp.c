// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live QPs' checks: every QP in ERR or SQE, and every RC QP resending
 * with no answer, named with its owner, its likeliest cause, what that rests
 * on, and the fix; of the host (qps) or of one process (process-qps).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks/checks.h"
#include "kernel/clock.h"
#include "kernel/errname.h"
#include "kernel/nl.h"
#include "model/qp.h"
#include "model/qpdiag.h"

/*
 * How long a check watches whether rxe resends: some fifteen of rxe's retry
 * timeouts at 14 (67 ms), the rdma-core examples' and rping's.
 */
#define WATCH_MS 1000

/* At most this many QPs are named a check; the rest are counted. */
#define MAX_NAMED 16

/* One reading: the QPs and their ports' states and counters. */
struct reading {
	struct model_qps qs;
	struct model m;
	bool m_ok;
};

static void reading_free(struct reading *r)
{
	model_qps_free(&r->qs);
	if (r->m_ok)
		model_free(&r->m);
}

/* Reads the QPs and the ports into R: 0, or the netlink's error. */
static int read_now(struct check_ctx *c, struct reading *r)
{
	struct model_src src = { .root = c->o.root };
	char path[4096];
	int err;

	memset(r, 0, sizeof(*r));
	model_netlink_capture(c->o.root, path, sizeof(path));
	err = check_ctx_live(c) ? nl_open(&src.nl, NETLINK_RDMA) : nl_open_replay(path, &src.nl);
	if (!err)
		err = model_load_qps(&src, c->o.dev, &r->qs);
	nl_close(src.nl);
	if (err)
		return err;
	src.nl = NULL;
	r->m_ok = !model_load(&src, c->o.dev, (struct model_ask){ .ports = MODEL_PORTS_STATES,
								   .counters = true }, &r->m);
	return 0;
}

/*
 * Of the RC QPs in RTS that PID owns (0: any), how many (*RTS) and how many
 * could be resending (returned): one with no peer on this host, or one that
 * has sent its peer here more than the peer has taken in. A caught-up pair
 * owes nothing: no reading needs waiting for.
 */
static size_t could_resend(const struct model_qps *qs, int pid, size_t *rts)
{
	size_t n = 0;

	*rts = 0;
	for (size_t i = 0; i < qs->n; i++) {
		const struct rdma_qp *q = &qs->v[i];

		if (q->type != 2 || q->state != MODEL_QPS_RTS || (pid && q->pid != (uint32_t)pid))
			continue;
		++*rts;
		n += model_qp_owes(qs, i) != 0;
	}
	return n;
}

/* How many of NOW's QPs on the device of QP I are stalled as DIAG[] says. */
static size_t stalled_on(const struct model_qps *now, const struct model_qpdiag *diag, size_t i)
{
	size_t n = 0;

	for (size_t k = 0; k < now->n; k++)
		n += diag[k].trouble == MODEL_QPT_STALLED && !strcmp(now->v[k].dev, now->v[i].dev);
	return n;
}

static void report(struct check_ctx *c, const struct model_qps *now,
		   const struct model_qpdiag *diag, size_t i)
{
	const struct rdma_qp *q = &now->v[i];
	const struct model_qpdiag *d = &diag[i];
	size_t others = d->trouble == MODEL_QPT_STALLED ? stalled_on(now, diag, i) : 1;
	char who[64];

	if (d->trouble == MODEL_QPT_ERROR)
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
		   const struct model_qpdiag *diag, int pid)
{
	char list[512] = "", who[64];
	size_t n = 0;

	for (size_t i = 0; i < qs->n; i++) {
		const struct rdma_qp *q = &qs->v[i];

		if (diag[i].trouble != MODEL_QPT_NONE || (pid && q->pid != (uint32_t)pid) ||
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
 * system, watched for WATCH_MS when one could be resending. WHO names the
 * process in the verdict that all is well, or is NULL for the host.
 */
static void check_qps_of(struct check_ctx *c, int pid, const char *who)
{
	struct reading r[2];
	struct reading *now = &r[0], *before = NULL;
	struct model_qpdiag_memo facts = { 0 };
	struct model_qpdiag *diag;
	size_t mine = 0, bad = 0, rts, all;
	int err;

	err = read_now(c, &r[0]);
	if (err == -ENOMSG && !check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "the fixture holds no QP dump");
		return;
	}
	if (err) {
		check_report(c, V_SKIP, NULL, "the QPs cannot be read from the RDMA netlink (%s: %s)",
			     errname(err), strerror(-err));
		return;
	}
	/*
	 * PID's own QP may be the one resending while its peer owes: the peer
	 * took in its requests and its answers are what is lost. Any QP on
	 * the host that could be resending is watched for, then.
	 */
	could_resend(&r[0].qs, pid, &rts);
	if (could_resend(&r[0].qs, 0, &all) && check_ctx_live(c)) {
		mono_sleep_ms(WATCH_MS);
		if (!read_now(c, &r[1]))
			before = &r[0], now = &r[1];
	}
	diag = calloc(now->qs.n ? now->qs.n : 1, sizeof(*diag));
	if (!diag) {
		check_report(c, V_SKIP, NULL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < now->qs.n; i++) {
		const struct rdma_qp *q = &now->qs.v[i];
		const struct port *p = model_qpdiag_port(now->m_ok ? &now->m : NULL, q);
		const struct port *pb = before && before->m_ok ? model_qpdiag_port(&before->m, q) : NULL;

		/* Every QP, not PID's alone: how many of a device stalled together is told. */
		mine += !pid || q->pid == (uint32_t)pid;
		model_qpdiag_diagnose(&now->qs, i, before ? &before->qs : NULL,
				      model_qpdiag_facts_memo(&facts, p, pb), &diag[i]);
	}
	model_qpdiag_apportion(&now->qs, diag);
	for (size_t i = 0; i < now->qs.n; i++) {
		if (diag[i].trouble == MODEL_QPT_NONE ||
		    (pid && now->qs.v[i].pid != (uint32_t)pid))
			continue;
		if (bad++ < MAX_NAMED)
			report(c, &now->qs, diag, i);
	}
	if (bad > MAX_NAMED)
		check_report(c, V_WARN, "'rdmactl qp' lists them all", "%zu more QPs in trouble",
			     bad - MAX_NAMED);
	/* Read once: each QP that may owe its peer is named as not told, as qp's untold. */
	if (!before)
		untold(c, &now->qs, diag, pid);
	if (!bad)
		check_report(c, V_PASS, NULL, "%s%s%zu QP%s, none in error%s", who ? who : "",
			     who ? ": " : "", mine, mine == 1 ? "" : "s",
			     before ? ", none resending unanswered" :
			     !check_ctx_live(c) ? " (one reading: resending is not told)" :
			     rts ? ", none owing its peer a packet" : "");
	free(diag);
out:
	reading_free(&r[0]);
	if (now != &r[0])
		reading_free(&r[1]);
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
