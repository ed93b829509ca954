// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --pingpong: the exchange and traffic of rdma-core's
 * ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong and ibv_srq_pingpong, with
 * or without -e, so rdmactl interoperates with a stock one on either side.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "kernel/release.h"
#include "selftest/internal.h"
#include "selftest/selftest.h"
#include "selftest/pingpong.h"
#include "selftest/sidechan.h"
#include "selftest/wire.h"

#define PORT 1
#define GRH 40		/* what a UD receive holds before the payload */
#define QKEY 0x11111111	/* ibv_ud_pingpong's */
#define WR_RECV 1
#define WR_SEND 2

struct pp {
	const struct pp_opts *o;
	struct pp_report *r;
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_ah *ah;
	struct ibv_qp *qp[PP_MAX_QP];
	unsigned int pending[PP_MAX_QP];
	unsigned int nqp, nmsg;	/* QPs used; entries in the exchange */
	char *buf;
	uint32_t grh;		/* UD: the receive's GRH before the payload */
	uint8_t fill;		/* what the examples' buffers hold: 0x7b, srq 0 */
	struct ibv_port_attr pattr;
	uint32_t lid, psn[PP_MAX_QP];
	union ibv_gid gid;
	struct wire_pp rem[PP_MAX_QP];
};

const char *pp_kind_name(enum pp_kind k)
{
	static const char *const n[] = { "rc", "uc", "ud", "srq" };

	return n[k];
}

static void format_msg(const struct pp *p, unsigned int i, char msg[WIRE_PP_LEN])
{
	struct wire_pp m = { 0 };

	if (i < p->nqp) {	/* past them, the example sends zeros */
		m = (struct wire_pp){ .lid = (uint16_t)p->lid, .qpn = p->qp[i]->qp_num,
				      .psn = p->psn[i] };
		memcpy(m.gid, p->gid.raw, 16);
	}
	wire_pp_encode(&m, msg);
}

