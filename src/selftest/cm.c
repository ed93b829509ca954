// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --cm: the rdma_cm path most applications take. In loopback, two
 * ids on the device's own IPv4 address connect through address and route
 * resolution and every stage runs over the QPs rdma_cm made. Between two
 * hosts (rping.c) the same plumbing speaks rping's protocol.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/rdma_cma.h>

#include "kernel/clock.h"
#include "kernel/roce.h"
#include "kernel/runloop.h"
#include "model/gid.h"
#include "selftest/sidechan.h"
#include "kernel/errname.h"
#include "selftest/cm.h"
#include "selftest/internal.h"
#include "selftest/verbs.h"

/* What a failed event means, and what to do about it. */
static const char *event_hint(const struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
		if (ev->status == -ETIMEDOUT)
			return "address resolution timed out (-110): the peer's address did not "
			       "answer ARP from an RDMA netdev, or no rxe link is on the netdev "
			       "that reaches it (rdmactl check --peer ADDR)";
		return "no RDMA device has a route to that address: add an rxe link on the "
		       "netdev that reaches it (rdmactl link)";
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return "route resolution failed: is the peer's netdev up, with an rxe link? "
		       "(rdmactl check --peer ADDR)";
	case RDMA_CM_EVENT_UNREACHABLE:
		return vb_traffic_hint("the peer's connection manager did not answer: "
				       ROCE_UNANSWERED_CAUSES ", or the peer has no rxe link (rdmactl "
				       "check)");
	case RDMA_CM_EVENT_REJECTED:
		return "rejected: nothing listens on that port (start the server, or check "
		       "--port), or the server refused";
	default:
		return NULL;
	}
}

/*
 * The next event, which must be WANT (for ID, when ID is set); its id in
 * *GOT. Bounded by the timeout unless FOREVER. -1 with the stage failed.
 */
int cm_wait(struct cm *c, enum rdma_cm_event_type want, struct rdma_cm_id **got,
		   bool forever)
{
	struct st_run *s = c->s;
	/* A second more than the kernel's own resolution timeout: its error explains more. */
	uint64_t deadline = forever ? 0 : mono_ms() + s->o->common.timeout_ms + 1000;
	struct rdma_cm_event *ev;
	struct pollfd pfd = { .fd = c->ec->fd, .events = POLLIN };

	for (;;) {
		int64_t left = deadline ? (int64_t)(deadline - mono_ms()) : 1000;

		if (left <= 0)
			return st_fail(s, vb_traffic_hint("rdmactl check"), "no %s within %u ms",
				       rdma_event_str(want), s->o->common.timeout_ms + 1000);
		if (poll(&pfd, 1, (int)left) < 0 && errno == EINTR && runloop_asked())
			return st_fail(s, NULL, "interrupted");
		if (rdma_get_cm_event(c->ec, &ev) == 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return st_fail_err(s, errno, NULL, "rdma_get_cm_event: %s", strerror(errno));
	}
	if (ev->event != want) {
		const char *hint = event_hint(ev);
		int status = ev->status, type = ev->event;

		rdma_ack_cm_event(ev);
		return st_fail(s, hint, "%s (status %d%s%s), waiting for %s",
			       rdma_event_str((enum rdma_cm_event_type)type), status,
			       status < 0 ? " " : "", status < 0 ? errname(-status) : "",
			       rdma_event_str(want));
	}
	if (got)
		*got = ev->id;
	rdma_ack_cm_event(ev);
	return 0;
}

int cm_open(struct cm *c)
{
	c->ec = rdma_create_event_channel();
	if (!c->ec)
		return st_fail_err(c->s, errno, "rdma_ucm loaded? /dev/infiniband/rdma_cm there? (rdmactl start; "
			       "rdmactl check --only uverbs)", "rdma_create_event_channel: %s",
			       strerror(errno));
	/* Nonblocking: every wait is a bounded poll. */
	if (fcntl(c->ec->fd, F_SETFL, fcntl(c->ec->fd, F_GETFL) | O_NONBLOCK) < 0)
		return st_fail_err(c->s, errno, NULL, "event channel: %s", strerror(errno));
	return 0;
}

/* The verbs context rdma_cm chose for ID becomes the selftest's; DEV, if named, must be it. */
int cm_adopt(struct cm *c, struct rdma_cm_id *id)
{
	struct st_run *s = c->s;
	const char *name = ibv_get_device_name(id->verbs->device);

	if (s->o->common.dev && strcmp(name, s->o->common.dev))
		return st_fail(s, "name the device whose netdev has the address, or none",
			       "the address is on %s, not %s", name, s->o->common.dev);
	snprintf(s->r->head.dev, sizeof(s->r->head.dev), "%s", name);
	return st_setup_device(s, id->verbs);
}

struct rdma_conn_param cm_conn_param(unsigned int depth)
{
	return (struct rdma_conn_param){ .responder_resources = (uint8_t)depth,
					 .initiator_depth = (uint8_t)depth,
					 .retry_count = 7, .rnr_retry_count = 7 };
}

int cm_create_qp(struct cm *c, struct rdma_cm_id *id, struct st_end *e)
{
	struct ibv_qp_init_attr qa = st_qp_attr(c->s, e);

	if (rdma_create_qp(id, c->s->ss.pd, &qa))
		return st_fail_err(c->s, errno, NULL, "rdma_create_qp: %s", strerror(errno));
	e->qp = id->qp;
	return 0;
}

/* rdma_cm's QPs go with rdma_destroy_qp; then the rest of each end, then the ids. */
void cm_close(struct cm *c)
{
	struct st_run *s = c->s;

	if (c->id && c->id->qp)
		rdma_disconnect(c->id);
	if (c->child && c->child->qp)
		rdma_disconnect(c->child);
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->child && c->child->qp)
		rdma_destroy_qp(c->child);
	s->a.qp = s->b.qp = NULL;
	vb_mr_dereg(&c->ctl_mr);
	st_free_end(&s->a);
	st_free_end(&s->b);
	st_session_close(&s->ss);	/* the PD, before the ids that hold its device */
	if (c->child)
		rdma_destroy_id(c->child);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->listen)
		rdma_destroy_id(c->listen);
	if (c->ec)
		rdma_destroy_event_channel(c->ec);
	memset(c, 0, sizeof(*c));
	c->s = s;
}

