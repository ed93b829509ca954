// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest between two hosts: the client drives every stage against the
 * server's end (B) over rdmactl's own exchange (wire.h) on a TCP side channel.
 * The server serves one client at a time; a client that breaks the exchange
 * is refused and reported, and the server goes on to the next. Clients wait
 * for their turn in a lobby that reads every first message at once, so a
 * silent or slow client holds only its own place, never the server.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>

#include "kernel/clock.h"
#include "kernel/runloop.h"
#include "selftest/sidechan.h"
#include "selftest/internal.h"
#include "selftest/selftest.h"

/* Clients waiting for their first message to arrive; the oldest gives way. */
#define LOBBY_MAX 16

/* A client in the lobby: its first message as far as it came, or why it failed. */
struct lobby_conn {
	int fd;
	char peer[80];
	uint64_t deadline;
	size_t got, need;
	int kind;		/* the complete message's kind, or a negative errno */
	const char *why;
	uint8_t buf[WIRE_MSG_MAX];
};

static uint64_t deadline(const struct st_run *s)
{
	return mono_ms() + s->o->common.timeout_ms;
}

/* --- the client --- */

static int client_fail(struct st_run *s, int err, const char *why)
{
	char buf[200];

	return st_fail(s, err == -EPROTO ? NULL : "is 'rdmactl selftest server' running there?",
		       "the server %s", sc_recv_error(err, why, buf, sizeof(buf)));
}

/* A RESULT, or the server's refusal in place of what was expected. */
static int client_result(struct st_run *s, uint8_t *buf, int kind, struct st_fault *res)
{
	const char *why = "";

	if (kind != WIRE_RESULT)
		return client_fail(s, -EBADMSG, "not the result of a step");
	if (wire_result_decode(buf + WIRE_HDR_LEN, res, &why))
		return client_fail(s, -EBADMSG, why);
	return 0;
}

static int net_step(struct st_run *s, const struct wire_step *step, struct st_fault *res)
{
	uint8_t buf[WIRE_MSG_MAX];
	const char *why;
	size_t n = wire_step_encode(step, buf);
	int kind, err;

	err = sc_write(s->fd, buf, n, deadline(s));
	if (err)
		return client_fail(s, err, "");
	/* A latency stage's check waits for the server's last answer: as long as the run. */
	kind = sc_recv_msg(s->fd, buf, deadline(s), &why);
	if (kind < 0)
		return client_fail(s, kind, why);
	if (client_result(s, buf, kind, res))
		return -1;
	if (res->failed) {
		char detail[sizeof(res->detail)];

		snprintf(detail, sizeof(detail), "%s", res->detail);
		snprintf(res->detail, sizeof(res->detail), "the server: %.*s",
			 (int)sizeof(res->detail) - 20, detail);
	}
	return 0;
}

static const struct st_peer net_peer = { .step = net_step };

/* Hellos both ways: the server's end becomes A's remote. */
static int client_hello(struct st_run *s)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_hello h;
	struct st_fault res;
	const char *why;
	char err[200];
	int kind;

	s->fd = sc_connect(s->o->common.host, s->o->common.port, deadline(s), err, sizeof(err));
	if (s->fd < 0)
		return st_fail(s, "is 'rdmactl selftest server' running there, and its TCP port "
			       "reachable?", "%s", err);
	st_hello(s, &s->a, &h);
	kind = sc_write(s->fd, buf, wire_hello_encode(&h, buf), deadline(s));
	if (kind)
		return client_fail(s, kind, "");
	kind = sc_recv_msg(s->fd, buf, deadline(s), &why);
	if (kind < 0)
		return client_fail(s, kind, why);
	if (kind != WIRE_HELLO) {
		if (client_result(s, buf, kind, &res))
			return -1;
		return st_fail(s, res.hint, "the server refused: %s", res.detail);
	}
	if (wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why))
		return client_fail(s, -EBADMSG, why);
	if (h.len < s->a.len)
		return client_fail(s, -EBADMSG, "its buffer is smaller than ours");
	st_remote_from_hello(&s->a.rem, &h);
	inet_ntop(AF_INET6, h.gid, s->r->head.remote_gid, sizeof(s->r->head.remote_gid));
	return st_connect_qp(s, &s->a);
}

