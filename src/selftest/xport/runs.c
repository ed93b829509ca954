// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: each transport's run, in loopback and as a client. */
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

/*
 * UD, one byte over the path MTU: refused when posted, failed in its
 * completion, or sent and dropped; delivered is a finding. A delivery comes
 * within a second, so the wait for none is that long.
 */
static void over_mtu(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e)
{
	struct sendspec s = { .op = IBV_WR_SEND, .len = xp_mtu_bytes(x) + 1 };
	struct xp_row *w = xp_row_add(x, XP_UD, "over_mtu", XP_IMPLIED, "%s", "");
	struct st_fault g = { 0 };
	struct ibv_wc wc = { .status = IBV_WC_GENERAL_ERR };

	if (B(x, XB_PREPARE, 0, XB_POST, e->len, 0, &w->f)) {
		xp_row_done(w, -1, 0);
	} else if (xp_post(x, a, &s, e->qpn[0], &g)) {
		xp_row_done(w, 0, 0);
		xp_note(w, "refused by ibv_post_send: %s", g.detail + strlen("ibv_post_send: "));
	} else if (xp_wait_wc(x, a->cq, IBV_WC_SEND, &wc, &g)) {
		xp_row_done(w, 0, 0);
		xp_note(w, "refused in the send's completion: %s", g.detail);
	} else if (B(x, XB_CHECK_NONE, 0, 0, 0, NONE_MS, &g)) {
		w->f = g;
		xp_row_done(w, -1, 0);
	} else {
		xp_row_done(w, 0, 0);
		xp_note(w, "%u bytes: the send completed, %s: dropped", s.len, g.detail);
	}
}

/* RC, UC or UD: each operation the transport has, one row each. */
static void run_basic(struct xp_run *x, enum xp_transport t)
{
	uint32_t len = t == XP_UD ? xp_mtu_bytes(x) : x->o->common.size, inl = 0;
	uint32_t buflen = len > xp_mtu_bytes(x) + 1 ? len : xp_mtu_bytes(x) + 1;
	bool atomics = x->ss.dev.attr.orig_attr.atomic_cap != IBV_ATOMIC_NONE, made;
	struct xp_qp a = { 0 };
	struct wire_xends e;
	struct xp_row *w;
	int err;

	w = xp_row_add(x, t, "setup", XP_IMPLIED, "%s", "");
	err = xp_make_pair(x, t, &a, buflen, &inl, &e, &made, &w->f) ||
	      (t == XP_UD && xp_make_ah(x, e.gid, &w->f));
	xp_row_done(w, err, 0);
	if (err)
		goto out;
	{
		struct sendspec s = { .op = IBV_WR_SEND, .len = len };

		w = xp_row_add(x, t, "send", XP_IMPLIED, "%s", "");
		xp_row_done(w, xp_op_send(x, &a, &e, &s, 1, &w->f), len);
		s.op = IBV_WR_SEND_WITH_IMM;
		s.len = t == XP_UD ? 1 : len;
		w = xp_row_add(x, t, "send_imm", XP_IMPLIED, "%s", "");
		xp_row_done(w, xp_op_send(x, &a, &e, &s, 2, &w->f), s.len);
	}
	if (t != XP_UD) {
		struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };

		w = xp_row_add(x, t, "write", XP_IMPLIED, "%s", "");
		xp_row_done(w, xp_op_write(x, &a, &e, &s, 3, &w->f), len);
		s = (struct sendspec){ .op = IBV_WR_RDMA_WRITE_WITH_IMM, .len = len };
		w = xp_row_add(x, t, "write_imm", XP_IMPLIED, "%s", "");
		xp_row_done(w, xp_op_write(x, &a, &e, &s, 4, &w->f), len);
	}
	if (t == XP_RC) {
		w = xp_row_add(x, t, "read", XP_IMPLIED, "%s", "");
		xp_row_done(w, xp_op_read(x, &a, &e, len, 5, &w->f), len);
		for (int cas = 1; cas >= 0; cas--) {
			w = xp_row_add(x, t, cas ? "cmp_swap" : "fetch_add", atomics ? XP_CLAIMED :
				XP_NOT_CLAIMED, "atomic_cap %d", x->ss.dev.attr.orig_attr.atomic_cap);
			if (atomics)
				xp_row_done(w, xp_op_atomic(x, &a, &e, cas, &w->f), 8);
			else
				xp_row_unsupported(w, "the device has no atomics (atomic_cap NONE)");
		}
	}
	w = xp_row_add(x, t, "inline", inl ? XP_CLAIMED : XP_NOT_CLAIMED, "max_inline_data %u", inl);
	if (inl) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = inl < 48 ? inl : 48, .inl = true };

		xp_row_done(w, xp_op_send(x, &a, &e, &s, 6, &w->f), s.len);
	} else {
		xp_row_unsupported(w, "a QP with max_inline_data %d was refused", INLINE_WANT);
	}
	if (t == XP_UD)
		over_mtu(x, &a, &e);
