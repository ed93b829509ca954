// SPDX-License-Identifier: GPL-2.0-or-later
/* The one observer of live QPs: read, read again, diagnose (qpwatch.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/clock.h"
#include "diag/qpwatch.h"

int diag_qpwatch_read_qps(const struct model_src *src, const char *dev, struct diag_qpread *r)
{
	memset(r, 0, sizeof(*r));
	return model_load_qps(src, dev, &r->qs);
}

int diag_qpwatch_read_ports(const struct model_src *src, const char *dev, bool counters, bool mtu,
		      struct diag_qpread *r)
{
	struct model_src s = *src;
	int err;

	s.nl = NULL;
	err = model_load(&s, dev, (struct model_ask){ .ports = MODEL_PORTS_STATES,
						      .counters = counters,
						      .mtu = mtu ? MODEL_MTU_LINK : MODEL_MTU_NONE },
			 &r->m);
	r->m_ok = !err;
	return err;
}

/* The ports of R's QPs, with their counters: what a diagnosis reads; R without them on failure. */
static void read_ports(const struct model_src *src, const char *dev, struct diag_qpread *r)
{
	diag_qpwatch_read_ports(src, dev, true, false, r);
}

void diag_qpwatch_read_free(struct diag_qpread *r)
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

struct diag_qp *diag_qpwatch_diagnose(const struct diag_qpread *now,
				     const struct diag_qpread *before)
{
	struct diag_qp_memo facts = { 0 };
	struct diag_qp *diag = calloc(now->qs.n ? now->qs.n : 1, sizeof(*diag));

	if (!diag)
		return NULL;
	for (size_t i = 0; i < now->qs.n; i++) {
		const struct rdma_qp *q = &now->qs.v[i];
		const struct port *p = diag_qp_port(now->m_ok ? &now->m : NULL, q);
		const struct port *pb = before && before->m_ok ? diag_qp_port(&before->m, q) :
				       NULL;

		diag_qp_diagnose(&now->qs, i, before ? &before->qs : NULL,
				      diag_qp_facts_memo(&facts, p, pb), &diag[i]);
	}
	diag_qp_apportion(&now->qs, diag);
	return diag;
}

int diag_qpwatch(const struct model_src *src, const char *dev, unsigned int ms, bool diagnose,
		  struct diag_qpwatch *w)
{
	size_t rts;
	bool again;
	int err;

	memset(w, 0, sizeof(*w));
	w->now = &w->r[0];
	err = diag_qpwatch_read_qps(src, dev, &w->r[0]);
	if (err)
		return err;
	again = ms && diag_qpwatch_could_resend(&w->r[0].qs, 0, &rts);
	if (again || diagnose)
		read_ports(src, dev, &w->r[0]);
	if (again) {
		mono_sleep_ms(ms);
		if (!diag_qpwatch_read_qps(src, dev, &w->r[1])) {
			read_ports(src, dev, &w->r[1]);
			w->before = &w->r[0];
			w->now = &w->r[1];
		}
	}
	if ((diagnose || w->before) && !(w->diag = diag_qpwatch_diagnose(w->now, w->before))) {
		diag_qpwatch_free(w);
		return -ENOMEM;
	}
	return 0;
}

void diag_qpwatch_free(struct diag_qpwatch *w)
{
	diag_qpwatch_read_free(&w->r[0]);
	diag_qpwatch_read_free(&w->r[1]);
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
