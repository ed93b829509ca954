// SPDX-License-Identifier: GPL-2.0-or-later
/* What changed between two readings, as monitor's events; each said once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/counter.h"
#include "diag/monitor.h"

static const struct port *find_port(const struct rdma_dev *d, uint32_t num)
{
	for (size_t k = 0; d && k < d->nports; k++)
		if (d->ports[k].num == num)
			return &d->ports[k];
	return NULL;
}

static void diff_devices(const struct model *a, const struct model *b, monitor_emit emit,
			 void *arg)
{
	for (size_t i = 0; i < a->n; i++)
		if (!model_find(b, a->devs[i].name))
			emit(&(struct monitor_event){ .kind = MON_DEVICE_REMOVED, .dev = &a->devs[i] },
			     arg);
	for (size_t i = 0; i < b->n; i++) {
		const struct rdma_dev *d = &b->devs[i], *was = model_find(a, d->name);

		if (!was) {
			emit(&(struct monitor_event){ .kind = MON_DEVICE_ADDED, .dev = d }, arg);
			continue;
		}
		for (size_t k = 0; k < d->nports; k++) {
			const struct port *p = &d->ports[k], *o = find_port(was, p->num);
			struct monitor_event e = { .dev = d, .port = p };

			if (!o)
				continue;
			if (p->state != o->state) {
				e.kind = MON_PORT_STATE;
				e.from = model_port_state_name(o->state);
				e.to = model_port_state_name(p->state);
				emit(&e, arg);
			}
			if (strcmp(p->operstate, o->operstate) && *p->operstate && *o->operstate) {
				e.kind = MON_NETDEV_STATE;
				e.from = o->operstate;
				e.to = p->operstate;
				emit(&e, arg);
			}
			if (p->netdev_mtu != o->netdev_mtu && p->netdev_mtu > 0 && o->netdev_mtu > 0) {
				e.kind = MON_NETDEV_MTU;
				e.from_mtu = o->netdev_mtu;
				e.to_mtu = p->netdev_mtu;
				emit(&e, arg);
			}
		}
	}
}

static const struct gid_slot *find_gid(const struct port *p, const struct gid_slot *g)
{
	for (size_t i = 0; p && i < p->ngids; i++)
		if (!p->gids[i].empty && p->gids[i].index == g->index &&
		    !memcmp(p->gids[i].raw, g->raw, sizeof(g->raw)) &&
		    !strcmp(p->gids[i].type, g->type))
			return &p->gids[i];
	return NULL;
}

/* The GIDs of FROM's ports that TO's do not have, each emitted as KIND. */
static void gids_gone(const struct model *from, const struct model *to, enum monitor_kind kind,
		      monitor_emit emit, void *arg)
{
	for (size_t i = 0; i < from->n; i++) {
		const struct rdma_dev *d = &from->devs[i], *other = model_find(to, d->name);

		for (size_t k = 0; other && k < d->nports; k++) {
			const struct port *p = &d->ports[k], *o = find_port(other, p->num);

			if (!o || !p->gids_known || !o->gids_known)
				continue;
			for (size_t g = 0; g < p->ngids; g++)
				if (!p->gids[g].empty && !find_gid(o, &p->gids[g]))
					emit(&(struct monitor_event){ .kind = kind, .dev = d, .port = p,
								      .gid = &p->gids[g] }, arg);
		}
	}
}

void monitor_diff_gids(const struct model *a, const struct model *b, monitor_emit emit,
		       void *arg)
{
	gids_gone(a, b, MON_GID_REMOVED, emit, arg);
	gids_gone(b, a, MON_GID_ADDED, emit, arg);
}

static bool said_stalled(const struct monitor_memo *memo, const struct rdma_qp *q)
{
	for (size_t i = 0; i < memo->nstalled; i++)
		if (memo->stalled[i].qpn == q->qpn && !strcmp(memo->stalled[i].dev, q->dev))
			return true;
	return false;
}