out:
	vb_ah_destroy(&x->ah);
	xp_close_ends(x, &a, 1, made);
}

/* SRQ_QPS RC QPs sending into B's, which receive from one SRQ; then its limit event. */
static void run_srq(struct xp_run *x)
{
	bool claimed = x->ss.dev.attr.orig_attr.max_srq > 0, made = false;
	struct xp_qp a[SRQ_QPS] = { 0 };
	struct xp_row *w = xp_row_add(x, XP_SRQ, "srq", claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "max_srq %d", x->ss.dev.attr.orig_attr.max_srq);
	struct ibv_cq *acq = xp_make_cq(x, &w->f);
	unsigned int i, n = SRQ_SLOTS - SRQ_LIMIT + 1;
	struct wire_xends e;
	struct ibv_wc wc;
	int err = acq ? 0 : -1;

	for (i = 0; !err && i < SRQ_QPS; i++)
		err = xq_make(x, &a[i], IBV_QPT_RC, NULL, SLOT, ACCESS, acq, NULL, &w->f);
	if (!err && xp_open_ends(x, XP_SRQ, a, SRQ_QPS, SLOT, &e, &made, &w->f)) {
		err = -1;
		if (!made && !claimed && !x->broken) {
			xp_row_refused(w, &w->f);
			xp_row_not_run(x, XP_SRQ, "srq_limit", XP_NOT_CLAIMED, "no SRQ");
			goto out;
		}
	}
	/* Each QP sends its own pattern; each must land in a slot the SRQ gave its QP. */
	for (i = 0; !err && i < SRQ_QPS; i++) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = SLOT };

		st_fill(a[i].buf, SLOT, SRQ_STAGE + i);
		err = xp_post(x, &a[i], &s, 0, &w->f);
	}
	for (i = 0; !err && i < SRQ_QPS; i++)
		err = xp_wait_wc(x, acq, IBV_WC_SEND, &wc, &w->f);
	if (!err)
		err = B(x, XB_SRQ_CHECK, SRQ_STAGE, 0, SLOT, SRQ_QPS, &w->f);
	xp_row_done(w, err, err ? 0 : (uint64_t)SRQ_QPS * SLOT);
	/* The limit: armed at SRQ_LIMIT, then the SRQ drained below it without reposting. */
	w = xp_row_add(x, XP_SRQ, "srq_limit", XP_IMPLIED, "%s", "");
	if (err) {
		w->result = XP_NOT_RUN;
		w->usec = 0;
		xp_note(w, "the SRQ step failed");
		goto out;
	}
	err = B(x, XB_SRQ_ARM, 0, 0, 0, SRQ_LIMIT, &w->f);
	for (i = 0; !err && i < n; i++) {
		struct sendspec s = { .op = IBV_WR_SEND, .len = 1 };

		err = xp_post(x, &a[i % SRQ_QPS], &s, 0, &w->f) ||
		      xp_wait_wc(x, acq, IBV_WC_SEND, &wc, &w->f);
	}
	if (!err)
		err = B(x, XB_SRQ_LIMIT, 0, 0, 0, n, &w->f);
	xp_row_done(w, err, 0);
out:
	xp_close_ends(x, a, SRQ_QPS, made);
	vb_cq_destroy(&acq);
}

