// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --pingpong: rdma-core's ibv_rc_pingpong exchange and traffic, so
 * rdmactl interoperates with a stock ibv_rc_pingpong on either side.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "kernel/release.h"
#include "selftest/selftest.h"
#include "selftest/pingpong.h"
#include "selftest/sidechan.h"
#include "selftest/wire.h"

#define PORT 1
#define FILL 0x7b	/* what ibv_rc_pingpong's buffers hold */
#define WR_RECV 1
#define WR_SEND 2

struct pp {
	const struct pp_opts *o;
	struct pp_report *r;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char *buf;
	struct ibv_port_attr pattr;
	uint32_t lid, qpn, psn;
	union ibv_gid gid;
	uint32_t rlid, rqpn, rpsn;
	union ibv_gid rgid;
};

static void format_msg(const struct pp *p, char msg[WIRE_PP_LEN])
{
	struct wire_pp m = { .lid = (uint16_t)p->lid, .qpn = p->qpn, .psn = p->psn };

	memcpy(m.gid, p->gid.raw, 16);
	wire_pp_encode(&m, msg);
}

/* The peer's message, checked to the byte: anything else is refused. */
static int parse_msg(struct pp *p, const char msg[WIRE_PP_LEN])
{
	struct wire_pp m;
	int err = wire_pp_decode(msg, &m);

	if (err)
		return err;
	p->rlid = m.lid;
	p->rqpn = m.qpn;
	p->rpsn = m.psn;
	memcpy(p->rgid.raw, m.gid, 16);
	return 0;
}

static int setup(struct pp *p)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = p->o->rx_depth, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = PORT };

	p->ctx = st_open_device(p->o->dev);
	if (!p->ctx)
		return st_fault(&p->r->f, "rdmactl check --only uverbs,provider", "libibverbs cannot open %s",
			    p->o->dev);
	if (ibv_query_port(p->ctx, PORT, &p->pattr))
		return st_fault(&p->r->f, NULL, "ibv_query_port: %s", strerror(errno));
	if (p->o->gid_index < 0)
		return st_fault(&p->r->f, "give the netdev an IPv4 address, or pass --gid-index",
			    "%s has no RoCE v2 IPv4 GID", p->o->dev);
	if (ibv_query_gid(p->ctx, PORT, p->o->gid_index, &p->gid))
		return st_fault(&p->r->f, NULL, "ibv_query_gid %d: %s", p->o->gid_index, strerror(errno));
	p->buf = malloc(p->o->size);
	if (!p->buf)
		return st_fault(&p->r->f, NULL, "out of memory");
	memset(p->buf, FILL, p->o->size);
	p->pd = ibv_alloc_pd(p->ctx);
	if (!p->pd)
		return st_fault(&p->r->f, NULL, "ibv_alloc_pd: %s", strerror(errno));
	p->mr = ibv_reg_mr(p->pd, p->buf, p->o->size, IBV_ACCESS_LOCAL_WRITE);
	if (!p->mr)
		return st_fault(&p->r->f, NULL, "ibv_reg_mr: %s", strerror(errno));
	p->cq = ibv_create_cq(p->ctx, (int)p->o->rx_depth + 1, NULL, NULL, 0);
	if (!p->cq)
		return st_fault(&p->r->f, NULL, "ibv_create_cq: %s", strerror(errno));
	qa.send_cq = qa.recv_cq = p->cq;
	p->qp = ibv_create_qp(p->pd, &qa);
	if (!p->qp)
		return st_fault(&p->r->f, NULL, "ibv_create_qp: %s", strerror(errno));
	if ((errno = ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				   IBV_QP_ACCESS_FLAGS)))
		return st_fault(&p->r->f, NULL, "ibv_modify_qp to INIT: %s", strerror(errno));
	p->lid = p->pattr.lid;
	p->qpn = p->qp->qp_num;
	p->psn = (uint32_t)(sc_now_ms() * 2654435761u) & 0xffffff;
	return 0;
}

static int post_recvs(struct pp *p, unsigned int n)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, p->o->size, p->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = WR_RECV, .sg_list = &sge, .num_sge = 1 }, *bad;

	for (unsigned int i = 0; i < n; i++)
		if ((errno = ibv_post_recv(p->qp, &wr, &bad)))
			return st_fault(&p->r->f, NULL, "ibv_post_recv: %s", strerror(errno));
	return 0;
}

