// SPDX-License-Identifier: GPL-2.0-or-later
/* The one verbs layer under every selftest mode (verbs.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kernel/clock.h"
#include "kernel/netns.h"
#include "kernel/errname.h"
#include "kernel/release.h"
#include "kernel/roce.h"
#include "model/gid.h"
#include "selftest/selftest.h"
#include "selftest/verbs.h"


const char vb_unanswered_hint[] = "the peer did not answer: " ROCE_UNANSWERED_CAUSES
				  " (rdmactl check)";

const char *vb_traffic_hint(const char *hint)
{
	if (netns_initial("") == 0 && netns_udp_bound("", ROCE_V2_UDP_PORT) == 0)
		return ROCE_NETNS_TRAP;
	return hint;
}

unsigned int vb_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

static struct ibv_context *open_by_name(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (int i = 0; i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

/* The first RoCE v2 GID of an IPv4 address (::ffff:a.b.c.d); -1 when none. */
static int ipv4_gid_index(struct vb_device *d)
{
	union ibv_gid g;

	for (int i = 0; i < d->port.gid_tbl_len; i++)
		if (!ibv_query_gid(d->ctx, VB_PORT, i, &g) && model_gid_is_v4mapped(g.raw))
			return i;
	return -1;
}

int vb_device_open(struct vb_device *d, const char *name, int gid_index, struct st_fault *f)
{
	int err;

	d->gid_index = -1;
	if (!d->ctx)
		d->ctx = open_by_name(name);
	if (!d->ctx)
		return st_fault(f, "rdmactl check --only uverbs,provider", "libibverbs cannot open %s",
				name);
	err = ibv_query_device_ex(d->ctx, NULL, &d->attr);
	if (!err)
		err = ibv_query_port(d->ctx, VB_PORT, &d->port);
	if (err)
		return st_fault_err(f, err, NULL, "ibv_query_device/port: %s", strerror(err));
	if (d->port.state != IBV_PORT_ACTIVE)
		return st_fault(f, "rdmactl check --only link", "port %d of %s is %s, not ACTIVE",
				VB_PORT, name, ibv_port_state_str(d->port.state));
	d->gid_index = gid_index >= 0 ? gid_index : ipv4_gid_index(d);
	if (d->gid_index < 0)
		return st_fault(f, "give the netdev an IPv4 address, or pass --gid-index",
				"%s has no RoCE v2 IPv4 GID", name);
	if (d->gid_index >= d->port.gid_tbl_len)
		return st_fault(f, "'rdmactl gids' lists the GIDs", "GID index %d is out of range "
				"(0-%d)", d->gid_index, d->port.gid_tbl_len - 1);
	if (ibv_query_gid(d->ctx, VB_PORT, d->gid_index, &d->gid))
		return st_fault_err(f, errno, NULL, "ibv_query_gid %d: %s", d->gid_index, strerror(errno));
	inet_ntop(AF_INET6, d->gid.raw, d->gid_text, sizeof(d->gid_text));
	if (model_gid_is_zero(d->gid.raw))
		return st_fault(f, "'rdmactl gids' lists the GIDs; 'rdmactl check --gid-index N' "
				"names the one to use", "GID index %d of %s is empty",
				d->gid_index, name);
	return 0;
}

void vb_device_close(struct vb_device *d)
{
	if (d->ctx)
		ibv_close_device(d->ctx);
	d->ctx = NULL;
}

struct ibv_mr *vb_reg_mr(struct ibv_pd *pd, void *buf, size_t len, int access,
			 struct st_fault *f)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, access);

	if (!mr)
		st_fault_err(f, errno, errno == ENOMEM ? "RLIMIT_MEMLOCK too low? (rdmactl check --only "
			 "memlock)" : NULL, "ibv_reg_mr of %zu bytes: %s", len, strerror(errno));
	return mr;
}

