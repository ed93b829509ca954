// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --transport: RC, UC, UD, SRQ and memory windows proven in loopback
 * on one device, every byte checked, beside what the device claims; XRC and
 * anything the device does not claim reported with the device's own answer.
 * End A acts, end B is acted upon; both are QPs of this process.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <infiniband/verbs.h>

#include "kernel/release.h"
#include "selftest/internal.h"
#include "selftest/xport.h"

#define GRH 40			/* what a UD receive holds before the payload */
#define QKEY 0x11111111		/* ibv_ud_pingpong's */
#define IMM 0x5eed1234u
#define INLINE_WANT 64
#define SRQ_QPS 16		/* ibv_srq_pingpong's default */
#define SRQ_SLOTS 32
#define SRQ_LIMIT 8
#define SLOT 1024
#define DEPTH 64

/* One end: a QP, its CQ and its registered buffer. */
struct xq {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	size_t len;
	uint32_t psn;
};

struct xp {
	const struct xp_opts *o;
	struct xp_report *r;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_ah *ah;	/* UD: towards our own GID */
	unsigned int wait_ms;	/* what wait_wc() waits: --timeout, or less */
	unsigned int completions, by_event;
	bool srq_limit_seen;
	struct ibv_srq *srq;	/* whose limit event is expected */
};

static struct xp_row *row(struct xp *x, enum xp_transport t, const char *op, enum xp_claim c,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct xp_row *row(struct xp *x, enum xp_transport t, const char *op, enum xp_claim c,
			  const char *fmt, ...)
{
	static struct xp_row spare;
	struct xp_row *w;
	va_list ap;

	if (x->r->nrows == XP_MAXROWS) {
		memset(&spare, 0, sizeof(spare));
		return &spare;
	}
	w = &x->r->rows[x->r->nrows++];
	*w = (struct xp_row){ .t = t, .op = op, .claim = c, .result = XP_PASS,
			      .usec = st_now_us() };
	va_start(ap, fmt);
	vsnprintf(w->claim_text, sizeof(w->claim_text), fmt, ap);
	va_end(ap);
	return w;
}

static void row_done(struct xp_row *w, int err, uint64_t bytes)
{
	w->usec = st_now_us() - w->usec;
	w->bytes = err ? 0 : bytes;
	if (err && w->result == XP_PASS)
		w->result = XP_FAIL;
}

/* What a row that did not fail says it saw. */
static void note(struct xp_row *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct xp_row *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->f.detail, sizeof(w->f.detail), fmt, ap);
	va_end(ap);
}

/* A row for something the device refuses: not supported, with its answer. */
static void row_unsupported(struct xp_row *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void row_unsupported(struct xp_row *w, const char *fmt, ...)
{
	va_list ap;

	w->usec = 0;
	w->result = XP_UNSUPPORTED;
	va_start(ap, fmt);
	vsnprintf(w->f.detail, sizeof(w->f.detail), fmt, ap);
	va_end(ap);
}

static void row_not_run(struct xp *x, enum xp_transport t, const char *op, enum xp_claim c,
			const char *why)
{
	struct xp_row *w = row(x, t, op, c, "%s", "");

	w->usec = 0;
	w->result = XP_NOT_RUN;
	note(w, "%s", why);
}

/* Asynchronous events: the SRQ limit when armed; anything else is a finding. */
static void drain_async(struct xp *x)
{
	struct ibv_async_event ev;

	while (ibv_get_async_event(x->ctx, &ev) == 0) {
		if (ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && ev.element.srq == x->srq) {
			x->srq_limit_seen = true;
		} else if (x->r->nasync < XP_MAXASYNC) {
			snprintf(x->r->async[x->r->nasync++], sizeof(x->r->async[0]), "%s (%d)",
				 ibv_event_type_str(ev.event_type), ev.event_type);
		}
		ibv_ack_async_event(&ev);
	}
}

/*
 * One completion on CQ of opcode OP within the timeout: polled, or with
 * --events through the completion channel (the CQ armed, the event taken and
 * acknowledged, the CQ armed again, then polled).
 */
static int wait_wc(struct xp *x, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc,
		   struct st_fault *f)
{
	uint64_t deadline = st_now_us() + (uint64_t)x->wait_ms * 1000;

	if (!x->ch) {
		if (st_wait_wc_text(x->wait_ms, cq, op, wc, f))
			return -1;
		x->completions++;
		return 0;
	}
	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);
		struct pollfd p = { .fd = x->ch->fd, .events = POLLIN };
		struct ibv_cq *ecq;
		void *cctx;
		int64_t left = (int64_t)(deadline - st_now_us()) / 1000;

		if (n < 0)
			return st_fault(f, NULL, "ibv_poll_cq failed (%d)", n);
		if (n == 1)
			break;
		if (left <= 0 || poll(&p, 1, (int)left) == 0)
			return st_fault(f, "the completion event never came: the CQ was armed "
					"(ibv_req_notify_cq) and nothing arrived on its channel",
					"no completion event within %u ms", x->wait_ms);
		if (ibv_get_cq_event(x->ch, &ecq, &cctx))
			continue;	/* another thread's, or none yet */
		ibv_ack_cq_events(ecq, 1);
		x->by_event++;
		if (ibv_req_notify_cq(ecq, 0))
			return st_fault(f, NULL, "ibv_req_notify_cq: %s", strerror(errno));
	}
	x->completions++;
	if (wc->status != IBV_WC_SUCCESS)
		return st_fault(f, st_wc_hint(wc->status), "work completion %s (status %d)",
				ibv_wc_status_str(wc->status), wc->status);
	if (wc->opcode != op)
		return st_fault(f, NULL, "work completion opcode %d, expected %d", wc->opcode, op);
	return 0;
}

