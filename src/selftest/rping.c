// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --cm between two hosts: rping's protocol (rdmacm-utils), so either
 * side may be a stock rping. The client advertises a source buffer, the
 * server RDMA READs it, the client advertises a sink, the server RDMA WRITEs
 * the data back, and the client checks it byte for byte.
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
#include "kernel/runloop.h"
#include "model/gid.h"
#include "selftest/sidechan.h"
#include "selftest/cm.h"
#include "selftest/internal.h"
#include "selftest/verbs.h"

#define RPING_FMT "rdma-ping-%d: "

/* Ping I's data, as rping's client makes it: text, then letters from START, a NUL. */
static void rping_fill(char *buf, uint32_t size, unsigned int i, int *start)
{
	int cc = snprintf(buf, size, RPING_FMT, (int)i), ch = *start;

	for (uint32_t k = (uint32_t)cc; k < size; k++) {
		buf[k] = (char)ch;
		if (++ch > 122)
			ch = 65;
	}
	if (++*start > 122)
		*start = 65;
	buf[size - 1] = '\0';
}

static int ctl_setup(struct cm *c, struct st_end *e)
{
	struct ibv_recv_wr *bad;

	c->ctl_mr = ibv_reg_mr(c->s->ss.pd, c->ctl, sizeof(c->ctl), IBV_ACCESS_LOCAL_WRITE);
	if (!c->ctl_mr)
		return st_fail_err(c->s, errno, NULL, "ibv_reg_mr: %s", strerror(errno));
	struct ibv_sge sge = { (uintptr_t)&c->ctl[1], sizeof(c->ctl[1]), c->ctl_mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };

	if ((errno = ibv_post_recv(e->qp, &wr, &bad)))
		return st_fail_err(c->s, errno, NULL, "ibv_post_recv: %s", strerror(errno));
	return 0;
}

/*
 * Sends rping's 16-byte message (ADDR, RKEY, SIZE; zeros for a go-ahead) and,
 * when WAIT, waits for its completion. Without WAIT the send is unsignaled:
 * the server's go-ahead after a write is the client's last word from us, and
 * a client that has its pings disconnects at once, perhaps before our end
 * has the ACK (a completion that then never comes, as stock rping -s never
 * waits for it either). The next signaled request, the next ping's read,
 * completes only after it, and an error completion is made all the same.
 */
static int ctl_send(struct cm *c, struct st_end *e, uint64_t addr, uint32_t rkey, uint32_t size,
		    bool wait)
{
	struct ibv_sge sge = { (uintptr_t)&c->ctl[0], sizeof(c->ctl[0]), c->ctl_mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = wait ? IBV_SEND_SIGNALED : 0 }, *bad;
	struct ibv_wc wc;

	c->ctl[0] = (struct rping_info){ htobe64(addr), htonl(rkey), htonl(size) };
	if ((errno = ibv_post_send(e->qp, &wr, &bad)))
		return st_fail_err(c->s, errno, NULL, "ibv_post_send: %s", strerror(errno));
	return wait ? st_wait_wc(c->s, e->scq, IBV_WC_SEND, &wc) : 0;
}

/*
 * The peer's next 16-byte message, into *INFO; the receive posted again.
 * 1 when the peer disconnected instead (the server's end of a session).
 */
