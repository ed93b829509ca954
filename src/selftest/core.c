// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verbs selftest: RC QPs proving SEND, WRITE, READ and atomics byte for
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
#include <unistd.h>

#include "kernel/release.h"
#include "selftest/internal.h"

/*
 * A selftest's buffers start this far into their allocation, never
 * page-aligned, to prove the driver copes. A benchmark's are page-aligned, as
 * perftest's are: an unaligned 64 KiB buffer spans 17 pages, not 16, and rxe
 * copies page by page.
 */
#define MISALIGN 37

const char *st_stage_name(enum st_stage s)
{
	static const char *const names[] = {
		"setup", "connect", "send", "write", "read", "cmp_swap", "fetch_add",
		"lat_send", "lat_write", "bw_write",
	};

	return s < ST_NSTAGES ? names[s] : "?";
}

uint64_t st_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

uint64_t st_coarse_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

int st_fail(struct st *s, const char *hint, const char *fmt, ...)
{
	struct st_stage_result *x = &s->r->st[s->cur];
	va_list ap;

	if (x->result == ST_FAIL)
		return -1;	/* the first failure is the one to report */
	x->result = ST_FAIL;
	x->usec = st_now_us() - x->usec;	/* st_begin() left the start time there */
	va_start(ap, fmt);
	st_vfault(&x->f, hint, fmt, ap);
	va_end(ap);
	return -1;
}

int st_fail_as(struct st *s, const struct st_fault *f)
{
	return st_fail(s, f->hint, "%s", f->detail);
}

void st_begin(struct st *s, enum st_stage stage)
{
	s->cur = stage;
	s->r->st[stage].result = ST_PASS;
	s->r->st[stage].usec = st_now_us();
	memset(&s->r->st[stage].f, 0, sizeof(s->r->st[stage].f));
}

int st_done(struct st *s, uint64_t bytes)
{
	struct st_stage_result *x = &s->r->st[s->cur];

	x->usec = st_now_us() - x->usec;
	x->bytes = bytes;
	return 0;
}

void st_report_init(struct st_report *r, const char *dev, unsigned int bench)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", dev ? dev : "-");
	r->gid_index = -1;
	for (int i = 0; i < ST_NSTAGES; i++) {
		r->st[i].ran = i <= ST_CONNECT || (i < ST_LAT_SEND ? !bench : i == ST_BW_WRITE ?
						   bench & ST_BENCH_BW : bench & ST_BENCH_LAT);
		r->st[i].result = ST_SKIPPED;
		snprintf(r->st[i].f.detail, sizeof(r->st[i].f.detail), "an earlier stage failed");
	}
}

/*
 * The byte at OFF of a stage's pattern: a wrong offset, a stale buffer or
 * another stage's data all differ from it.
 */
static uint8_t pattern(unsigned int stage, size_t off)
{
	return (uint8_t)(off * 7 + (off >> 8) * 13 + stage * 31 + 0x5a);
}

void st_fill(char *buf, size_t len, unsigned int stage)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)pattern(stage, i);
}

/* Poison: what a buffer holds before it is written, so stale data shows. */
void st_poison(char *buf, size_t len)
{
	memset(buf, 0xee, len);
}

static const char corrupt_hint[] = "data arrived corrupted: report it with 'rdmactl show -s' "
				   "and the kernel version";

int st_check_pattern(unsigned int stage, const char *what, const char *buf, size_t len,
		     struct st_fault *f)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t want = pattern(stage, i);

		if ((uint8_t)buf[i] != want) {
			return st_fault(f, corrupt_hint,
					"%s: byte %zu of %zu is 0x%02x, expected 0x%02x%s", what, i,
					len, (uint8_t)buf[i], want,
					(uint8_t)buf[i] == 0xee ? " (never written)" : "");
		}
	}
	return 0;
}