static void free_end(struct xq *q)
{
	if (q->qp)
		ibv_destroy_qp(q->qp);
	if (q->cq)
		ibv_destroy_cq(q->cq);
	if (q->mr)
		ibv_dereg_mr(q->mr);
	free(q->buf);
	memset(q, 0, sizeof(*q));
}

/*
 * An end of TYPE with LEN bytes of buffer (plus room for a GRH), receives from
 * SRQ when given; *INLINE_MAX what the QP took of INLINE_WANT bytes inline.
 */
static int make_end(struct xp *x, struct xq *q, enum ibv_qp_type type, struct ibv_srq *srq,
		    size_t len, int access, struct ibv_cq *cq, uint32_t *inline_max,
		    struct st_fault *f)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = type, .srq = srq,
		.cap = { .max_send_wr = DEPTH / 2, .max_recv_wr = srq ? 0 : DEPTH / 2,
			 .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = INLINE_WANT },
	};

	q->len = len + GRH;
	q->buf = aligned_alloc(64, (q->len + 63) & ~(size_t)63);
	if (!q->buf)
		return st_fault(f, NULL, "out of memory for %zu bytes", q->len);
	st_poison(q->buf, q->len);
	q->mr = ibv_reg_mr(x->pd, q->buf, q->len, access);
	if (!q->mr)
		return st_fault(f, NULL, "ibv_reg_mr: %s", strerror(errno));
	if (cq) {
		q->cq = NULL;	/* shared: not ours to destroy */
	} else {
		q->cq = ibv_create_cq(x->ctx, DEPTH * 2, NULL, x->ch, 0);
		if (!q->cq)
			return st_fault(f, NULL, "ibv_create_cq: %s", strerror(errno));
		if (x->ch && ibv_req_notify_cq(q->cq, 0))
			return st_fault(f, NULL, "ibv_req_notify_cq: %s", strerror(errno));
		cq = q->cq;
	}
	qa.send_cq = qa.recv_cq = cq;
	q->qp = ibv_create_qp(x->pd, &qa);
	if (!q->qp && errno == EINVAL) {	/* no inline: the QP without it */
		qa.cap.max_inline_data = 0;
		q->qp = ibv_create_qp(x->pd, &qa);
	}
	if (!q->qp)
		return st_fault(f, NULL, "ibv_create_qp (%s): %s", type == IBV_QPT_UD ? "UD" :
				type == IBV_QPT_UC ? "UC" : "RC", strerror(errno));
	if (inline_max)
		*inline_max = qa.cap.max_inline_data;
	q->psn = (uint32_t)(st_now_us() * 2654435761u + (uintptr_t)q) & 0xffffff;
	return 0;
}

/* The CQ an end's completions arrive on (its own, or the shared one). */
#define CQ(q, shared) ((q)->cq ? (q)->cq : (shared))

/* RESET -> INIT -> RTR -> RTS, Q towards the QP number DEST of this device. */
static int connect_end(struct xp *x, struct xq *q, enum ibv_qp_type type, uint32_t dest,
		       uint32_t dest_psn, struct st_fault *f)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = ST_PORT,
				 .qkey = QKEY };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	const char *step = "INIT";
	int err;

	if (type == IBV_QPT_UD) {
		mask |= IBV_QP_QKEY;
	} else {
		mask |= IBV_QP_ACCESS_FLAGS;
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | (type == IBV_QPT_RC ?
			IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC : 0);
	}
	err = ibv_modify_qp(q->qp, &a, mask);
	if (!err && type == IBV_QPT_RC) {
		struct st_path p = { .dest_qpn = dest, .rq_psn = dest_psn, .sq_psn = q->psn,
				     .dlid = x->pattr.lid, .sgid_index = (uint8_t)x->r->gid_index,
				     .hop_limit = 64, .rd_atomic = 4, .mtu = x->pattr.active_mtu };

		memcpy(p.dgid, x->gid.raw, 16);
		err = st_qp_rtr_rts(q->qp, &p, &step);
	} else if (!err) {
		/* UC takes no read/atomic or retry attributes; UD no path at all. */
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTR;
		mask = IBV_QP_STATE;
		if (type == IBV_QPT_UC) {
			a.path_mtu = x->pattr.active_mtu;
			a.dest_qp_num = dest;
			a.rq_psn = dest_psn;
			a.ah_attr = (struct ibv_ah_attr){ .is_global = 1, .dlid = x->pattr.lid,
							  .port_num = ST_PORT };
			a.ah_attr.grh.dgid = x->gid;
			a.ah_attr.grh.sgid_index = (uint8_t)x->r->gid_index;
			a.ah_attr.grh.hop_limit = 64;
			mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
		}
		step = "RTR";
		err = ibv_modify_qp(q->qp, &a, mask);
		if (!err) {
			memset(&a, 0, sizeof(a));
			a.qp_state = IBV_QPS_RTS;
			a.sq_psn = q->psn;
			step = "RTS";
			err = ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
		}
	}
	if (err)
		return st_fault(f, NULL, "ibv_modify_qp to %s: %s (%s)", step, strerror(err),
				errname(err));
	return 0;
}

static int post_recv(struct xq *q, char *buf, uint32_t len, uint64_t id, struct ibv_srq *srq,
		     struct st_fault *f)
{
	struct ibv_sge sge = { (uintptr_t)buf, len, q->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = len ? 1 : 0 }, *bad;
	int err = srq ? ibv_post_srq_recv(srq, &wr, &bad) : ibv_post_recv(q->qp, &wr, &bad);

	if (err)
		return st_fault(f, NULL, "ibv_post_%srecv: %s", srq ? "srq_" : "", strerror(err));
	return 0;
}

struct sendspec {
	enum ibv_wr_opcode op;
	uint32_t len;
	bool inl;
	struct xq *to;		/* WRITE: the target end */
	uint32_t rkey;		/* WRITE: 0 for the target's MR */
};

