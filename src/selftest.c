// SPDX-License-Identifier: GPL-2.0-or-later
/* The verbs selftest: RC QPs proving SEND, WRITE, READ and atomics byte for byte. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "selftest.h"

#define PORT 1
/* Buffers start this far into their allocation: never page-aligned. */
#define MISALIGN 37

/* One end of an RC connection: everything it owns. */
struct end {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;	/* the data buffer */
	struct ibv_mr *amr;	/* the 8-byte atomic target */
	char *alloc;
	char *buf;
	uint64_t *atom;
	uint32_t psn;
};

struct st {
	const struct st_opts *o;
	struct st_report *r;
	struct ibv_context *ctx;
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	struct end a, b;	/* A acts, B is acted upon */
	enum st_stage cur;
	struct timespec t0;
};

const char *st_stage_name(enum st_stage s)
{
	static const char *const names[] = {
		"setup", "connect", "send", "write", "read", "cmp_swap", "fetch_add",
	};

	return s < ST_NSTAGES ? names[s] : "?";
}

uint64_t st_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

/* Marks the running stage failed; DETAIL and HINT are formats of their own. */
static int fail(struct st *s, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct st *s, const char *hint, const char *fmt, ...)
{
	struct st_stage_result *x = &s->r->st[s->cur];
	va_list ap;

	x->result = ST_FAIL;
	x->usec = st_now_us() - x->usec;	/* begin() left the start time there */
	va_start(ap, fmt);
	vsnprintf(x->detail, sizeof(x->detail), fmt, ap);
	va_end(ap);
	snprintf(x->hint, sizeof(x->hint), "%s", hint ? hint : "");
	return -1;
}

static void begin(struct st *s, enum st_stage stage)
{
	s->cur = stage;
	s->r->st[stage].result = ST_PASS;
	s->r->st[stage].usec = st_now_us();
}

static int done(struct st *s, uint64_t bytes)
{
	struct st_stage_result *x = &s->r->st[s->cur];

	x->usec = st_now_us() - x->usec;
	x->bytes = bytes;
	return 0;
}

/*
 * The byte at OFF of a stage's pattern: a wrong offset, a stale buffer or
 * another stage's data all differ from it.
 */
static uint8_t pattern(enum st_stage stage, size_t off)
{
	return (uint8_t)(off * 7 + (off >> 8) * 13 + stage * 31 + 0x5a);
}

static void fill(char *buf, size_t len, enum st_stage stage)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)pattern(stage, i);
}

/* Poison: what a buffer holds before it is written, so stale data shows. */
static void poison(char *buf, size_t len)
{
	memset(buf, 0xee, len);
}

static int verify(struct st *s, const char *what, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t want = pattern(s->cur, i);

		if ((uint8_t)buf[i] != want)
			return fail(s, "data arrived corrupted: report it with 'rdmactl show -s' "
				    "and the kernel version", "%s: byte %zu of %zu is 0x%02x, "
				    "expected 0x%02x%s", what, i, len, (uint8_t)buf[i], want,
				    (uint8_t)buf[i] == 0xee ? " (never written)" : "");
	}
	return 0;
}

static const char *wc_hint(enum ibv_wc_status st)
{
	switch (st) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer did not answer: a firewall on UDP 4791, the route, or the MTU "
		       "(rdmactl check)";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive posted (receiver not ready)";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed: an earlier error moved the QP to the error state";
	case IBV_WC_REM_ACCESS_ERR:
	case IBV_WC_LOC_PROT_ERR:
		return "an rkey, lkey or access flag does not match the memory region";
	default:
		return "see 'rdmactl check'";
	}
}

/* Waits for one completion on CQ within the timeout; checks status and opcode. */
static int wait_wc(struct st *s, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc)
{
	uint64_t deadline = st_now_us() + (uint64_t)s->o->timeout_ms * 1000;
	struct timespec nap = { 0, 20000 };

	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n < 0)
			return fail(s, NULL, "ibv_poll_cq failed (%d)", n);
		if (n == 1)
			break;
		if (st_now_us() > deadline)
			return fail(s, "the peer did not answer in time: the netdev may be down "
				    "(rdmactl check)", "no completion within %u ms",
				    s->o->timeout_ms);
		nanosleep(&nap, NULL);
	}
	if (wc->status != IBV_WC_SUCCESS)
		return fail(s, wc_hint(wc->status), "work completion %s (status %d, vendor error "
			    "0x%x)", ibv_wc_status_str(wc->status), wc->status, wc->vendor_err);
	if (wc->opcode != op)
		return fail(s, NULL, "work completion opcode %d, expected %d", wc->opcode, op);
	return 0;
}