static int post_send(struct pp *p)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, p->o->size, p->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = WR_SEND, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *bad;

	if ((errno = ibv_post_send(p->qp, &wr, &bad)))
		return st_fault(&p->r->f, NULL, "ibv_post_send: %s", strerror(errno));
	return 0;
}

/* RTR towards the peer (path MTU as --mtu, 1024 like ibv_rc_pingpong), then RTS. */
static int connect_qp(struct pp *p)
{
	struct st_path path = { .dest_qpn = p->rqpn, .rq_psn = p->rpsn, .sq_psn = p->psn,
				.dlid = (uint16_t)p->rlid, .sgid_index = (uint8_t)p->o->gid_index,
				.hop_limit = 1, .rd_atomic = 1, .mtu = p->o->mtu };
	const char *step;
	int err;

	memcpy(path.dgid, p->rgid.raw, 16);
	err = st_qp_rtr_rts(p->qp, &path, &step);
	if (err)
		return st_fault(&p->r->f, strcmp(step, "RTR") ? NULL : "the GID index or route: RoCE v2 to an "
			    "IPv4 peer needs its IPv4 GID (rdmactl check --gid-index N --peer ADDR)",
			    "ibv_modify_qp to %s: %s (%s)", step, strerror(err),
			    errname(err));
	return 0;
}

static int tcp_client(struct pp *p, uint64_t deadline)
{
	char err[200];
	int fd = sc_connect(p->o->host, p->o->port, deadline, err, sizeof(err));

	if (fd < 0)
		return st_fault(&p->r->f, "is the server running, and is its TCP port reachable?", "%s", err);
	return fd;
}

static int tcp_server(struct pp *p, uint64_t deadline)
{
	char err[200], peer[80];
	int lfd, fd;

	lfd = sc_listen(NULL, p->o->port, err, sizeof(err));
	if (lfd < 0)
		return st_fault(&p->r->f, NULL, "%s", err);
	fd = sc_accept(lfd, deadline, peer, sizeof(peer));
	close(lfd);
	if (fd == -ETIMEDOUT)
		return st_fault(&p->r->f, NULL, "no client connected within %u s", p->o->timeout_ms / 1000);
	if (fd < 0)
		return st_fault(&p->r->f, NULL, "accept: %s", strerror(-fd));
	return fd;
}

/* The exchange, as ibv_rc_pingpong does it, each read bounded and checked. */
static int exchange(struct pp *p)
{
	uint64_t deadline = sc_now_ms() + p->o->timeout_ms;
	char mine[WIRE_PP_LEN], theirs[WIRE_PP_LEN];
	int fd, err;

	format_msg(p, mine);
	fd = p->o->server ? tcp_server(p, deadline) : tcp_client(p, deadline);
	if (fd < 0)
		return -1;
	if (p->o->server) {
		err = sc_read(fd, theirs, WIRE_PP_LEN, deadline);
		if (!err && (err = parse_msg(p, theirs)) == 0 && (err = connect_qp(p)) == 0)
			err = sc_write(fd, mine, WIRE_PP_LEN, deadline);
		if (!err) {
			char done[5];	/* "done" and its NUL closes the exchange */

			err = sc_read(fd, done, sizeof(done), deadline);
			if (!err && memcmp(done, "done", sizeof(done)))
				err = -EBADMSG;
		}
	} else {
		err = sc_write(fd, mine, WIRE_PP_LEN, deadline);
		if (!err)
			err = sc_read(fd, theirs, WIRE_PP_LEN, deadline);
		if (!err)
			err = parse_msg(p, theirs);
		if (!err)
			err = sc_write(fd, "done", 5, deadline);
		if (!err)
			err = connect_qp(p);
	}
	close(fd);
	if (err == -1)
		return -1;	/* connect_qp said why */
	if (err == -EBADMSG)
		return st_fault(&p->r->f, NULL, "the peer's exchange message is not ibv_rc_pingpong's "
			    "'LID:QPN:PSN:GID' (refused)");
	if (err == -ETIMEDOUT)
		return st_fault(&p->r->f, NULL, "the peer sent nothing, or too little, within %u s",
			    p->o->timeout_ms / 1000);
	if (err == -ECONNRESET)
		return st_fault(&p->r->f, NULL, "the peer closed the connection in the middle of the exchange");
	if (err)
		return st_fault(&p->r->f, NULL, "the exchange failed: %s", strerror(-err));
	return 0;
}