static int post(struct xp *x, struct xq *a, const struct sendspec *s, uint32_t dest_qpn,
		struct st_fault *f)
{
	struct ibv_sge sge = { (uintptr_t)a->buf, s->len, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = s->len ? 1 : 0,
				  .opcode = s->op,
				  .send_flags = IBV_SEND_SIGNALED | (s->inl ? IBV_SEND_INLINE : 0) },
			   *bad;
	int err;

	if (s->op == IBV_WR_SEND_WITH_IMM || s->op == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr.imm_data = htonl(IMM);
	if (s->to && s->op != IBV_WR_SEND && s->op != IBV_WR_SEND_WITH_IMM) {
		wr.wr.rdma.remote_addr = (uintptr_t)s->to->buf;
		wr.wr.rdma.rkey = s->rkey ? s->rkey : s->to->mr->rkey;
	}
	if (a->qp->qp_type == IBV_QPT_UD) {
		wr.wr.ud.ah = x->ah;
		wr.wr.ud.remote_qpn = dest_qpn;
		wr.wr.ud.remote_qkey = QKEY;
	}
	err = ibv_post_send(a->qp, &wr, &bad);
	if (err)
		return st_fault(f, NULL, "ibv_post_send: %s (%s)", strerror(err), errname(err));
	return 0;
}

/* The immediate data, where the opcode carries it. */
static int check_imm(const struct ibv_wc *wc, struct st_fault *f)
{
	if (!(wc->wc_flags & IBV_WC_WITH_IMM))
		return st_fault(f, NULL, "the receive completion has no immediate data");
	if (ntohl(wc->imm_data) != IMM)
		return st_fault(f, NULL, "immediate data 0x%08x, sent 0x%08x", ntohl(wc->imm_data),
				IMM);
	return 0;
}

/* UD: the GRH names our own GID as the source, and the source QP is A's. */
static int check_grh(struct xp *x, const struct ibv_wc *wc, const char *buf, uint32_t src_qp,
		     struct st_fault *f)
{
	struct ibv_ah_attr ah;

	if (!(wc->wc_flags & IBV_WC_GRH))
		return st_fault(f, NULL, "the UD receive has no GRH (IBV_WC_GRH not set)");
	if (ibv_init_ah_from_wc(x->ctx, ST_PORT, (struct ibv_wc *)wc, (struct ibv_grh *)buf, &ah))
		return st_fault(f, NULL, "ibv_init_ah_from_wc cannot read the GRH: %s",
				strerror(errno));
	if (memcmp(ah.grh.dgid.raw, x->gid.raw, 16)) {
		char got[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, ah.grh.dgid.raw, got, sizeof(got));
		return st_fault(f, NULL, "the GRH's source GID is %s, not the sender's %s", got,
				x->r->gid);
	}
	if (wc->src_qp != src_qp)
		return st_fault(f, NULL, "source QP 0x%06x, sent from 0x%06x", wc->src_qp, src_qp);
	return 0;
}

/* A SEND (or with immediate, or inline) from A to B: B's buffer holds it exactly. */
static int op_send(struct xp *x, struct xq *a, struct xq *b, const struct sendspec *s,
		   unsigned int stage, struct st_fault *f)
{
	bool ud = a->qp->qp_type == IBV_QPT_UD;
	uint32_t grh = ud ? GRH : 0;
	struct ibv_wc wc;

	st_poison(b->buf, b->len);
	st_fill(a->buf, s->len, stage);
	if (post_recv(b, b->buf, s->len + grh, 2, NULL, f) || post(x, a, s, b->qp->qp_num, f) ||
	    wait_wc(x, a->cq, IBV_WC_SEND, &wc, f) || wait_wc(x, b->cq, IBV_WC_RECV, &wc, f))
		return -1;
	if (wc.byte_len != s->len + grh)
		return st_fault(f, NULL, "received %u bytes, sent %u%s", wc.byte_len, s->len,
				ud ? " (+40 GRH)" : "");
	if (s->op == IBV_WR_SEND_WITH_IMM && check_imm(&wc, f))
		return -1;
	if (ud && check_grh(x, &wc, b->buf, a->qp->qp_num, f))
		return -1;
	return st_check_pattern(stage, "the received data", b->buf + grh, s->len, f);
}

/* UC gives no acknowledgement: the sender's completion may come before the data lands. */
static int await_pattern(struct xp *x, unsigned int stage, const char *buf, uint32_t len,
			 struct st_fault *f)
{
	uint64_t deadline = st_now_us() + (uint64_t)x->o->timeout_ms * 1000;
	struct st_fault g = { 0 };

	while (st_check_pattern(stage, "the written data", buf, len, &g)) {
		if (st_now_us() > deadline) {
			*f = g;
			return -1;
		}
		memset(&g, 0, sizeof(g));
	}
	return 0;
}

/* An RDMA WRITE (or with immediate) from A into B's buffer. */
static int op_write(struct xp *x, struct xq *a, struct xq *b, struct sendspec *s,
		    unsigned int stage, struct st_fault *f)
{
	bool imm = s->op == IBV_WR_RDMA_WRITE_WITH_IMM;
	struct ibv_wc wc;

	st_poison(b->buf, b->len);
	st_fill(a->buf, s->len, stage);
	s->to = b;
	if ((imm && post_recv(b, NULL, 0, 3, NULL, f)) || post(x, a, s, 0, f) ||
	    wait_wc(x, a->cq, IBV_WC_RDMA_WRITE, &wc, f))
		return -1;
	if (imm) {
		if (wait_wc(x, b->cq, IBV_WC_RECV_RDMA_WITH_IMM, &wc, f) || check_imm(&wc, f))
			return -1;
		if (wc.byte_len != s->len)
			return st_fault(f, NULL, "the immediate's completion says %u bytes, written %u",
					wc.byte_len, s->len);
	}
	return await_pattern(x, stage, b->buf, s->len, f);
}

/* RDMA READ of B's buffer into A's. */
static int op_read(struct xp *x, struct xq *a, struct xq *b, uint32_t len, unsigned int stage,
		   struct st_fault *f)
{
	struct sendspec s = { .op = IBV_WR_RDMA_READ, .len = len, .to = b };
	struct ibv_wc wc;