static int make_end(struct st *s, struct end *e)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_ATOMIC;

	e->pd = ibv_alloc_pd(s->ctx);
	if (!e->pd)
		return fail(s, NULL, "ibv_alloc_pd: %s", strerror(errno));
	e->alloc = malloc(s->o->size + MISALIGN);
	e->atom = aligned_alloc(8, 8);
	if (!e->alloc || !e->atom)
		return fail(s, NULL, "out of memory for %u bytes", s->o->size);
	e->buf = e->alloc + MISALIGN;
	e->mr = ibv_reg_mr(e->pd, e->buf, s->o->size, access);
	if (!e->mr)
		return fail(s, errno == ENOMEM ? "RLIMIT_MEMLOCK too low? (rdmactl check --only "
			    "memlock)" : NULL, "ibv_reg_mr of %u bytes: %s", s->o->size,
			    strerror(errno));
	e->amr = ibv_reg_mr(e->pd, e->atom, 8, access);
	if (!e->amr)
		return fail(s, NULL, "ibv_reg_mr of the atomic word: %s", strerror(errno));
	e->cq = ibv_create_cq(s->ctx, 32, NULL, NULL, 0);
	if (!e->cq)
		return fail(s, NULL, "ibv_create_cq: %s", strerror(errno));
	qa.send_cq = qa.recv_cq = e->cq;
	e->qp = ibv_create_qp(e->pd, &qa);
	if (!e->qp)
		return fail(s, NULL, "ibv_create_qp: %s", strerror(errno));
	e->psn = (uint32_t)(st_now_us() & 0xffffff);
	return 0;
}

static void free_end(struct end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->amr)
		ibv_dereg_mr(e->amr);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	free(e->alloc);
	free(e->atom);
}

/* RESET -> INIT -> RTR -> RTS, towards REMOTE's QP number and PSN. */
static int connect_qp(struct st *s, struct end *e, const struct end *remote)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = PORT,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC,
	};
	int err;

	err = ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			    IBV_QP_ACCESS_FLAGS);
	if (err)
		return fail(s, NULL, "ibv_modify_qp to INIT: %s", strerror(err));
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = s->pattr.active_mtu;
	a.dest_qp_num = remote->qp->qp_num;
	a.rq_psn = remote->psn;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = s->gid;
	a.ah_attr.grh.sgid_index = (uint8_t)s->r->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = PORT;
	err = ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			    IBV_QP_MIN_RNR_TIMER);
	if (err)
		return fail(s, err == EINVAL || err == ETIMEDOUT || err == ENODATA ?
			    "the GID index or route: is it the RoCE v2 GID of an address the peer "
			    "can reach? (rdmactl check --gid-index N)" : NULL,
			    "ibv_modify_qp to RTR with GID index %d: %s (%s)", s->r->gid_index,
			    strerror(err), strerrorname_np(err) ? strerrorname_np(err) : "?");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = e->psn;
	a.max_rd_atomic = 4;
	err = ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			    IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (err)
		return fail(s, NULL, "ibv_modify_qp to RTS: %s", strerror(err));
	return 0;
}

/* Posts one work request from A towards B's memory. */
static int post(struct st *s, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	struct ibv_send_wr *bad;
	int err;

	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->send_flags = IBV_SEND_SIGNALED;
	err = ibv_post_send(s->a.qp, wr, &bad);
	if (err)
		return fail(s, NULL, "ibv_post_send (%s): %s", st_stage_name(s->cur), strerror(err));
	return 0;
}

