// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: end B, what it is asked, in this process or in a server. */
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

#include "kernel/clock.h"
#include "kernel/errname.h"
#include "selftest/internal.h"
#include "selftest/sidechan.h"
#include "selftest/xport/internal.h"

/* UD: the GRH names A's GID as the source, and the source QP is A's. */
static int check_grh(struct xp_peer *b, const struct ibv_wc *wc, const char *buf,
		     struct st_fault *f)
{
	struct ibv_ah_attr ah;

	if (!(wc->wc_flags & IBV_WC_GRH))
		return st_fault(f, NULL, "the UD receive has no GRH (IBV_WC_GRH not set)");
	if (ibv_init_ah_from_wc(b->x->ss.dev.ctx, VB_PORT, (struct ibv_wc *)wc, (struct ibv_grh *)buf,
				&ah))
		return st_fault_err(f, errno, NULL, "ibv_init_ah_from_wc cannot read the GRH: %s",
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

void xp_peer_close(struct xp_peer *b)
{
	if (b->mw)
		ibv_dealloc_mw(b->mw);
	for (unsigned int i = 0; i < SRQ_QPS; i++)
		xq_free(&b->q[i]);
	/* The run's SRQ is this end's: it goes with it. */
	if (b->x->srq == b->srq)
		b->x->srq = NULL;
	vb_srq_destroy(&b->srq);
	vb_cq_destroy(&b->cq);
	xq_free(&b->slots);
	*b = (struct xp_peer){ .x = b->x, .w = b->w };	/* the server's row outlives the end */
}

/* SRQ: one CQ, the SRQ, its receive slots (all posted) and O->nqp QPs on it. */
static int peer_open_srq(struct xp_peer *b, unsigned int nqp, struct st_fault *f)
{
	struct xp_run *x = b->x;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = SRQ_SLOTS, .max_sge = 1 } };
	unsigned int i;

	b->srq = ibv_create_srq(x->ss.pd, &sa);
	if (!b->srq) {
		b->refused = true;
		return st_fault_err(f, errno, NULL, "ibv_create_srq: %s", strerror(errno));
	}
	b->cq = xp_make_cq(x, f);
	if (!b->cq)
		return -1;
	/* The receive slots: one buffer of SRQ_SLOTS * SLOT bytes. */
	b->slots.len = (size_t)SRQ_SLOTS * SLOT;
	b->slots.buf = aligned_alloc(64, b->slots.len);
	if (!b->slots.buf)
		return st_fault(f, NULL, "out of memory");
	st_poison(b->slots.buf, b->slots.len);
	b->slots.mr = ibv_reg_mr(x->ss.pd, b->slots.buf, b->slots.len, IBV_ACCESS_LOCAL_WRITE);
	if (!b->slots.mr)
		return st_fault_err(f, errno, NULL, "ibv_reg_mr: %s", strerror(errno));
	for (i = 0; i < nqp; i++)
		if (xq_make(x, &b->q[i], IBV_QPT_RC, b->srq, 0, ACCESS, b->cq, NULL, f))
			return -1;
	for (i = 0; i < SRQ_SLOTS; i++)
		if (xq_post_recv(&b->slots, b->slots.buf + (size_t)i * SLOT, SLOT, i, b->srq, f))
			return -1;
	return 0;
}