	st_fill(b->buf, len, stage);
	st_poison(a->buf, a->len);
	if (post(x, a, &s, 0, f) || wait_wc(x, a->cq, IBV_WC_RDMA_READ, &wc, f))
		return -1;
	return st_check_pattern(stage, "the data read", a->buf, len, f);
}

/* Compare-and-swap (a hit) and fetch-and-add on the first word of B's buffer. */
static int op_atomic(struct xp *x, struct xq *a, struct xq *b, bool cas, struct st_fault *f)
{
	uint64_t *target = (uint64_t *)(void *)b->buf, *old = (uint64_t *)(void *)a->buf;
	const uint64_t start = 0x0123456789abcdefULL, arg = 0x1111;
	struct ibv_sge sge = { (uintptr_t)a->buf, 8, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 4, .sg_list = &sge, .num_sge = 1,
				  .opcode = cas ? IBV_WR_ATOMIC_CMP_AND_SWP :
						  IBV_WR_ATOMIC_FETCH_AND_ADD,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	uint64_t want = cas ? ~start : start + arg;
	struct ibv_wc wc;
	int err;

	*target = start;
	*old = 0;
	wr.wr.atomic.remote_addr = (uintptr_t)b->buf;
	wr.wr.atomic.rkey = b->mr->rkey;
	wr.wr.atomic.compare_add = cas ? start : arg;
	wr.wr.atomic.swap = ~start;
	err = ibv_post_send(a->qp, &wr, &bad);
	if (err)
		return st_fault(f, NULL, "ibv_post_send: %s (%s)", strerror(err), errname(err));
	if (wait_wc(x, a->cq, cas ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD, &wc, f))
		return -1;
	if (*old != start)
		return st_fault(f, NULL, "the old value returned is 0x%016llx, not 0x%016llx",
				(unsigned long long)*old, (unsigned long long)start);
	if (*target != want)
		return st_fault(f, NULL, "the target holds 0x%016llx, not 0x%016llx",
				(unsigned long long)*target, (unsigned long long)want);
	return 0;
}

/* An A -> B pair of TYPE, each connected to the other. */
static int make_pair(struct xp *x, struct xq *a, struct xq *b, enum ibv_qp_type type,
		     size_t len, int access, uint32_t *inline_max, struct st_fault *f)
{
	if (make_end(x, a, type, NULL, len, access, NULL, inline_max, f) ||
	    make_end(x, b, type, NULL, len, access, NULL, NULL, f))
		return -1;
	if (connect_end(x, a, type, b->qp->qp_num, b->psn, f) ||
	    connect_end(x, b, type, a->qp->qp_num, a->psn, f))
		return -1;
	return 0;
}

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
		IBV_ACCESS_REMOTE_ATOMIC)

/* The path MTU of the loopback, in bytes. */
static uint32_t mtu_bytes(const struct xp *x)
{
	return 128u << x->pattr.active_mtu;
}

/*
 * UD, one byte over the path MTU: refused when posted, failed in its
 * completion, or sent and dropped; delivered is a finding. A delivery comes
 * within a second in loopback, so the wait for none is that long.
 */
static void over_mtu(struct xp *x, struct xq *a, struct xq *b)
{
	struct sendspec s = { .op = IBV_WR_SEND, .len = mtu_bytes(x) + 1 };
	struct xp_row *w = row(x, XP_UD, "over_mtu", XP_IMPLIED, "%s", "");
	struct st_fault g = { 0 };
	struct ibv_wc wc = { .status = IBV_WC_GENERAL_ERR };

	if (post_recv(b, b->buf, (uint32_t)b->len, 2, NULL, &w->f)) {
		row_done(w, -1, 0);
	} else if (post(x, a, &s, b->qp->qp_num, &g)) {
		row_done(w, 0, 0);
		note(w, "refused by ibv_post_send: %s", g.detail + strlen("ibv_post_send: "));
	} else if (wait_wc(x, a->cq, IBV_WC_SEND, &wc, &g)) {
		row_done(w, 0, 0);
		note(w, "refused in the send's completion: %s", g.detail);
	} else {
		x->wait_ms = 1000;
		memset(&g, 0, sizeof(g));
		if (!wait_wc(x, b->cq, IBV_WC_RECV, &wc, &g)) {
			st_fault(&w->f, "a peer with a larger MTU could be sent datagrams it cannot "
				 "take", "a UD message of %u bytes, over the path MTU %u, was "
				 "delivered", s.len, mtu_bytes(x));
			row_done(w, -1, 0);
		} else {
			row_done(w, 0, 0);
			note(w, "%u bytes: the send completed, the receiver got nothing (%s): "
			     "dropped", s.len, g.detail);
		}
		x->wait_ms = x->o->timeout_ms;
	}
}

/* RC, UC or UD: each operation the transport has, one row each. */
static void run_basic(struct xp *x, enum xp_transport t)
{
	enum ibv_qp_type type = t == XP_RC ? IBV_QPT_RC : t == XP_UC ? IBV_QPT_UC : IBV_QPT_UD;
	uint32_t len = t == XP_UD ? mtu_bytes(x) : x->o->size, inl = 0;
	bool atomics = x->dx.orig_attr.atomic_cap != IBV_ATOMIC_NONE;
	struct xq a = { 0 }, b = { 0 };
	struct xp_row *w;
	int err;

	w = row(x, t, "setup", XP_IMPLIED, "%s", "");
	err = make_pair(x, &a, &b, type, len > mtu_bytes(x) + 1 ? len : mtu_bytes(x) + 1, ACCESS,
			&inl, &w->f);
	row_done(w, err, 0);
	if (err) {
		free_end(&a);
		free_end(&b);
		return;
	}
	{
		struct sendspec s = { .op = IBV_WR_SEND, .len = len };

		w = row(x, t, "send", XP_IMPLIED, "%s", "");
		row_done(w, op_send(x, &a, &b, &s, 1, &w->f), len);
		s.op = IBV_WR_SEND_WITH_IMM;
		s.len = t == XP_UD ? 1 : len;
		w = row(x, t, "send_imm", XP_IMPLIED, "%s", "");
		row_done(w, op_send(x, &a, &b, &s, 2, &w->f), s.len);
	}
	if (t != XP_UD) {
		struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };

		w = row(x, t, "write", XP_IMPLIED, "%s", "");
		row_done(w, op_write(x, &a, &b, &s, 3, &w->f), len);
		s = (struct sendspec){ .op = IBV_WR_RDMA_WRITE_WITH_IMM, .len = len };
		w = row(x, t, "write_imm", XP_IMPLIED, "%s", "");
		row_done(w, op_write(x, &a, &b, &s, 4, &w->f), len);
	}
	if (t == XP_RC) {
		w = row(x, t, "read", XP_IMPLIED, "%s", "");
		row_done(w, op_read(x, &a, &b, len, 5, &w->f), len);
		for (int cas = 1; cas >= 0; cas--) {
			w = row(x, t, cas ? "cmp_swap" : "fetch_add", atomics ? XP_CLAIMED :
				XP_NOT_CLAIMED, "atomic_cap %d", x->dx.orig_attr.atomic_cap);
			if (atomics)
				row_done(w, op_atomic(x, &a, &b, cas, &w->f), 8);
			else
				row_unsupported(w, "the device has no atomics (atomic_cap NONE)");
		}
	}
	w = row(x, t, "inline", inl ? XP_CLAIMED : XP_NOT_CLAIMED, "max_inline_data %u", inl);
	if (inl) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = inl < 48 ? inl : 48, .inl = true };

		row_done(w, op_send(x, &a, &b, &s, 6, &w->f), s.len);
	} else {
		row_unsupported(w, "a QP with max_inline_data %d was refused", INLINE_WANT);
	}
	if (t == XP_UD)
		over_mtu(x, &a, &b);
	free_end(&a);
	free_end(&b);
}