struct ibv_cq *vb_cq_create(struct ibv_context *ctx, int depth, struct vb_channel *c,
			    struct st_fault *f)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, depth, NULL, c ? c->ch : NULL, 0);

	if (!cq) {
		st_fault_err(f, errno, NULL, "ibv_create_cq: %s", strerror(errno));
		return NULL;
	}
	if (c && (errno = ibv_req_notify_cq(cq, 0))) {
		st_fault_err(f, errno, NULL, "ibv_req_notify_cq: %s", strerror(errno));
		ibv_destroy_cq(cq);
		return NULL;
	}
	return cq;
}

void vb_qp_destroy(struct ibv_qp **p)
{
	if (*p)
		ibv_destroy_qp(*p);
	*p = NULL;
}

void vb_cq_destroy(struct ibv_cq **p)
{
	if (*p)
		ibv_destroy_cq(*p);
	*p = NULL;
}

void vb_srq_destroy(struct ibv_srq **p)
{
	if (*p)
		ibv_destroy_srq(*p);
	*p = NULL;
}

void vb_ah_destroy(struct ibv_ah **p)
{
	if (*p)
		ibv_destroy_ah(*p);
	*p = NULL;
}

void vb_mr_dereg(struct ibv_mr **p)
{
	if (*p)
		ibv_dereg_mr(*p);
	*p = NULL;
}

int vb_channel_open(struct vb_channel *c, struct ibv_context *ctx, struct st_fault *f)
{
	memset(c, 0, sizeof(*c));
	c->ch = ibv_create_comp_channel(ctx);
	if (!c->ch)
		return st_fault_err(f, errno, NULL, "ibv_create_comp_channel: %s", strerror(errno));
	fcntl(c->ch->fd, F_SETFL, fcntl(c->ch->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

void vb_channel_close(struct vb_channel *c)
{
	if (c->ch)
		ibv_destroy_comp_channel(c->ch);
	c->ch = NULL;
}

static const char *type_name(enum ibv_qp_type type)
{
	return type == IBV_QPT_UD ? "UD" : type == IBV_QPT_UC ? "UC" : "RC";
}

struct ibv_qp *vb_qp_create(struct ibv_pd *pd, struct ibv_qp_init_attr *qa, struct st_fault *f)
{
	struct ibv_qp *qp = ibv_create_qp(pd, qa);

	if (!qp && errno == EINVAL && qa->cap.max_inline_data) {
		qa->cap.max_inline_data = 0;	/* no inline: the QP without it */
		qp = ibv_create_qp(pd, qa);
	}
	if (!qp)
		st_fault_err(f, errno, NULL, "ibv_create_qp (%s): %s", type_name(qa->qp_type), strerror(errno));
	return qp;
}

int vb_qp_init(struct ibv_qp *qp, enum ibv_qp_type type, int access, struct st_fault *f)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = VB_PORT };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT, err;

	if (type == IBV_QPT_UD) {
		a.qkey = VB_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = (unsigned int)access;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	err = ibv_modify_qp(qp, &a, mask);
	if (err)
		return st_fault_err(f, err, NULL, "ibv_modify_qp (%s) to INIT: %s (%s)",
				    type_name(type), strerror(err), errname(err));
	return 0;
}

/* RTR: where the kernel resolves the path (the GID, its netdev, the route). */
static int to_rtr(struct ibv_qp *qp, const struct vb_path *p)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	int mask = IBV_QP_STATE;

	if (p->type != IBV_QPT_UD) {
		a.path_mtu = p->mtu;
		a.dest_qp_num = p->dest_qpn;
		a.rq_psn = p->rq_psn;
		a.ah_attr = (struct ibv_ah_attr){ .is_global = 1, .dlid = p->dlid,
						  .port_num = VB_PORT };
		memcpy(a.ah_attr.grh.dgid.raw, p->dgid, 16);
		a.ah_attr.grh.sgid_index = (uint8_t)p->sgid_index;
		a.ah_attr.grh.hop_limit = p->hop_limit;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	}
	if (p->type == IBV_QPT_RC) {
		a.max_dest_rd_atomic = p->rd_atomic;
		a.min_rnr_timer = 12;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	return ibv_modify_qp(qp, &a, mask);
}

static int to_rts(struct ibv_qp *qp, const struct vb_path *p)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS, .sq_psn = p->sq_psn };
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	if (p->type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = p->rd_atomic;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return ibv_modify_qp(qp, &a, mask);
}

int vb_qp_ready(struct ibv_qp *qp, const struct vb_path *p, struct st_fault *f)
{
	int err = to_rtr(qp, p);

	if (err)
		return st_fault_err(f, err, p->type != IBV_QPT_UD && (err == EINVAL || err == ETIMEDOUT ||
			       err == ENODATA || err == ENETUNREACH) ?
				"the GID index or the route: is it the RoCE v2 GID of an address "
				"the peer can reach? (rdmactl check --gid-index N --peer ADDR)" : NULL,
				"ibv_modify_qp (%s) to RTR with GID index %d: %s (%s)",
				type_name(p->type), p->sgid_index, strerror(err), errname(err));
	err = to_rts(qp, p);
	if (err)
		return st_fault_err(f, err, NULL, "ibv_modify_qp (%s) to RTS: %s (%s)",
				    type_name(p->type), strerror(err), errname(err));
	return 0;
}

int vb_qp_connect(struct ibv_qp *qp, const struct vb_path *p, int access, struct st_fault *f)
{
	return vb_qp_init(qp, p->type, access, f) || vb_qp_ready(qp, p, f) ? -1 : 0;
}

struct ibv_ah *vb_ah_create(struct ibv_pd *pd, const struct vb_path *p, struct st_fault *f)
{
	struct ibv_ah_attr aa = { .is_global = 1, .dlid = p->dlid, .port_num = VB_PORT };
	struct ibv_ah *ah;
	char text[INET6_ADDRSTRLEN];

	memcpy(aa.grh.dgid.raw, p->dgid, 16);
	aa.grh.sgid_index = (uint8_t)p->sgid_index;
	aa.grh.hop_limit = p->hop_limit;
	ah = ibv_create_ah(pd, &aa);
	if (ah)
		return ah;
	inet_ntop(AF_INET6, p->dgid, text, sizeof(text));
	st_fault_err(f, errno, NULL, "ibv_create_ah towards %s with GID index %d: %s", text, p->sgid_index,
		 strerror(errno));
	return NULL;
}

/* What a failed completion's status points at, for the user to look at. */
static const char *vb_wc_hint(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_RETRY_EXC_ERR:
		return vb_unanswered_hint;
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive posted (receiver not ready)";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed: the QP went to the error state, after an earlier error or "
		       "because the netdev went down (rdmactl check)";
	case IBV_WC_REM_ACCESS_ERR:
	case IBV_WC_LOC_PROT_ERR:
		return "an rkey, lkey or access flag does not match the memory region";
	default:
		return "see 'rdmactl check'";
	}
}