static int ctl_recv(struct cm *c, struct st_end *e, struct rping_info *info)
{
	struct st_run *s = c->s;
	uint64_t deadline = mono_ms() + s->o->common.timeout_ms;
	struct ibv_sge sge = { (uintptr_t)&c->ctl[1], sizeof(c->ctl[1]), c->ctl_mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct rdma_cm_event *ev;
	struct timespec nap = { 0, 20000 };
	struct st_fault f = { 0 };
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(e->rcq, 1, &wc)) == 0) {
		if (rdma_get_cm_event(c->ec, &ev) == 0) {
			int type = ev->event;

			rdma_ack_cm_event(ev);
			if (type == RDMA_CM_EVENT_DISCONNECTED)
				return 1;
			return st_fail(s, NULL, "unexpected %s",
				       rdma_event_str((enum rdma_cm_event_type)type));
		}
		if (mono_ms() > deadline)
			return st_fail(s, vb_traffic_hint("the peer stopped: the netdev may be "
							  "down (rdmactl check)"),
				       "no message from the peer within %u ms", s->o->common.timeout_ms);
		nanosleep(&nap, NULL);
	}
	if (n < 0)
		return st_fail(s, NULL, "ibv_poll_cq failed");
	if (vb_wc_check(&wc, &f))
		return st_fail_as(s, &f);
	if (wc.byte_len != sizeof(*info))
		return st_fail(s, NULL, "the peer's message is %u bytes, not rping's 16 (refused)",
			       wc.byte_len);
	*info = (struct rping_info){ be64toh(c->ctl[1].buf), ntohl(c->ctl[1].rkey),
				     ntohl(c->ctl[1].size) };
	if ((errno = ibv_post_recv(e->qp, &wr, &bad)))
		return st_fail_err(s, errno, NULL, "ibv_post_recv: %s", strerror(errno));
	return 0;
}

/* An RDMA READ or WRITE of LEN bytes of E's buffer, to or from INFO's, waited for. */
static int rdma_op(struct cm *c, struct st_end *e, bool write, const struct rping_info *info)
{
	struct ibv_sge sge = { (uintptr_t)e->buf, info->size, e->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
				  .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ }, *bad;
	struct ibv_wc wc;

	wr.wr.rdma.remote_addr = info->buf;
	wr.wr.rdma.rkey = info->rkey;
	if ((errno = ibv_post_send(e->qp, &wr, &bad)))
		return st_fail_err(c->s, errno, NULL, "ibv_post_send: %s", strerror(errno));
	return st_wait_wc(c->s, e->scq, write ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ, &wc);
}

/* rping -c -V: COUNT pings, each read by the server, written back and checked. */
int st_cm_client(const struct st_opts *o, struct st_report *r)
{
	struct st_run s = { .o = o, .r = r, .fd = -1 };
	struct cm c = { .s = &s };
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	struct rdma_conn_param param = cm_conn_param(1);
	char port[8];
	uint32_t size = o->common.size;
	int err, start = 65;
	uint64_t t0;

	/* The route names the device; until then, the report names the path. */
	st_report_init(r, o->common.dev, 0);
	for (int i = ST_SEND; i < ST_NSTAGES; i++)
		r->st[i].ran = false;
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u (rdma_cm, rping)", o->common.host,
		 o->common.port);
	/* Setup: the address and route first, for they choose the device. */
	st_begin(&s, ST_SETUP);
	snprintf(port, sizeof(port), "%u", o->common.port);
	err = getaddrinfo(o->common.host, port, &hints, &res);
	if (err) {
		st_fail(&s, NULL, "%s: %s", o->common.host, gai_strerror(err));
		goto out;
	}
	err = cm_open(&c) || cm_resolve(&c, res->ai_addr);
	freeaddrinfo(res);
	err = err || cm_adopt(&c, c.id) || st_make_end(&s, &s.a, 2 * size, true) ||
	      cm_create_qp(&c, c.id, &s.a) || ctl_setup(&c, &s.a);
	if (err)
		goto out;
	st_done(&s, 0);
	st_begin(&s, ST_CONNECT);
	if (rdma_connect(c.id, &param))
		err = st_fail_err(&s, errno, NULL, "rdma_connect: %s", strerror(errno));
	err = err || cm_wait(&c, RDMA_CM_EVENT_ESTABLISHED, NULL, false);
	if (err)
		goto out;
	st_done(&s, 0);
	st_begin(&s, ST_WRITE);
	r->st[ST_WRITE].ran = true;
	t0 = mono_us();
	for (unsigned int i = 0; !err && i < o->lat_iters; i++) {
		char *src = s.a.buf, *dst = s.a.buf + size;
		struct rping_info go;

		rping_fill(src, size, i, &start);
		st_poison(dst, size);
		err = ctl_send(&c, &s.a, (uintptr_t)src, s.a.mr->rkey, size, true) ||
		      ctl_recv(&c, &s.a, &go) ||
		      ctl_send(&c, &s.a, (uintptr_t)dst, s.a.mr->rkey, size, true) ||
		      ctl_recv(&c, &s.a, &go);
		if (err > 0)
			err = st_fail(&s, NULL, "the server disconnected after %u pings", i);
		for (uint32_t k = 0; !err && k < size; k++)
			if (src[k] != dst[k])
				err = st_fail(&s, "data arrived corrupted: report it with 'rdmactl show "
					      "-s' and the kernel version", "ping %u: byte %u of %u "
					      "written back is 0x%02x, sent 0x%02x", i, k, size,
					      (uint8_t)dst[k], (uint8_t)src[k]);
	}
	if (!err) {
		st_done(&s, (uint64_t)o->lat_iters * size);
		r->st[ST_WRITE].usec = mono_us() - t0;
		snprintf(r->st[ST_WRITE].f.detail, sizeof(r->st[ST_WRITE].f.detail),
			 "%u pings read by the server and written back", o->lat_iters);
	}