/* The ping-pong: send when the last send and a receive are both done. */
static int traffic(struct pp *p)
{
	unsigned int scnt = 0, rcnt = 0, routs = p->o->rx_depth, pending = WR_RECV;
	uint64_t start, last;

	if (!p->o->server) {
		if (post_send(p))
			return -1;
		pending |= WR_SEND;
	}
	start = st_now_us();
	last = sc_now_ms();
	while (rcnt < p->o->iters || scnt < p->o->iters) {
		struct ibv_wc wc[2];
		int n = ibv_poll_cq(p->cq, 2, wc);

		if (n < 0)
			return st_fault(&p->r->f, NULL, "ibv_poll_cq failed");
		if (n == 0) {
			if (sc_now_ms() - last > p->o->timeout_ms)
				return st_fault(&p->r->f, "the peer stopped: a firewall on UDP 4791, the route "
					    "or the MTU (rdmactl check)", "no completion for %u s "
					    "after %u sends and %u receives", p->o->timeout_ms / 1000,
					    scnt, rcnt);
			continue;
		}
		last = sc_now_ms();
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return st_fault(&p->r->f, wc[i].status == IBV_WC_RETRY_EXC_ERR ?
					    "the peer did not answer: a firewall on UDP 4791, the route "
					    "or the MTU (rdmactl check)" : NULL,
					    "work completion %s (status %d)",
					    ibv_wc_status_str(wc[i].status), wc[i].status);
			if (wc[i].wr_id == WR_SEND) {
				scnt++;
			} else {
				if (wc[i].byte_len != p->o->size)
					return st_fault(&p->r->f, "both ends need the same --size",
						    "received %u bytes, expected %u", wc[i].byte_len,
						    p->o->size);
				rcnt++;
				if (--routs <= 1) {
					if (post_recvs(p, p->o->rx_depth - routs))
						return -1;
					routs = p->o->rx_depth;
				}
			}
			pending &= ~(unsigned int)wc[i].wr_id;
			if (scnt < p->o->iters && !pending) {
				if (post_send(p))
					return -1;
				pending = WR_RECV | WR_SEND;
			}
		}
	}
	p->r->usec = st_now_us() - start;
	/* Sends and receives share the buffer, as in ibv_rc_pingpong: it must be intact. */
	for (unsigned int i = 0; i < p->o->size; i++)
		if ((uint8_t)p->buf[i] != FILL)
			return st_fault(&p->r->f, NULL, "byte %u of the received data is 0x%02x, not 0x%02x", i,
				    (uint8_t)p->buf[i], FILL);
	p->r->iters = p->o->iters;
	p->r->bytes = (uint64_t)p->o->size * p->o->iters * 2;
	return 0;
}

int st_pingpong(const struct pp_opts *o, struct pp_report *r)
{
	struct pp p = { .o = o, .r = r };
	int err;

	memset(r, 0, sizeof(*r));
	err = setup(&p);
	if (!err)
		err = post_recvs(&p, o->rx_depth);
	if (!err) {
		inet_ntop(AF_INET6, p.gid.raw, r->local_gid, sizeof(r->local_gid));
		err = exchange(&p);
	}
	if (!err) {
		inet_ntop(AF_INET6, p.rgid.raw, r->remote_gid, sizeof(r->remote_gid));
		r->remote_qpn = p.rqpn;
		err = traffic(&p);
	}
	if (p.qp)
		ibv_destroy_qp(p.qp);
	if (p.cq)
		ibv_destroy_cq(p.cq);
	if (p.mr)
		ibv_dereg_mr(p.mr);
	if (p.pd)
		ibv_dealloc_pd(p.pd);
	if (p.ctx)
		ibv_close_device(p.ctx);
	free(p.buf);
	r->passed = !err;
	return err ? -1 : 0;
}