/* SRQ_QPS RC QPs receiving from one SRQ, then its limit event. */
static void run_srq(struct xp *x)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = SRQ_SLOTS, .max_sge = 1 } };
	bool claimed = x->dx.orig_attr.max_srq > 0;
	struct xq a[SRQ_QPS] = { 0 }, b[SRQ_QPS] = { 0 }, slots = { 0 };
	struct ibv_cq *acq = NULL, *bcq = NULL;
	struct xp_row *w = row(x, XP_SRQ, "srq", claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "max_srq %d", x->dx.orig_attr.max_srq);
	struct ibv_srq *srq = ibv_create_srq(x->pd, &sa);
	unsigned int i, got = 0;
	struct ibv_wc wc;
	int err = 0;

	if (!srq) {
		if (claimed) {
			st_fault(&w->f, NULL, "ibv_create_srq: %s", strerror(errno));
			row_done(w, -1, 0);
		} else {
			row_unsupported(w, "ibv_create_srq: %s", strerror(errno));
		}
		row_not_run(x, XP_SRQ, "srq_limit", claimed ? XP_IMPLIED : XP_NOT_CLAIMED,
			    "no SRQ");
		return;
	}
	acq = ibv_create_cq(x->ctx, DEPTH * 2, NULL, x->ch, 0);
	bcq = ibv_create_cq(x->ctx, DEPTH * 2, NULL, x->ch, 0);
	if (!acq || !bcq)
		err = st_fault(&w->f, NULL, "ibv_create_cq: %s", strerror(errno));
	if (!err && x->ch && (ibv_req_notify_cq(acq, 0) || ibv_req_notify_cq(bcq, 0)))
		err = st_fault(&w->f, NULL, "ibv_req_notify_cq: %s", strerror(errno));
	/* The receive slots: one buffer of SRQ_SLOTS * SLOT bytes. */
	slots.len = (size_t)SRQ_SLOTS * SLOT;
	slots.buf = err ? NULL : aligned_alloc(64, slots.len);
	if (!err && !slots.buf)
		err = st_fault(&w->f, NULL, "out of memory");
	if (!err) {
		st_poison(slots.buf, slots.len);
		slots.mr = ibv_reg_mr(x->pd, slots.buf, slots.len, IBV_ACCESS_LOCAL_WRITE);
		if (!slots.mr)
			err = st_fault(&w->f, NULL, "ibv_reg_mr: %s", strerror(errno));
	}
	for (i = 0; !err && i < SRQ_QPS; i++) {
		err = make_end(x, &a[i], IBV_QPT_RC, NULL, SLOT, ACCESS, acq, NULL, &w->f) ||
		      make_end(x, &b[i], IBV_QPT_RC, srq, 0, ACCESS, bcq, NULL, &w->f) ||
		      connect_end(x, &a[i], IBV_QPT_RC, b[i].qp->qp_num, b[i].psn, &w->f) ||
		      connect_end(x, &b[i], IBV_QPT_RC, a[i].qp->qp_num, a[i].psn, &w->f);
	}
	for (i = 0; !err && i < SRQ_SLOTS; i++)
		err = post_recv(&slots, slots.buf + (size_t)i * SLOT, SLOT, i, srq, &w->f);
	/* Each QP sends its own pattern; each lands in a slot the SRQ gave its QP. */
	for (i = 0; !err && i < SRQ_QPS; i++) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = SLOT };

		st_fill(a[i].buf, SLOT, 10 + i);
		err = post(x, &a[i], &s, 0, &w->f);
	}
	for (i = 0; !err && i < 2 * SRQ_QPS; i++) {
		unsigned int q;
		struct ibv_cq *cq = i < SRQ_QPS ? acq : bcq;

		err = wait_wc(x, cq, i < SRQ_QPS ? IBV_WC_SEND : IBV_WC_RECV, &wc, &w->f);
		if (err || i < SRQ_QPS)
			continue;
		for (q = 0; q < SRQ_QPS && b[q].qp->qp_num != wc.qp_num; q++)
			;
		if (q == SRQ_QPS) {
			err = st_fault(&w->f, NULL, "a receive completed on QP 0x%06x, none of ours",
				       wc.qp_num);
			break;
		}
		err = st_check_pattern(10 + q, "a message through the SRQ",
				       slots.buf + wc.wr_id * SLOT, SLOT, &w->f) ||
		      post_recv(&slots, slots.buf + wc.wr_id * SLOT, SLOT, wc.wr_id, srq, &w->f);
		got += !err;
	}
	row_done(w, err, (uint64_t)got * SLOT);
	if (!err)
		note(w, "%u QPs, one message each, into one SRQ "
			 "of %u receives", SRQ_QPS, SRQ_SLOTS);
	/* The limit: armed at SRQ_LIMIT, then the SRQ drained below it without reposting. */
	w = row(x, XP_SRQ, "srq_limit", XP_IMPLIED, "%s", "");
	if (err) {
		w->result = XP_NOT_RUN;
		note(w, "the SRQ step failed");
	} else {
		struct ibv_srq_attr la = { .srq_limit = SRQ_LIMIT };
		unsigned int n = SRQ_SLOTS - SRQ_LIMIT + 1;
		uint64_t deadline;

		x->srq = srq;
		x->srq_limit_seen = false;
		err = ibv_modify_srq(srq, &la, IBV_SRQ_LIMIT);
		if (err)
			st_fault(&w->f, NULL, "ibv_modify_srq (IBV_SRQ_LIMIT %d): %s", SRQ_LIMIT,
				 strerror(err));
		for (i = 0; !err && i < n; i++) {
			struct sendspec s = { .op = IBV_WR_SEND, .len = 1 };

			err = post(x, &a[i % SRQ_QPS], &s, 0, &w->f) ||
			      wait_wc(x, acq, IBV_WC_SEND, &wc, &w->f) ||
			      wait_wc(x, bcq, IBV_WC_RECV, &wc, &w->f);
		}
		deadline = st_now_us() + (uint64_t)x->o->timeout_ms * 1000;
		while (!err && !x->srq_limit_seen && st_now_us() < deadline) {
			struct pollfd p = { .fd = x->ctx->async_fd, .events = POLLIN };

			poll(&p, 1, 50);
			drain_async(x);
		}
		if (!err && !x->srq_limit_seen)
			err = st_fault(&w->f, "the device never signalled IBV_EVENT_SRQ_LIMIT_REACHED: "
				       "a program waiting for it to repost would stall",
				       "no SRQ limit event within %u ms after %u of %u receives were "
				       "used with the limit at %d", x->o->timeout_ms, n, SRQ_SLOTS,
				       SRQ_LIMIT);
		row_done(w, err, 0);
		if (!err)
			note(w, "IBV_EVENT_SRQ_LIMIT_REACHED after "
				 "%u of %u receives, limit %d", n, SRQ_SLOTS, SRQ_LIMIT);
		x->srq = NULL;
	}
	for (i = 0; i < SRQ_QPS; i++) {
		free_end(&a[i]);
		free_end(&b[i]);
	}
	ibv_destroy_srq(srq);
	if (acq)
		ibv_destroy_cq(acq);
	if (bcq)
		ibv_destroy_cq(bcq);
	if (slots.mr)
		ibv_dereg_mr(slots.mr);
	free(slots.buf);
}