const char *st_wc_hint(enum ibv_wc_status st)
{
	switch (st) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer did not answer: a firewall on UDP 4791, the route, or the MTU "
		       "(rdmactl check)";
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


/* Why nothing completed within the timeout. */
static const char *no_wc_hint(enum ibv_wc_opcode op)
{
	bool remote = op == IBV_WC_RDMA_READ || op == IBV_WC_RDMA_WRITE ||
		      op == IBV_WC_COMP_SWAP || op == IBV_WC_FETCH_ADD;

	/* Measured in the bed: 5.10's rxe sends no NAK for an access outside the
	 * responder's memory region and retransmits it without end; 6.1 answers
	 * with a remote access error. */
	if (remote && kernel_before("", 6, 1))
		return "the peer did not answer in time: the netdev may be down (rdmactl check); "
		       "on this kernel rdma_rxe never answers an access outside the peer's memory "
		       "region, so a wrong remote address or key ends the same way";
	return "the peer did not answer in time: the netdev may be down (rdmactl check)";
}

int st_wait_wc_text(unsigned int timeout_ms, struct ibv_cq *cq, enum ibv_wc_opcode op,
		    struct ibv_wc *wc, struct st_fault *f)
{
	uint64_t deadline = st_now_us() + (uint64_t)timeout_ms * 1000;
	struct timespec nap = { 0, 20000 };

	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n < 0)
			return st_fault(f, NULL, "ibv_poll_cq failed (%d)", n);
		if (n == 1)
			break;
		if (st_now_us() > deadline)
			return st_fault(f, no_wc_hint(op), "no completion within %u ms", timeout_ms);
		nanosleep(&nap, NULL);
	}
	if (wc->status != IBV_WC_SUCCESS)
		return st_fault(f, st_wc_hint(wc->status),
				"work completion %s (status %d, vendor error 0x%x)",
				ibv_wc_status_str(wc->status), wc->status, wc->vendor_err);
	if (wc->opcode != op)
		return st_fault(f, NULL, "work completion opcode %d, expected %d", wc->opcode, op);
	return 0;
}

int st_wait_wc(struct st *s, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc)
{
	struct st_fault f = { 0 };

	return st_wait_wc_text(s->o->timeout_ms, cq, op, wc, &f) ? st_fail_as(s, &f) : 0;
}

struct ibv_qp_init_attr st_qp_attr(const struct st *s, struct st_end *e)
{
	return (struct ibv_qp_init_attr){
		.qp_type = IBV_QPT_RC,
		.send_cq = e->scq,
		.recv_cq = e->rcq,
		.cap = { .max_send_wr = e->sq_depth, .max_recv_wr = ST_RQ_DEPTH, .max_send_sge = 1,
			 .max_recv_sge = 1, .max_inline_data = s->o->bench ? ST_INLINE : 0 },
	};
}

void *st_page_alloc(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return aligned_alloc(page, (len + page - 1) / page * page);
}