int st_client(const struct st_opts *o, struct st_report *r)
{
	struct st_run s = { .o = o, .r = r, .peer = &net_peer, .fd = -1 };
	int err;

	st_report_init(r, o->common.dev, o->bench);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u", o->common.host, o->common.port);
	st_begin(&s, ST_SETUP);
	err = st_setup_device(&s, NULL) || st_make_end(&s, &s.a, st_buffer_len(o), false);
	if (!err) {
		st_done(&s, 0);
		st_begin(&s, ST_CONNECT);
		err = client_hello(&s);
	}
	if (!err) {
		st_done(&s, 0);
		err = st_run_stages(&s);
	}
	if (s.fd >= 0) {
		if (!err) {	/* the server counts a session without its goodbye as failed */
			uint8_t buf[WIRE_HDR_LEN];

			sc_write(s.fd, buf, wire_bye_encode(buf), deadline(&s));
		}
		close(s.fd);
	}
	st_release(&s);
	r->passed = !err;
	return err ? -1 : 0;
}

/* --- the server --- */

/* Best effort: the client learns why it was refused, if it still listens. */
static void send_result(struct st_run *s, const struct st_fault *res)
{
	uint8_t buf[WIRE_MSG_MAX];

	sc_write(s->fd, buf, wire_result_encode(res, buf), deadline(s));
}

static int refuse(struct st_run *s, const char *what)
{
	struct st_fault res = { 0 };

	st_fault(&res, NULL, "%s", what);
	send_result(s, &res);
	return st_fail(s, NULL, "%s", what);
}

/* C's first message, read in the lobby: the hello, or why it did not come. */
static int serve_hello(struct st_run *s, struct lobby_conn *c)
{
	uint8_t *buf = c->buf;
	struct wire_hello h;
	const char *why = c->why ? c->why : "";
	char words[200], text[240];
	int kind = c->kind;

	if (kind < 0) {
		snprintf(text, sizeof(text), "the client %s",
			 sc_recv_error(kind, why, words, sizeof(words)));
		if (kind == -EBADMSG || kind == -EPROTO)
			return refuse(s, text);
		return st_fail(s, NULL, "%s", text);
	}
	if (kind != WIRE_HELLO)
		return refuse(s, "the client began with neither its hello nor a transport (refused)");
	if (wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why)) {
		snprintf(text, sizeof(text), "the client sent a malformed hello: %s (refused)", why);
		return refuse(s, text);
	}
	inet_ntop(AF_INET6, h.gid, s->r->head.remote_gid, sizeof(s->r->head.remote_gid));
	st_remote_from_hello(&s->b.rem, &h);
	/* Our end: the buffer the client asked for, no larger, and nothing else. */
	if (st_make_end(s, &s->b, h.len, false) || st_connect_qp(s, &s->b))
		return -1;
	st_hello(s, &s->b, &h);
	kind = sc_write(s->fd, buf, wire_hello_encode(&h, buf), deadline(s));
	if (kind)
		return st_fail(s, NULL, "the client %s", sc_recv_error(kind, "", words, sizeof(words)));
	return 0;
}

