// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: the device and the ends (QP, CQ, buffer) A and B are made of. */
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
#include "selftest/internal.h"
#include "selftest/sidechan.h"
#include "selftest/xport/internal.h"

void xp_drain_async(struct xp_run *x)
{
	struct ibv_async_event ev;

	while (ibv_get_async_event(x->ss.dev.ctx, &ev) == 0) {
		if (ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && ev.element.srq == x->srq) {
			x->srq_limit_seen = true;
		} else if (x->r->nasync < XP_MAXASYNC) {
			snprintf(x->r->async[x->r->nasync++], sizeof(x->r->async[0]), "%s (%d)",
				 ibv_event_type_str(ev.event_type), ev.event_type);
		}
		ibv_ack_async_event(&ev);
	}
}

int xp_wait_wc(struct xp_run *x, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc,
	       struct st_fault *f)
{
	struct vb_wait w = { .cq = cq, .ch = x->ss.ch, .timeout_ms = x->wait_ms };

	if (vb_wait_wc(&w, op, wc, f))
		return -1;
	x->completions++;
	return 0;
}

void xq_free(struct xp_qp *q)
{
	vb_qp_destroy(&q->qp);
	vb_cq_destroy(&q->cq);
	vb_mr_dereg(&q->mr);
	free(q->buf);
	memset(q, 0, sizeof(*q));
}

struct ibv_cq *xp_make_cq(struct xp_run *x, struct st_fault *f)
{
	return vb_cq_create(x->ss.dev.ctx, DEPTH * 2, x->ss.ch, f);
}

int xq_make(struct xp_run *x, struct xp_qp *q, enum ibv_qp_type type, struct ibv_srq *srq,
	    size_t len, int access, struct ibv_cq *cq, uint32_t *inline_max,
	    struct st_fault *f)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = type, .srq = srq,
		.cap = { .max_send_wr = DEPTH / 2, .max_recv_wr = srq ? 0 : DEPTH / 2,
			 .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = INLINE_WANT },
	};

	q->len = len + VB_GRH;
	q->buf = aligned_alloc(64, (q->len + 63) & ~(size_t)63);
	if (!q->buf)
		return st_fault(f, NULL, "out of memory for %zu bytes", q->len);
	st_poison(q->buf, q->len);
	q->mr = vb_reg_mr(x->ss.pd, q->buf, q->len, access, f);
	if (!q->mr)
		return -1;
	if (!cq) {
		q->cq = xp_make_cq(x, f);
		if (!q->cq)
			return -1;
		cq = q->cq;
	}
	qa.send_cq = qa.recv_cq = cq;
	q->qp = vb_qp_create(x->ss.pd, &qa, f);
	if (!q->qp)
		return -1;
	if (inline_max)
		*inline_max = qa.cap.max_inline_data;
	q->psn = (uint32_t)(mono_us() * 2654435761u + (uintptr_t)q) & 0xffffff;
	return 0;
}

enum ibv_qp_type xp_qp_type(enum xp_transport t)
{
	return t == XP_UC ? IBV_QPT_UC : t == XP_UD ? IBV_QPT_UD : IBV_QPT_RC;
}

/* The path from this device towards QP number DEST at DGID. */
static struct vb_path xp_path_to(const struct xp_run *x, enum ibv_qp_type type, uint32_t dest,
					 uint32_t dest_psn, uint32_t sq_psn, const uint8_t dgid[16])
{
	struct vb_path p = { .type = type, .dest_qpn = dest, .rq_psn = dest_psn,
			     .sq_psn = sq_psn, .dlid = x->ss.dev.port.lid,
			     .sgid_index = x->r->head.gid_index, .hop_limit = VB_HOP_LIMIT,
			     .rd_atomic = 4, .mtu = x->ss.dev.port.active_mtu };

	memcpy(p.dgid, dgid, 16);
	return p;
}

int xq_connect(struct xp_run *x, struct xp_qp *q, enum ibv_qp_type type, uint32_t dest,
	       uint32_t dest_psn, const uint8_t dgid[16], struct st_fault *f)
{
	struct vb_path p = xp_path_to(x, type, dest, dest_psn, q->psn, dgid);

	/* UC takes no reads or atomics: only writes reach it. */
	return vb_qp_connect(q->qp, &p, type == IBV_QPT_RC ? VB_ACCESS_REMOTE :
			     IBV_ACCESS_REMOTE_WRITE, f);
}

int xq_post_recv(struct xp_qp *q, char *buf, uint32_t len, uint64_t id, struct ibv_srq *srq,
		 struct st_fault *f)
{
	struct ibv_sge sge = { (uintptr_t)buf, len, q->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = len ? 1 : 0 }, *bad;
	int err = srq ? ibv_post_srq_recv(srq, &wr, &bad) : ibv_post_recv(q->qp, &wr, &bad);

	if (err)
		return st_fault_err(f, err, NULL, "ibv_post_%srecv: %s", srq ? "srq_" : "", strerror(err));
	return 0;
}

int xp_check_imm(const struct ibv_wc *wc, struct st_fault *f)
{
	if (!(wc->wc_flags & IBV_WC_WITH_IMM))
		return st_fault(f, NULL, "the receive completion has no immediate data");
	if (ntohl(wc->imm_data) != VB_IMM)
		return st_fault(f, NULL, "immediate data 0x%08x, sent 0x%08x", ntohl(wc->imm_data),
				VB_IMM);
	return 0;
}

uint32_t xp_mtu_bytes(const struct xp_run *x)
{
	return vb_mtu_bytes(x->ss.dev.port.active_mtu);
}

int xp_await_pattern(struct xp_run *x, unsigned int stage, const char *buf, uint32_t len,
		     struct st_fault *f)
{
	uint64_t deadline = mono_us() + (uint64_t)x->o->common.timeout_ms * 1000;
	struct st_fault g = { 0 };

	while (st_check_pattern(stage, "the written data", buf, len, &g)) {
		if (mono_us() > deadline) {
			*f = g;
			return -1;
		}
		memset(&g, 0, sizeof(g));
	}
	return 0;
}

int xp_make_ah(struct xp_run *x, const uint8_t gid[16], struct st_fault *f)
{
	struct vb_path p = xp_path_to(x, IBV_QPT_UD, 0, 0, 0, gid);

	x->ah = vb_ah_create(x->ss.pd, &p, f);
	return x->ah ? 0 : -1;
}

int xp_setup(struct xp_run *x)
{
	return st_session_open(&x->ss, &x->o->common, NULL, &x->r->head, &x->r->f);
}

void xp_release(struct xp_run *x)
{
	st_session_close(&x->ss);
}