/* Resolves DST's address and route for c->id, each bounded by the timeout. */
int cm_resolve(struct cm *c, struct sockaddr *dst)
{
	struct st_run *s = c->s;
	int ms = (int)s->o->common.timeout_ms;

	if (rdma_create_id(c->ec, &c->id, NULL, RDMA_PS_TCP))
		return st_fail_err(s, errno, NULL, "rdma_create_id: %s", strerror(errno));
	if (rdma_resolve_addr(c->id, NULL, dst, ms))
		return st_fail(s, "rdmactl check --peer ADDR", "rdma_resolve_addr: %s (%s)",
			       strerror(errno), errname(errno));
	if (cm_wait(c, RDMA_CM_EVENT_ADDR_RESOLVED, NULL, false))
		return -1;
	if (rdma_resolve_route(c->id, ms))
		return st_fail_err(s, errno, NULL, "rdma_resolve_route: %s", strerror(errno));
	return cm_wait(c, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL, false);
}

/* Loopback through rdma_cm: listen on the device's IPv4 address, connect to it. */
int st_cm_loopback(const struct st_opts *o, struct st_report *r)
{
	struct st_run s = { .o = o, .r = r, .peer = &st_loopback_peer, .fd = -1 };
	struct cm c = { .s = &s };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdma_conn_param param = cm_conn_param(4);
	struct rdma_cm_id *got;
	uint32_t len = o->common.size;
	int err;

	st_report_init(r, o->common.dev, 0);
	st_begin(&s, ST_SETUP);
	/* The device's IPv4 address, from its RoCE v2 GID; then verbs closes, rdma_cm opens. */
	err = st_setup_device(&s, NULL);
	if (!err && !model_gid_is_v4mapped(s.ss.dev.gid.raw))
		err = st_fail(&s, "give the netdev an IPv4 address", "GID index %d (%s) is not an "
			      "IPv4 address: rdma_cm needs one here", r->head.gid_index, r->head.gid);
	if (err)
		goto out;
	memcpy(&sin.sin_addr, s.ss.dev.gid.raw + 12, 4);
	st_session_close(&s.ss);

	err = cm_open(&c);
	if (!err && (rdma_create_id(c.ec, &c.listen, NULL, RDMA_PS_TCP) ||
		     rdma_bind_addr(c.listen, (struct sockaddr *)&sin) || rdma_listen(c.listen, 1)))
		err = st_fail_err(&s, errno, NULL, "rdma_cm listening on %s: %s", inet_ntoa(sin.sin_addr),
			      strerror(errno));
	if (!err)
		err = cm_adopt(&c, c.listen) || st_make_end(&s, &s.a, len, true) ||
		      st_make_end(&s, &s.b, len, true);
	if (err)
		goto out;
	st_done(&s, 0);
	st_begin(&s, ST_CONNECT);
	sin.sin_port = rdma_get_src_port(c.listen);
	err = cm_resolve(&c, (struct sockaddr *)&sin) || cm_create_qp(&c, c.id, &s.a);
	if (!err && rdma_connect(c.id, &param))
		err = st_fail_err(&s, errno, NULL, "rdma_connect: %s", strerror(errno));
	if (!err)
		err = cm_wait(&c, RDMA_CM_EVENT_CONNECT_REQUEST, &c.child, false) ||
		      cm_create_qp(&c, c.child, &s.b);
	if (!err && rdma_accept(c.child, &param))
		err = st_fail_err(&s, errno, NULL, "rdma_accept: %s", strerror(errno));
	/* Both ends established, in either order. */
	for (int i = 0; !err && i < 2; i++)
		err = cm_wait(&c, RDMA_CM_EVENT_ESTABLISHED, &got, false);
	if (err)
		goto out;
	st_pair_ends(&s);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u (rdma_cm)", inet_ntoa(sin.sin_addr),
		 ntohs(sin.sin_port));
	st_done(&s, 0);
	err = st_run_stages(&s);
out:
	cm_close(&c);
	st_release(&s);
	r->passed = !err;
	return err ? -1 : 0;
}