/* XRC: the device's claim and ibv_open_xrcd's answer. */
static void run_xrc(struct xp *x)
{
	bool claimed = x->dx.orig_attr.device_cap_flags & IBV_DEVICE_XRC;
	struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD |
						      IBV_XRCD_INIT_ATTR_OFLAGS,
					 .fd = -1, .oflags = O_CREAT };
	struct xp_row *w = row(x, XP_XRC, "xrc", claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "device_cap_flags %s XRC", claimed ? "has" : "lacks");
	struct ibv_xrcd *d = ibv_open_xrcd(x->ctx, &xa);
	int err = errno;

	if (d) {
		ibv_close_xrcd(d);
		w->usec = 0;
		w->result = XP_NOT_RUN;
		note(w, "the device opens an XRC domain; this "
			 "rdmactl does not test XRC traffic yet");
	} else if (claimed) {
		st_fault(&w->f, NULL, "the device claims XRC, but ibv_open_xrcd: %s (%s)",
			 strerror(err), errname(err));
		row_done(w, -1, 0);
	} else {
		row_unsupported(w, "ibv_open_xrcd: %s (%s)", strerror(err), errname(err));
	}
}

/*
 * A memory window of TYPE over B's buffer: bound, A writes through it, it is
 * invalidated, and A's next write through it must be refused.
 */
