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

void model_qp_find_peers(struct model_qps *q)
{
	for (size_t i = 0; i < q->n; i++) {
		struct rdma_qp *a = &q->v[i];
		long other = -1;
		size_t others = 0;

		for (size_t k = 0; a->peer < 0 && k < q->n; k++) {
			if (!pair(a, &q->v[k]))
				continue;
			if (!strcmp(a->dev, q->v[k].dev))
				a->peer = (long)k;
			else if (others++ == 0)
				other = (long)k;
		}
		if (a->peer < 0 && others == 1)
			a->peer = other;
	}
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
	for (size_t i = 0; i < q->n; i++)
		if (q->v[i].pid && sysfs_read(src->root, q->v[i].comm, sizeof(q->v[i].comm),
					      "/proc/%u/comm", q->v[i].pid) < 0)
			q->v[i].comm[0] = '\0';
	model_qp_find_peers(q);
	return 0;
}

void model_qps_free(struct model_qps *q)
{
	free(q->v);
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