/* XRC: the device's claim and ibv_open_xrcd's answer. */
static void run_xrc(struct xp_run *x)
{
	bool claimed = x->ss.dev.attr.orig_attr.device_cap_flags & IBV_DEVICE_XRC;
	struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD |
						      IBV_XRCD_INIT_ATTR_OFLAGS,
					 .fd = -1, .oflags = O_CREAT };
	struct xp_row *w = xp_row_add(x, XP_XRC, "xrc", claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "device_cap_flags %s XRC", claimed ? "has" : "lacks");
	struct ibv_xrcd *d = ibv_open_xrcd(x->ss.dev.ctx, &xa);
	int err = errno;

	if (d) {
		ibv_close_xrcd(d);
		w->usec = 0;
		w->result = XP_NOT_RUN;
		xp_note(w, "the device opens an XRC domain; this "
			 "rdmactl does not test XRC traffic yet");
	} else if (claimed) {
		st_fault(&w->f, NULL, "the device claims XRC, but ibv_open_xrcd: %s (%s)",
			 strerror(err), errname(err));
		xp_row_done(w, -1, 0);
	} else {
		xp_row_unsupported(w, "ibv_open_xrcd: %s (%s)", strerror(err), errname(err));
	}
}

/*
 * A memory window of TYPE over B's buffer: bound by B, A writes through it,
 * B invalidates it, and A's next write through it must be refused.
 */
static void run_mw_type(struct xp_run *x, enum ibv_mw_type type)
{
	uint64_t caps = x->ss.dev.attr.orig_attr.device_cap_flags;
	bool claimed = type == IBV_MW_TYPE_1 ? caps & IBV_DEVICE_MEM_WINDOW :
			caps & (IBV_DEVICE_MEM_WINDOW_TYPE_2A | IBV_DEVICE_MEM_WINDOW_TYPE_2B);
	const char *op = type == IBV_MW_TYPE_1 ? "mw_type1" : "mw_type2";
	struct xp_row *w = xp_row_add(x, XP_MW, op, claimed ? XP_CLAIMED : XP_NOT_CLAIMED,
			       "max_mw %d, %s", x->ss.dev.attr.orig_attr.max_mw,
			       claimed ? "device_cap_flags has it" : "not in device_cap_flags");
	uint32_t len = x->o->common.size, rkey = 0;
	struct sendspec s = { .op = IBV_WR_RDMA_WRITE, .len = len };
	struct xp_qp a = { 0 };
	struct wire_xends e;
	struct ibv_wc wc;
	bool made = false;
	int err;

	err = xq_make(x, &a, IBV_QPT_RC, NULL, len, ACCESS, NULL, NULL, &w->f) ||
	      xp_open_ends(x, XP_MW, &a, 1, len, &e, &made, &w->f);
	if (!err && xp_b_do(x, XB_MW_BIND, 0, 0, len, type == IBV_MW_TYPE_1 ? 1 : 2, &rkey,
			 &w->f)) {
		if (!claimed && !x->broken) {
			xp_row_refused(w, &w->f);
			goto out;
		}
		err = -1;
	}
	/* Through the window: the data lands. */
	s.rkey = rkey;
	if (!err)
		err = xp_op_write(x, &a, &e, &s, 8, &w->f) ||
		      B(x, XB_MW_INVALIDATE, 0, 0, 0, 0, &w->f);
	/* Through the invalidated window: refused, and nothing written. */
	if (!err) {
		struct st_fault g = { 0 };

		st_fill(a.buf, len, 9);
		s = (struct sendspec){ .op = IBV_WR_RDMA_WRITE, .len = len, .raddr = e.addr,
				       .rkey = rkey };
		err = B(x, XB_PREPARE, 0, 0, 0, 0, &w->f) || xp_post(x, &a, &s, 0, &w->f);
		if (!err && !xp_wait_wc(x, a.cq, IBV_WC_RDMA_WRITE, &wc, &g))
			err = st_fault(&w->f, "the window still grants access after it was "
				       "invalidated", "a write through the invalidated window "
				       "(rkey 0x%08x) succeeded", rkey);
		else if (!err)
			err = B(x, XB_CHECK_UNTOUCHED, 0, 0, 0, 0, &w->f);
		if (!err)
			xp_note(w, "bound, written through, invalidated, then refused: %s", g.detail);
	}
	xp_row_done(w, err, err ? 0 : len);
out:
	xp_close_ends(x, &a, 1, made);
}