int st_make_end(struct st *s, struct st_end *e, uint32_t len, bool noqp)
{
	/* Exactly what a peer needs: its data buffer written and read, the word atomic. */
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_qp_init_attr qa;

	e->len = len;
	e->sq_depth = s->o->bench && s->o->depth > 16 ? s->o->depth : 16;
	e->pd = ibv_alloc_pd(s->ctx);
	if (!e->pd)
		return st_fail(s, NULL, "ibv_alloc_pd: %s", strerror(errno));
	if (s->o->bench) {
		e->alloc = st_page_alloc(len);
		e->buf = e->alloc;
	} else {
		e->alloc = malloc((size_t)len + MISALIGN);
		e->buf = e->alloc ? e->alloc + MISALIGN : NULL;
	}
	e->atom = aligned_alloc(8, 8);
	if (!e->alloc || !e->atom)
		return st_fail(s, NULL, "out of memory for %u bytes", len);
	st_poison(e->buf, len);
	e->mr = ibv_reg_mr(e->pd, e->buf, len, access);
	if (!e->mr)
		return st_fail(s, errno == ENOMEM ? "RLIMIT_MEMLOCK too low? (rdmactl check --only "
			       "memlock)" : NULL, "ibv_reg_mr of %u bytes: %s", len,
			       strerror(errno));
	e->amr = ibv_reg_mr(e->pd, e->atom, 8, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
	if (!e->amr)
		return st_fail(s, NULL, "ibv_reg_mr of the atomic word: %s", strerror(errno));
	e->scq = ibv_create_cq(s->ctx, (int)e->sq_depth + 1, NULL, NULL, 0);
	e->rcq = e->scq ? ibv_create_cq(s->ctx, ST_RQ_DEPTH + 1, NULL, NULL, 0) : NULL;
	if (!e->rcq)
		return st_fail(s, NULL, "ibv_create_cq: %s", strerror(errno));
	e->psn = (uint32_t)(st_now_us() * 2654435761u) & 0xffffff;
	if (noqp)
		return 0;
	qa = st_qp_attr(s, e);
	e->qp = ibv_create_qp(e->pd, &qa);
	if (!e->qp)
		return st_fail(s, NULL, "ibv_create_qp: %s", strerror(errno));
	return 0;
}

void st_free_end(struct st_end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->rcq)
		ibv_destroy_cq(e->rcq);
	if (e->scq)
		ibv_destroy_cq(e->scq);
	if (e->amr)
		ibv_dereg_mr(e->amr);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	free(e->alloc);
	free(e->atom);
	memset(e, 0, sizeof(*e));
}

void st_hello(const struct st *s, const struct st_end *e, struct wire_hello *h)
{
	bool atomics = s->dattr.atomic_cap != IBV_ATOMIC_NONE;

	*h = (struct wire_hello){
		.flags = atomics ? WIRE_F_ATOMICS : 0,
		.lid = s->pattr.lid,
		.mtu = (uint8_t)s->pattr.active_mtu,
		.qpn = e->qp->qp_num,
		.psn = e->psn,
		.addr = (uintptr_t)e->buf,
		.rkey = e->mr->rkey,
		.len = e->len,
		.atom_addr = atomics ? (uintptr_t)e->atom : 0,
		.atom_rkey = atomics ? e->amr->rkey : 0,
	};
	memcpy(h->gid, s->gid.raw, 16);
}

void st_remote_from_hello(struct st_remote *rem, const struct wire_hello *h)
{
	*rem = (struct st_remote){
		.qpn = h->qpn, .psn = h->psn, .lid = h->lid, .mtu = (enum ibv_mtu)h->mtu,
		.addr = h->addr, .rkey = h->rkey, .len = h->len,
		.atom_addr = h->atom_addr, .atom_rkey = h->atom_rkey,
	};
	memcpy(rem->gid.raw, h->gid, 16);
}

int st_qp_rtr_rts(struct ibv_qp *qp, const struct st_path *p, const char **step)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = (enum ibv_mtu)p->mtu,
		.dest_qp_num = p->dest_qpn,
		.rq_psn = p->rq_psn,
		.max_dest_rd_atomic = p->rd_atomic,
		.min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .dlid = p->dlid, .port_num = ST_PORT },
	};
	int err;

	memcpy(a.ah_attr.grh.dgid.raw, p->dgid, 16);
	a.ah_attr.grh.sgid_index = p->sgid_index;
	a.ah_attr.grh.hop_limit = p->hop_limit;
	*step = "RTR";
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			    IBV_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = p->sq_psn;
	a.max_rd_atomic = p->rd_atomic;
	*step = "RTS";
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

