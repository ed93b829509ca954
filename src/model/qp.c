// SPDX-License-Identifier: GPL-2.0-or-later
/* The live QPs, from the RDMA netlink's resource dump: owners and peers. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "kernel/sysfs.h"
#include "model/counter.h"
#include "model/qp.h"

struct fill {
	struct model_qps *q;
	int err;		/* what stopped the dump's parse */
};

static int add_qp(const struct nldev_qp *n, void *arg)
{
	struct fill *f = arg;
	struct model_qps *q = f->q;
	struct rdma_qp *v, *e;

	v = realloc(q->v, (q->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	q->v = v;
	e = &v[q->n++];
	*e = (struct rdma_qp){
		.port = n->port, .qpn = n->lqpn, .type = n->type, .state = n->state,
		.has_rqpn = n->has_rqpn, .has_rq_psn = n->has_rq_psn, .has_sq_psn = n->has_sq_psn,
		.rqpn = n->rqpn, .rq_psn = n->rq_psn, .sq_psn = n->sq_psn, .pid = n->pid,
		.peer = -1,
	};
	snprintf(e->dev, sizeof(e->dev), "%s", n->dev_name);
	snprintf(e->comm, sizeof(e->comm), "%s", n->kern_name);
	return 0;
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fill *f = data;

	f->err = nldev_parse_qps(nlh, add_qp, f);
	return f->err ? NL_CB_ERROR : NL_CB_CONTINUE;
}

/* Whether B is A's other end: each names the other's QPN. */
static bool pair(const struct rdma_qp *a, const struct rdma_qp *b)
{
	return a != b && a->has_rqpn && b->has_rqpn && b->qpn == a->rqpn && b->rqpn == a->qpn;
}

static int by_qpn_cmp(const void *a, const void *b, void *arg)
{
	const struct rdma_qp *v = arg, *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];

	if (x->qpn != y->qpn)
		return x->qpn < y->qpn ? -1 : 1;
	return strcmp(x->dev, y->dev);
}

/* Q's indices sorted by QPN and device, or NULL when out of memory. */
static size_t *index_by_qpn(const struct model_qps *q)
{
	size_t *ix = malloc((q->n ? q->n : 1) * sizeof(*ix));

	if (!ix)
		return NULL;
	for (size_t i = 0; i < q->n; i++)
		ix[i] = i;
	qsort_r(ix, q->n, sizeof(*ix), by_qpn_cmp, q->v);
	return ix;
}

/* The first position in IX (Q's index) of a QP numbered QPN, or Q->n. */
static size_t first_of(const struct model_qps *q, const size_t *ix, uint32_t qpn)
{
	size_t lo = 0, hi = q->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->v[ix[mid]].qpn < qpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct rdma_qp *model_qp_find(const struct model_qps *q, const char *dev, uint32_t qpn)
{
	if (!q)
		return NULL;
	if (!q->by_qpn) {
		for (size_t i = 0; i < q->n; i++)
			if (q->v[i].qpn == qpn && !strcmp(q->v[i].dev, dev))
				return &q->v[i];
		return NULL;
	}
	for (size_t k = first_of(q, q->by_qpn, qpn); k < q->n && q->v[q->by_qpn[k]].qpn == qpn; k++)
		if (!strcmp(q->v[q->by_qpn[k]].dev, dev))
			return &q->v[q->by_qpn[k]];
	return NULL;
}

void model_qp_find_peers(struct model_qps *q)
{
	size_t *ix = q->by_qpn ? q->by_qpn : index_by_qpn(q);

	if (!ix)
		return;
	for (size_t i = 0; i < q->n; i++) {
		struct rdma_qp *a = &q->v[i];
		long other = -1;
		size_t others = 0;

		if (!a->has_rqpn)
			continue;
		/* The candidates are the QPs numbered a's rqpn, on any device. */
		for (size_t k = first_of(q, ix, a->rqpn);
		     a->peer < 0 && k < q->n && q->v[ix[k]].qpn == a->rqpn; k++) {
			if (!pair(a, &q->v[ix[k]]))
				continue;
			if (!strcmp(a->dev, q->v[ix[k]].dev))
				a->peer = (long)ix[k];
			else if (others++ == 0)
				other = (long)ix[k];
		}
		if (a->peer < 0 && others == 1)
			a->peer = other;
	}
	if (ix != q->by_qpn)
		free(ix);
}

/* DEV's QPs: the kernel dumps one device's resources a request, by its index. */
static int load_dev_qps(const struct model_src *src, const struct rdma_dev *dev, struct fill *f)
{
	struct nlmsghdr *nlh = nldev_request(src->nl, RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP);
	int err;

	if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, dev->index))
		return -EMSGSIZE;
	err = nl_talk(src->nl, nlh, qp_cb, f);
	return f->err ? f->err : err;
}

