// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A failed QP's other end among several records (record.h's
 * model_record_pair): the hosts of one job, each record fetched from its
 * host, or one host's record holding both ends.
 */
#include <stdio.h>
#include <string.h>

#include "model/record.h"

/* Whether R's host had GID when it began; true when R names none (an older record). */
static bool has_gid(const struct model_record *r, const char *gid)
{
	if (!r->ngids || !*gid)
		return true;
	for (size_t i = 0; i < r->ngids; i++)
		if (!strcmp(r->gids[i], gid))
			return true;
	return false;
}

/*
 * Whether P, a QP of record PR, is the other end of Q, of record QR: the QP
 * Q's connect named, at a GID PR's host had; and when P was connected too,
 * to Q, at a GID of QR's host.
 */
static bool ends(const struct model_record *qr, const struct model_record_qp *q,
		 const struct model_record *pr, const struct model_record_qp *p)
{
	if (p == q || p->qpn != q->dest_qpn || !has_gid(pr, q->dgid))
		return false;
	return p->dest_qpn < 0 || (p->dest_qpn == q->qpn && has_gid(qr, p->dgid));
}

/*
 * F, of record FR, given its peer P of record PR: P's first failure, its
 * process's end (not when it is F's own process: that end follows F), and
 * which came first.
 */
static void describe(const struct model_record *fr, struct model_record_failure *f,
		     const struct model_record *pr, const struct model_record_qp *p)
{
	struct model_record_peer *e = &f->peer;

	memset(e, 0, sizeof(*e));
	e->rec = pr;
	e->qpn = p->qpn;
	e->pid = p->pid;
	snprintf(e->comm, sizeof(e->comm), "%s", p->comm);
	/* The failures are in time order (model_record_done): the first of that QP's is its own. */
	for (size_t i = 0; i < pr->n && !e->failed; i++)
		if (pr->f[i].qpn == p->qpn && (p->pid < 0 || pr->f[i].pid == p->pid))
			e->failed = &pr->f[i];
	for (size_t i = 0; i < pr->nexits && (pr != fr || p->pid != f->pid); i++)
		if (pr->exits[i].pid == p->pid) {
			snprintf(e->ended, sizeof(e->ended), "%s", pr->exits[i].time);
			e->end_status = pr->exits[i].status;
		}
	e->by_end = *e->ended && strcmp(e->ended, f->time) < 0 &&
		    (!e->failed || e->failed->flush || strcmp(e->ended, e->failed->time) < 0);
	e->first = e->by_end || (e->failed && strcmp(e->failed->time, f->time) < 0);
	f->paired = true;
}

/* Whether A and B are one QP as far as a record tells: its number, owner, device and connect. */
static bool alike(const struct model_record_qp *a, const struct model_record_qp *b)
{
	return a->qpn == b->qpn && a->pid == b->pid && a->dest_qpn == b->dest_qpn &&
	       !strcmp(a->dgid, b->dgid) && !model_record_devs_apart(a->dev, b->dev);
}

/*
 * Whether R holds another QP numbered Q's and of its process, connected
 * elsewhere: a QP of each of two devices, which number theirs apart. Where
 * the record names neither's device (before qp-made named it), which of
 * them failed is not known.
 */
static bool twin(const struct model_record *r, const struct model_record_qp *q)
{
	for (size_t i = 0; i < r->nqps; i++)
		if (r->qps[i].qpn == q->qpn && r->qps[i].pid == q->pid && !alike(&r->qps[i], q) &&
		    !model_record_devs_apart(r->qps[i].dev, q->dev))
			return true;
	return false;
}

/*
 * Q's other end among RECS (N), the only one: NULL when none is, or when
 * more than one could be (two devices of a host, each with a QP of that
 * number connected to one of Q's): no peer rather than the wrong one.
 */
static const struct model_record_qp *only_end(const struct model_record *recs, size_t n,
					      const struct model_record *qr,
					      const struct model_record_qp *q, size_t *in)
{
	const struct model_record_qp *p = NULL;

	for (size_t j = 0; j < n; j++)
		for (size_t m = recs[j].nqps; m-- > 0;) {
			const struct model_record_qp *c = &recs[j].qps[m];

			if (!ends(qr, q, &recs[j], c))
				continue;
			if (p && (j != *in || !alike(p, c)))
				return NULL;
			if (!p) {
				p = c;
				*in = j;
			}
		}
	return p;
}

void model_record_pair(struct model_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < recs[i].n; k++) {
			struct model_record_failure *f = &recs[i].f[k];
			const struct model_record_qp *q, *p;
			size_t in = 0;

			f->paired = false;
			if (f->qpn < 0)
				continue;
			q = model_record_qp_of(&recs[i], f->qpn, f->pid, f->ifname);
			if (!q || q->dest_qpn < 0 || twin(&recs[i], q))
				continue;
			p = only_end(recs, n, &recs[i], q, &in);
			if (p)
				describe(&recs[i], f, &recs[in], p);
		}
}
