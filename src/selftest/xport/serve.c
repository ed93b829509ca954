// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: the server's part, end B for a client's --transport. */
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

/* A refusal the client reads, if it still listens; the session ends with it said. */
static int serve_refuse(struct xp_run *x, const char *what, const char *why)
{
	uint8_t buf[WIRE_MSG_MAX];

	st_fault(&x->r->f, NULL, "the client %s%s%s", what, *why ? ": " : "", why);
	sc_write(x->fd, buf, wire_result_encode(&x->r->f, buf), mono_ms() + x->o->common.timeout_ms);
	return -1;
}

/* The client's XOPEN in BUF: B's end made (its ends answered) or refused (a RESULT). */
static int serve_open(struct xp_run *x, struct xp_peer *b, uint8_t *buf)
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
	if ((xo.flags & WIRE_XF_EVENTS) && !x->ss.chan.ch)
		vb_channel_open(&x->ss.chan, x->ss.dev.ctx, &res);
	x->ss.ch = xo.flags & WIRE_XF_EVENTS && x->ss.chan.ch ? &x->ss.chan : NULL;
	x->r->events |= x->ss.ch != NULL;
	x->ss.chan.nannounced = 0;
	b->w = xp_row_add(x, (enum xp_transport)xo.transport, "served", XP_IMPLIED, "%u QP%s, %s", xo.nqp,
		   xo.nqp == 1 ? "" : "s", x->ss.ch ? "completions through a channel" : "polled");
	b->refused = false;
	if (res.failed || xp_peer_open(b, &xo, &e, &res)) {
		b->w->f = res;
		xp_row_done(b->w, -1, 0);
		if (b->refused)	/* the device's no: what the client reports as not supported */
			b->w->result = XP_UNSUPPORTED;
		b->w = NULL;
		n = wire_result_encode(&res, buf);
	} else {
		n = wire_xends_encode(&e, buf);
		if (!*x->r->head.remote_gid)
			inet_ntop(AF_INET6, xo.gid, x->r->head.remote_gid, sizeof(x->r->head.remote_gid));
	}
	return sc_write(x->fd, buf, n, mono_ms() + x->o->common.timeout_ms) ? -1 : 0;
}

/* The client's XSTEP in BUF, done and answered; its row keeps the first failure. */
static int serve_step(struct xp_run *x, struct xp_peer *b, uint8_t *buf, unsigned int *steps)
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
	err = xp_peer_step(b, &s, &value, &res);
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
			xp_row_done(w, w->f.failed, w->bytes);
			if (!w->f.failed)
				xp_note(w, "%u steps answered", *steps);
			*steps = 0;
			b->w = NULL;
		}
	} else if (err && s.op != XB_ASYNC && !x->r->f.failed) {
		x->r->f = res;	/* a step with no end to take it */
	}
	return sc_write(x->fd, buf, wire_result_encode_value(&res, value, buf),
			mono_ms() + x->o->common.timeout_ms) ? -1 : 0;
}

int xp_serve(const struct st_opts *o, int fd, const uint8_t *first, const char *peer,
	     struct st_report *r)
{
	struct xp_run x = { .o = o, .r = r, .wait_ms = o->common.timeout_ms, .fd = fd };
	struct xp_peer b = { .x = &x };
	uint64_t end = mono_ms() + ST_MAX_RUN_MS;
	uint8_t buf[WIRE_MSG_MAX];
	unsigned int steps = 0;
	const char *why = "";
	int kind = WIRE_XOPEN, err = 0;
	bool bye = false;

	xp_report_init(r, o);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s", peer);
	memcpy(buf, first, WIRE_HDR_LEN + WIRE_XOPEN_BODY);
	if (xp_setup(&x)) {
		sc_write(fd, buf, wire_result_encode(&r->f, buf), mono_ms() + o->common.timeout_ms);
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

			err = serve_refuse(&x, kind == -ETIMEDOUT && mono_ms() >= end ?
					   "took longer than the 10 minutes a client may have" :
					   sc_recv_error(kind, why, words, sizeof(words)), "");
		}
		if (!err && !bye) {
			/* A step of the client's may wait a completion, then a second. */
			uint64_t until = mono_ms() + 2ull * o->common.timeout_ms + NONE_MS;

			kind = sc_recv_msg(fd, buf, until < end ? until : end, &why);
		}
	}
	if (b.w) {	/* the session ended with an end open */
		if (!r->f.failed)
			st_fault(&r->f, NULL, "the client left with its %s end open",
				 xp_transport_name(b.t));
		xp_row_done(b.w, b.w->f.failed, b.w->bytes);
	}
out:
	if (b.open)
		xp_peer_close(&b);
	xp_release(&x);
	return xp_report_done(r);
}
