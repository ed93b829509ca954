// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --transport: RC, UC, UD, SRQ and memory windows proven byte for
 * byte, beside what the device claims; XRC and anything the device does not
 * claim reported with the device's own answer. End A acts; end B is acted
 * upon, in this process (loopback) or in a server's (two hosts). B's part of
 * every operation is xb_open() and xb_step(), whichever: A reaches it through
 * a function call or through the exchange's XOPEN and XSTEP (wire.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <infiniband/verbs.h>

#include "kernel/release.h"
#include "selftest/internal.h"
#include "selftest/sidechan.h"
#include "selftest/xport.h"

#define GRH 40			/* what a UD receive holds before the payload */
#define QKEY 0x11111111		/* ibv_ud_pingpong's */
#define IMM 0x5eed1234u
#define INLINE_WANT 64
#define SRQ_QPS WIRE_XQPS	/* ibv_srq_pingpong's default, 16 */
#define SRQ_SLOTS 32u
#define SRQ_LIMIT 8u
#define SLOT 1024
#define DEPTH 64
#define SRQ_STAGE 10		/* QP i of the SRQ sends pattern SRQ_STAGE + i */
#define NONE_MS 1000		/* a UD delivery comes within this, or not at all */

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
		IBV_ACCESS_REMOTE_ATOMIC)

/* What end B is asked (struct wire_xstep's op). */
enum xb_op {
	XB_PREPARE = 1,		/* poison the buffer; with XB_POST, a receive of LEN (+GRH) */
	XB_FILL,		/* STAGE's pattern over LEN bytes: what A reads */
	XB_SET_WORD,		/* the buffer's first word := VALUE */
	XB_CHECK_RECV,		/* a receive of LEN bytes, STAGE's pattern (XB_IMM: with it) */
	XB_CHECK_WRITE,		/* LEN bytes of STAGE's pattern written (XB_IMM: announced) */
	XB_CHECK_WORD,		/* the first word is VALUE */
	XB_CHECK_NONE,		/* no receive completes within VALUE ms */
	XB_CHECK_UNTOUCHED,	/* the buffer still holds the poison */
	XB_SRQ_CHECK,		/* VALUE receives through the SRQ, QP i's STAGE + i, reposted */
	XB_SRQ_ARM,		/* the SRQ's limit at VALUE */
	XB_SRQ_LIMIT,		/* VALUE receives, then the limit event */
	XB_MW_BIND,		/* a window of type VALUE over the buffer: its rkey answered */
	XB_MW_INVALIDATE,	/* the window invalidated */
	XB_ASYNC,		/* fails when an asynchronous event no step caused came */
	XB_CLOSE,		/* the end freed */
};

#define XB_POST 0x1
#define XB_IMM 0x2
#define XB_ANNOUNCED 0x4	/* the completion was announced on the channel first */

/* One end: a QP, its CQ and its registered buffer. */
struct xq {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	size_t len;
	uint32_t psn;
};

struct xp;

/* End B: the QPs a transport's XOPEN made, and what they know of A. */
struct xb {
	struct xp *x;		/* B's device: A's own in loopback */
	bool open;
	enum xp_transport t;
	unsigned int nqp;
	struct xq q[SRQ_QPS];	/* q[0] holds the buffer A reaches; SRQ's all receive */
	struct ibv_cq *cq;	/* SRQ: the one CQ of its QPs */
	struct ibv_srq *srq;
	struct xq slots;	/* SRQ: the receive buffers */
	struct ibv_mw *mw;
	int mw_type;
	uint32_t mw_rkey;
	union ibv_gid peer_gid;
	uint32_t peer_qpn;
	bool refused;		/* the last failure was the device saying no (not supported) */
	struct xp_row *w;	/* the server's row for this end */
};