/* Why an operation of OP got no completion at all within the timeout. */
static const char *vb_timeout_hint(enum ibv_wc_opcode op)
{
	bool remote = op == IBV_WC_RDMA_READ || op == IBV_WC_RDMA_WRITE ||
		      op == IBV_WC_COMP_SWAP || op == IBV_WC_FETCH_ADD;

	/* Measured in the bed: 5.10's rxe sends no NAK for an access outside the
	 * responder's memory region and retransmits it without end; 6.1 answers
	 * with a remote access error. */
	if (remote && release_before("", 6, 1))
		return "the peer did not answer in time: the netdev may be down (rdmactl check); "
		       "on this kernel rdma_rxe never answers an access outside the peer's memory "
		       "region, so a wrong remote address or key ends the same way";
	return "the peer did not answer in time: the netdev may be down (rdmactl check)";
}

int vb_wc_check(const struct ibv_wc *wc, struct st_fault *f)
{
	if (wc->status == IBV_WC_SUCCESS)
		return 0;
	return st_fault(f, vb_traffic_hint(vb_wc_hint(wc->status)), "work completion %s (status "
			"%d, vendor error 0x%x)", ibv_wc_status_str(wc->status), wc->status,
			wc->vendor_err);
}

/*
 * Takes one event off C within LEFT ms: acknowledged, its CQ armed again and
 * kept as announced. 1, 0 when none came, -1 with F said.
 */