static void note_stalled(struct monitor_memo *memo, const struct rdma_qp *q)
{
	struct monitor_stalled *v = realloc(memo->stalled, (memo->nstalled + 1) * sizeof(*v));

	if (!v)
		return;
	memo->stalled = v;
	v[memo->nstalled].qpn = q->qpn;
	memcpy(v[memo->nstalled].dev, q->dev, sizeof(v->dev));
	memo->nstalled++;
}

/* A QP said to be resending is forgotten when it is gone or leaves RTS: said again if it stalls anew. */
static void forget_stalled(struct monitor_memo *memo, const struct model_qps *qs)
{
	size_t n = 0;

	for (size_t i = 0; i < memo->nstalled; i++) {
		const struct rdma_qp *q = model_qp_find(qs, memo->stalled[i].dev, memo->stalled[i].qpn);

		if (q && q->state == MODEL_QPS_RTS)
			memo->stalled[n++] = memo->stalled[i];
	}
	memo->nstalled = n;
}

/*
 * B's QPs against A's: made, moved, destroyed, and resending unanswered,
 * each diagnosed as the observer diagnoses (diag_qpwatch_diagnose: the one
 * stall rule). Out of memory, the QPs' changes are said without causes.
 */
static void diff_qps(const struct monitor_snap *a, const struct monitor_snap *b,
		     struct monitor_memo *memo, monitor_emit emit, void *arg)
{
	struct diag_qp *diag;

	/* QPs not read anew (nor then the counters) have nothing new to say. */
	if (!a->qs_ok || !b->qs_ok || b->qs_carried)
		return;
	for (size_t i = 0; i < a->read.qs.n; i++)
		if (!model_qp_find(&b->read.qs, a->read.qs.v[i].dev, a->read.qs.v[i].qpn))
			emit(&(struct monitor_event){ .kind = MON_QP_DESTROYED,
						      .dev = model_find(&a->read.m, a->read.qs.v[i].dev),
						      .qp = &a->read.qs.v[i] }, arg);
	forget_stalled(memo, &b->read.qs);
	diag = diag_qpwatch_diagnose(&b->read, &a->read);
	for (size_t i = 0; i < b->read.qs.n; i++) {
		const struct rdma_qp *q = &b->read.qs.v[i];
		const struct rdma_qp *was = model_qp_find(&a->read.qs, q->dev, q->qpn);
		struct monitor_event e = { .dev = model_find(&b->read.m, q->dev), .qp = q };
		struct diag_qp *d = diag ? &diag[i] : NULL;
		struct diag_qp *failed = d && d->trouble == DIAG_QPT_ERROR ? d : NULL;

		if (!was) {
			/* Made and failed within one reading: said as made, with the cause. */
			e.kind = MON_QP_CREATED;
			e.to = model_qp_state_name(q->state);
			e.diag = failed;
			emit(&e, arg);
		}
		if (was && was->state != q->state) {
			e.kind = MON_QP_STATE;
			e.from = model_qp_state_name(was->state);
			e.to = model_qp_state_name(q->state);
			e.diag = failed;
			emit(&e, arg);
		}
		if (d && d->trouble == DIAG_QPT_STALLED && !said_stalled(memo, q)) {
			e.kind = MON_QP_STALLED;
			e.diag = d;
			emit(&e, arg);
			note_stalled(memo, q);
		}
	}
	free(diag);
}

static struct monitor_mark *mark_of(struct monitor_memo *memo, const char *dev, uint32_t port,
				    const char *name, uint64_t value)
{
	struct monitor_mark *v;

	for (size_t i = 0; i < memo->nmarks; i++)
		if (memo->marks[i].port == port && !strcmp(memo->marks[i].dev, dev) &&
		    !strcmp(memo->marks[i].name, name))
			return &memo->marks[i];
	v = realloc(memo->marks, (memo->nmarks + 1) * sizeof(*v));
	if (!v)
		return NULL;
	memo->marks = v;
	v = &v[memo->nmarks++];
	memset(v, 0, sizeof(*v));
	snprintf(v->dev, sizeof(v->dev), "%s", dev);
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->port = port;
	v->value = value;	/* first seen: a baseline, not a change */
	return v;
}