static int stage_send(struct st *s)
{
	struct ibv_sge sge = { (uintptr_t)s->a.buf, s->o->size, s->a.mr->lkey };
	struct ibv_sge rsge = { (uintptr_t)s->b.buf, s->o->size, s->b.mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rsge, .num_sge = 1 }, *rbad;
	struct ibv_send_wr wr = { .wr_id = 1, .opcode = IBV_WR_SEND_WITH_IMM,
				  .imm_data = htonl(0x5eed1234) };
	struct ibv_wc wc;
	int err;

	begin(s, ST_SEND);
	fill(s->a.buf, s->o->size, ST_SEND);
	poison(s->b.buf, s->o->size);
	err = ibv_post_recv(s->b.qp, &rwr, &rbad);
	if (err)
		return fail(s, NULL, "ibv_post_recv: %s", strerror(err));
	if (post(s, &wr, &sge) || wait_wc(s, s->a.cq, IBV_WC_SEND, &wc) ||
	    wait_wc(s, s->b.cq, IBV_WC_RECV, &wc))
		return -1;
	if (!(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != 0x5eed1234)
		return fail(s, NULL, "the receive carried no immediate data 0x5eed1234");
	if (wc.byte_len != s->o->size)
		return fail(s, NULL, "received %u bytes, sent %u", wc.byte_len, s->o->size);
	if (verify(s, "received data", s->b.buf, s->o->size))
		return -1;
	return done(s, s->o->size);
}

/*
 * RDMA WRITE of A's buffer into B's, or RDMA READ of B's into A's. RC: the
 * completion means the data has arrived where it was going.
 */
static int stage_rdma(struct st *s, enum st_stage stage)
{
	bool write = stage == ST_WRITE;
	char *src = write ? s->a.buf : s->b.buf, *dst = write ? s->b.buf : s->a.buf;
	struct ibv_sge sge = { (uintptr_t)s->a.buf, s->o->size, s->a.mr->lkey };
	struct ibv_send_wr wr = { .wr_id = stage,
				  .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ };
	struct ibv_wc wc;

	begin(s, stage);
	fill(src, s->o->size, stage);
	poison(dst, s->o->size);
	wr.wr.rdma.remote_addr = (uintptr_t)s->b.buf;
	wr.wr.rdma.rkey = s->b.mr->rkey;
	if (post(s, &wr, &sge) ||
	    wait_wc(s, s->a.cq, write ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ, &wc) ||
	    verify(s, write ? "written data" : "read data", dst, s->o->size))
		return -1;
	return done(s, s->o->size);
}

static int stage_write(struct st *s)
{
	return stage_rdma(s, ST_WRITE);
}

static int stage_read(struct st *s)
{
	return stage_rdma(s, ST_READ);
}

/* One atomic from A on B's word; the old value lands in A's word. */
static int atomic(struct st *s, enum ibv_wr_opcode op, uint64_t cmp_or_add, uint64_t swap,
		  uint64_t *old)
{
	struct ibv_sge sge = { (uintptr_t)s->a.atom, 8, s->a.amr->lkey };
	struct ibv_send_wr wr = { .wr_id = 5, .opcode = op };
	struct ibv_wc wc;

	*s->a.atom = 0xeeeeeeeeeeeeeeeeULL;
	wr.wr.atomic.remote_addr = (uintptr_t)s->b.atom;
	wr.wr.atomic.rkey = s->b.amr->rkey;
	wr.wr.atomic.compare_add = cmp_or_add;
	wr.wr.atomic.swap = swap;
	if (post(s, &wr, &sge) ||
	    wait_wc(s, s->a.cq, op == IBV_WR_ATOMIC_CMP_AND_SWP ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD,
		    &wc))
		return -1;
	*old = *s->a.atom;
	return 0;
}

static int stage_cmp_swap(struct st *s)
{
	const uint64_t x = 0x0123456789abcdefULL, y = 0xfedcba9876543210ULL;
	uint64_t old;

	begin(s, ST_CMP_SWAP);
	*s->b.atom = x;
	/* A hit: X becomes Y, and X comes back. */
	if (atomic(s, IBV_WR_ATOMIC_CMP_AND_SWP, x, y, &old))
		return -1;
	if (old != x || *s->b.atom != y)
		return fail(s, NULL, "compare-and-swap hit: returned 0x%016llx, target 0x%016llx; "
			    "expected 0x%016llx, 0x%016llx", (unsigned long long)old,
			    (unsigned long long)*s->b.atom, (unsigned long long)x,
			    (unsigned long long)y);
	/* A miss: the target stays Y, and Y comes back. */
	if (atomic(s, IBV_WR_ATOMIC_CMP_AND_SWP, x, 1, &old))
		return -1;
	if (old != y || *s->b.atom != y)
		return fail(s, NULL, "compare-and-swap miss changed the target: 0x%016llx",
			    (unsigned long long)*s->b.atom);
	return done(s, 16);
}

static int stage_fetch_add(struct st *s)
{
	const uint64_t base = 0x00000000fffffff0ULL;
	uint64_t old;

	begin(s, ST_FETCH_ADD);
	*s->b.atom = base;
	if (atomic(s, IBV_WR_ATOMIC_FETCH_AND_ADD, 0x25, 0, &old))
		return -1;
	/* The carry into the high word shows a 64-bit add, not a 32-bit one. */
	if (old != base || *s->b.atom != base + 0x25)
		return fail(s, NULL, "fetch-and-add: returned 0x%016llx, target 0x%016llx; expected "
			    "0x%016llx, 0x%016llx", (unsigned long long)old,
			    (unsigned long long)*s->b.atom, (unsigned long long)base,
			    (unsigned long long)(base + 0x25));
	return done(s, 8);
}

/* The RoCE v2 GID of an IPv4 address: ::ffff:a.b.c.d, the lowest index. */
static int pick_gid(struct st *s)
{
	union ibv_gid g;

	for (int i = 0; i < s->pattr.gid_tbl_len; i++) {
		if (ibv_query_gid(s->ctx, PORT, i, &g))
			continue;
		if (!memcmp(g.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12))
			return i;
	}
	return -1;
}

struct ibv_context *st_open_device(const char *dev)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (int i = 0; i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

static int setup(struct st *s)
{
	int err;

	begin(s, ST_SETUP);
	s->ctx = st_open_device(s->o->dev);
	if (!s->ctx)
		return fail(s, "rdmactl check --only uverbs,provider", "libibverbs cannot open %s",
			    s->o->dev);
	err = ibv_query_device(s->ctx, &s->dattr);
	if (!err)
		err = ibv_query_port(s->ctx, PORT, &s->pattr);
	if (err)
		return fail(s, NULL, "ibv_query_device/port: %s", strerror(err));
	if (s->pattr.state != IBV_PORT_ACTIVE)
		return fail(s, "rdmactl check --only link", "port %d of %s is %s, not ACTIVE", PORT,
			    s->o->dev, ibv_port_state_str(s->pattr.state));
	s->r->mtu = 128 << s->pattr.active_mtu;
	s->r->gid_index = s->o->gid_index >= 0 ? s->o->gid_index : pick_gid(s);
	if (s->r->gid_index < 0)
		return fail(s, "give the netdev an IPv4 address, or pass --gid-index",
			    "%s has no RoCE v2 IPv4 GID", s->o->dev);
	if (ibv_query_gid(s->ctx, PORT, s->r->gid_index, &s->gid))
		return fail(s, NULL, "ibv_query_gid %d: %s", s->r->gid_index, strerror(errno));
	inet_ntop(AF_INET6, s->gid.raw, s->r->gid, sizeof(s->r->gid));
	if (!memcmp(s->gid.raw, (char[16]){ 0 }, 16))
		return fail(s, "'rdmactl gids' lists the GIDs; 'rdmactl check --gid-index N' names "
			    "the one to use", "GID index %d of %s is empty", s->r->gid_index,
			    s->o->dev);
	if (make_end(s, &s->a) || make_end(s, &s->b))
		return -1;
	return done(s, 0);
}

int st_loopback(const struct st_opts *o, struct st_report *r)
{
	struct st s = { .o = o, .r = r };
	int (*const stages[])(struct st *) = {
		stage_send, stage_write, stage_read, stage_cmp_swap, stage_fetch_add,
	};
	int err;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", o->dev);
	r->gid_index = -1;
	for (int i = 0; i < ST_NSTAGES; i++) {
		r->st[i].result = ST_SKIPPED;
		snprintf(r->st[i].detail, sizeof(r->st[i].detail), "an earlier stage failed");
	}
	err = setup(&s);
	if (!err) {
		begin(&s, ST_CONNECT);
		err = connect_qp(&s, &s.a, &s.b) || connect_qp(&s, &s.b, &s.a);
		if (!err)
			done(&s, 0);
	}
	for (size_t i = 0; !err && i < sizeof(stages) / sizeof(stages[0]); i++) {
		enum st_stage st = (enum st_stage)(ST_SEND + i);

		if ((st == ST_CMP_SWAP || st == ST_FETCH_ADD) &&
		    s.dattr.atomic_cap == IBV_ATOMIC_NONE) {
			snprintf(r->st[st].detail, sizeof(r->st[st].detail),
				 "the device has no atomics (atomic_cap NONE)");
			continue;
		}
		err = stages[i](&s);
	}
	free_end(&s.a);
	free_end(&s.b);
	if (s.ctx)
		ibv_close_device(s.ctx);
	r->passed = !err;
	return err ? -1 : 0;
}