struct xp {
	const struct xp_opts *o;
	struct xp_report *r;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;	/* when completions come through a channel */
	struct ibv_comp_channel *chan;	/* the server's, made when a client asks */
	struct ibv_ah *ah;	/* UD: towards B */
	unsigned int wait_ms;	/* what wait_wc() waits: --timeout, or less */
	unsigned int completions, by_event;
	bool srq_limit_seen;
	struct ibv_srq *srq;	/* whose limit event is expected */
	struct ibv_cq *announced[4];	/* CQs whose event came and no wait took yet */
	unsigned int nannounced;
	/* How A reaches B: in this process, or over the side channel. */
	struct xb *lb;
	int fd;
	bool broken;		/* the exchange failed: no step after it is tried */
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
 * The next event on the channel within LEFT ms, acknowledged: 1 with its CQ
 * in *ECQ, 0 when none came, -1 when the channel had none after all.
 */
static int next_cq_event(struct xp *x, int64_t left, struct ibv_cq **ecq)
{
	struct pollfd p = { .fd = x->ch->fd, .events = POLLIN };
	void *cctx;

	if (left <= 0 || poll(&p, 1, (int)left) <= 0)
		return 0;
	if (ibv_get_cq_event(x->ch, ecq, &cctx))
		return -1;
	ibv_ack_cq_events(*ecq, 1);
	return 1;
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
		int n = ibv_poll_cq(cq, 1, wc), got;
		int64_t left = (int64_t)(deadline - st_now_us()) / 1000;
		struct ibv_cq *ecq;

		if (n < 0)
			return st_fault(f, NULL, "ibv_poll_cq failed (%d)", n);
		if (n == 1)
			break;
		got = next_cq_event(x, left, &ecq);
		if (got == 0)
			return st_fault(f, "the completion event never came: the CQ was armed "
					"(ibv_req_notify_cq) and nothing arrived on its channel",
					"no completion event within %u ms", x->wait_ms);
		if (got < 0)
			continue;	/* another thread's, or none yet */
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

/*
 * --events' proof: CQ's event, taken from the channel before CQ is polled.
 * Events for other CQs are kept for their own wait (in loopback A and B share
 * the channel).
 */
static int wait_announced(struct xp *x, const struct ibv_cq *cq, struct st_fault *f)
{
	uint64_t deadline = st_now_us() + (uint64_t)x->o->timeout_ms * 1000;

	for (;;) {
		int64_t left = (int64_t)(deadline - st_now_us()) / 1000;
		struct ibv_cq *ecq;

		for (unsigned int i = 0; i < x->nannounced; i++) {
			if (x->announced[i] == cq) {
				x->announced[i] = x->announced[--x->nannounced];
				return 0;
			}
		}
		int got;

		got = next_cq_event(x, left, &ecq);
		if (got == 0)
			return st_fault(f, "the CQ was armed (ibv_req_notify_cq) before the SEND was "
					"posted: its completion should raise an event",
					"no completion event on the channel within %u ms",
					x->o->timeout_ms);
		if (got > 0 && x->nannounced < 4)
			x->announced[x->nannounced++] = ecq;
	}
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

/* A CQ of this device, armed when completions come through the channel. */
static struct ibv_cq *make_cq(struct xp *x, struct st_fault *f)
{
	struct ibv_cq *cq = ibv_create_cq(x->ctx, DEPTH * 2, NULL, x->ch, 0);

	if (!cq) {
		st_fault(f, NULL, "ibv_create_cq: %s", strerror(errno));
		return NULL;
	}
	if (x->ch && ibv_req_notify_cq(cq, 0)) {
		st_fault(f, NULL, "ibv_req_notify_cq: %s", strerror(errno));
		ibv_destroy_cq(cq);
		return NULL;
	}
	return cq;
}

/*
 * An end of TYPE with LEN bytes of buffer (plus room for a GRH), receives from
 * SRQ when given, completions on CQ when given (else its own); *INLINE_MAX
 * what the QP took of INLINE_WANT bytes inline.
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
	if (!cq) {
		q->cq = make_cq(x, f);
		if (!q->cq)
			return -1;
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

static enum ibv_qp_type qp_type(enum xp_transport t)
{
	return t == XP_UC ? IBV_QPT_UC : t == XP_UD ? IBV_QPT_UD : IBV_QPT_RC;
}

/* RESET -> INIT -> RTR -> RTS, Q towards QP number DEST at DGID. */
static int connect_end(struct xp *x, struct xq *q, enum ibv_qp_type type, uint32_t dest,
		       uint32_t dest_psn, const uint8_t dgid[16], struct st_fault *f)
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

		memcpy(p.dgid, dgid, 16);
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
			memcpy(a.ah_attr.grh.dgid.raw, dgid, 16);
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

/* The path MTU, in bytes. */
static uint32_t mtu_bytes(const struct xp *x)
{
	return 128u << x->pattr.active_mtu;
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

/* --- end B: what it is asked, here or in a server --- */

/* UD: the GRH names A's GID as the source, and the source QP is A's. */
static int check_grh(struct xb *b, const struct ibv_wc *wc, const char *buf, struct st_fault *f)
{
	struct ibv_ah_attr ah;

	if (!(wc->wc_flags & IBV_WC_GRH))
		return st_fault(f, NULL, "the UD receive has no GRH (IBV_WC_GRH not set)");
	if (ibv_init_ah_from_wc(b->x->ctx, ST_PORT, (struct ibv_wc *)wc, (struct ibv_grh *)buf,
				&ah))
		return st_fault(f, NULL, "ibv_init_ah_from_wc cannot read the GRH: %s",
				strerror(errno));
	if (memcmp(ah.grh.dgid.raw, b->peer_gid.raw, 16)) {
		char got[INET6_ADDRSTRLEN], want[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, ah.grh.dgid.raw, got, sizeof(got));
		inet_ntop(AF_INET6, b->peer_gid.raw, want, sizeof(want));
		return st_fault(f, NULL, "the GRH's source GID is %s, not the sender's %s", got,
				want);
	}
	if (wc->src_qp != b->peer_qpn)
		return st_fault(f, NULL, "source QP 0x%06x, sent from 0x%06x", wc->src_qp,
				b->peer_qpn);
	return 0;
}

static void xb_close(struct xb *b)
{
	if (b->mw)
		ibv_dealloc_mw(b->mw);
	for (unsigned int i = 0; i < SRQ_QPS; i++)
		free_end(&b->q[i]);
	if (b->srq)
		ibv_destroy_srq(b->srq);
	if (b->cq)
		ibv_destroy_cq(b->cq);
	free_end(&b->slots);
	if (b->x->srq == b->srq)
		b->x->srq = NULL;
	*b = (struct xb){ .x = b->x, .w = b->w };	/* the server's row outlives the end */
}

/* SRQ: one CQ, the SRQ, its receive slots (all posted) and O->nqp QPs on it. */
static int xb_open_srq(struct xb *b, unsigned int nqp, struct st_fault *f)
{
	struct xp *x = b->x;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = SRQ_SLOTS, .max_sge = 1 } };
	unsigned int i;

	b->srq = ibv_create_srq(x->pd, &sa);
	if (!b->srq) {
		b->refused = true;
		return st_fault(f, NULL, "ibv_create_srq: %s", strerror(errno));
	}
	b->cq = make_cq(x, f);
	if (!b->cq)
		return -1;
	/* The receive slots: one buffer of SRQ_SLOTS * SLOT bytes. */
	b->slots.len = (size_t)SRQ_SLOTS * SLOT;
	b->slots.buf = aligned_alloc(64, b->slots.len);
	if (!b->slots.buf)
		return st_fault(f, NULL, "out of memory");
	st_poison(b->slots.buf, b->slots.len);
	b->slots.mr = ibv_reg_mr(x->pd, b->slots.buf, b->slots.len, IBV_ACCESS_LOCAL_WRITE);
	if (!b->slots.mr)
		return st_fault(f, NULL, "ibv_reg_mr: %s", strerror(errno));
	for (i = 0; i < nqp; i++)
		if (make_end(x, &b->q[i], IBV_QPT_RC, b->srq, 0, ACCESS, b->cq, NULL, f))
			return -1;
	for (i = 0; i < SRQ_SLOTS; i++)
		if (post_recv(&b->slots, b->slots.buf + (size_t)i * SLOT, SLOT, i, b->srq, f))
			return -1;
	return 0;
}

/* B's end of O's transport, connected to A's QPs; E what A may reach of it. */
static int xb_open(struct xb *b, const struct wire_xopen *o, struct wire_xends *e,
		   struct st_fault *f)
{
	struct xp *x = b->x;
	enum xp_transport t = (enum xp_transport)o->transport;
	unsigned int i;
	int err;

	if (b->open)
		return st_fault(f, NULL, "an end is open already: one transport at a time");
	if (t == XP_XRC || t >= XP_NTRANSPORTS)
		return st_fault(f, NULL, "no end of transport %u to make", o->transport);
	if (t != XP_SRQ && o->nqp != 1)
		return st_fault(f, NULL, "%s takes one QP, not %u", xp_transport_name(t), o->nqp);
	b->open = true;
	b->t = t;
	b->nqp = o->nqp;
	memcpy(b->peer_gid.raw, o->gid, 16);
	b->peer_qpn = o->qpn[0];
	if (t == XP_SRQ)
		err = xb_open_srq(b, o->nqp, f);
	else
		err = make_end(x, &b->q[0], qp_type(t), NULL, o->len,
			       ACCESS | (t == XP_MW ? IBV_ACCESS_MW_BIND : 0), NULL, NULL, f);
	for (i = 0; !err && i < b->nqp; i++)
		err = connect_end(x, &b->q[i], qp_type(t), o->qpn[i], o->psn[i], o->gid, f);
	if (err) {
		xb_close(b);
		return -1;
	}
	*e = (struct wire_xends){ .nqp = (uint8_t)b->nqp, .len = o->len };
	memcpy(e->gid, x->gid.raw, 16);
	if (t == XP_SRQ) {	/* nothing to reach but the QPs */
		e->addr = (uintptr_t)b->slots.buf;
		e->rkey = b->slots.mr->rkey;
	} else {
		e->addr = (uintptr_t)b->q[0].buf;
		e->rkey = b->q[0].mr->rkey;
	}
	for (i = 0; i < b->nqp; i++) {
		e->qpn[i] = b->q[i].qp->qp_num;
		e->psn[i] = b->q[i].psn;
	}
	return 0;
}

/* The CQ B's first QP completes on. */
static struct ibv_cq *b_cq(struct xb *b)
{
	return b->q[0].cq ? b->q[0].cq : b->cq;
}

static int b_recv(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	bool ud = b->t == XP_UD;
	uint32_t grh = ud ? GRH : 0;
	struct xq *q = &b->q[0];
	struct ibv_wc wc;

	if ((s->flags & XB_ANNOUNCED) && (!b->x->ch || wait_announced(b->x, b_cq(b), f)))
		return b->x->ch ? -1 : st_fault(f, NULL, "completions are polled here: there is "
						"no channel to announce them");
	if (wait_wc(b->x, b_cq(b), IBV_WC_RECV, &wc, f))
		return -1;
	if (wc.byte_len != s->len + grh)
		return st_fault(f, NULL, "received %u bytes, sent %u%s", wc.byte_len, s->len,
				ud ? " (+40 GRH)" : "");
	if ((s->flags & XB_IMM) && check_imm(&wc, f))
		return -1;
	if (ud && check_grh(b, &wc, q->buf, f))
		return -1;
	return st_check_pattern(s->stage, "the received data", q->buf + grh, s->len, f);
}

static int b_write(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct ibv_wc wc;

	if (s->flags & XB_IMM) {
		if (wait_wc(b->x, b_cq(b), IBV_WC_RECV_RDMA_WITH_IMM, &wc, f) || check_imm(&wc, f))
			return -1;
		if (wc.byte_len != s->len)
			return st_fault(f, NULL, "the immediate's completion says %u bytes, written %u",
					wc.byte_len, s->len);
	}
	return await_pattern(b->x, s->stage, b->q[0].buf, s->len, f);
}

/* UD over the path MTU: a delivery is the finding; nothing within VALUE ms is right. */
static int b_none(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct xp *x = b->x;
	struct st_fault g = { 0 };
	struct ibv_wc wc;
	int got;

	x->wait_ms = (unsigned int)s->value;
	got = wait_wc(x, b_cq(b), IBV_WC_RECV, &wc, &g);
	x->wait_ms = x->o->timeout_ms;
	if (got == 0)
		return st_fault(f, "a peer with a larger MTU could be sent datagrams it cannot "
				"take", "a UD message over the path MTU %u was delivered (%u bytes)",
				mtu_bytes(x), wc.byte_len);
	snprintf(f->detail, sizeof(f->detail), "the receiver got nothing (%.200s)", g.detail);
	return 0;
}

static int b_srq_check(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct ibv_wc wc;

	for (uint64_t i = 0; i < s->value; i++) {
		unsigned int q;

		if (wait_wc(b->x, b->cq, IBV_WC_RECV, &wc, f))
			return -1;
		for (q = 0; q < b->nqp && b->q[q].qp->qp_num != wc.qp_num; q++)
			;
		if (q == b->nqp)
			return st_fault(f, NULL, "a receive completed on QP 0x%06x, none of ours",
					wc.qp_num);
		if (wc.byte_len != s->len)
			return st_fault(f, NULL, "QP %u received %u bytes, sent %u", q, wc.byte_len,
					s->len);
		if (st_check_pattern(s->stage + q, "a message through the SRQ",
				     b->slots.buf + wc.wr_id * SLOT, s->len, f) ||
		    post_recv(&b->slots, b->slots.buf + wc.wr_id * SLOT, SLOT, wc.wr_id, b->srq, f))
			return -1;
	}
	snprintf(f->detail, sizeof(f->detail), "%u QPs, one message each, into one SRQ of %u "
		 "receives", b->nqp, SRQ_SLOTS);
	return 0;
}

static int b_srq_limit(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct xp *x = b->x;
	uint64_t deadline;
	struct ibv_wc wc;

	for (uint64_t i = 0; i < s->value; i++)
		if (wait_wc(x, b->cq, IBV_WC_RECV, &wc, f))
			return -1;
	deadline = st_now_us() + (uint64_t)x->o->timeout_ms * 1000;
	while (!x->srq_limit_seen && st_now_us() < deadline) {
		struct pollfd p = { .fd = x->ctx->async_fd, .events = POLLIN };

		poll(&p, 1, 50);
		drain_async(x);
	}
	x->srq = NULL;
	if (!x->srq_limit_seen)
		return st_fault(f, "the device never signalled IBV_EVENT_SRQ_LIMIT_REACHED: a "
				"program waiting for it to repost would stall",
				"no SRQ limit event within %u ms after %u of %u receives were used "
				"with the limit at %u", x->o->timeout_ms, (unsigned int)s->value,
				SRQ_SLOTS, SRQ_LIMIT);
	snprintf(f->detail, sizeof(f->detail), "IBV_EVENT_SRQ_LIMIT_REACHED after %u of %u "
		 "receives, limit %u", (unsigned int)s->value, SRQ_SLOTS, SRQ_LIMIT);
	return 0;
}

/* A window of type VALUE over the buffer, bound by B's QP: its rkey in *RKEY. */
static int b_mw_bind(struct xb *b, const struct wire_xstep *s, uint32_t *rkey,
		     struct st_fault *f)
{
	struct xq *q = &b->q[0];
	struct ibv_mw_bind_info info = { .mr = q->mr, .addr = (uintptr_t)q->buf,
					 .length = s->len,
					 .mw_access_flags = IBV_ACCESS_REMOTE_WRITE };
	struct ibv_wc wc;
	int err;

	if (b->mw)
		return st_fault(f, NULL, "a window is bound already");
	b->mw_type = s->value == 1 ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2;
	b->mw = ibv_alloc_mw(q->qp->pd, (enum ibv_mw_type)b->mw_type);
	if (!b->mw) {
		b->refused = true;
		return st_fault(f, NULL, "ibv_alloc_mw: %s (%s)", strerror(errno), errname(errno));
	}
	if (b->mw_type == IBV_MW_TYPE_1) {
		struct ibv_mw_bind bind = { .wr_id = 7, .send_flags = IBV_SEND_SIGNALED,
					    .bind_info = info };

		err = ibv_bind_mw(q->qp, b->mw, &bind);
		if (err)
			return st_fault(f, NULL, "ibv_bind_mw: %s", strerror(err));
		b->mw_rkey = b->mw->rkey;
	} else {
		struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_BIND_MW,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		b->mw_rkey = ibv_inc_rkey(b->mw->rkey);
		wr.bind_mw.mw = b->mw;
		wr.bind_mw.rkey = b->mw_rkey;
		wr.bind_mw.bind_info = info;
		err = ibv_post_send(q->qp, &wr, &bad);
		if (err)
			return st_fault(f, NULL, "ibv_post_send (IBV_WR_BIND_MW): %s", strerror(err));
	}
	if (wait_wc(b->x, q->cq, IBV_WC_BIND_MW, &wc, f))
		return -1;
	*rkey = b->mw_rkey;
	return 0;
}

/* Invalidated: a zero-length bind (type 1), a local invalidate (type 2). */
static int b_mw_invalidate(struct xb *b, struct st_fault *f)
{
	struct xq *q = &b->q[0];
	enum ibv_wc_opcode op = IBV_WC_BIND_MW;
	struct ibv_wc wc;
	int err;

	if (!b->mw)
		return st_fault(f, NULL, "no window is bound");
	if (b->mw_type == IBV_MW_TYPE_1) {
		struct ibv_mw_bind bind = { .wr_id = 8, .send_flags = IBV_SEND_SIGNALED,
					    .bind_info = { .mr = q->mr } };

		err = ibv_bind_mw(q->qp, b->mw, &bind);
		if (err)
			return st_fault(f, NULL, "ibv_bind_mw (unbind): %s", strerror(err));
	} else {
		struct ibv_send_wr wr = { .wr_id = 8, .opcode = IBV_WR_LOCAL_INV,
					  .send_flags = IBV_SEND_SIGNALED,
					  .invalidate_rkey = b->mw_rkey }, *bad;

		op = IBV_WC_LOCAL_INV;
		err = ibv_post_send(q->qp, &wr, &bad);
		if (err)
			return st_fault(f, NULL, "ibv_post_send (IBV_WR_LOCAL_INV): %s",
					strerror(err));
	}
	return wait_wc(b->x, q->cq, op, &wc, f);
}

/* Refuses what B's end cannot hold: every length against its buffer. */
static int b_bounds(struct xb *b, const struct wire_xstep *s, struct st_fault *f)
{
	size_t room = b->q[0].len - GRH;	/* payload: a UD receive's GRH is extra */

	if (!b->open)
		return st_fault(f, NULL, "no end is open");
	if ((s->op == XB_SRQ_CHECK || s->op == XB_SRQ_ARM || s->op == XB_SRQ_LIMIT) &&
	    b->t != XP_SRQ)
		return st_fault(f, NULL, "the end has no SRQ");
	if (b->t == XP_SRQ && s->op != XB_SRQ_CHECK && s->op != XB_SRQ_ARM &&
	    s->op != XB_SRQ_LIMIT && s->op != XB_CLOSE)
		return st_fault(f, NULL, "an SRQ end takes SRQ steps only");
	if (b->t == XP_SRQ ? s->len > SLOT || s->value > SRQ_SLOTS || s->stage + b->nqp > 255 :
	    s->len > room)
		return st_fault(f, NULL, "%u bytes or %llu items: more than the end holds", s->len,
				(unsigned long long)s->value);
	if (s->op == XB_CHECK_NONE && s->value > b->x->o->timeout_ms)
		return st_fault(f, NULL, "a wait of %llu ms, over the timeout",
				(unsigned long long)s->value);
	if ((s->op == XB_SET_WORD || s->op == XB_CHECK_WORD) && room < 8)
		return st_fault(f, NULL, "the buffer holds no word");
	return 0;
}

/* One step of B: 0 with F's detail saying what was seen, or -1 with F said. */
static int xb_step(struct xb *b, const struct wire_xstep *s, uint32_t *value, struct st_fault *f)
{
	struct xq *q = &b->q[0];
	uint64_t word;
	int err;

	*value = 0;
	if (s->op == XB_ASYNC) {
		drain_async(b->x);
		if (b->x->r->nasync)
			return st_fault(f, "an asynchronous event no step caused: see 'dmesg' and "
					"'rdmactl check'", "%u asynchronous event(s), first %s",
					b->x->r->nasync, b->x->r->async[0]);
		return 0;
	}
	if (b_bounds(b, s, f))
		return -1;
	switch (s->op) {
	case XB_PREPARE:
		st_poison(q->buf, q->len);
		if (!(s->flags & XB_POST))
			return 0;
		return post_recv(q, s->len ? q->buf : NULL, s->len ? s->len +
				 (b->t == XP_UD ? GRH : 0) : 0, 2, NULL, f);
	case XB_FILL:
		st_fill(q->buf, s->len, s->stage);
		return 0;
	case XB_SET_WORD:
		memcpy(q->buf, &s->value, 8);
		return 0;
	case XB_CHECK_RECV:
		return b_recv(b, s, f);
	case XB_CHECK_WRITE:
		return b_write(b, s, f);
	case XB_CHECK_WORD:
		memcpy(&word, q->buf, 8);
		if (word != s->value)
			return st_fault(f, NULL, "the target holds 0x%016llx, not 0x%016llx",
					(unsigned long long)word, (unsigned long long)s->value);
		return 0;
	case XB_CHECK_NONE:
		return b_none(b, s, f);
	case XB_CHECK_UNTOUCHED:
		if ((uint8_t)q->buf[0] != 0xee)
			return st_fault(f, NULL, "the refused write changed the memory");
		return 0;
	case XB_SRQ_CHECK:
		return b_srq_check(b, s, f);
	case XB_SRQ_ARM:
		b->x->srq = b->srq;
		b->x->srq_limit_seen = false;
		err = ibv_modify_srq(b->srq, &(struct ibv_srq_attr){
					.srq_limit = (uint32_t)s->value }, IBV_SRQ_LIMIT);
		if (err)
			return st_fault(f, NULL, "ibv_modify_srq (IBV_SRQ_LIMIT %u): %s",
					(unsigned int)s->value, strerror(err));
		return 0;
	case XB_SRQ_LIMIT:
		return b_srq_limit(b, s, f);
	case XB_MW_BIND:
		return b_mw_bind(b, s, value, f);
	case XB_MW_INVALIDATE:
		return b_mw_invalidate(b, f);
	case XB_CLOSE:
		xb_close(b);
		return 0;
	}
	return st_fault(f, NULL, "no step %u", s->op);
}

/* --- how A reaches B: a call, or the exchange --- */

/* The server's answer to the client's last message, within the wait a step may take. */
static int net_answer(struct xp *x, uint8_t *buf, int want, struct st_fault *f)
{
	/* A step may wait a completion, then a second: twice the timeout and more. */
	uint64_t deadline = sc_now_ms() + 2ull * x->o->timeout_ms + NONE_MS;
	char words[200];
	const char *why;
	int kind = st_recv_msg(x->fd, buf, deadline, &why);

	if (kind == want || kind == WIRE_RESULT)
		return kind;
	x->broken = true;
	if (kind >= 0) {
		why = "a message out of turn";
		kind = -EBADMSG;
	}
	st_fault(f, kind == -EPROTO ? NULL : "is 'rdmactl selftest server' running there?",
		 "the server %s", st_recv_error(kind, why, words, sizeof(words)));
	snprintf(x->r->f.detail, sizeof(x->r->f.detail), "%s", f->detail);
	return -1;
}

/* A RESULT in BUF into F, the server's words marked as its own; 0 when it passed. */
static int net_result(struct xp *x, const uint8_t *buf, uint32_t *value, struct st_fault *f)
{
	struct st_fault res = { 0 };
	const char *why = "";

	if (wire_result_decode_value(buf + WIRE_HDR_LEN, &res, value, &why)) {
		x->broken = true;
		return st_fault(f, NULL, "the server sent a malformed result: %s", why);
	}
	if (*res.detail)
		snprintf(f->detail, sizeof(f->detail), "the server: %.*s",
			 (int)sizeof(f->detail) - 20, res.detail);
	snprintf(f->hint, sizeof(f->hint), "%s", res.hint);
	f->failed = res.failed;
	return res.failed ? -1 : 0;
}

static int net_send(struct xp *x, const uint8_t *buf, size_t n, struct st_fault *f)
{
	char words[200];
	int err = sc_write(x->fd, buf, n, sc_now_ms() + x->o->timeout_ms);

	if (!err)
		return 0;
	x->broken = true;
	return st_fault(f, NULL, "the server %s", st_recv_error(err, "", words, sizeof(words)));
}

/* B's end of O's transport: E, or -1 with F said. */
static int b_open(struct xp *x, const struct wire_xopen *o, struct wire_xends *e,
		  struct st_fault *f)
{
	uint8_t buf[WIRE_MSG_MAX];
	const char *why = "";
	uint32_t value;
	int kind;

	if (x->lb)
		return xb_open(x->lb, o, e, f);
	if (x->broken)
		return st_fault(f, NULL, "not tried: %s", x->r->f.detail);
	if (net_send(x, buf, wire_xopen_encode(o, buf), f))
		return -1;
	kind = net_answer(x, buf, WIRE_XENDS, f);
	if (kind == WIRE_RESULT) {
		net_result(x, buf, &value, f);
		f->failed = true;
		return -1;
	}
	if (kind < 0)
		return -1;
	if (wire_xends_decode(buf + WIRE_HDR_LEN, e, &why)) {
		x->broken = true;
		return st_fault(f, NULL, "the server sent malformed ends: %s", why);
	}
	if (e->nqp != o->nqp || e->len < o->len) {
		x->broken = true;
		return st_fault(f, NULL, "the server made %u QPs of %u bytes, asked %u of %u",
				e->nqp, e->len, o->nqp, o->len);
	}
	if (!*x->r->remote_gid)
		inet_ntop(AF_INET6, e->gid, x->r->remote_gid, sizeof(x->r->remote_gid));
	return 0;
}

/* B's part of an operation: 0, or -1 with F said; *VALUE what it answered. */
static int b_do(struct xp *x, enum xb_op op, unsigned int stage, unsigned int flags,
		uint32_t len, uint64_t value, uint32_t *answer, struct st_fault *f)
{
	struct wire_xstep s = { .op = (uint8_t)op, .stage = (uint8_t)stage,
				.flags = (uint8_t)flags, .len = len, .value = value };
	struct st_fault res = { 0 };
	uint8_t buf[WIRE_MSG_MAX];
	uint32_t v = 0;
	int err;

	if (x->lb) {
		err = xb_step(x->lb, &s, &v, &res);
	} else if (x->broken) {
		err = st_fault(&res, NULL, "not tried: %s", x->r->f.detail);
	} else if (net_send(x, buf, wire_xstep_encode(&s, buf), &res)) {
		err = -1;
	} else {
		err = net_answer(x, buf, WIRE_RESULT, &res) < 0 ? -1 :
		      net_result(x, buf, &v, &res);
	}
	if (answer)
		*answer = v;
	if (err) {
		*f = res;
		f->failed = true;
		return -1;
	}
	if (*res.detail && !f->failed)	/* what B saw, for the row's note */
		snprintf(f->detail, sizeof(f->detail), "%s", res.detail);
	return 0;
}

#define B(x, op, stage, flags, len, value, f) b_do(x, op, stage, flags, len, value, NULL, f)

/* --- end A: the operations --- */

struct sendspec {
	enum ibv_wr_opcode op;
	uint32_t len;
	bool inl;
	uint64_t raddr;		/* WRITE, READ: B's buffer */
	uint32_t rkey;
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
	if (s->op != IBV_WR_SEND && s->op != IBV_WR_SEND_WITH_IMM) {
		wr.wr.rdma.remote_addr = s->raddr;
		wr.wr.rdma.rkey = s->rkey;
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

/* A SEND (or with immediate, or inline) from A to B: B's buffer holds it exactly. */
static int op_send(struct xp *x, struct xq *a, const struct wire_xends *e,
		   const struct sendspec *s, unsigned int stage, struct st_fault *f)
{
	struct ibv_wc wc;

	st_fill(a->buf, s->len, stage);
	return B(x, XB_PREPARE, 0, XB_POST, s->len, 0, f) || post(x, a, s, e->qpn[0], f) ||
	       wait_wc(x, a->cq, IBV_WC_SEND, &wc, f) ||
	       B(x, XB_CHECK_RECV, stage, s->op == IBV_WR_SEND_WITH_IMM ? XB_IMM : 0, s->len, 0, f);
}

/* An RDMA WRITE (or with immediate) from A into B's buffer (through S->rkey when set). */
static int op_write(struct xp *x, struct xq *a, const struct wire_xends *e, struct sendspec *s,
		    unsigned int stage, struct st_fault *f)
{
	bool imm = s->op == IBV_WR_RDMA_WRITE_WITH_IMM;
	struct ibv_wc wc;

	st_fill(a->buf, s->len, stage);
	s->raddr = e->addr;
	s->rkey = s->rkey ? s->rkey : e->rkey;
	return B(x, XB_PREPARE, 0, imm ? XB_POST : 0, 0, 0, f) || post(x, a, s, 0, f) ||
	       wait_wc(x, a->cq, IBV_WC_RDMA_WRITE, &wc, f) ||
	       B(x, XB_CHECK_WRITE, stage, imm ? XB_IMM : 0, s->len, 0, f);
}

/* RDMA READ of B's buffer into A's. */
static int op_read(struct xp *x, struct xq *a, const struct wire_xends *e, uint32_t len,
		   unsigned int stage, struct st_fault *f)
{
	struct sendspec s = { .op = IBV_WR_RDMA_READ, .len = len, .raddr = e->addr,
			      .rkey = e->rkey };
	struct ibv_wc wc;

	st_poison(a->buf, a->len);
	if (B(x, XB_FILL, stage, 0, len, 0, f) || post(x, a, &s, 0, f) ||
	    wait_wc(x, a->cq, IBV_WC_RDMA_READ, &wc, f))
		return -1;
	return st_check_pattern(stage, "the data read", a->buf, len, f);
}

/* Compare-and-swap (a hit) and fetch-and-add on the first word of B's buffer. */
static int op_atomic(struct xp *x, struct xq *a, const struct wire_xends *e, bool cas,
		     struct st_fault *f)
{
	uint64_t *old = (uint64_t *)(void *)a->buf;
	const uint64_t start = 0x0123456789abcdefULL, arg = 0x1111;
	struct ibv_sge sge = { (uintptr_t)a->buf, 8, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 4, .sg_list = &sge, .num_sge = 1,
				  .opcode = cas ? IBV_WR_ATOMIC_CMP_AND_SWP :
						  IBV_WR_ATOMIC_FETCH_AND_ADD,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int err;

	*old = 0;
	wr.wr.atomic.remote_addr = e->addr;
	wr.wr.atomic.rkey = e->rkey;
	wr.wr.atomic.compare_add = cas ? start : arg;
	wr.wr.atomic.swap = ~start;
	if (B(x, XB_SET_WORD, 0, 0, 0, start, f))
		return -1;
	err = ibv_post_send(a->qp, &wr, &bad);
	if (err)
		return st_fault(f, NULL, "ibv_post_send: %s (%s)", strerror(err), errname(err));
	if (wait_wc(x, a->cq, cas ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD, &wc, f))
		return -1;
	if (*old != start)
		return st_fault(f, NULL, "the old value returned is 0x%016llx, not 0x%016llx",
				(unsigned long long)*old, (unsigned long long)start);
	return B(x, XB_CHECK_WORD, 0, 0, 0, cas ? ~start : start + arg, f);
}

/*
 * Asks B for its end of T (NQP QPs of LEN bytes) towards A's QPs, and connects
 * A's; *B_MADE once B has an end to close.
 */
static int open_ends(struct xp *x, enum xp_transport t, struct xq *a, unsigned int nqp,
		     uint32_t len, struct wire_xends *e, bool *b_made, struct st_fault *f)
{
	struct wire_xopen o = { .transport = (uint8_t)t, .nqp = (uint8_t)nqp, .len = len,
				.flags = x->o->events ? WIRE_XF_EVENTS : 0 };
	unsigned int i;

	*b_made = false;
	memcpy(o.gid, x->gid.raw, 16);
	for (i = 0; i < nqp; i++) {
		o.qpn[i] = a[i].qp->qp_num;
		o.psn[i] = a[i].psn;
	}
	if (b_open(x, &o, e, f))
		return -1;
	*b_made = true;
	for (i = 0; i < nqp; i++)
		if (connect_end(x, &a[i], qp_type(t), e->qpn[i], e->psn[i], e->gid, f))
			return -1;
	return 0;
}

/* A's ends freed, and B's when it was made. */
static void close_ends(struct xp *x, struct xq *a, unsigned int nqp, bool b_made)
{
	struct st_fault g = { 0 };

	for (unsigned int i = 0; i < nqp; i++)
		free_end(&a[i]);
	if (b_made)
		B(x, XB_CLOSE, 0, 0, 0, 0, &g);
}

/* A's end of T and B's, connected: LEN bytes of buffer each. */
static int make_pair(struct xp *x, enum xp_transport t, struct xq *a, uint32_t len,
		     uint32_t *inline_max, struct wire_xends *e, bool *b_made, struct st_fault *f)
{
	*b_made = false;
	return make_end(x, a, qp_type(t), NULL, len, ACCESS, NULL, inline_max, f) ||
	       open_ends(x, t, a, 1, len, e, b_made, f) ? -1 : 0;
}

/*
 * UD, one byte over the path MTU: refused when posted, failed in its
 * completion, or sent and dropped; delivered is a finding. A delivery comes
 * within a second, so the wait for none is that long.
 */
static void over_mtu(struct xp *x, struct xq *a, const struct wire_xends *e)
{
	struct sendspec s = { .op = IBV_WR_SEND, .len = mtu_bytes(x) + 1 };
	struct xp_row *w = row(x, XP_UD, "over_mtu", XP_IMPLIED, "%s", "");
	struct st_fault g = { 0 };
	struct ibv_wc wc = { .status = IBV_WC_GENERAL_ERR };

	if (B(x, XB_PREPARE, 0, XB_POST, e->len, 0, &w->f)) {
		row_done(w, -1, 0);
	} else if (post(x, a, &s, e->qpn[0], &g)) {
		row_done(w, 0, 0);
		note(w, "refused by ibv_post_send: %s", g.detail + strlen("ibv_post_send: "));
	} else if (wait_wc(x, a->cq, IBV_WC_SEND, &wc, &g)) {
		row_done(w, 0, 0);
		note(w, "refused in the send's completion: %s", g.detail);
	} else if (B(x, XB_CHECK_NONE, 0, 0, 0, NONE_MS, &g)) {
		w->f = g;
		row_done(w, -1, 0);
	} else {
		row_done(w, 0, 0);
		note(w, "%u bytes: the send completed, %s: dropped", s.len, g.detail);
	}
}

/* UD: an address handle towards B's GID. */
static int make_ah(struct xp *x, const uint8_t gid[16], struct st_fault *f)
{
	struct ibv_ah_attr aa = { .is_global = 1, .dlid = x->pattr.lid, .port_num = ST_PORT };
	char text[INET6_ADDRSTRLEN];

	memcpy(aa.grh.dgid.raw, gid, 16);
	aa.grh.sgid_index = (uint8_t)x->r->gid_index;
	aa.grh.hop_limit = 64;
	x->ah = ibv_create_ah(x->pd, &aa);
	if (x->ah)
		return 0;
	inet_ntop(AF_INET6, gid, text, sizeof(text));
	return st_fault(f, NULL, "ibv_create_ah towards %s: %s", text, strerror(errno));
}

/* RC, UC or UD: each operation the transport has, one row each. */
static void run_basic(struct xp *x, enum xp_transport t)
{
	uint32_t len = t == XP_UD ? mtu_bytes(x) : x->o->size, inl = 0;
	uint32_t buflen = len > mtu_bytes(x) + 1 ? len : mtu_bytes(x) + 1;
	bool atomics = x->dx.orig_attr.atomic_cap != IBV_ATOMIC_NONE, made;
	struct xq a = { 0 };
	struct wire_xends e;
	struct xp_row *w;
	int err;

	w = row(x, t, "setup", XP_IMPLIED, "%s", "");
	err = make_pair(x, t, &a, buflen, &inl, &e, &made, &w->f) ||
	      (t == XP_UD && make_ah(x, e.gid, &w->f));
	row_done(w, err, 0);
	if (err)
		goto out;
	{
		struct sendspec s = { .op = IBV_WR_SEND, .len = len };

		w = row(x, t, "send", XP_IMPLIED, "%s", "");
		row_done(w, op_send(x, &a, &e, &s, 1, &w->f), len);
		s.op = IBV_WR_SEND_WITH_IMM;
		s.len = t == XP_UD ? 1 : len;
		w = row(x, t, "send_imm", XP_IMPLIED, "%s", "");
		row_done(w, op_send(x, &a, &e, &s, 2, &w->f), s.len);
	}
	if (t != XP_UD) {
		struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };

		w = row(x, t, "write", XP_IMPLIED, "%s", "");
		row_done(w, op_write(x, &a, &e, &s, 3, &w->f), len);
		s = (struct sendspec){ .op = IBV_WR_RDMA_WRITE_WITH_IMM, .len = len };
		w = row(x, t, "write_imm", XP_IMPLIED, "%s", "");
		row_done(w, op_write(x, &a, &e, &s, 4, &w->f), len);
	}
	if (t == XP_RC) {
		w = row(x, t, "read", XP_IMPLIED, "%s", "");
		row_done(w, op_read(x, &a, &e, len, 5, &w->f), len);
		for (int cas = 1; cas >= 0; cas--) {
			w = row(x, t, cas ? "cmp_swap" : "fetch_add", atomics ? XP_CLAIMED :
				XP_NOT_CLAIMED, "atomic_cap %d", x->dx.orig_attr.atomic_cap);
			if (atomics)
				row_done(w, op_atomic(x, &a, &e, cas, &w->f), 8);
			else
				row_unsupported(w, "the device has no atomics (atomic_cap NONE)");
		}
	}
	w = row(x, t, "inline", inl ? XP_CLAIMED : XP_NOT_CLAIMED, "max_inline_data %u", inl);
	if (inl) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = inl < 48 ? inl : 48, .inl = true };

		row_done(w, op_send(x, &a, &e, &s, 6, &w->f), s.len);
	} else {
		row_unsupported(w, "a QP with max_inline_data %d was refused", INLINE_WANT);
	}
	if (t == XP_UD)
		over_mtu(x, &a, &e);
out:
	if (x->ah)
		ibv_destroy_ah(x->ah);
	x->ah = NULL;
	close_ends(x, &a, 1, made);
}

/* A row refused by the device (not claimed): not supported, with what F said. */
static void refused(struct xp_row *w, struct st_fault *f)
{
	struct st_fault g = *f;

	memset(f, 0, sizeof(*f));
	row_unsupported(w, "%s", g.detail);
}

/* SRQ_QPS RC QPs sending into B's, which receive from one SRQ; then its limit event. */
static void run_srq(struct xp *x)
{
	bool claimed = x->dx.orig_attr.max_srq > 0, made = false;
	struct xq a[SRQ_QPS] = { 0 };
	struct xp_row *w = row(x, XP_SRQ, "srq", claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "max_srq %d", x->dx.orig_attr.max_srq);
	struct ibv_cq *acq = make_cq(x, &w->f);
	unsigned int i, n = SRQ_SLOTS - SRQ_LIMIT + 1;
	struct wire_xends e;
	struct ibv_wc wc;
	int err = acq ? 0 : -1;

	for (i = 0; !err && i < SRQ_QPS; i++)
		err = make_end(x, &a[i], IBV_QPT_RC, NULL, SLOT, ACCESS, acq, NULL, &w->f);
	if (!err && open_ends(x, XP_SRQ, a, SRQ_QPS, SLOT, &e, &made, &w->f)) {
		err = -1;
		if (!made && !claimed && !x->broken) {
			refused(w, &w->f);
			row_not_run(x, XP_SRQ, "srq_limit", XP_NOT_CLAIMED, "no SRQ");
			goto out;
		}
	}
	/* Each QP sends its own pattern; each must land in a slot the SRQ gave its QP. */
	for (i = 0; !err && i < SRQ_QPS; i++) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = SLOT };

		st_fill(a[i].buf, SLOT, SRQ_STAGE + i);
		err = post(x, &a[i], &s, 0, &w->f);
	}
	for (i = 0; !err && i < SRQ_QPS; i++)
		err = wait_wc(x, acq, IBV_WC_SEND, &wc, &w->f);
	if (!err)
		err = B(x, XB_SRQ_CHECK, SRQ_STAGE, 0, SLOT, SRQ_QPS, &w->f);
	row_done(w, err, err ? 0 : (uint64_t)SRQ_QPS * SLOT);
	/* The limit: armed at SRQ_LIMIT, then the SRQ drained below it without reposting. */
	w = row(x, XP_SRQ, "srq_limit", XP_IMPLIED, "%s", "");
	if (err) {
		w->result = XP_NOT_RUN;
		w->usec = 0;
		note(w, "the SRQ step failed");
		goto out;
	}
	err = B(x, XB_SRQ_ARM, 0, 0, 0, SRQ_LIMIT, &w->f);
	for (i = 0; !err && i < n; i++) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = 1 };

		err = post(x, &a[i % SRQ_QPS], &s, 0, &w->f) ||
		      wait_wc(x, acq, IBV_WC_SEND, &wc, &w->f);
	}
	if (!err)
		err = B(x, XB_SRQ_LIMIT, 0, 0, 0, n, &w->f);
	row_done(w, err, 0);