/*
 * How many error counters of B's ports rose past their marks (a counter
 * first seen is marked where it stands); with SAY, each is emitted and
 * marked anew.
 */
static size_t each_error_counter(const struct monitor_snap *b, struct monitor_memo *memo,
				 bool say, monitor_emit emit, void *arg)
{
	size_t rose = 0;

	for (size_t i = 0; i < b->read.m.n; i++) {
		const struct rdma_dev *d = &b->read.m.devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			const struct port *p = &d->ports[k];

			for (size_t c = 0; c < p->ncounters; c++) {
				const struct counter *ct = &p->counters[c];
				const struct model_counter_info *t = model_counter_info(ct->name);
				struct monitor_mark *mk;

				if (!t || !t->trouble)
					continue;
				mk = mark_of(memo, d->name, p->num, t->name, ct->value);
				if (!mk)
					continue;
				if (ct->value < mk->value)
					mk->value = ct->value;	/* the device was made anew */
				if (ct->value == mk->value)
					continue;
				rose++;
				if (!say)
					continue;
				emit(&(struct monitor_event){ .kind = MON_COUNTER, .dev = d, .port = p,
							      .counter = t->name, .value = ct->value,
							      .delta = ct->value - mk->value }, arg);
				mk->value = ct->value;
			}
		}
	}
	return rose;
}

void monitor_diff(const struct monitor_snap *a, const struct monitor_snap *b,
		  struct monitor_memo *memo, monitor_emit emit, void *arg)
{
	diff_devices(&a->read.m, &b->read.m, emit, arg);
	diff_qps(a, b, memo, emit, arg);
	/* A counter first seen is marked where A had it: its rise to B is a change. */
	each_error_counter(a, memo, false, emit, arg);
	if (each_error_counter(b, memo, false, emit, arg) &&
	    (!memo->said_ms || b->ms - memo->said_ms >= MONITOR_COUNTER_MS)) {
		each_error_counter(b, memo, true, emit, arg);
		memo->said_ms = b->ms;
	}
}

bool monitor_qps_changed(const struct monitor_snap *a, const struct monitor_snap *b)
{
	if (a->qs_ok != b->qs_ok || a->read.qs.n != b->read.qs.n)
		return true;
	for (size_t i = 0; i < b->read.qs.n; i++) {
		const struct rdma_qp *was = model_qp_find(&a->read.qs, b->read.qs.v[i].dev, b->read.qs.v[i].qpn);

		if (!was || was->state != b->read.qs.v[i].state)
			return true;
	}
	return false;
}

int monitor_carry_counters(const struct monitor_snap *a, struct monitor_snap *b)
{
	for (size_t i = 0; i < b->read.m.n; i++) {
		struct rdma_dev *d = &b->read.m.devs[i];
		const struct rdma_dev *was = model_find(&a->read.m, d->name);

		for (size_t k = 0; was && k < d->nports; k++) {
			struct port *p = &d->ports[k];
			const struct port *o = find_port(was, p->num);

			if (!o || !o->counters_known || p->counters_known)
				continue;
			p->counters = o->ncounters ? malloc(o->ncounters * sizeof(*o->counters)) : NULL;
			if (o->ncounters && !p->counters)
				return -ENOMEM;
			if (o->ncounters)
				memcpy(p->counters, o->counters, o->ncounters * sizeof(*o->counters));
			p->ncounters = o->ncounters;
			p->counters_known = true;
		}
	}
	return 0;
}

void monitor_memo_free(struct monitor_memo *memo)
{
	free(memo->marks);
	free(memo->stalled);
	memset(memo, 0, sizeof(*memo));
}

void monitor_snap_free(struct monitor_snap *s)
{
	model_free(&s->read.m);
	model_qps_free(&s->read.qs);
}
