// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: how A reaches B, and A's operations. */
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

/* The server's answer to the client's last message, within the wait a step may take. */
static int net_answer(struct xp_run *x, uint8_t *buf, int want, struct st_fault *f)
{
	/* A step may wait a completion, then a second: twice the timeout and more. */
	uint64_t deadline = mono_ms() + 2ull * x->o->common.timeout_ms + NONE_MS;
	char words[200];
	const char *why;
	int kind = sc_recv_msg(x->fd, buf, deadline, &why);

	if (kind == want || kind == WIRE_RESULT)
		return kind;
	x->broken = true;
	if (kind >= 0) {
		why = "a message out of turn";
		kind = -EBADMSG;
	}
	st_fault(f, kind == -EPROTO ? NULL : "is 'rdmactl selftest server' running there?",
		 "the server %s", sc_recv_error(kind, why, words, sizeof(words)));
	snprintf(x->r->f.detail, sizeof(x->r->f.detail), "%s", f->detail);
	return -1;
}

/* A RESULT in BUF into F, the server's words marked as its own; 0 when it passed. */
static int net_result(struct xp_run *x, const uint8_t *buf, uint32_t *value, struct st_fault *f)
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

static int net_send(struct xp_run *x, const uint8_t *buf, size_t n, struct st_fault *f)
{
	char words[200];
	int err = sc_write(x->fd, buf, n, mono_ms() + x->o->common.timeout_ms);

	if (!err)
		return 0;
	x->broken = true;
	return st_fault(f, NULL, "the server %s", sc_recv_error(err, "", words, sizeof(words)));
}

/* B's end of O's transport: E, or -1 with F said. */
static int xp_b_open(struct xp_run *x, const struct wire_xopen *o, struct wire_xends *e,
		     struct st_fault *f)
{
	uint8_t buf[WIRE_MSG_MAX];
	const char *why = "";
	uint32_t value;
	int kind;

	if (x->lb)
		return xp_peer_open(x->lb, o, e, f);
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
	if (!*x->r->head.remote_gid)
		inet_ntop(AF_INET6, e->gid, x->r->head.remote_gid, sizeof(x->r->head.remote_gid));
	return 0;
}