int model_load_qps(const struct model_src *src, const char *dev, struct model_qps *q)
{
	struct fill f = { .q = q };
	struct model devs;
	int err;

	memset(q, 0, sizeof(*q));
	if (!src->nl)
		return -EINVAL;
	err = model_load(src, dev, (struct model_ask){ .source = MODEL_NETLINK,
						       .ports = MODEL_PORTS_NONE }, &devs);
	if (err)
		return err;
	for (size_t i = 0; !err && i < devs.n; i++) {
		err = load_dev_qps(src, &devs.devs[i], &f);
		/* A device removed since the device dump has no QPs to show. */
		if (err == -ENODEV)
			err = 0;
	}
	model_free(&devs);
	if (err) {
		model_qps_free(q);
		return err;
	}
	for (size_t i = 0; i < q->n; i++) {
		struct rdma_qp *e = &q->v[i];

		/* A process's QPs come together: its command is read once. */
		if (i && e->pid && e->pid == q->v[i - 1].pid)
			memcpy(e->comm, q->v[i - 1].comm, sizeof(e->comm));
		else if (e->pid && sysfs_read(src->root, e->comm, sizeof(e->comm), "/proc/%u/comm",
					      e->pid) < 0)
			e->comm[0] = '\0';
	}
	q->by_qpn = index_by_qpn(q);
	if (!q->by_qpn) {
		model_qps_free(q);
		return -ENOMEM;
	}
	model_qp_find_peers(q);
	return 0;
}

void model_qps_free(struct model_qps *q)
{
	free(q->v);
	free(q->by_qpn);
	memset(q, 0, sizeof(*q));
}

const char *model_qp_type_name(uint8_t type)
{
	static const char *const names[] = {
		[0] = "SMI", [1] = "GSI", [2] = "RC", [3] = "UC", [4] = "UD",
		[5] = "RAW_IPV6", [6] = "RAW_ETHERTYPE", [8] = "RAW_PACKET",
		[9] = "XRC_INI", [10] = "XRC_TGT",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "UNKNOWN";
}

const char *model_qp_state_name(uint8_t state)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "UNKNOWN";
}

const char *model_qp_verdict(const struct rdma_qp *q)
{
	switch (q->state) {
	case MODEL_QPS_RTS:
		return "ok";
	case MODEL_QPS_ERR:
		return "error";
	case MODEL_QPS_SQE:
		return "send-queue-error";
	case MODEL_QPS_SQD:
		return "draining";
	default:
		return "not-ready";
	}
}

const char *model_qp_owner(const struct rdma_qp *q, char *buf, size_t len)
{
	if (!q->pid)
		snprintf(buf, len, "the kernel's %s", *q->comm ? q->comm : "own");
	else if (*q->comm)
		snprintf(buf, len, "%u (%s)", q->pid, q->comm);
	else
		snprintf(buf, len, "%u", q->pid);
	return buf;
}

/* P's counter NAME (rdmactl's name for it), 0 when P has none such. */
static uint64_t counter(const struct port *p, const char *name)
{
	for (size_t k = 0; p && k < p->ncounters; k++) {
		const struct model_counter_info *t = model_counter_info(p->counters[k].name);

		if (t && !strcmp(t->name, name))
			return p->counters[k].value;
	}
	return 0;
}