/* Steps until the client's goodbye; a latency stage answers between its two. */
static int serve_steps(struct st_run *s)
{
	struct st_fault pending = { 0 };
	uint8_t buf[WIRE_MSG_MAX];
	char words[200];
	const char *why;
	/* However it paces its steps, a client has ST_MAX_RUN_MS in all. */
	uint64_t end = mono_ms() + ST_MAX_RUN_MS;
	uint64_t extra = 0;	/* ms more to wait: the client's bandwidth run */

	for (;;) {
		struct wire_step step;
		struct st_fault res;
		struct st_stage_result *x;
		uint64_t until = deadline(s) + extra;
		int kind = sc_recv_msg(s->fd, buf, until < end ? until : end, &why);

		if (kind == -ETIMEDOUT && mono_ms() >= end)
			return refuse(s, "the client took longer than the 10 minutes a client "
				      "may have (refused)");

		if (kind == WIRE_BYE)
			return 0;
		if (kind < 0)
			return st_fail(s, NULL, "the client %s",
				       sc_recv_error(kind, why, words, sizeof(words)));
		if (kind != WIRE_STEP)
			return refuse(s, "the client sent a message out of turn (refused)");
		if (wire_step_decode(buf + WIRE_HDR_LEN, ST_NSTAGES, &step, &why) ||
		    (step.stage < ST_SEND && (why = "no such step"))) {
			snprintf(words, sizeof(words), "the client sent a malformed step: %s "
				 "(refused)", why);
			return refuse(s, words);
		}
		x = &s->r->st[step.stage];
		if (!x->ran) {
			st_begin(s, (enum st_stage)step.stage);
			x->ran = true;
		}
		if (step.phase == WIRE_CHECK &&
		    (step.stage == ST_LAT_SEND || step.stage == ST_LAT_WRITE))
			res = pending;
		else
			st_b_step(s, &s->b, &step, &res);
		send_result(s, &res);
		if (res.failed)
			return st_fail_as(s, &res);
		/*
		 * As long as the run takes at 1 MB/s (slow is not dead), but never
		 * over ST_MAX_RUN_MS: a client must not hold the server with a huge count.
		 */
		extra = step.phase == WIRE_PREPARE && step.stage == ST_BW_WRITE ?
			(uint64_t)step.iters * step.size / 1000 : 0;
		if (extra > ST_MAX_RUN_MS)
			extra = ST_MAX_RUN_MS;
		if (step.phase == WIRE_CHECK) {
			st_done(s, step.stage >= ST_LAT_SEND ? (uint64_t)step.iters * step.size :
				step.stage == ST_CMP_SWAP ? 16 : step.stage == ST_FETCH_ADD ? 8 :
				s->b.len);
		} else if (step.stage == ST_LAT_SEND || step.stage == ST_LAT_WRITE) {
			memset(&pending, 0, sizeof(pending));
			st_bench_serve(s, &s->b, &step, &pending);
		}
	}
}

/* One client, start to end; the report, of its mode, says how it went. */
static int serve_one(struct st_run *s, struct lobby_conn *c)
{
	int err;

	if (c->kind == WIRE_XOPEN) {
		struct st_opts xo = { .common = { .dev = s->o->common.dev,
						  .gid_index = s->o->common.gid_index,
						  .timeout_ms = s->o->common.timeout_ms } };

		err = xp_serve(&xo, c->fd, c->buf, c->peer, s->r);
		close(c->fd);
		c->fd = -1;
		return err ? -1 : 0;
	}
	st_report_init(s->r, s->o->common.dev, 0);
	for (int i = ST_SEND; i < ST_NSTAGES; i++)
		s->r->st[i].ran = false;	/* the client says which it runs */
	snprintf(s->r->head.peer, sizeof(s->r->head.peer), "%s", c->peer);
	s->r->head.gid_index = -1;
	s->fd = c->fd;
	st_begin(s, ST_SETUP);
	err = st_setup_device(s, NULL);
	if (!err) {
		st_done(s, 0);
		st_begin(s, ST_CONNECT);
		err = serve_hello(s, c);
	}
	if (!err) {
		st_done(s, 0);
		err = serve_steps(s);
	}
	st_free_end(&s->b);
	close(c->fd);
	c->fd = -1;
	s->fd = -1;
	s->r->passed = !err;
	return err ? -1 : 0;
}