int xp_b_do(struct xp_run *x, enum xb_op op, unsigned int stage, unsigned int flags,
	    uint32_t len, uint64_t value, uint32_t *answer, struct st_fault *f)
{
	struct wire_xstep s = { .op = (uint8_t)op, .stage = (uint8_t)stage,
				.flags = (uint8_t)flags, .len = len, .value = value };
	struct st_fault res = { 0 };
	uint8_t buf[WIRE_MSG_MAX];
	uint32_t v = 0;
	int err;

	if (x->lb) {
		err = xp_peer_step(x->lb, &s, &v, &res);
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

int xp_post(struct xp_run *x, struct xp_qp *a, const struct sendspec *s, uint32_t dest_qpn,
	    struct st_fault *f)
{
	struct ibv_sge sge = { (uintptr_t)a->buf, s->len, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = s->len ? 1 : 0,
				  .opcode = s->op,
				  .send_flags = IBV_SEND_SIGNALED | (s->inl ? IBV_SEND_INLINE : 0) },
			   *bad;
	int err;

	if (s->op == IBV_WR_SEND_WITH_IMM || s->op == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr.imm_data = htonl(VB_IMM);
	if (s->op != IBV_WR_SEND && s->op != IBV_WR_SEND_WITH_IMM) {
		wr.wr.rdma.remote_addr = s->raddr;
		wr.wr.rdma.rkey = s->rkey;
	}
	if (a->qp->qp_type == IBV_QPT_UD) {
		wr.wr.ud.ah = x->ah;
		wr.wr.ud.remote_qpn = dest_qpn;
		wr.wr.ud.remote_qkey = VB_QKEY;
	}
	err = ibv_post_send(a->qp, &wr, &bad);
	if (err)
		return st_fault(f, NULL, "ibv_post_send: %s (%s)", strerror(err), errname(err));
	return 0;
}

int xp_op_send(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e,
	       const struct sendspec *s, unsigned int stage, struct st_fault *f)
{
	struct ibv_wc wc;

	st_fill(a->buf, s->len, stage);
	return B(x, XB_PREPARE, 0, XB_POST, s->len, 0, f) || xp_post(x, a, s, e->qpn[0], f) ||
	       xp_wait_wc(x, a->cq, IBV_WC_SEND, &wc, f) ||
	       B(x, XB_CHECK_RECV, stage, s->op == IBV_WR_SEND_WITH_IMM ? XB_IMM : 0, s->len, 0, f);
}

int xp_op_write(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, struct sendspec *s,
		unsigned int stage, struct st_fault *f)
{
	bool imm = s->op == IBV_WR_RDMA_WRITE_WITH_IMM;
	struct ibv_wc wc;

	st_fill(a->buf, s->len, stage);
	s->raddr = e->addr;
	s->rkey = s->rkey ? s->rkey : e->rkey;
	return B(x, XB_PREPARE, 0, imm ? XB_POST : 0, 0, 0, f) || xp_post(x, a, s, 0, f) ||
	       xp_wait_wc(x, a->cq, IBV_WC_RDMA_WRITE, &wc, f) ||
	       B(x, XB_CHECK_WRITE, stage, imm ? XB_IMM : 0, s->len, 0, f);
}

int xp_op_read(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, uint32_t len,
	       unsigned int stage, struct st_fault *f)
{
	struct sendspec s = { .op = IBV_WR_RDMA_READ, .len = len, .raddr = e->addr,
			      .rkey = e->rkey };
	struct ibv_wc wc;

	st_poison(a->buf, a->len);
	if (B(x, XB_FILL, stage, 0, len, 0, f) || xp_post(x, a, &s, 0, f) ||
	    xp_wait_wc(x, a->cq, IBV_WC_RDMA_READ, &wc, f))
		return -1;
	return st_check_pattern(stage, "the data read", a->buf, len, f);
}

int xp_op_atomic(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, bool cas,
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
	if (xp_wait_wc(x, a->cq, cas ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD, &wc, f))
		return -1;
	if (*old != start)
		return st_fault(f, NULL, "the old value returned is 0x%016llx, not 0x%016llx",
				(unsigned long long)*old, (unsigned long long)start);
	return B(x, XB_CHECK_WORD, 0, 0, 0, cas ? ~start : start + arg, f);
}

int xp_open_ends(struct xp_run *x, enum xp_transport t, struct xp_qp *a, unsigned int nqp,
		 uint32_t len, struct wire_xends *e, bool *b_made, struct st_fault *f)
{
	struct wire_xopen o = { .transport = (uint8_t)t, .nqp = (uint8_t)nqp, .len = len,
				.flags = x->o->common.events ? WIRE_XF_EVENTS : 0 };
	unsigned int i;

	*b_made = false;
	memcpy(o.gid, x->ss.dev.gid.raw, 16);
	for (i = 0; i < nqp; i++) {
		o.qpn[i] = a[i].qp->qp_num;
		o.psn[i] = a[i].psn;
	}
	if (xp_b_open(x, &o, e, f))
		return -1;
	*b_made = true;
	for (i = 0; i < nqp; i++)
		if (xq_connect(x, &a[i], xp_qp_type(t), e->qpn[i], e->psn[i], e->gid, f))
			return -1;
	return 0;
}

void xp_close_ends(struct xp_run *x, struct xp_qp *a, unsigned int nqp, bool b_made)
{
	struct st_fault g = { 0 };

	for (unsigned int i = 0; i < nqp; i++)
		xq_free(&a[i]);
	if (b_made)
		B(x, XB_CLOSE, 0, 0, 0, 0, &g);
}

int xp_make_pair(struct xp_run *x, enum xp_transport t, struct xp_qp *a, uint32_t len,
		 uint32_t *inline_max, struct wire_xends *e, bool *b_made, struct st_fault *f)
{
	*b_made = false;
	return xq_make(x, a, xp_qp_type(t), NULL, len, ACCESS, NULL, inline_max, f) ||
	       xp_open_ends(x, t, a, 1, len, e, b_made, f) ? -1 : 0;
}
