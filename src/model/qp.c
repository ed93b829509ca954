// SPDX-License-Identifier: GPL-2.0-or-later
/* The live QPs, from the RDMA netlink's resource dump: owners and peers. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "kernel/sysfs.h"
#include "model/qp.h"

struct fill {
	struct model_qps *q;
	size_t cap;		/* room in q->v */
	int err;		/* what stopped the dump's parse */
};

static int add_qp(const struct nldev_qp *n, void *arg)
{
	struct fill *f = arg;
	struct model_qps *q = f->q;
	struct rdma_qp *v, *e;

	if (q->n == f->cap) {
		/* Doubled, not grown by one: a dump of thousands copied once, not each time. */
		size_t cap = f->cap ? 2 * f->cap : 64;

		v = reallocarray(q->v, cap, sizeof(*v));
		if (!v)
			return -ENOMEM;
		q->v = v;
		f->cap = cap;
	}
	e = &q->v[q->n++];
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
		if (i && e->pid && e->pid == q->v[i - 1].pid) {
			memcpy(e->comm, q->v[i - 1].comm, sizeof(e->comm));
			e->owner_ended = q->v[i - 1].owner_ended;
		} else if (e->pid && sysfs_read(src->root, e->comm, sizeof(e->comm), "/proc/%u/comm",
						e->pid) < 0) {
			e->comm[0] = '\0';
			e->owner_ended = !sysfs_exists(src->root, "/proc/%u", e->pid);
		}
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

int model_qp_owes(const struct model_qps *qs, size_t i)
{
	const struct rdma_qp *q = &qs->v[i];
	const struct rdma_qp *peer = q->peer >= 0 ? &qs->v[q->peer] : NULL;

	if (q->type != 2 || q->state != MODEL_QPS_RTS)
		return 0;
	if (!peer || !q->has_sq_psn || !peer->has_rq_psn)
		return -1;
	return ((q->sq_psn ^ peer->rq_psn) & 0xffffff) != 0;	/* 24-bit PSNs */
}

const char *model_qp_verdict(const struct model_qps *qs, size_t i)
{
	const struct rdma_qp *q = &qs->v[i];

	switch (q->state) {
	case MODEL_QPS_RTS:
		if (q->resend == MODEL_QPR_UNTOLD && model_qp_owes(qs, i))
			return "untold";
		return q->resend == MODEL_QPR_YES ? "resending" :
		       q->resend == MODEL_QPR_MAYBE ? "maybe-resending" : "ok";
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
	else if (q->owner_ended)
		snprintf(buf, len, "%u (ended)", q->pid);
	else
		snprintf(buf, len, "%u", q->pid);
	return buf;
}

const struct rdma_qp *model_qp_named(const struct rdma_qp *read, const struct rdma_qp *made,
				     uint32_t qpn, struct rdma_qp *buf)
{
	bool seen = made && made->pid && made->qpn == qpn;

	if (!read)
		return seen ? made : NULL;
	if (*read->comm || !read->pid || !seen || made->pid != read->pid || !*made->comm)
		return read;
	*buf = *read;
	memcpy(buf->comm, made->comm, sizeof(buf->comm));
	buf->comm[sizeof(buf->comm) - 1] = '\0';
	return buf;
}