static int setup(struct pp *p)
{
	enum ibv_qp_type type = p->o->kind == PP_UC ? IBV_QPT_UC : p->o->kind == PP_UD ?
				IBV_QPT_UD : IBV_QPT_RC;
	struct ibv_qp_init_attr qa = {
		.qp_type = type,
		.cap = { .max_send_wr = 1, .max_recv_wr = p->o->rx_depth, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = PORT, .qkey = QKEY };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   (type == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);

	p->nqp = p->o->kind == PP_SRQ ? p->o->num_qp : 1;
	p->nmsg = p->o->kind == PP_SRQ ? PP_MAX_QP : 1;
	p->grh = type == IBV_QPT_UD ? GRH : 0;
	p->fill = p->o->kind == PP_SRQ ? 0 : 0x7b;
	p->ctx = st_open_device(p->o->dev);
	if (!p->ctx)
		return st_fault(&p->r->f, "rdmactl check --only uverbs,provider", "libibverbs cannot open %s",
			    p->o->dev);
	if (ibv_query_port(p->ctx, PORT, &p->pattr))
		return st_fault(&p->r->f, NULL, "ibv_query_port: %s", strerror(errno));
	if (type == IBV_QPT_UD && p->o->size > (128u << p->pattr.active_mtu))
		return st_fault(&p->r->f, "use --size of at most the MTU, or raise the netdev's MTU "
				"(ibv_ud_pingpong refuses it too: 'Requested size larger than port "
				"MTU')", "UD payload %u exceeds the path MTU %u: a datagram is one "
				"packet", p->o->size, 128u << p->pattr.active_mtu);
	if (p->o->gid_index < 0)
		return st_fault(&p->r->f, "give the netdev an IPv4 address, or pass --gid-index",
			    "%s has no RoCE v2 IPv4 GID", p->o->dev);
	if (ibv_query_gid(p->ctx, PORT, p->o->gid_index, &p->gid))
		return st_fault(&p->r->f, NULL, "ibv_query_gid %d: %s", p->o->gid_index, strerror(errno));
	/* Page-aligned, as the examples' buffer: rxe copies page by page. */
	p->buf = st_page_alloc(p->o->size + p->grh);
	if (!p->buf)
		return st_fault(&p->r->f, NULL, "out of memory");
	memset(p->buf, p->fill, p->o->size + p->grh);
	if (p->o->events) {
		p->ch = ibv_create_comp_channel(p->ctx);
		if (!p->ch)
			return st_fault(&p->r->f, NULL, "ibv_create_comp_channel: %s", strerror(errno));
		fcntl(p->ch->fd, F_SETFL, fcntl(p->ch->fd, F_GETFL) | O_NONBLOCK);
	}
	p->pd = ibv_alloc_pd(p->ctx);
	if (!p->pd)
		return st_fault(&p->r->f, NULL, "ibv_alloc_pd: %s", strerror(errno));
	p->mr = ibv_reg_mr(p->pd, p->buf, p->o->size + p->grh, IBV_ACCESS_LOCAL_WRITE);
	if (!p->mr)
		return st_fault(&p->r->f, NULL, "ibv_reg_mr: %s", strerror(errno));
	p->cq = ibv_create_cq(p->ctx, (int)(p->o->rx_depth + p->nqp), NULL, p->ch, 0);
	if (!p->cq)
		return st_fault(&p->r->f, NULL, "ibv_create_cq: %s", strerror(errno));
	if (p->ch && ibv_req_notify_cq(p->cq, 0))
		return st_fault(&p->r->f, NULL, "ibv_req_notify_cq: %s", strerror(errno));
	if (p->o->kind == PP_SRQ) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = p->o->rx_depth, .max_sge = 1 } };

		p->srq = ibv_create_srq(p->pd, &sa);
		if (!p->srq)
			return st_fault(&p->r->f, NULL, "ibv_create_srq: %s", strerror(errno));
		qa.srq = p->srq;
		qa.cap.max_recv_wr = 0;
	}
	qa.send_cq = qa.recv_cq = p->cq;
	p->lid = p->pattr.lid;
	for (unsigned int i = 0; i < p->nqp; i++) {
		p->qp[i] = ibv_create_qp(p->pd, &qa);
		if (!p->qp[i])
			return st_fault(&p->r->f, NULL, "ibv_create_qp: %s", strerror(errno));
		if ((errno = ibv_modify_qp(p->qp[i], &a, mask)))
			return st_fault(&p->r->f, NULL, "ibv_modify_qp to INIT: %s", strerror(errno));
		p->psn[i] = (uint32_t)((sc_now_ms() + i) * 2654435761u) & 0xffffff;
	}
	return 0;
}

/*
 * N receives, into the one buffer as the examples do (UD's with room for the
 * GRH), chained RECV_CHAIN to a call: the provider takes its queue's lock
 * once a call, not once a receive.
 */
#define RECV_CHAIN 64
static int post_recvs(struct pp *p, unsigned int n)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, p->o->size + p->grh, p->mr->lkey };
	struct ibv_recv_wr wr[RECV_CHAIN], *bad;

	while (n) {
		unsigned int k = 0;

		for (; k < RECV_CHAIN && k < n; k++) {
			wr[k] = (struct ibv_recv_wr){ .wr_id = WR_RECV, .sg_list = &sge, .num_sge = 1 };
			if (k)
				wr[k - 1].next = &wr[k];
		}
		if ((errno = p->srq ? ibv_post_srq_recv(p->srq, wr, &bad) :
				      ibv_post_recv(p->qp[0], wr, &bad)))
			return st_fault(&p->r->f, NULL, "ibv_post_%srecv: %s", p->srq ? "srq_" : "",
				    strerror(errno));
		n -= k;
	}
	return 0;
}