static void run_mw_type(struct xp *x, enum ibv_mw_type type)
{
	uint64_t caps = x->dx.orig_attr.device_cap_flags;
	bool claimed = type == IBV_MW_TYPE_1 ? caps & IBV_DEVICE_MEM_WINDOW :
			caps & (IBV_DEVICE_MEM_WINDOW_TYPE_2A | IBV_DEVICE_MEM_WINDOW_TYPE_2B);
	const char *op = type == IBV_MW_TYPE_1 ? "mw_type1" : "mw_type2";
	struct xp_row *w = row(x, XP_MW, op, claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "max_mw %d, %s", x->dx.orig_attr.max_mw,
			       claimed ? "device_cap_flags has it" : "not in device_cap_flags");
	struct xq a = { 0 }, b = { 0 };
	struct ibv_mw *mw = NULL;
	uint32_t len = x->o->size, rkey = 0;
	struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };
	struct ibv_wc wc;
	int err;

	err = make_pair(x, &a, &b, IBV_QPT_RC, len, ACCESS | IBV_ACCESS_MW_BIND, NULL, &w->f);
	if (!err) {
		mw = ibv_alloc_mw(x->pd, type);
		if (!mw && !claimed) {
			row_unsupported(w, "ibv_alloc_mw: %s (%s)", strerror(errno), errname(errno));
			goto out;
		}
		if (!mw)
			err = st_fault(&w->f, NULL, "the device claims it, but ibv_alloc_mw: %s",
				       strerror(errno));
	}
	if (!err && type == IBV_MW_TYPE_1) {
		struct ibv_mw_bind bind = {
			.wr_id = 7, .send_flags = IBV_SEND_SIGNALED,
			.bind_info = { .mr = b.mr, .addr = (uintptr_t)b.buf, .length = len,
				       .mw_access_flags = IBV_ACCESS_REMOTE_WRITE },
		};

		err = ibv_bind_mw(b.qp, mw, &bind);
		if (err)
			err = st_fault(&w->f, NULL, "ibv_bind_mw: %s", strerror(err));
		else
			err = wait_wc(x, b.cq, IBV_WC_BIND_MW, &wc, &w->f);
		rkey = mw->rkey;
	} else if (!err) {
		struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_BIND_MW,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		rkey = ibv_inc_rkey(mw->rkey);
		wr.bind_mw.mw = mw;
		wr.bind_mw.rkey = rkey;
		wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
			.mr = b.mr, .addr = (uintptr_t)b.buf, .length = len,
			.mw_access_flags = IBV_ACCESS_REMOTE_WRITE };
		err = ibv_post_send(b.qp, &wr, &bad);
		if (err)
			err = st_fault(&w->f, NULL, "ibv_post_send (IBV_WR_BIND_MW): %s",
				       strerror(err));
		else
			err = wait_wc(x, b.cq, IBV_WC_BIND_MW, &wc, &w->f);
	}
	/* Through the window: the data lands. */
	s.rkey = rkey;
	if (!err)
		err = op_write(x, &a, &b, &s, 8, &w->f);
	/* Invalidated: a zero-length bind (type 1), a local invalidate (type 2). */
	if (!err && type == IBV_MW_TYPE_1) {
		struct ibv_mw_bind bind = { .wr_id = 8, .send_flags = IBV_SEND_SIGNALED,
					    .bind_info = { .mr = b.mr } };

		err = ibv_bind_mw(b.qp, mw, &bind);
		if (err)
			err = st_fault(&w->f, NULL, "ibv_bind_mw (unbind): %s", strerror(err));
		else
			err = wait_wc(x, b.cq, IBV_WC_BIND_MW, &wc, &w->f);
	} else if (!err) {
		struct ibv_send_wr wr = { .wr_id = 8, .opcode = IBV_WR_LOCAL_INV,
					  .send_flags = IBV_SEND_SIGNALED,
					  .invalidate_rkey = rkey }, *bad;

		err = ibv_post_send(b.qp, &wr, &bad);
		if (err)
			err = st_fault(&w->f, NULL, "ibv_post_send (IBV_WR_LOCAL_INV): %s",
				       strerror(err));
		else
			err = wait_wc(x, b.cq, IBV_WC_LOCAL_INV, &wc, &w->f);
	}
	/* Through the invalidated window: refused, and nothing written. */
	if (!err) {
		struct st_fault g = { 0 };

		st_poison(b.buf, b.len);
		st_fill(a.buf, len, 9);
		s.to = &b;
		err = post(x, &a, &s, 0, &w->f);
		if (!err && !wait_wc(x, a.cq, IBV_WC_RDMA_WRITE, &wc, &g))
			err = st_fault(&w->f, "the window still grants access after it was "
				       "invalidated", "a write through the invalidated window "
				       "(rkey 0x%08x) succeeded", rkey);
		else if (!err && (uint8_t)b.buf[0] != 0xee)
			err = st_fault(&w->f, NULL, "a write through the invalidated window failed "
				       "(%s) but changed the memory", g.detail);
		else if (!err)
			note(w, "bound, written through, "
				 "invalidated, then refused: %s", g.detail);
	}
	row_done(w, err, err ? 0 : len);
out:
	if (mw)
		ibv_dealloc_mw(mw);
	free_end(&a);
	free_end(&b);
}

/*
 * --events, proven: a fresh pair's CQs are armed before anything is posted;
 * the receive's completion must then be announced on the channel before it is
 * polled, and so must the send's.
 */
static int events_proof(struct xp *x, struct st_fault *f)
{
	struct xq a = { 0 }, b = { 0 };
	struct sendspec s = { .op = IBV_WR_SEND, .len = 64 };
	unsigned int seen = 0;	/* 1: b's CQ announced, 2: a's */
	int err = make_pair(x, &a, &b, IBV_QPT_RC, 64, ACCESS, NULL, f);

	if (!err) {
		st_fill(a.buf, 64, 11);
		err = post_recv(&b, b.buf, 64, 2, NULL, f) || post(x, &a, &s, 0, f);
	}
	while (!err && seen != 3) {
		struct pollfd p = { .fd = x->ch->fd, .events = POLLIN };
		struct ibv_cq *ecq;
		void *cctx;

		if (poll(&p, 1, (int)x->o->timeout_ms) == 0) {
			err = st_fault(f, "the CQs were armed (ibv_req_notify_cq) before the SEND was "
				       "posted: its completions should each raise an event",
				       "no completion event on the channel within %u ms (%s)",
				       x->o->timeout_ms, seen & 1 ? "the receive's came" :
				       seen & 2 ? "the send's came" : "neither the send's nor the "
				       "receive's");
			break;
		}
		if (ibv_get_cq_event(x->ch, &ecq, &cctx))
			continue;
		ibv_ack_cq_events(ecq, 1);
		seen |= ecq == b.cq ? 1 : ecq == a.cq ? 2 : 0;
	}
	if (!err) {
		struct ibv_wc wc;

		err = wait_wc(x, a.cq, IBV_WC_SEND, &wc, f) || wait_wc(x, b.cq, IBV_WC_RECV, &wc, f) ||
		      st_check_pattern(11, "the data announced", b.buf, 64, f);
	}
	free_end(&a);
	free_end(&b);
	return err ? -1 : 0;
}