out:
	close_ends(x, a, SRQ_QPS, made);
	if (acq)
		ibv_destroy_cq(acq);
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
 * A memory window of TYPE over B's buffer: bound by B, A writes through it,
 * B invalidates it, and A's next write through it must be refused.
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
	uint32_t len = x->o->size, rkey = 0;
	struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };
	struct xq a = { 0 };
	struct wire_xends e;
	struct ibv_wc wc;
	bool made = false;
	int err;

	err = make_end(x, &a, IBV_QPT_RC, NULL, len, ACCESS, NULL, NULL, &w->f) ||
	      open_ends(x, XP_MW, &a, 1, len, &e, &made, &w->f);
	if (!err && b_do(x, XB_MW_BIND, 0, 0, len, type == IBV_MW_TYPE_1 ? 1 : 2, &rkey,
			 &w->f)) {
		if (!claimed && !x->broken) {
			refused(w, &w->f);
			goto out;
		}
		err = -1;
	}
	/* Through the window: the data lands. */
	s.rkey = rkey;
	if (!err)
		err = op_write(x, &a, &e, &s, 8, &w->f) ||
		      B(x, XB_MW_INVALIDATE, 0, 0, 0, 0, &w->f);
	/* Through the invalidated window: refused, and nothing written. */
	if (!err) {
		struct st_fault g = { 0 };

		st_fill(a.buf, len, 9);
		s = (struct sendspec){ .op = IBV_WR_RDMA_WRITE, .len = len, .raddr = e.addr,
				       .rkey = rkey };
		err = B(x, XB_PREPARE, 0, 0, 0, 0, &w->f) || post(x, &a, &s, 0, &w->f);
		if (!err && !wait_wc(x, a.cq, IBV_WC_RDMA_WRITE, &wc, &g))
			err = st_fault(&w->f, "the window still grants access after it was "
				       "invalidated", "a write through the invalidated window "
				       "(rkey 0x%08x) succeeded", rkey);
		else if (!err)
			err = B(x, XB_CHECK_UNTOUCHED, 0, 0, 0, 0, &w->f);
		if (!err)
			note(w, "bound, written through, invalidated, then refused: %s", g.detail);
	}
	row_done(w, err, err ? 0 : len);