static int post_send(struct pp *p, unsigned int i)
{
	struct ibv_sge sge = { (uintptr_t)p->buf + p->grh, p->o->size, p->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = WR_SEND, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *bad;

	if (p->ah) {
		wr.wr.ud.ah = p->ah;
		wr.wr.ud.remote_qpn = p->rem[0].qpn;
		wr.wr.ud.remote_qkey = QKEY;
	}
	if ((errno = ibv_post_send(p->qp[i], &wr, &bad)))
		return st_fault(&p->r->f, NULL, "ibv_post_send: %s", strerror(errno));
	return 0;
}

static const char rtr_hint[] = "the GID index or route: RoCE v2 to an IPv4 peer needs its IPv4 "
			       "GID (rdmactl check --gid-index N --peer ADDR)";

/* UC: RTR with the path and no read or retry attributes, then RTS with the PSN only. */
static int connect_uc(struct pp *p, unsigned int i, const char **step)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR, .path_mtu = (enum ibv_mtu)p->o->mtu,
				 .dest_qp_num = p->rem[i].qpn, .rq_psn = p->rem[i].psn,
				 .ah_attr = { .is_global = 1, .dlid = p->rem[i].lid,
					      .port_num = PORT } };
	int err;

	memcpy(a.ah_attr.grh.dgid.raw, p->rem[i].gid, 16);
	a.ah_attr.grh.sgid_index = (uint8_t)p->o->gid_index;
	a.ah_attr.grh.hop_limit = 1;
	*step = "RTR";
	err = ibv_modify_qp(p->qp[i], &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = p->psn[i];
	*step = "RTS";
	return ibv_modify_qp(p->qp[i], &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

/* UD: RTR and RTS need no path; the address handle towards the peer has it. */
static int connect_ud(struct pp *p, const char **step)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	struct ibv_ah_attr ah = { .is_global = 1, .dlid = p->rem[0].lid, .port_num = PORT };
	int err;

	*step = "RTR";
	err = ibv_modify_qp(p->qp[0], &a, IBV_QP_STATE);
	if (err)
		return err;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = p->psn[0];
	*step = "RTS";
	err = ibv_modify_qp(p->qp[0], &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	if (err)
		return err;
	memcpy(ah.grh.dgid.raw, p->rem[0].gid, 16);
	ah.grh.sgid_index = (uint8_t)p->o->gid_index;
	ah.grh.hop_limit = 1;
	*step = "an address handle (ibv_create_ah)";
	p->ah = ibv_create_ah(p->pd, &ah);
	return p->ah ? 0 : errno;
}

/* Each QP towards its peer (path MTU 1024 as the examples), then RTS. */
static int connect_qps(struct pp *p)
{
	const char *step = "RTR";
	int err = 0;

	for (unsigned int i = 0; i < p->nqp && !err; i++) {
		struct st_path path = { .dest_qpn = p->rem[i].qpn, .rq_psn = p->rem[i].psn,
					.sq_psn = p->psn[i], .dlid = p->rem[i].lid,
					.sgid_index = (uint8_t)p->o->gid_index, .hop_limit = 1,
					.rd_atomic = 1, .mtu = p->o->mtu };

		if (p->o->kind == PP_UD) {
			err = connect_ud(p, &step);
		} else if (p->o->kind == PP_UC) {
			err = connect_uc(p, i, &step);
		} else {
			memcpy(path.dgid, p->rem[i].gid, 16);
			err = st_qp_rtr_rts(p->qp[i], &path, &step);
		}
	}
	if (err)
		return st_fault(&p->r->f, strcmp(step, "RTR") ? NULL : rtr_hint,
			    "ibv_modify_qp to %s: %s (%s)", step, strerror(err), errname(err));
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

/* The peer's NMSG messages (ibv_srq_pingpong: always PP_MAX_QP), each checked to the byte. */
static int read_msgs(struct pp *p, int fd, uint64_t deadline)
{
	char m[WIRE_PP_LEN];
	int err = 0;

	for (unsigned int i = 0; i < p->nmsg && !err; i++) {
		err = sc_read(fd, m, WIRE_PP_LEN, deadline);
		if (err)
			break;
		if (i < p->nqp) {
			err = wire_pp_decode(m, &p->rem[i]);
		} else {	/* past the QPs in use, zeros: the example's unused entries */
			char zero[WIRE_PP_LEN];

			wire_pp_encode(&(struct wire_pp){ 0 }, zero);
			if (memcmp(m, zero, WIRE_PP_LEN))
				err = -EPROTO;
		}
	}
	return err;
}

static int write_msgs(struct pp *p, int fd, uint64_t deadline)
{
	char m[WIRE_PP_LEN];
	int err = 0;

	for (unsigned int i = 0; i < p->nmsg && !err; i++) {
		format_msg(p, i, m);
		err = sc_write(fd, m, WIRE_PP_LEN, deadline);
	}
	return err;
}

/* The exchange, as the examples do it, each read bounded and checked. */
static int exchange(struct pp *p)
{
	uint64_t deadline = sc_now_ms() + p->o->timeout_ms;
	int fd, err;

	fd = p->o->server ? tcp_server(p, deadline) : tcp_client(p, deadline);
	if (fd < 0)
		return -1;
	if (p->o->server) {
		err = read_msgs(p, fd, deadline);
		if (!err && (err = connect_qps(p)) == 0)
			err = write_msgs(p, fd, deadline);
		if (!err) {
			char done[5];	/* "done" and its NUL closes the exchange */

			err = sc_read(fd, done, sizeof(done), deadline);
			if (!err && memcmp(done, "done", sizeof(done)))
				err = -EBADMSG;
		}
	} else {
		err = write_msgs(p, fd, deadline);
		if (!err)
			err = read_msgs(p, fd, deadline);
		if (!err)
			err = sc_write(fd, "done", 5, deadline);
		if (!err)
			err = connect_qps(p);
	}
	close(fd);
	if (err == -1)
		return -1;	/* connect_qps said why */
	if (err == -EPROTO)
		return st_fault(&p->r->f, "both ends need the same number of QPs: "
			    "ibv_srq_pingpong -q 16", "the peer offers more QPs than the %u used "
			    "here (refused)", p->nqp);
	if (err == -EBADMSG)
		return st_fault(&p->r->f, NULL, "the peer's exchange message is not "
			    "ibv_%s_pingpong's 'LID:QPN:PSN:GID' (refused)", pp_kind_name(p->o->kind));
	if (err == -ETIMEDOUT)
		return st_fault(&p->r->f, NULL, "the peer sent nothing, or too little, within %u s",
			    p->o->timeout_ms / 1000);
	if (err == -ECONNRESET)
		return st_fault(&p->r->f, NULL, "the peer closed the connection in the middle of the exchange");
	if (err)
		return st_fault(&p->r->f, NULL, "the exchange failed: %s", strerror(-err));
	return 0;
}

/*
 * Up to N completions: polled, or (-e) after the channel announces them.
 * *LAST is when the wait began, 0 until the clock is first looked at: a
 * clock_gettime can cost a microsecond (a guest on the HPET), so a busy poll
 * looks at it every 256th empty poll only.
 */
static int next_wcs(struct pp *p, struct ibv_wc *wc, int n, uint64_t *last)
{
	unsigned int spins = 0;

	for (;;) {
		uint64_t now;
		int got;

		if (p->ch) {
			struct pollfd pf = { .fd = p->ch->fd, .events = POLLIN };
			struct ibv_cq *ecq;
			void *cctx;

			if (poll(&pf, 1, 100) == 1 && ibv_get_cq_event(p->ch, &ecq, &cctx) == 0) {
				p->r->cq_events++;
				ibv_ack_cq_events(ecq, 1);
				if (ibv_req_notify_cq(p->cq, 0))
					return st_fault(&p->r->f, NULL, "ibv_req_notify_cq: %s",
						    strerror(errno));
			}
		}
		got = ibv_poll_cq(p->cq, n, wc);
		if (got < 0)
			return st_fault(&p->r->f, NULL, "ibv_poll_cq failed");
		if (got > 0) {
			*last = 0;
			return got;
		}
		if (!p->ch && ++spins % 256)
			continue;
		now = st_coarse_ms();
		if (!*last)
			*last = now;
		else if (now - *last > p->o->timeout_ms)
			return -ETIMEDOUT;
	}
}

/* The QP a completion belongs to; -1 when none of ours. */
static int qp_index(const struct pp *p, uint32_t qpn)
{
	for (unsigned int i = 0; i < p->nqp; i++)
		if (p->qp[i]->qp_num == qpn)
			return (int)i;
	return -1;
}

/* The ping-pong: a QP sends when its last send and a receive are both done. */
static int traffic(struct pp *p)
{
	unsigned int scnt = 0, rcnt = 0, routs = p->o->rx_depth, want = p->o->size + p->grh;
	uint64_t start, last;

	for (unsigned int i = 0; i < p->nqp; i++) {
		p->pending[i] = WR_RECV;
		if (!p->o->server) {
			if (post_send(p, i))
				return -1;
			p->pending[i] |= WR_SEND;
		}
	}
	start = st_now_us();
	last = 0;
	while (rcnt < p->o->iters || scnt < p->o->iters) {
		struct ibv_wc wc[16];
		int n = next_wcs(p, wc, 16, &last);

		if (n == -ETIMEDOUT)
			return st_fault(&p->r->f, "the peer stopped: a firewall on UDP 4791, the route "
				    "or the MTU (rdmactl check)", "no completion for %u s "
				    "after %u sends and %u receives", p->o->timeout_ms / 1000,
				    scnt, rcnt);
		if (n < 0)
			return -1;
		for (int k = 0; k < n; k++) {
			int i = qp_index(p, wc[k].qp_num);

			if (wc[k].status != IBV_WC_SUCCESS)
				return st_fault(&p->r->f, wc[k].status == IBV_WC_RETRY_EXC_ERR ?
					    "the peer did not answer: a firewall on UDP 4791, the route "
					    "or the MTU (rdmactl check)" : NULL,
					    "work completion %s (status %d)",
					    ibv_wc_status_str(wc[k].status), wc[k].status);
			if (i < 0)
				return st_fault(&p->r->f, NULL, "a completion for QP 0x%06x, not ours",
					    wc[k].qp_num);
			if (wc[k].wr_id == WR_SEND) {
				scnt++;
			} else {
				if (wc[k].byte_len != want)
					return st_fault(&p->r->f, "both ends need the same --size",
						    "received %u bytes, expected %u%s", wc[k].byte_len,
						    want, p->grh ? " (the payload and the 40-byte GRH)" :
						    "");
				rcnt++;
				routs--;
			}
			p->pending[i] &= ~(unsigned int)wc[k].wr_id;
			if (scnt < p->o->iters && !p->pending[i]) {
				if (post_send(p, (unsigned int)i))
					return -1;
				p->pending[i] = WR_RECV | WR_SEND;
			}
			/*
			 * The examples' refill, at one receive left a QP, but after the
			 * send: while the peer answers, not on the path being timed.
			 * The receive left a QP serves that QP's answer.
			 */
			if (routs <= p->nqp) {
				if (post_recvs(p, p->o->rx_depth - routs))
					return -1;
				routs = p->o->rx_depth;
			}
		}
	}
	p->r->usec = st_now_us() - start;
	/* Sends and receives share the buffer, as in the examples: the payload must be intact. */
	for (unsigned int i = 0; i < p->o->size; i++)
		if ((uint8_t)p->buf[p->grh + i] != p->fill)
			return st_fault(&p->r->f, NULL, "byte %u of the received data is 0x%02x, not 0x%02x", i,
				    (uint8_t)p->buf[p->grh + i], p->fill);
	p->r->iters = p->o->iters;
	p->r->bytes = (uint64_t)p->o->size * p->o->iters * 2;
	return 0;
}

int st_pingpong(const struct pp_opts *o, struct pp_report *r)
{
	struct pp *p = calloc(1, sizeof(*p));
	int err;

	memset(r, 0, sizeof(*r));
	if (!p)
		return st_fault(&r->f, NULL, "out of memory");
	p->o = o;
	p->r = r;
	err = setup(p);
	if (!err)
		err = post_recvs(p, o->rx_depth);
	if (!err) {
		inet_ntop(AF_INET6, p->gid.raw, r->local_gid, sizeof(r->local_gid));
		err = exchange(p);
	}
	if (!err) {
		inet_ntop(AF_INET6, p->rem[0].gid, r->remote_gid, sizeof(r->remote_gid));
		r->remote_qpn = p->rem[0].qpn;
		err = traffic(p);
	}
	for (unsigned int i = 0; i < p->nqp; i++)
		if (p->qp[i])
			ibv_destroy_qp(p->qp[i]);
	if (p->ah)
		ibv_destroy_ah(p->ah);
	if (p->srq)
		ibv_destroy_srq(p->srq);
	if (p->cq)
		ibv_destroy_cq(p->cq);
	if (p->mr)
		ibv_dereg_mr(p->mr);
	if (p->pd)
		ibv_dealloc_pd(p->pd);
	if (p->ch)
		ibv_destroy_comp_channel(p->ch);
	if (p->ctx)
		ibv_close_device(p->ctx);
	free(p->buf);
	free(p);
	r->passed = !err;
	return err ? -1 : 0;
}