void model_qp_port_facts(const struct port *now, const struct port *before,
			 struct model_qp_port *f)
{
	memset(f, 0, sizeof(*f));
	f->resent = -1;
	if (!now)
		return;
	f->known = true;
	f->active = now->state == 4;
	f->rnr_exceeded = counter(now, "retry_rnr_exceeded_err");
	f->retry_exceeded = counter(now, "retry_exceeded_err");
	f->link_downed = counter(now, "link_downed");
	if (before && before->counters_known && now->counters_known) {
		uint64_t a = counter(before, "completer_retry_err");
		uint64_t b = counter(now, "completer_retry_err");

		f->resent = b >= a ? (int64_t)(b - a) : 0;
	}
}

/* PSNs are 24 bits: whether A and B, both read, differ. */
static bool psn_moved(bool has_a, uint32_t a, bool has_b, uint32_t b)
{
	return has_a && has_b && ((a ^ b) & 0xffffff);
}

int model_qp_owes(const struct model_qps *qs, size_t i)
{
	const struct rdma_qp *q = &qs->v[i];
	const struct rdma_qp *peer = q->peer >= 0 ? &qs->v[q->peer] : NULL;

	if (q->type != 2 || q->state != MODEL_QPS_RTS)
		return 0;
	if (!peer || !q->has_sq_psn || !peer->has_rq_psn)
		return -1;
	return psn_moved(true, q->sq_psn, true, peer->rq_psn);
}

/* A QP in ERR or SQE: the likeliest cause from its port and its peer on this host. */
static void diagnose_error(const struct rdma_qp *q, const struct rdma_qp *peer,
			   const struct model_qp_port *f, struct model_qp_diag *d)
{
	size_t n;

	d->trouble = MODEL_QPT_ERROR;
	if (f->known && !f->active) {
		d->sure = true;
		d->cause = "its port went down under it (its netdev set down, or its link removed): "
			   "every QP on the port moved to ERR";
		snprintf(d->evidence, sizeof(d->evidence), "port %u of %s is not ACTIVE", q->port,
			 q->dev);
		d->fix = "bring the netdev up ('rdmactl check --only link' says how), then make the "
			 "QP again: a QP in ERR stays there";
		return;
	}
	n = 0;
	d->evidence[0] = '\0';
	if (peer) {
		char who[64];

		n = (size_t)snprintf(d->evidence, sizeof(d->evidence), "its peer QP %u of %s is in "
				     "%s; ", peer->qpn, model_qp_owner(peer, who, sizeof(who)),
				     model_qp_state_name(peer->state));
	} else if (q->has_rqpn && q->rqpn) {
		n = (size_t)snprintf(d->evidence, sizeof(d->evidence), "its peer QP %u is on no "
				     "device of this host; ", q->rqpn);
	}
	if (n >= sizeof(d->evidence))
		n = sizeof(d->evidence) - 1;
	if (f->rnr_exceeded && (!peer || peer->state != MODEL_QPS_ERR)) {
		d->cause = "RNR retries ran out: its peer had no receive posted when its SEND came";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "retry_rnr_exceeded_err is "
			 "%" PRIu64 " on %s", f->rnr_exceeded, q->dev);
		d->fix = "have the receiver post its receives before the sender sends, or set a "
			 "larger rnr_retry (7 retries for ever)";
	} else if (f->retry_exceeded && (!peer || peer->state != MODEL_QPS_ERR)) {
		d->cause = "transport retries ran out: its requests went unanswered (the peer's QP "
			   "gone, a firewall dropping UDP 4791, a route, another network namespace "
			   "before Linux 7.1)";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "retry_exceeded_err is "
			 "%" PRIu64 " on %s", f->retry_exceeded, q->dev);
		d->fix = "'rdmactl check --only firewall,netns,subnet' on both hosts, and whether "
			 "the peer's program still runs";
	} else if (peer && peer->state == MODEL_QPS_ERR) {
		d->cause = "a remote access error most likely (a wrong rkey, address, length or "
			   "access flags in an RDMA READ or WRITE); one end's error flushed the other";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "%s", "RNR and unanswered "
			 "requests leave the receiver in RTS; rxe counts remote access errors nowhere");
		d->fix = "hold the rkey, address and length the program sends against the peer's "
			 "MR and its access flags (IBV_ACCESS_REMOTE_WRITE, _READ); the first error "
			 "completion it polled (10: remote access error) tells: 'rdmactl explain' it";
	} else if (f->link_downed) {
		d->cause = "its port went down and came back (its netdev set down and up): the QP "
			   "moved to ERR meanwhile";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "link_downed is %" PRIu64
			 " on %s", f->link_downed, q->dev);
		d->fix = "make the QP again: a QP in ERR stays there";
	} else {
		d->cause = "a local error most likely: its source GID's address removed or its "
			   "route gone under it (Linux 7.3 says flush, 6.1 local QP operation error), "
			   "or a work request the device refused";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "%s counts no RNR, exhausted "
			 "retries or port down", q->dev);
		d->fix = "'rdmactl check --only gid-consistency' for the GIDs, and 'rdmactl "
			 "explain' the program's first error completion";
	}
}