out:
	close_ends(x, &a, 1, made);
}

/*
 * --events, proven: a fresh pair's CQs are armed before anything is posted;
 * the send's completion must then be announced on the channel before it is
 * polled, and so must the receive's.
 */
static int events_proof(struct xp *x, struct st_fault *f)
{
	struct sendspec s = { .op = IBV_WR_SEND, .len = 64 };
	struct xq a = { 0 };
	struct wire_xends e;
	struct ibv_wc wc;
	bool made;
	int err = make_pair(x, XP_RC, &a, 64, NULL, &e, &made, f);

	x->nannounced = 0;
	if (!err) {
		st_fill(a.buf, 64, 11);
		err = B(x, XB_PREPARE, 0, XB_POST, 64, 0, f) || post(x, &a, &s, 0, f) ||
		      wait_announced(x, a.cq, f) || wait_wc(x, a.cq, IBV_WC_SEND, &wc, f) ||
		      B(x, XB_CHECK_RECV, 11, XB_ANNOUNCED, 64, 0, f);
	}
	close_ends(x, &a, 1, made);
	return err ? -1 : 0;
}

/* Opens the device, checks the port, picks the GID: everything A and B share. */
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
		x->chan = x->ch;
	}
	fcntl(x->ctx->async_fd, F_SETFL, fcntl(x->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static void release(struct xp *x)
{
	if (x->pd)
		ibv_dealloc_pd(x->pd);
	if (x->chan)
		ibv_destroy_comp_channel(x->chan);
	if (x->ctx)
		ibv_close_device(x->ctx);
}

static void report_init(struct xp_report *r, const struct xp_opts *o)
{
	struct utsname u;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", o->dev);
	r->gid_index = -1;
	r->events = o->events;
	if (uname(&u) == 0)
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
}

static int report_done(struct xp_report *r)
{
	r->passed = !r->f.failed && !r->nasync;
	for (unsigned int i = 0; i < r->nrows; i++)
		if (r->rows[i].result == XP_FAIL)
			r->passed = false;
	return r->passed ? 0 : -1;
}

/* A's part: every transport O selects, then the events' proof and the async watch. */
static void run_all(struct xp *x)
{
	const struct xp_opts *o = x->o;
	struct xp_row *w;

	if (o->transports & (1u << XP_RC))
		run_basic(x, XP_RC);
	if (o->transports & (1u << XP_UC))
		run_basic(x, XP_UC);
	if (o->transports & (1u << XP_UD))
		run_basic(x, XP_UD);
	if (o->transports & (1u << XP_SRQ))
		run_srq(x);
	if (o->transports & (1u << XP_XRC))
		run_xrc(x);
	if (o->transports & (1u << XP_MW)) {
		run_mw_type(x, IBV_MW_TYPE_1);
		run_mw_type(x, IBV_MW_TYPE_2);
	}
	if (o->events) {
		unsigned int before = x->by_event, all = x->completions;
		int err;

		w = row(x, XP_NTRANSPORTS, "events", XP_IMPLIED, "%s", "");
		err = events_proof(x, &w->f);
		row_done(w, err, err ? 0 : 64);
		if (!err)
			note(w, "a SEND and its receive each announced on the channel before "
			     "being polled; before that, %u completions here, %u taken after an "
			     "event, the rest there already when polled", all, before);
	}
	drain_async(x);
	w = row(x, XP_NTRANSPORTS, "async", XP_IMPLIED, "%s", "");
	w->usec = 0;
	if (x->r->nasync) {
		st_fault(&w->f, "an asynchronous event no step caused: see 'dmesg' and "
			 "'rdmactl check'", "%u asynchronous event(s), first %s", x->r->nasync,
			 x->r->async[0]);
	} else if (!x->lb && B(x, XB_ASYNC, 0, 0, 0, 0, &w->f)) {
		;	/* the server's, said in the row */
	} else {
		note(w, "no asynchronous event arrived that no step caused%s",
		     x->lb ? "" : ", on either host");
	}
	w->result = w->f.failed ? XP_FAIL : XP_PASS;
}

int xp_loopback(const struct xp_opts *o, struct xp_report *r)
{
	struct xp x = { .o = o, .r = r, .wait_ms = o->timeout_ms, .fd = -1 };
	struct xb b = { .x = &x };

	report_init(r, o);
	x.lb = &b;
	if (setup(&x) == 0) {
		memcpy(&b.peer_gid, &x.gid, 16);
		run_all(&x);
	}
	if (b.open)
		xb_close(&b);
	release(&x);
	return report_done(r);
}

int xp_client(const struct xp_opts *o, struct xp_report *r)
{
	struct xp x = { .o = o, .r = r, .wait_ms = o->timeout_ms, .fd = -1 };

	report_init(r, o);
	snprintf(r->peer, sizeof(r->peer), "%s port %u", o->host, o->port);
	if (setup(&x) == 0) {
		char err[200];

		x.fd = sc_connect(o->host, o->port, sc_now_ms() + o->timeout_ms, err, sizeof(err));
		if (x.fd < 0) {
			st_fault(&r->f, "is 'rdmactl selftest server' running there, and its TCP "
				 "port reachable?", "%s", err);
		} else {
			run_all(&x);
			if (!x.broken) {	/* the server counts a session without it as failed */
				uint8_t buf[WIRE_HDR_LEN];

				sc_write(x.fd, buf, wire_bye_encode(buf), sc_now_ms() + o->timeout_ms);
			}
			close(x.fd);
		}
	}
	release(&x);
	return report_done(r);
}

/* --- the server's part: end B for a client's --transport --- */

/* A refusal the client reads, if it still listens; the session ends with it said. */
static int serve_refuse(struct xp *x, const char *what, const char *why)
{
	uint8_t buf[WIRE_MSG_MAX];

	st_fault(&x->r->f, NULL, "the client %s%s%s", what, *why ? ": " : "", why);
	sc_write(x->fd, buf, wire_result_encode(&x->r->f, buf), sc_now_ms() + x->o->timeout_ms);
	return -1;
}

/* The client's XOPEN in BUF: B's end made (its ends answered) or refused (a RESULT). */
static int serve_open(struct xp *x, struct xb *b, uint8_t *buf)
{
	struct st_fault res = { 0 };
	struct wire_xopen xo;
	struct wire_xends e;
	const char *why = "";
	size_t n;

	if (wire_xopen_decode(buf + WIRE_HDR_LEN, &xo, &why))
		return serve_refuse(x, "sent a malformed transport (refused)", why);
	if (b->open)
		return serve_refuse(x, "asked for a second end before closing its first (refused)",
				    "");
	if ((xo.flags & WIRE_XF_EVENTS) && !x->chan) {
		x->chan = ibv_create_comp_channel(x->ctx);
		if (x->chan)
			fcntl(x->chan->fd, F_SETFL, fcntl(x->chan->fd, F_GETFL) | O_NONBLOCK);
	}
	x->ch = xo.flags & WIRE_XF_EVENTS ? x->chan : NULL;
	x->r->events |= x->ch != NULL;
	x->nannounced = 0;
	b->w = row(x, (enum xp_transport)xo.transport, "served", XP_IMPLIED, "%u QP%s, %s", xo.nqp,
		   xo.nqp == 1 ? "" : "s", x->ch ? "completions through a channel" : "polled");
	if ((xo.flags & WIRE_XF_EVENTS) && !x->ch)
		st_fault(&res, NULL, "ibv_create_comp_channel: %s", strerror(errno));
	b->refused = false;
	if (res.failed || xb_open(b, &xo, &e, &res)) {
		b->w->f = res;
		row_done(b->w, -1, 0);
		if (b->refused)	/* the device's no: what the client reports as not supported */
			b->w->result = XP_UNSUPPORTED;
		b->w = NULL;
		n = wire_result_encode(&res, buf);
	} else {
		n = wire_xends_encode(&e, buf);
		if (!*x->r->remote_gid)
			inet_ntop(AF_INET6, xo.gid, x->r->remote_gid, sizeof(x->r->remote_gid));
	}
	return sc_write(x->fd, buf, n, sc_now_ms() + x->o->timeout_ms) ? -1 : 0;
}

/* The client's XSTEP in BUF, done and answered; its row keeps the first failure. */
static int serve_step(struct xp *x, struct xb *b, uint8_t *buf, unsigned int *steps)
{
	struct xp_row *w = b->w;	/* a close forgets it */
	struct st_fault res = { 0 };
	struct wire_xstep s;
	const char *why = "";
	uint32_t value;
	int err;

	if (wire_xstep_decode(buf + WIRE_HDR_LEN, &s, &why))
		return serve_refuse(x, "sent a malformed step (refused)", why);
	b->refused = false;
	err = xb_step(b, &s, &value, &res);
	if (w) {
		(*steps)++;
		if (err && !w->f.failed) {
			w->f = res;
			/* The device's no is not supported, as the client says; anything else failed. */
			w->result = b->refused ? XP_UNSUPPORTED : XP_FAIL;
		}
		if (!err && (s.op == XB_CHECK_RECV || s.op == XB_CHECK_WRITE ||
			     s.op == XB_SRQ_CHECK))
			w->bytes += s.op == XB_SRQ_CHECK ? s.len * s.value : s.len;
		if (s.op == XB_CLOSE) {
			row_done(w, w->f.failed, w->bytes);
			if (!w->f.failed)
				note(w, "%u steps answered", *steps);
			*steps = 0;
			b->w = NULL;
		}
	} else if (err && s.op != XB_ASYNC && !x->r->f.failed) {
		x->r->f = res;	/* a step with no end to take it */
	}
	return sc_write(x->fd, buf, wire_result_encode_value(&res, value, buf),
			sc_now_ms() + x->o->timeout_ms) ? -1 : 0;
}

int xp_serve(const struct xp_opts *o, int fd, const uint8_t *first, const char *peer,
	     struct xp_report *r)
{
	struct xp x = { .o = o, .r = r, .wait_ms = o->timeout_ms, .fd = fd };
	struct xb b = { .x = &x };
	uint64_t end = sc_now_ms() + ST_MAX_RUN_MS;
	uint8_t buf[WIRE_MSG_MAX];
	unsigned int steps = 0;
	const char *why = "";
	int kind = WIRE_XOPEN, err = 0;
	bool bye = false;

	report_init(r, o);
	snprintf(r->peer, sizeof(r->peer), "%s", peer);
	memcpy(buf, first, WIRE_HDR_LEN + WIRE_XOPEN_BODY);
	if (setup(&x)) {
		sc_write(fd, buf, wire_result_encode(&r->f, buf), sc_now_ms() + o->timeout_ms);
		goto out;
	}
	while (!err && !bye) {
		if (kind == WIRE_XOPEN) {
			err = serve_open(&x, &b, buf);
		} else if (kind == WIRE_XSTEP) {
			err = serve_step(&x, &b, buf, &steps);
		} else if (kind == WIRE_BYE) {
			bye = true;
		} else if (kind >= 0) {
			err = serve_refuse(&x, "sent a message out of turn (refused)", "");
		} else {
			char words[200];

			err = serve_refuse(&x, kind == -ETIMEDOUT && sc_now_ms() >= end ?
					   "took longer than the 10 minutes a client may have" :
					   st_recv_error(kind, why, words, sizeof(words)), "");
		}
		if (!err && !bye) {
			/* A step of the client's may wait a completion, then a second. */
			uint64_t until = sc_now_ms() + 2ull * o->timeout_ms + NONE_MS;

			kind = st_recv_msg(fd, buf, until < end ? until : end, &why);
		}
	}
	if (b.w) {	/* the session ended with an end open */
		if (!r->f.failed)
			st_fault(&r->f, NULL, "the client left with its %s end open",
				 xp_transport_name(b.t));
		row_done(b.w, b.w->f.failed, b.w->bytes);
	}
out:
	if (b.open)
		xb_close(&b);
	release(&x);
	return report_done(r);
}
