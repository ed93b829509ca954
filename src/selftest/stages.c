// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The selftest's stages: RC QPs proving SEND, WRITE, READ and atomics byte for
 * byte. End A acts; end B is acted upon, in this process (loopback) or in a
 * server's (two hosts). B's part of each stage is st_b_step(), whichever.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "selftest/internal.h"

#define CMP_X 0x0123456789abcdefULL
#define CMP_Y 0xfedcba9876543210ULL
#define ADD_BASE 0x00000000fffffff0ULL	/* the carry shows a 64-bit add */
#define ADD_N 0x25

static void b_prepare(struct st_end *b, const struct wire_step *step, struct st_fault *res)
{
	struct ibv_sge sge = { (uintptr_t)b->buf, b->len, b->mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = ST_SEND, .sg_list = &sge, .num_sge = 1 }, *bad;
	int err;

	switch (step->stage) {
	case ST_SEND:
		st_poison(b->buf, b->len);
		if ((err = ibv_post_recv(b->qp, &rwr, &bad)))
			st_fault_err(res, err, NULL, "ibv_post_recv: %s", strerror(err));
		break;
	case ST_WRITE:
		st_poison(b->buf, b->len);
		break;
	case ST_READ:
		st_fill(b->buf, b->len, ST_READ);
		break;
	case ST_CMP_SWAP:
		*b->atom = CMP_X;
		break;
	case ST_FETCH_ADD:
		*b->atom = ADD_BASE;
		break;
	case ST_LAT_SEND:
	case ST_LAT_WRITE:
	case ST_BW_WRITE:
		st_bench_prepare(b, step, res);
		break;
	default:
		st_fault(res, NULL, "no stage %u to prepare", step->stage);
	}
}

static void b_check(struct st_run *s, struct st_end *b, const struct wire_step *step,
		    struct st_fault *res)
{
	struct vb_wait w = { .cq = b->rcq, .timeout_ms = s->o->common.timeout_ms };
	struct st_fault wait = { 0 };
	struct ibv_wc wc;