static int setup(struct xp *x)
{
	struct xp_report *r = x->r;
	int idx = x->o->gid_index;

	x->ctx = st_open_device(x->o->dev);
	if (!x->ctx)
		return st_fault(&r->f, "rdmactl check --only uverbs,provider",
				"libibverbs cannot open %s", x->o->dev);
	if (ibv_query_device_ex(x->ctx, NULL, &x->dx) || ibv_query_port(x->ctx, ST_PORT, &x->pattr))
		return st_fault(&r->f, NULL, "ibv_query_device_ex/port: %s", strerror(errno));
	if (x->pattr.state != IBV_PORT_ACTIVE)
		return st_fault(&r->f, "rdmactl check --only link", "port %d of %s is %s, not ACTIVE",
				ST_PORT, x->o->dev, ibv_port_state_str(x->pattr.state));
	for (int i = 0; idx < 0 && i < x->pattr.gid_tbl_len; i++) {
		union ibv_gid g;

		if (!ibv_query_gid(x->ctx, ST_PORT, i, &g) &&
		    !memcmp(g.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12))
			idx = i;
	}
	if (idx < 0)
		return st_fault(&r->f, "give the netdev an IPv4 address, or pass --gid-index",
				"%s has no RoCE v2 IPv4 GID", x->o->dev);
	r->gid_index = idx;
	if (ibv_query_gid(x->ctx, ST_PORT, idx, &x->gid))
		return st_fault(&r->f, NULL, "ibv_query_gid %d: %s", idx, strerror(errno));
	inet_ntop(AF_INET6, x->gid.raw, r->gid, sizeof(r->gid));
	r->mtu = (int)mtu_bytes(x);
	x->pd = ibv_alloc_pd(x->ctx);
	if (!x->pd)
		return st_fault(&r->f, NULL, "ibv_alloc_pd: %s", strerror(errno));
	if (x->o->events) {
		x->ch = ibv_create_comp_channel(x->ctx);
		if (!x->ch)
			return st_fault(&r->f, NULL, "ibv_create_comp_channel: %s", strerror(errno));
		fcntl(x->ch->fd, F_SETFL, fcntl(x->ch->fd, F_GETFL) | O_NONBLOCK);
	}
	fcntl(x->ctx->async_fd, F_SETFL, fcntl(x->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	if (x->o->transports & (1u << XP_UD)) {
		struct ibv_ah_attr aa = { .is_global = 1, .dlid = x->pattr.lid,
					  .port_num = ST_PORT };

		aa.grh.dgid = x->gid;
		aa.grh.sgid_index = (uint8_t)idx;
		aa.grh.hop_limit = 64;
		x->ah = ibv_create_ah(x->pd, &aa);
		if (!x->ah)
			return st_fault(&r->f, NULL, "ibv_create_ah towards %s: %s", r->gid,
					strerror(errno));
	}
	return 0;
}

int xp_loopback(const struct xp_opts *o, struct xp_report *r)
{
	struct xp x = { .o = o, .r = r, .wait_ms = o->timeout_ms };
	struct utsname u;
	struct xp_row *w;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", o->dev);
	r->gid_index = -1;
	r->events = o->events;
	if (uname(&u) == 0)
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	if (setup(&x) == 0) {
		if (o->transports & (1u << XP_RC))
			run_basic(&x, XP_RC);
		if (o->transports & (1u << XP_UC))
			run_basic(&x, XP_UC);
		if (o->transports & (1u << XP_UD))
			run_basic(&x, XP_UD);
		if (o->transports & (1u << XP_SRQ))
			run_srq(&x);
		if (o->transports & (1u << XP_XRC))
			run_xrc(&x);
		if (o->transports & (1u << XP_MW)) {
			run_mw_type(&x, IBV_MW_TYPE_1);
			run_mw_type(&x, IBV_MW_TYPE_2);
		}
		if (o->events) {
			unsigned int before = x.by_event, all = x.completions;
			int err;

			w = row(&x, XP_NTRANSPORTS, "events", XP_IMPLIED, "%s", "");
			err = events_proof(&x, &w->f);
			row_done(w, err, err ? 0 : 64);
			if (!err)
				note(w, "a SEND and its receive each announced on the channel before "
				     "being polled; before that, %u completions, %u taken after an "
				     "event, the rest there already when polled", all, before);
		}
		drain_async(&x);
		w = row(&x, XP_NTRANSPORTS, "async", XP_IMPLIED, "%s", "");
		w->usec = 0;
		if (r->nasync)
			st_fault(&w->f, "an asynchronous event no step caused: see 'dmesg' and "
				 "'rdmactl check'", "%u asynchronous event(s), first %s", r->nasync,
				 r->async[0]);
		else
			note(w, "no asynchronous event arrived "
				 "that no step caused");
		w->result = r->nasync ? XP_FAIL : XP_PASS;
	}
	if (x.ah)
		ibv_destroy_ah(x.ah);
	if (x.pd)
		ibv_dealloc_pd(x.pd);
	if (x.ch)
		ibv_destroy_comp_channel(x.ch);
	if (x.ctx)
		ibv_close_device(x.ctx);
	r->passed = !r->f.failed;
	for (unsigned int i = 0; i < r->nrows; i++)
		if (r->rows[i].result == XP_FAIL)
			r->passed = false;
	return r->passed ? 0 : -1;
}
