// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every mode of the selftest's stages shares (stages.c, net.c, cm.c,
 * bench.c): the options' defaults and the report's stages, a stage begun,
 * passed or failed with its hint, the byte pattern each stage checks, the
 * session opened for a run, an end's buffers and RC QP made (on the
 * session's PD), described in a hello, connected and freed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/clock.h"
#include "selftest/internal.h"
#include "selftest/verbs.h"

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

int st_fail(struct st_run *s, const char *hint, const char *fmt, ...)
{
	struct st_stage_result *x = &s->r->st[s->cur];
	va_list ap;

	if (x->result == ST_FAIL)
		return -1;	/* the first failure is the one to report */
	x->result = ST_FAIL;
	x->usec = mono_us() - x->usec;	/* st_begin() left the start time there */
	va_start(ap, fmt);
	st_vfault(&x->f, hint, fmt, ap);
	va_end(ap);
	return -1;
}

int st_fail_err(struct st_run *s, int err, const char *hint, const char *fmt, ...)
{
	struct st_fault f = { 0 };
	va_list ap;

	va_start(ap, fmt);
	st_vfault(&f, hint, fmt, ap);
	va_end(ap);
	f.err = err < 0 ? -err : err;
	return st_fail_as(s, &f);
}

int st_fail_as(struct st_run *s, const struct st_fault *f)
{
	struct st_stage_result *x = &s->r->st[s->cur];
	bool first = x->result != ST_FAIL;

	st_fail(s, f->hint, "%s", f->detail);
	if (first)
		x->f.err = f->err;
	return -1;
}

void st_begin(struct st_run *s, enum st_stage stage)
{
	s->cur = stage;
	s->r->st[stage].result = ST_PASS;
	s->r->st[stage].usec = mono_us();
	memset(&s->r->st[stage].f, 0, sizeof(s->r->st[stage].f));
}

int st_done(struct st_run *s, uint64_t bytes)
{
	struct st_stage_result *x = &s->r->st[s->cur];

	x->usec = mono_us() - x->usec;
	x->bytes = bytes;
	return 0;
}

void st_report_init(struct st_report *r, const char *dev, unsigned int bench)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->head.dev, sizeof(r->head.dev), "%s", dev ? dev : "-");
	r->head.gid_index = -1;
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

int st_wait_wc(struct st_run *s, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc)
{
	struct vb_wait w = { .cq = cq, .timeout_ms = s->o->common.timeout_ms };
	struct st_fault f = { 0 };

	return vb_wait_wc(&w, op, wc, &f) ? st_fail_as(s, &f) : 0;
}

struct ibv_qp_init_attr st_qp_attr(const struct st_run *s, struct st_end *e)
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

int st_make_end(struct st_run *s, struct st_end *e, uint32_t len, bool noqp)
{
	/* Exactly what a peer needs: its data buffer written and read, the word atomic. */
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_qp_init_attr qa;
	struct st_fault f = { 0 };

	e->len = len;
	e->sq_depth = s->o->bench && s->o->depth > 16 ? s->o->depth : 16;
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
	if (!(e->mr = vb_reg_mr(s->ss.pd, e->buf, len, access, &f)) ||
	    !(e->amr = vb_reg_mr(s->ss.pd, e->atom, 8, IBV_ACCESS_LOCAL_WRITE |
				 IBV_ACCESS_REMOTE_ATOMIC, &f)) ||
	    !(e->scq = vb_cq_create(s->ss.dev.ctx, (int)e->sq_depth + 1, NULL, &f)) ||
	    !(e->rcq = vb_cq_create(s->ss.dev.ctx, ST_RQ_DEPTH + 1, NULL, &f)))
		return st_fail_as(s, &f);
	e->psn = (uint32_t)(mono_us() * 2654435761u) & 0xffffff;
	if (noqp)
		return 0;
	qa = st_qp_attr(s, e);
	e->qp = vb_qp_create(s->ss.pd, &qa, &f);
	return e->qp ? 0 : st_fail_as(s, &f);
}

void st_free_end(struct st_end *e)
{
	vb_qp_destroy(&e->qp);
	vb_cq_destroy(&e->rcq);
	vb_cq_destroy(&e->scq);
	vb_mr_dereg(&e->amr);
	vb_mr_dereg(&e->mr);
	free(e->alloc);
	free(e->atom);
	memset(e, 0, sizeof(*e));
}

void st_hello(const struct st_run *s, const struct st_end *e, struct wire_hello *h)
{
	bool atomics = s->ss.dev.attr.orig_attr.atomic_cap != IBV_ATOMIC_NONE;

	*h = (struct wire_hello){
		.flags = atomics ? WIRE_F_ATOMICS : 0,
		.lid = s->ss.dev.port.lid,
		.mtu = (uint8_t)s->ss.dev.port.active_mtu,
		.qpn = e->qp->qp_num,
		.psn = e->psn,
		.addr = (uintptr_t)e->buf,
		.rkey = e->mr->rkey,
		.len = e->len,
		.atom_addr = atomics ? (uintptr_t)e->atom : 0,
		.atom_rkey = atomics ? e->amr->rkey : 0,
	};
	memcpy(h->gid, s->ss.dev.gid.raw, 16);
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

int st_connect_qp(struct st_run *s, struct st_end *e)
{
	enum ibv_mtu mtu = s->ss.dev.port.active_mtu < e->rem.mtu ? s->ss.dev.port.active_mtu :
								  e->rem.mtu;
	struct vb_path p = { .type = IBV_QPT_RC, .dest_qpn = e->rem.qpn, .rq_psn = e->rem.psn,
			     .sq_psn = e->psn, .dlid = e->rem.lid, .sgid_index = s->r->head.gid_index,
			     .hop_limit = VB_HOP_LIMIT, .rd_atomic = 4, .mtu = mtu };
	struct st_fault f = { 0 };

	memcpy(p.dgid, e->rem.gid.raw, 16);
	if (vb_qp_connect(e->qp, &p, VB_ACCESS_REMOTE, &f))
		return st_fail_as(s, &f);
	s->r->head.mtu = (int)vb_mtu_bytes(mtu);
	return 0;
}

int st_setup_device(struct st_run *s, struct ibv_context *ctx)
{
	struct st_fault f = { 0 };

	st_session_close(&s->ss);
	return st_session_open(&s->ss, &s->o->common, ctx, &s->r->head, &f) ? st_fail_as(s, &f) : 0;
}

void st_release(struct st_run *s)
{
	st_free_end(&s->a);
	st_free_end(&s->b);
	st_session_close(&s->ss);
}

uint32_t st_buffer_len(const struct st_opts *o)
{
	if (!o->bench)
		return o->common.size;
	/* Latency writes land in the second half: the first is each end's source. */
	return 2 * o->lat_size > o->bw_size ? 2 * o->lat_size : o->bw_size;
}

void st_opts_init(struct st_opts *o, const char *dev)
{
	*o = (struct st_opts){ .common = { .dev = dev, .gid_index = -1, .timeout_ms = 5000,
					   .size = 3 * 4096 + 123 },
			       .lat_size = 2, .bw_size = 65536, .lat_iters = 1000, .bw_iters = 5000,
			       .depth = 128 };
}