	switch (step->stage) {
	case ST_SEND:
		if (vb_wait_wc(&w, IBV_WC_RECV, &wc, &wait)) {
			st_fault(res, wait.hint, "the receive: %s", wait.detail);
		} else if (!(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != VB_IMM) {
			st_fault(res, NULL, "the receive carried no immediate data 0x%x", VB_IMM);
		} else if (wc.byte_len != b->len) {
			st_fault(res, NULL, "received %u bytes, sent %u", wc.byte_len, b->len);
		} else {
			st_check_pattern(ST_SEND, "received data", b->buf, b->len, res);
		}
		break;
	case ST_WRITE:
	case ST_READ:	/* READ must leave its source as it was */
	case ST_BW_WRITE:
		st_check_pattern(step->stage, step->stage == ST_READ ? "the read's source" :
				 "written data", b->buf, step->stage == ST_BW_WRITE ? step->size :
				 b->len, res);
		break;
	case ST_CMP_SWAP:
		/* The hit swapped X for Y; the miss left Y. */
		if (*b->atom != CMP_Y)
			st_fault(res, NULL, "compare-and-swap target is 0x%016llx, expected 0x%016llx",
				 (unsigned long long)*b->atom, (unsigned long long)CMP_Y);
		break;
	case ST_FETCH_ADD:
		if (*b->atom != ADD_BASE + ADD_N)
			st_fault(res, NULL, "fetch-and-add target is 0x%016llx, expected 0x%016llx",
				 (unsigned long long)*b->atom,
				 (unsigned long long)(ADD_BASE + ADD_N));
		break;
	default:
		break;	/* the latency stages said how they went when they ended */
	}
}

void st_b_step(struct st_run *s, struct st_end *b, const struct wire_step *step,
	       struct st_fault *res)
{
	memset(res, 0, sizeof(*res));
	if (step->stage >= ST_LAT_SEND && step->size > b->len)
		st_fault(res, NULL, "size %u is over the %u-byte buffer", step->size, b->len);
	else if (step->phase == WIRE_PREPARE)
		b_prepare(b, step, res);
	else
		b_check(s, b, step, res);
}

/* Asks B to prepare or check the running stage; its failure is the stage's. */
static int peer_step(struct st_run *s, enum wire_phase phase)
{
	struct wire_step step = { .stage = (uint8_t)s->cur, .phase = (uint8_t)phase };
	struct st_fault res;

	if (s->peer->step(s, &step, &res))
		return -1;
	return res.failed ? st_fail_as(s, &res) : 0;
}

/* Posts one signaled work request from A, on its local buffer or atomic word. */
static int post(struct st_run *s, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	struct ibv_send_wr *bad;
	int err;

	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->send_flags = IBV_SEND_SIGNALED;
	err = ibv_post_send(s->a.qp, wr, &bad);
	if (err)
		return st_fail_err(s, err, NULL, "ibv_post_send (%s): %s", st_stage_name(s->cur),
			       strerror(err));
	return 0;
}

static int verify(struct st_run *s, const char *what, const char *buf, size_t len)
{
	struct st_fault f = { 0 };

	return st_check_pattern(s->cur, what, buf, len, &f) ? st_fail_as(s, &f) : 0;
}

static int stage_send(struct st_run *s)
{
	struct ibv_sge sge = { (uintptr_t)s->a.buf, s->a.len, s->a.mr->lkey };
	struct ibv_send_wr wr = { .wr_id = ST_SEND, .opcode = IBV_WR_SEND_WITH_IMM,
				  .imm_data = htonl(VB_IMM) };
	struct ibv_wc wc;

	st_fill(s->a.buf, s->a.len, ST_SEND);
	if (peer_step(s, WIRE_PREPARE) || post(s, &wr, &sge) ||
	    st_wait_wc(s, s->a.scq, IBV_WC_SEND, &wc) || peer_step(s, WIRE_CHECK))
		return -1;
	return st_done(s, s->a.len);
}

/*
 * RDMA WRITE of A's buffer into B's, or RDMA READ of B's into A's. RC: the
 * completion means the data has arrived where it was going.
 */
static int stage_rdma(struct st_run *s)
{
	bool write = s->cur == ST_WRITE;
	struct ibv_sge sge = { (uintptr_t)s->a.buf, s->a.len, s->a.mr->lkey };
	struct ibv_send_wr wr = { .wr_id = s->cur,
				  .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ };
	struct ibv_wc wc;

	if (write)
		st_fill(s->a.buf, s->a.len, ST_WRITE);
	else
		st_poison(s->a.buf, s->a.len);
	wr.wr.rdma.remote_addr = s->a.rem.addr;
	wr.wr.rdma.rkey = s->a.rem.rkey;
	if (peer_step(s, WIRE_PREPARE) || post(s, &wr, &sge) ||
	    st_wait_wc(s, s->a.scq, write ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ, &wc) ||
	    (!write && verify(s, "read data", s->a.buf, s->a.len)) || peer_step(s, WIRE_CHECK))
		return -1;
	return st_done(s, s->a.len);
}

/* One atomic from A on B's word; the old value lands in A's word. */
static int atomic(struct st_run *s, enum ibv_wr_opcode op, uint64_t cmp_or_add, uint64_t swap,
		  uint64_t *old)
{
	struct ibv_sge sge = { (uintptr_t)s->a.atom, 8, s->a.amr->lkey };
	struct ibv_send_wr wr = { .wr_id = s->cur, .opcode = op };
	struct ibv_wc wc;

	*s->a.atom = 0xeeeeeeeeeeeeeeeeULL;
	wr.wr.atomic.remote_addr = s->a.rem.atom_addr;
	wr.wr.atomic.rkey = s->a.rem.atom_rkey;
	wr.wr.atomic.compare_add = cmp_or_add;
	wr.wr.atomic.swap = swap;
	if (post(s, &wr, &sge) ||
	    st_wait_wc(s, s->a.scq, op == IBV_WR_ATOMIC_CMP_AND_SWP ? IBV_WC_COMP_SWAP :
		       IBV_WC_FETCH_ADD, &wc))
		return -1;
	*old = *s->a.atom;
	return 0;
}

static int stage_cmp_swap(struct st_run *s)
{
	uint64_t old;

	if (peer_step(s, WIRE_PREPARE))
		return -1;
	/* A hit: X becomes Y, and X comes back. */
	if (atomic(s, IBV_WR_ATOMIC_CMP_AND_SWP, CMP_X, CMP_Y, &old))
		return -1;
	if (old != CMP_X)
		return st_fail(s, NULL, "compare-and-swap hit returned 0x%016llx, expected "
			       "0x%016llx", (unsigned long long)old, (unsigned long long)CMP_X);
	/* A miss: the target stays Y, and Y comes back. */
	if (atomic(s, IBV_WR_ATOMIC_CMP_AND_SWP, CMP_X, 1, &old))
		return -1;
	if (old != CMP_Y)
		return st_fail(s, NULL, "compare-and-swap miss returned 0x%016llx, expected "
			       "0x%016llx", (unsigned long long)old, (unsigned long long)CMP_Y);
	if (peer_step(s, WIRE_CHECK))
		return -1;
	return st_done(s, 16);
}

static int stage_fetch_add(struct st_run *s)
{
	uint64_t old;

	if (peer_step(s, WIRE_PREPARE) || atomic(s, IBV_WR_ATOMIC_FETCH_AND_ADD, ADD_N, 0, &old))
		return -1;
	if (old != ADD_BASE)
		return st_fail(s, NULL, "fetch-and-add returned 0x%016llx, expected 0x%016llx",
			       (unsigned long long)old, (unsigned long long)ADD_BASE);
	if (peer_step(s, WIRE_CHECK))
		return -1;
	return st_done(s, 8);
}

int st_run_stages(struct st_run *s)
{
	int err = 0;

	for (enum st_stage st = ST_SEND; !err && st < ST_NSTAGES; st++) {
		struct st_stage_result *x = &s->r->st[st];

		if (!x->ran)
			continue;
		if ((st == ST_CMP_SWAP || st == ST_FETCH_ADD) &&
		    (s->ss.dev.attr.orig_attr.atomic_cap == IBV_ATOMIC_NONE || !s->a.rem.atom_addr)) {
			snprintf(x->f.detail, sizeof(x->f.detail), "%s has no atomics (atomic_cap NONE)",
				 s->ss.dev.attr.orig_attr.atomic_cap == IBV_ATOMIC_NONE ? "the device" : "the peer");
			continue;
		}
		st_begin(s, st);
		switch (st) {
		case ST_SEND:
			err = stage_send(s);
			break;
		case ST_WRITE:
		case ST_READ:
			err = stage_rdma(s);
			break;
		case ST_CMP_SWAP:
			err = stage_cmp_swap(s);
			break;
		case ST_FETCH_ADD:
			err = stage_fetch_add(s);
			break;
		case ST_LAT_SEND:
		case ST_LAT_WRITE:
			err = st_bench_lat(s, st, s->fd < 0);
			break;
		case ST_BW_WRITE:
			err = st_bench_bw(s);
			break;
		default:
			break;
		}
	}
	return err ? -1 : 0;
}

/* The RoCE v2 GID of an IPv4 address: ::ffff:a.b.c.d, the lowest index. */

static int loopback_step(struct st_run *s, const struct wire_step *step, struct st_fault *res)
{
	st_b_step(s, &s->b, step, res);
	return 0;
}

const struct st_peer st_loopback_peer = { .step = loopback_step };

void st_pair_ends(struct st_run *s)
{
	struct wire_hello ha, hb;

	st_hello(s, &s->a, &ha);
	st_hello(s, &s->b, &hb);
	st_remote_from_hello(&s->a.rem, &hb);
	st_remote_from_hello(&s->b.rem, &ha);
}

int st_loopback(const struct st_opts *o, struct st_report *r)
{
	struct st_run s = { .o = o, .r = r, .peer = &st_loopback_peer, .fd = -1 };
	int err;

	st_report_init(r, o->common.dev, o->bench);
	st_begin(&s, ST_SETUP);
	err = st_setup_device(&s, NULL) || st_make_end(&s, &s.a, st_buffer_len(o), false) ||
	      st_make_end(&s, &s.b, st_buffer_len(o), false);
	if (!err) {
		st_done(&s, 0);
		st_begin(&s, ST_CONNECT);
		st_pair_ends(&s);
		err = st_connect_qp(&s, &s.a) || st_connect_qp(&s, &s.b);
	}
	if (!err) {
		st_done(&s, 0);
		err = st_run_stages(&s);
	}
	st_release(&s);
	r->passed = !err;
	return err ? -1 : 0;
}