/* Reads what C has sent; true once its first message is complete or has failed. */
static bool lobby_read(struct lobby_conn *c)
{
	while (c->got < c->need) {
		ssize_t n = recv(c->fd, c->buf + c->got, c->need - c->got, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return false;
		if (n <= 0) {
			c->kind = n == 0 || errno == ECONNRESET ? -ECONNRESET : -errno;
			return true;
		}
		c->got += (size_t)n;
		if (c->got == WIRE_HDR_LEN && c->need == WIRE_HDR_LEN) {
			/* The header says how long the rest is, or why there is no rest. */
			c->kind = wire_hdr_decode(c->buf, &c->why);
			if (c->kind < 0)
				return true;
			c->need += wire_body_len((enum wire_kind)c->kind);
		}
	}
	return true;
}

/* The lobby's next client whose first message is complete or has failed, or -EINTR. */
static int lobby_next(int lfd, struct lobby_conn *lob, size_t *n, unsigned int timeout_ms)
{
	while (!runloop_asked()) {
		struct pollfd pfd[LOBBY_MAX + 1];
		uint64_t now = mono_ms();
		int wait = -1;

		for (size_t i = 0; i < *n; i++) {
			/* Read before expiry: a client may have come while another was served. */
			if (lobby_read(&lob[i]))
				return (int)i;
			if (lob[i].deadline <= now) {
				lob[i].kind = -ETIMEDOUT;
				return (int)i;
			}
			if (wait < 0 || lob[i].deadline - now < (uint64_t)wait)
				wait = (int)(lob[i].deadline - now);
			pfd[i] = (struct pollfd){ .fd = lob[i].fd, .events = POLLIN };
		}
		pfd[*n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (poll(pfd, *n + 1, wait) < 0 && errno != EINTR)
			return -errno;
		if (runloop_asked())
			return -EINTR;
		if (!(pfd[*n].revents & POLLIN))
			continue;
		if (*n == LOBBY_MAX) {
			/* Full: the longest waiting gives way, reported as silent. */
			lob[0].kind = -ETIMEDOUT;
			return 0;
		}
		lob[*n].fd = sc_accept(lfd, mono_ms() + 1, lob[*n].peer, sizeof(lob[*n].peer));
		if (lob[*n].fd < 0)
			continue;
		lob[*n].deadline = mono_ms() + timeout_ms;
		lob[*n].got = 0;
		lob[*n].need = WIRE_HDR_LEN;
		lob[*n].kind = 0;
		lob[*n].why = NULL;
		(*n)++;
	}
	return -EINTR;
}

int st_server(const struct st_opts *o, struct st_report *r,
	      void (*session)(void *arg, const struct st_report *r), void *arg)
{
	struct st_run s = { .o = o, .r = r, .fd = -1 };
	/* Large: on the heap, not the stack. */
	struct lobby_conn *lob = calloc(LOBBY_MAX, sizeof(*lob));
	char err[200];
	size_t nlob = 0;
	int lfd, ret = 0;

	/* The device first: a wrong DEV or GID index fails before any client comes. */
	st_report_init(r, o->common.dev, 0);
	st_begin(&s, ST_SETUP);
	if (!lob) {
		st_fail(&s, NULL, "out of memory");
		goto fail;
	}
	if (st_setup_device(&s, NULL))
		goto fail;
	lfd = sc_listen(o->bind, o->common.port, err, sizeof(err));
	if (lfd < 0) {
		st_fail(&s, NULL, "%s", err);
		goto fail;
	}
	st_done(&s, 0);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u", o->bind ? o->bind : "*",
		 o->common.port);
	session(arg, r);	/* listening */
	for (;;) {
		int i = lobby_next(lfd, lob, &nlob, o->common.timeout_ms);
		struct lobby_conn c;

		if (i < 0) {
			/* Stopped by a signal: the server did its job, whatever the last client did. */
			ret = i == -EINTR ? (o->once ? ret : 0) : -1;
			break;
		}
		c = lob[i];
		memmove(&lob[i], &lob[i + 1], (nlob - (size_t)i - 1) * sizeof(*lob));
		nlob--;
		ret = serve_one(&s, &c);
		session(arg, r);
		if (o->once || runloop_asked())
			break;
	}
	while (nlob)
		close(lob[--nlob].fd);
	close(lfd);
	free(lob);
	st_release(&s);
	return ret;
fail:
	free(lob);
	st_release(&s);
	r->passed = false;
	return -1;
}