out:
	cm_close(&c);
	st_release(&s);
	r->passed = !err;
	return err ? -1 : 0;
}

/* One rping client, from its connect request to its disconnect. */
/*
 * One ping of an rping client, as rping -s serves it: the client's source
 * read (exactly SIZE bytes, rping's pattern from *START, WANT a buffer for
 * it), then written back to its sink. 0, 1 when the client has gone, or a
 * failure said.
 */
static int serve_ping(struct cm *c, char *want, unsigned int ping, int *start)
{
	struct st_run *s = c->s;
	uint32_t size = s->o->common.size;
	struct rping_info info;
	int err = ctl_recv(c, &s->b, &info);

	if (err)
		return err;
	if (info.size != size)
		return st_fail(s, "both ends need the same size (rping -S, rdmactl --size)",
			       "the client's buffer is %u bytes, ours %u", info.size, size);
	st_poison(s->b.buf, size);
	rping_fill(want, size, ping, start);
	err = rdma_op(c, &s->b, false, &info);
	for (uint32_t k = 0; !err && k < size; k++)
		if (s->b.buf[k] != want[k])
			err = st_fail(s, NULL, "ping %u: byte %u of the data read is 0x%02x, "
				      "rping's pattern has 0x%02x", ping, k,
				      (uint8_t)s->b.buf[k], (uint8_t)want[k]);
	/* Each step's own result: a failure (-1) is not the client's going (1). */
	if (!err)
		err = ctl_send(c, &s->b, 0, 0, 0, true);
	if (!err)
		err = ctl_recv(c, &s->b, &info);
	if (err)
		return err;
	if (info.size < size)
		return st_fail(s, NULL, "the client's sink is %u bytes, under %u", info.size, size);
	info.size = size;
	err = rdma_op(c, &s->b, true, &info);
	return err ? err : ctl_send(c, &s->b, 0, 0, 0, false);
}