/*
 * --events, proven: a fresh pair's CQs are armed before anything is posted;
 * the send's completion must then be announced on the channel before it is
 * polled, and so must the receive's.
 */
static int events_proof(struct xp_run *x, struct st_fault *f)
{
	struct sendspec s = { .op = IBV_WR_SEND, .len = 64 };
	struct xp_qp a = { 0 };
	struct wire_xends e;
	struct ibv_wc wc;
	bool made;
	int err = xp_make_pair(x, XP_RC, &a, 64, NULL, &e, &made, f);

	x->ss.ch->nannounced = 0;
	if (!err) {
		st_fill(a.buf, 64, 11);
		err = B(x, XB_PREPARE, 0, XB_POST, 64, 0, f) || xp_post(x, &a, &s, 0, f) ||
		      vb_wait_event(x->ss.ch, a.cq, x->o->common.timeout_ms, f) ||
		      xp_wait_wc(x, a.cq, IBV_WC_SEND, &wc, f) ||
		      B(x, XB_CHECK_RECV, 11, XB_ANNOUNCED, 64, 0, f);
	}
	xp_close_ends(x, &a, 1, made);
	return err ? -1 : 0;
}

/* A's part: every transport O selects, then the events' proof and the async watch. */
static void run_all(struct xp_run *x)
{
	const struct st_opts *o = x->o;
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
	if (o->common.events) {
		unsigned int events = x->ss.ch->events, all = x->completions;
		int err;

		w = xp_row_add(x, XP_NTRANSPORTS, "events", XP_IMPLIED, "%s", "");
		err = events_proof(x, &w->f);
		xp_row_done(w, err, err ? 0 : 64);
		if (!err)
			xp_note(w, "a SEND and its receive each announced on the channel before "
			     "being polled; before that, %u completions here and %u events on "
			     "the channel", all, events);
	}
	xp_drain_async(x);
	w = xp_row_add(x, XP_NTRANSPORTS, "async", XP_IMPLIED, "%s", "");
	w->usec = 0;
	if (x->r->nasync) {
		st_fault(&w->f, "an asynchronous event no step caused: see 'dmesg' and "
			 "'rdmactl check'", "%u asynchronous event(s), first %s", x->r->nasync,
			 x->r->async[0]);
	} else if (!x->lb && B(x, XB_ASYNC, 0, 0, 0, 0, &w->f)) {
		;	/* the server's, said in the row */
	} else {
		xp_note(w, "no asynchronous event arrived that no step caused%s",
		     x->lb ? "" : ", on either host");
	}
	w->result = w->f.failed ? XP_FAIL : XP_PASS;
}

int xp_loopback(const struct st_opts *o, struct st_report *r)
{
	struct xp_run x = { .o = o, .r = r, .wait_ms = o->common.timeout_ms, .fd = -1 };
	struct xp_peer b = { .x = &x };

	xp_report_init(r, o);
	x.lb = &b;
	if (xp_setup(&x) == 0) {
		memcpy(&b.peer_gid, &x.ss.dev.gid, 16);
		run_all(&x);
	}
	if (b.open)
		xp_peer_close(&b);
	xp_release(&x);
	return xp_report_done(r);
}

int xp_client(const struct st_opts *o, struct st_report *r)
{
	struct xp_run x = { .o = o, .r = r, .wait_ms = o->common.timeout_ms, .fd = -1 };

	xp_report_init(r, o);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u", o->common.host, o->common.port);
	if (xp_setup(&x) == 0) {
		char err[200];

		x.fd = sc_connect(o->common.host, o->common.port, mono_ms() + o->common.timeout_ms,
				  err, sizeof(err));
		if (x.fd < 0) {
			st_fault(&r->f, "is 'rdmactl selftest server' running there, and its TCP "
				 "port reachable?", "%s", err);
		} else {
			run_all(&x);
			if (!x.broken) {	/* the server counts a session without it as failed */
				uint8_t buf[WIRE_HDR_LEN];

				sc_write(x.fd, buf, wire_bye_encode(buf), mono_ms() + o->common.timeout_ms);
			}
			close(x.fd);
		}
	}
	xp_release(&x);
	return xp_report_done(r);
}