int xp_peer_open(struct xp_peer *b, const struct wire_xopen *o, struct wire_xends *e,
	    struct st_fault *f)
{
	struct xp_run *x = b->x;
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
		err = peer_open_srq(b, o->nqp, f);
	else
		err = xq_make(x, &b->q[0], xp_qp_type(t), NULL, o->len,
			       ACCESS | (t == XP_MW ? IBV_ACCESS_MW_BIND : 0), NULL, NULL, f);
	for (i = 0; !err && i < b->nqp; i++)
		err = xq_connect(x, &b->q[i], xp_qp_type(t), o->qpn[i], o->psn[i], o->gid, f);
	if (err) {
		xp_peer_close(b);
		return -1;
	}
	*e = (struct wire_xends){ .nqp = (uint8_t)b->nqp, .len = o->len };
	memcpy(e->gid, x->ss.dev.gid.raw, 16);
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
static struct ibv_cq *b_cq(struct xp_peer *b)
{
	return b->q[0].cq ? b->q[0].cq : b->cq;
}

static int b_recv(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	bool ud = b->t == XP_UD;
	uint32_t grh = ud ? VB_GRH : 0;
	struct xp_qp *q = &b->q[0];
	struct ibv_wc wc;

	if ((s->flags & XB_ANNOUNCED) &&
	    (!b->x->ss.ch || vb_wait_event(b->x->ss.ch, b_cq(b), b->x->o->common.timeout_ms, f)))
		return b->x->ss.ch ? -1 : st_fault(f, NULL, "completions are polled here: there is "
						"no channel to announce them");
	if (xp_wait_wc(b->x, b_cq(b), IBV_WC_RECV, &wc, f))
		return -1;
	if (wc.byte_len != s->len + grh)
		return st_fault(f, NULL, "received %u bytes, sent %u%s", wc.byte_len, s->len,
				ud ? " (+40 GRH)" : "");
	if ((s->flags & XB_IMM) && xp_check_imm(&wc, f))
		return -1;
	if (ud && check_grh(b, &wc, q->buf, f))
		return -1;
	return st_check_pattern(s->stage, "the received data", q->buf + grh, s->len, f);
}

static int b_write(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct ibv_wc wc;

	if (s->flags & XB_IMM) {
		if (xp_wait_wc(b->x, b_cq(b), IBV_WC_RECV_RDMA_WITH_IMM, &wc, f) || xp_check_imm(&wc, f))
			return -1;
		if (wc.byte_len != s->len)
			return st_fault(f, NULL, "the immediate's completion says %u bytes, written %u",
					wc.byte_len, s->len);
	}
	return xp_await_pattern(b->x, s->stage, b->q[0].buf, s->len, f);
}

/* UD over the path MTU: a delivery is the finding; nothing within VALUE ms is right. */
static int b_none(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct xp_run *x = b->x;
	struct st_fault g = { 0 };
	struct ibv_wc wc;
	int got;

	x->wait_ms = (unsigned int)s->value;
	got = xp_wait_wc(x, b_cq(b), IBV_WC_RECV, &wc, &g);
	x->wait_ms = x->o->common.timeout_ms;
	if (got == 0)
		return st_fault(f, "a peer with a larger MTU could be sent datagrams it cannot "
				"take", "a UD message over the path MTU %u was delivered (%u bytes)",
				xp_mtu_bytes(x), wc.byte_len);
	snprintf(f->detail, sizeof(f->detail), "the receiver got nothing (%.200s)", g.detail);
	return 0;
}

static int b_srq_check(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct ibv_wc wc;

	for (uint64_t i = 0; i < s->value; i++) {
		unsigned int q;

		if (xp_wait_wc(b->x, b->cq, IBV_WC_RECV, &wc, f))
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
		    xq_post_recv(&b->slots, b->slots.buf + wc.wr_id * SLOT, SLOT, wc.wr_id, b->srq, f))
			return -1;
	}
	snprintf(f->detail, sizeof(f->detail), "%u QPs, one message each, into one SRQ of %u "
		 "receives", b->nqp, SRQ_SLOTS);
	return 0;
}

static int b_srq_limit(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	struct xp_run *x = b->x;
	uint64_t deadline;
	struct ibv_wc wc;

	for (uint64_t i = 0; i < s->value; i++)
		if (xp_wait_wc(x, b->cq, IBV_WC_RECV, &wc, f))
			return -1;
	deadline = mono_us() + (uint64_t)x->o->common.timeout_ms * 1000;
	while (!x->srq_limit_seen && mono_us() < deadline) {
		struct pollfd p = { .fd = x->ss.dev.ctx->async_fd, .events = POLLIN };

		poll(&p, 1, 50);
		xp_drain_async(x);
	}
	x->srq = NULL;
	if (!x->srq_limit_seen)
		return st_fault(f, "the device never signalled IBV_EVENT_SRQ_LIMIT_REACHED: a "
				"program waiting for it to repost would stall",
				"no SRQ limit event within %u ms after %u of %u receives were used "
				"with the limit at %u", x->o->common.timeout_ms, (unsigned int)s->value,
				SRQ_SLOTS, SRQ_LIMIT);
	snprintf(f->detail, sizeof(f->detail), "IBV_EVENT_SRQ_LIMIT_REACHED after %u of %u "
		 "receives, limit %u", (unsigned int)s->value, SRQ_SLOTS, SRQ_LIMIT);
	return 0;
}