static int serve_rping(struct cm *c, struct rdma_cm_id *child)
{
	struct st_run *s = c->s;
	struct st_report *r = s->r;
	struct rdma_conn_param param = cm_conn_param(1);
	uint32_t size = s->o->common.size;
	unsigned int pings = 0;
	int err, start = 65;
	char *want = NULL;

	c->child = child;
	st_report_init(r, s->o->common.dev, 0);
	for (int i = ST_SEND; i < ST_NSTAGES; i++)
		r->st[i].ran = false;
	inet_ntop(AF_INET, &((struct sockaddr_in *)rdma_get_peer_addr(child))->sin_addr,
		  r->head.remote_gid, sizeof(r->head.remote_gid));
	snprintf(r->head.peer, sizeof(r->head.peer), "%s (rdma_cm, rping)", r->head.remote_gid);
	r->head.remote_gid[0] = '\0';
	st_begin(s, ST_SETUP);
	err = cm_adopt(c, child) || st_make_end(s, &s->b, size, true) ||
	      cm_create_qp(c, child, &s->b) || ctl_setup(c, &s->b);
	want = malloc(size);
	if (!err && !want)
		err = st_fail(s, NULL, "out of memory");
	if (err) {
		rdma_reject(child, NULL, 0);
		goto out;
	}
	st_done(s, 0);
	st_begin(s, ST_CONNECT);
	if (rdma_accept(child, &param))
		err = st_fail_err(s, errno, NULL, "rdma_accept: %s", strerror(errno));
	err = err || cm_wait(c, RDMA_CM_EVENT_ESTABLISHED, NULL, false);
	if (err)
		goto out;
	st_done(s, 0);
	st_begin(s, ST_READ);
	r->st[ST_READ].ran = true;
	while (!(err = serve_ping(c, want, pings, &start)))
		pings++;
	if (err == 1 && pings) {
		err = 0;
		st_done(s, (uint64_t)pings * size);
		snprintf(r->st[ST_READ].f.detail, sizeof(r->st[ST_READ].f.detail),
			 "%u pings read, checked against rping's pattern and written back", pings);
	} else if (err == 1) {
		err = st_fail(s, NULL, "the client disconnected before its first ping");
	}
out:
	free(want);
	if (c->child && c->child->qp)
		rdma_destroy_qp(c->child);
	s->b.qp = NULL;
	vb_mr_dereg(&c->ctl_mr);
	st_free_end(&s->b);
	st_session_close(&s->ss);	/* the PD, before the id that holds its device */
	rdma_destroy_id(child);
	c->child = NULL;
	r->passed = !err;
	return err ? -1 : 0;
}

/* rping -s: serves rping clients one at a time. */
int st_cm_server(const struct st_opts *o, struct st_report *r,
		 void (*session)(void *arg, const struct st_report *r), void *arg)
{
	struct st_run s = { .o = o, .r = r, .fd = -1 };
	struct cm c = { .s = &s };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->common.port) };
	int err, ret = 0;

	st_report_init(r, o->common.dev, 0);
	st_begin(&s, ST_SETUP);
	if (o->bind && inet_pton(AF_INET, o->bind, &sin.sin_addr) != 1) {
		err = st_fail(&s, NULL, "--bind %s: --cm takes a numeric IPv4 address", o->bind);
		goto out;
	}
	err = cm_open(&c);
	if (!err && (rdma_create_id(c.ec, &c.listen, NULL, RDMA_PS_TCP) ||
		     rdma_bind_addr(c.listen, (struct sockaddr *)&sin) || rdma_listen(c.listen, 8)))
		err = st_fail_err(&s, errno, errno == EADDRINUSE ? "another server? pick one with --port" :
			      errno == EADDRNOTAVAIL ? "no netdev has that address" : NULL,
			      "rdma_cm cannot listen on %s port %u: %s", o->bind ? o->bind : "*",
			      o->common.port, strerror(errno));
	if (err)
		goto out;
	st_done(&s, 0);
	snprintf(r->head.peer, sizeof(r->head.peer), "%s port %u (rdma_cm, rping)",
		 o->bind ? o->bind : "*", o->common.port);
	session(arg, r);	/* listening */
	for (;;) {
		struct rdma_cm_id *child;

		s.cur = ST_CONNECT;
		r->st[ST_CONNECT].result = ST_PASS;
		if (cm_wait(&c, RDMA_CM_EVENT_CONNECT_REQUEST, &child, true)) {
			if (runloop_asked())
				break;
			continue;	/* a stray event between clients */
		}
		ret = serve_rping(&c, child);
		session(arg, r);
		if (o->once || runloop_asked())
			break;
	}
out:
	cm_close(&c);
	st_release(&s);
	if (err)
		r->passed = false;
	return err ? -1 : ret;
}