int st_connect_qp(struct st *s, struct st_end *e)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = ST_PORT,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC,
	};
	enum ibv_mtu mtu = s->pattr.active_mtu < e->rem.mtu ? s->pattr.active_mtu : e->rem.mtu;
	struct st_path p = { .dest_qpn = e->rem.qpn, .rq_psn = e->rem.psn, .sq_psn = e->psn,
			     .dlid = e->rem.lid, .sgid_index = (uint8_t)s->r->gid_index,
			     .hop_limit = 64, .rd_atomic = 4, .mtu = mtu };
	const char *step;
	int err;

	err = ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			    IBV_QP_ACCESS_FLAGS);
	if (err)
		return st_fail(s, NULL, "ibv_modify_qp to INIT: %s", strerror(err));
	memcpy(p.dgid, e->rem.gid.raw, 16);
	err = st_qp_rtr_rts(e->qp, &p, &step);
	if (err && !strcmp(step, "RTR"))	/* where the path is checked */
		return st_fail(s, err == EINVAL || err == ETIMEDOUT || err == ENODATA ?
			       "the GID index or route: is it the RoCE v2 GID of an address the "
			       "peer can reach? (rdmactl check --gid-index N)" : NULL,
			       "ibv_modify_qp to RTR with GID index %d: %s (%s)", s->r->gid_index,
			       strerror(err), errname(err));
	if (err)
		return st_fail(s, NULL, "ibv_modify_qp to RTS: %s", strerror(err));
	s->r->mtu = 128 << mtu;
	return 0;
}

static int pick_gid(struct st *s)
{
	union ibv_gid g;

	for (int i = 0; i < s->pattr.gid_tbl_len; i++) {
		if (ibv_query_gid(s->ctx, ST_PORT, i, &g))
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

int st_setup_device(struct st *s)
{
	int err;

	if (!s->ctx)
		s->ctx = st_open_device(s->o->dev);
	if (!s->ctx)
		return st_fail(s, "rdmactl check --only uverbs,provider", "libibverbs cannot open %s",
			       s->o->dev);
	err = ibv_query_device(s->ctx, &s->dattr);
	if (!err)
		err = ibv_query_port(s->ctx, ST_PORT, &s->pattr);
	if (err)
		return st_fail(s, NULL, "ibv_query_device/port: %s", strerror(err));
	if (s->pattr.state != IBV_PORT_ACTIVE)
		return st_fail(s, "rdmactl check --only link", "port %d of %s is %s, not ACTIVE",
			       ST_PORT, s->r->dev, ibv_port_state_str(s->pattr.state));
	s->r->mtu = 128 << s->pattr.active_mtu;
	s->r->gid_index = s->o->gid_index >= 0 ? s->o->gid_index : pick_gid(s);
	if (s->r->gid_index < 0)
		return st_fail(s, "give the netdev an IPv4 address, or pass --gid-index",
			       "%s has no RoCE v2 IPv4 GID", s->r->dev);
	if (ibv_query_gid(s->ctx, ST_PORT, s->r->gid_index, &s->gid))
		return st_fail(s, NULL, "ibv_query_gid %d: %s", s->r->gid_index, strerror(errno));
	inet_ntop(AF_INET6, s->gid.raw, s->r->gid, sizeof(s->r->gid));
	if (!memcmp(s->gid.raw, (char[16]){ 0 }, 16))
		return st_fail(s, "'rdmactl gids' lists the GIDs; 'rdmactl check --gid-index N' "
			       "names the one to use", "GID index %d of %s is empty",
			       s->r->gid_index, s->r->dev);
	return 0;
}

void st_release(struct st *s)
{
	st_free_end(&s->a);
	st_free_end(&s->b);
	if (s->ctx)
		ibv_close_device(s->ctx);
	s->ctx = NULL;
}

uint32_t st_buffer_len(const struct st_opts *o)
{
	if (!o->bench)
		return o->size;
	/* Latency writes land in the second half: the first is each end's source. */
	return 2 * o->lat_size > o->bw_size ? 2 * o->lat_size : o->bw_size;
}

void st_opts_init(struct st_opts *o, const char *dev)
{
	*o = (struct st_opts){ .dev = dev, .gid_index = -1, .timeout_ms = 5000,
			       .size = 3 * 4096 + 123, .lat_size = 2, .bw_size = 65536,
			       .lat_iters = 1000, .bw_iters = 5000, .depth = 128 };
}