static int take_event(struct vb_channel *c, int left, struct st_fault *f)
{
	struct pollfd pf = { .fd = c->ch->fd, .events = POLLIN };
	struct ibv_cq *ecq;
	void *cctx;

	if (left <= 0 || poll(&pf, 1, left) <= 0)
		return 0;
	if (ibv_get_cq_event(c->ch, &ecq, &cctx))
		return 0;	/* none after all (nonblocking) */
	ibv_ack_cq_events(ecq, 1);
	c->events++;
	if ((errno = ibv_req_notify_cq(ecq, 0)))
		return st_fault_err(f, errno, NULL, "ibv_req_notify_cq: %s", strerror(errno));
	for (unsigned int i = 0; i < c->nannounced; i++)
		if (c->announced[i] == ecq)
			return 1;
	if (c->nannounced < VB_MAX_ANNOUNCED)
		c->announced[c->nannounced++] = ecq;
	return 1;
}

int vb_wait_event(struct vb_channel *c, const struct ibv_cq *cq, unsigned int timeout_ms,
		  struct st_fault *f)
{
	uint64_t start = mono_coarse_ms();

	for (;;) {
		uint64_t spent = mono_coarse_ms() - start;
		int got;

		for (unsigned int i = 0; i < c->nannounced; i++) {
			if (c->announced[i] == cq) {
				c->announced[i] = c->announced[--c->nannounced];
				return 0;
			}
		}
		if (spent > timeout_ms)
			return st_fault(f, "the CQ was armed (ibv_req_notify_cq) before the operation "
					"was posted: its completion should raise an event",
					"no completion event on the channel within %u ms", timeout_ms);
		got = take_event(c, (int)(timeout_ms - spent) + 1, f);
		if (got < 0)
			return -1;
	}
}

int vb_poll(struct vb_wait *w, struct ibv_wc *wc, int n, struct st_fault *f)
{
	const struct timespec nap = { 0, 20000 };
	uint64_t start = 0, now;
	unsigned int spins = 0;

	for (;;) {
		int got;

		/* An armed CQ announces the completions that come after it was armed. */
		if (w->ch && w->event_first && !w->more) {
			now = mono_coarse_ms();
			if (!start)
				start = now;
			else if (now - start > w->timeout_ms)
				return 0;
			got = take_event(w->ch, (int)(w->timeout_ms - (now - start)) + 1, f);
			if (got < 0)
				return -1;
			if (got == 0)
				continue;	/* none yet: the clock decides */
		}
		got = ibv_poll_cq(w->cq, n, wc);
		if (got < 0)
			return st_fault(f, NULL, "ibv_poll_cq failed (%d)", got);
		w->more = got == n;
		if (got > 0)
			return got;
		/* A clock read can cost a microsecond (a guest on the HPET): now and then. */
		if ((w->spin && !w->ch && ++spins % 256) || (w->ch && w->event_first))
			continue;
		now = mono_coarse_ms();
		if (!start)
			start = now;
		else if (now - start > w->timeout_ms)
			return 0;
		if (w->ch) {
			uint64_t left = w->timeout_ms - (now - start);

			if (take_event(w->ch, left < 100 ? (int)left + 1 : 100, f) < 0)
				return -1;
		} else if (!w->spin) {
			nanosleep(&nap, NULL);
		}
	}
}

int vb_wait_wc(struct vb_wait *w, enum ibv_wc_opcode op, struct ibv_wc *wc, struct st_fault *f)
{
	int got = vb_poll(w, wc, 1, f);

	if (got < 0)
		return -1;
	if (got == 0)
		return st_fault(f, w->ch ? "the completion event never came: the CQ was armed "
				"(ibv_req_notify_cq) and nothing arrived on its channel" :
				vb_traffic_hint(vb_timeout_hint(op)), "no completion within %u ms",
				w->timeout_ms);
	if (vb_wc_check(wc, f))
		return -1;
	if (wc->opcode != op)
		return st_fault(f, NULL, "work completion opcode %d, expected %d", wc->opcode, op);
	return 0;
}