void model_qp_diagnose(const struct model_qps *now, size_t i, const struct model_qps *before,
		       const struct model_qp_port *port, struct model_qp_diag *d)
{
	const struct rdma_qp *q = &now->v[i];
	const struct rdma_qp *peer = q->peer >= 0 ? &now->v[q->peer] : NULL;
	const struct rdma_qp *was;

	memset(d, 0, sizeof(*d));
	if (q->state == MODEL_QPS_ERR || q->state == MODEL_QPS_SQE) {
		diagnose_error(q, peer, port, d);
		return;
	}
	/*
	 * An RC QP in RTS is resending unanswered when its port resent
	 * meanwhile and it made no progress: a peer of this host took in
	 * nothing with packets still owed to it, or, with no peer here, it
	 * received nothing either (a peer that sends to it is there).
	 */
	if (q->type != 2 || q->state != MODEL_QPS_RTS || !before || port->resent <= 0)
		return;
	was = model_qp_find(before, q->dev, q->qpn);
	if (!was)
		return;		/* made during the interval */
	if (peer) {
		const struct rdma_qp *peer_was = model_qp_find(before, peer->dev, peer->qpn);
		char who[64];

		if (!peer_was || psn_moved(peer_was->has_rq_psn, peer_was->rq_psn,
					   peer->has_rq_psn, peer->rq_psn) || model_qp_owes(now, i) != 1)
			return;
		if (peer->state != MODEL_QPS_RTS && peer->state != MODEL_QPS_RTR)
			d->cause = "its peer on this host takes in nothing in its state, and rxe "
				   "resends to it for as long as the program runs";
		else
			d->cause = "its packets do not reach its peer on this host: a firewall "
				   "dropping UDP 4791 between network namespaces, or the peer in "
				   "another namespace before Linux 7.1";
		snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times meanwhile; "
			 "its peer QP %u of %s, in %s, still expects PSN %u where it sends %u",
			 q->dev, port->resent, peer->qpn, model_qp_owner(peer, who, sizeof(who)),
			 model_qp_state_name(peer->state), peer->rq_psn, q->sq_psn);
		d->fix = "'rdmactl check --only firewall,netns' in both namespaces";
	} else {
		if (psn_moved(was->has_rq_psn, was->rq_psn, q->has_rq_psn, q->rq_psn))
			return;
		d->cause = "its peer QP is gone (destroyed, or its process ended) or does not "
			   "answer: rxe resends for as long as the program runs, and no error "
			   "completion comes";
		if (q->has_rqpn)
			snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times "
				 "meanwhile; its peer QP %u is on no device of this host", q->dev,
				 port->resent, q->rqpn);
		else
			snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times "
				 "meanwhile", q->dev, port->resent);
		d->fix = "find whether the peer's program still runs ('rdmactl qp' on its host); "
			 "a program should time out its own waits, as rxe never fails the QP";
	}
	d->trouble = MODEL_QPT_STALLED;
}