/* A window of type VALUE over the buffer, bound by B's QP: its rkey in *RKEY. */
static int b_mw_bind(struct xp_peer *b, const struct wire_xstep *s, uint32_t *rkey,
		     struct st_fault *f)
{
	struct xp_qp *q = &b->q[0];
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
			return st_fault_err(f, err, NULL, "ibv_bind_mw: %s", strerror(err));
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
			return st_fault_err(f, err, NULL, "ibv_post_send (IBV_WR_BIND_MW): %s", strerror(err));
	}
	if (xp_wait_wc(b->x, q->cq, IBV_WC_BIND_MW, &wc, f))
		return -1;
	*rkey = b->mw_rkey;
	return 0;
}

/* Invalidated: a zero-length bind (type 1), a local invalidate (type 2). */
static int b_mw_invalidate(struct xp_peer *b, struct st_fault *f)
{
	struct xp_qp *q = &b->q[0];
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
			return st_fault_err(f, err, NULL, "ibv_bind_mw (unbind): %s", strerror(err));
	} else {
		struct ibv_send_wr wr = { .wr_id = 8, .opcode = IBV_WR_LOCAL_INV,
					  .send_flags = IBV_SEND_SIGNALED,
					  .invalidate_rkey = b->mw_rkey }, *bad;

		op = IBV_WC_LOCAL_INV;
		err = ibv_post_send(q->qp, &wr, &bad);
		if (err)
			return st_fault_err(f, err, NULL, "ibv_post_send (IBV_WR_LOCAL_INV): %s",
					strerror(err));
	}
	return xp_wait_wc(b->x, q->cq, op, &wc, f);
}

/* Refuses what B's end cannot hold: every length against its buffer. */
static int b_bounds(struct xp_peer *b, const struct wire_xstep *s, struct st_fault *f)
{
	size_t room = b->q[0].len - VB_GRH;	/* payload: a UD receive's GRH is extra */

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
	if (s->op == XB_CHECK_NONE && s->value > b->x->o->common.timeout_ms)
		return st_fault(f, NULL, "a wait of %llu ms, over the timeout",
				(unsigned long long)s->value);
	if ((s->op == XB_SET_WORD || s->op == XB_CHECK_WORD) && room < 8)
		return st_fault(f, NULL, "the buffer holds no word");
	return 0;
}

int xp_peer_step(struct xp_peer *b, const struct wire_xstep *s, uint32_t *value,
		 struct st_fault *f)
{
	struct xp_qp *q = &b->q[0];
	uint64_t word;
	int err;

	*value = 0;
	if (s->op == XB_ASYNC) {
		xp_drain_async(b->x);
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
		return xq_post_recv(q, s->len ? q->buf : NULL, s->len ? s->len +
				 (b->t == XP_UD ? VB_GRH : 0) : 0, 2, NULL, f);
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
			return st_fault_err(f, err, NULL, "ibv_modify_srq (IBV_SRQ_LIMIT %u): %s",
					(unsigned int)s->value, strerror(err));
		return 0;
	case XB_SRQ_LIMIT:
		return b_srq_limit(b, s, f);
	case XB_MW_BIND:
		return b_mw_bind(b, s, value, f);
	case XB_MW_INVALIDATE:
		return b_mw_invalidate(b, f);
	case XB_CLOSE:
		xp_peer_close(b);
		return 0;
	}
	return st_fault(f, NULL, "no step %u", s->op);
}
