// SPDX-License-Identifier: GPL-2.0-or-later
/* The one observer of live QPs: read, read again, diagnose (qpwatch.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/clock.h"
#include "diag/qpwatch.h"

/*
 * The ports of R's QPs: their states and counters, from sysfs. The QPs are
 * read first: rxe counts a failure before it moves the QP to ERR, so
 * counters read after the states are never older than them.
 */
static void read_ports(const struct model_src *src, const char *dev, struct diag_qpread *r)
{
	struct model_src s = *src;

	s.nl = NULL;
	r->m_ok = !model_load(&s, dev, (struct model_ask){ .ports = MODEL_PORTS_STATES,
							    .counters = true }, &r->m);
}

static void read_free(struct diag_qpread *r)
{
	model_qps_free(&r->qs);
	if (r->m_ok)
		model_free(&r->m);
	memset(r, 0, sizeof(*r));
}

size_t diag_qpwatch_could_resend(const struct model_qps *qs, int pid, size_t *rts)
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

/* Each QP of W's last reading diagnosed against the first: -ENOMEM, or 0. */
static int diagnose_all(struct diag_qpwatch *w)
{
	const struct diag_qpread *now = w->now, *before = w->before;
	struct diag_qp_memo facts = { 0 };

	w->diag = calloc(now->qs.n ? now->qs.n : 1, sizeof(*w->diag));
	if (!w->diag)
		return -ENOMEM;
	for (size_t i = 0; i < now->qs.n; i++) {
		const struct rdma_qp *q = &now->qs.v[i];
		const struct port *p = diag_qp_port(now->m_ok ? &now->m : NULL, q);
		const struct port *pb = before && before->m_ok ? diag_qp_port(&before->m, q) :
				       NULL;

		diag_qp_diagnose(&now->qs, i, before ? &before->qs : NULL,
				      diag_qp_facts_memo(&facts, p, pb), &w->diag[i]);
	}
	diag_qp_apportion(&now->qs, w->diag);
	return 0;
}

int diag_qpwatch(const struct model_src *src, const char *dev, unsigned int ms, bool diagnose,
		  struct diag_qpwatch *w)
{
	size_t rts;
	bool again;
	int err;

	memset(w, 0, sizeof(*w));
	w->now = &w->r[0];
	err = model_load_qps(src, dev, &w->r[0].qs);
	if (err)
		return err;
	again = ms && diag_qpwatch_could_resend(&w->r[0].qs, 0, &rts);
	if (again || diagnose)
		read_ports(src, dev, &w->r[0]);
	if (again) {
		mono_sleep_ms(ms);
		if (!model_load_qps(src, dev, &w->r[1].qs)) {
			read_ports(src, dev, &w->r[1]);
			w->before = &w->r[0];
			w->now = &w->r[1];
		}
	}
	if ((diagnose || w->before) && diagnose_all(w)) {
		diag_qpwatch_free(w);
		return -ENOMEM;
	}
	return 0;
}

void diag_qpwatch_free(struct diag_qpwatch *w)
{
	read_free(&w->r[0]);
	read_free(&w->r[1]);
	free(w->diag);
	memset(w, 0, sizeof(*w));
}

size_t diag_qpwatch_stalled_on(const struct diag_qpwatch *w, size_t i)
{
	const struct model_qps *qs = &w->now->qs;
	size_t n = 0;

	if (!w->diag)
		return 0;
	for (size_t k = 0; k < qs->n; k++)
		n += w->diag[k].trouble == DIAG_QPT_STALLED && !strcmp(qs->v[k].dev, qs->v[i].dev);
	return n;
}

void diag_qpwatch_mark(struct diag_qpwatch *w)
{
	struct model_qps *qs = &w->now->qs;

	if (!w->before)
		return;
	for (size_t i = 0; i < qs->n; i++) {
		struct rdma_qp *q = &qs->v[i];

		if (q->type != 2 || q->state != MODEL_QPS_RTS)
			continue;
		if (w->diag[i].trouble != DIAG_QPT_STALLED)
			q->resend = MODEL_QPR_NO;
		else
			q->resend = diag_qpwatch_stalled_on(w, i) > 1 ? MODEL_QPR_MAYBE : MODEL_QPR_YES;
	}
}
