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

#include "kernel/clock.h"
#include "selftest/internal.h"
#include "selftest/selftest.h"
#include "selftest/session.h"
#include "selftest/sidechan.h"
#include "selftest/verbs.h"
#include "selftest/wire.h"

#define WR_RECV 1
#define WR_SEND 2

struct pp_run {
	const struct st_opts *o;
	struct st_report *r;
	struct st_session ss;
	struct vb_wait wait;	/* the one CQ, polled or through the channel (-e) */
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
	uint32_t psn[PP_MAX_QP];
	struct wire_pp rem[PP_MAX_QP];
};

const char *pp_kind_name(enum pp_kind k)
{
	static const char *const n[] = { "rc", "uc", "ud", "srq" };

	return n[k];
}

static void format_msg(const struct pp_run *p, unsigned int i, char msg[WIRE_PP_LEN])
{
	struct wire_pp m = { 0 };

	if (i < p->nqp) {	/* past them, the example sends zeros */
		m = (struct wire_pp){ .lid = p->ss.dev.port.lid, .qpn = p->qp[i]->qp_num,
				      .psn = p->psn[i] };
		memcpy(m.gid, p->ss.dev.gid.raw, 16);
	}
	wire_pp_encode(&m, msg);
}

static enum ibv_qp_type qp_type(const struct pp_run *p)
{
	return p->o->pp.kind == PP_UC ? IBV_QPT_UC : p->o->pp.kind == PP_UD ? IBV_QPT_UD : IBV_QPT_RC;
}

static int setup(struct pp_run *p)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = qp_type(p),
		.cap = { .max_send_wr = 1, .max_recv_wr = p->o->pp.rx_depth, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct st_fault *f = &p->r->f;
	unsigned int mtu;

	p->nqp = p->o->pp.kind == PP_SRQ ? p->o->pp.num_qp : 1;
	p->nmsg = p->o->pp.kind == PP_SRQ ? PP_MAX_QP : 1;
	p->grh = qa.qp_type == IBV_QPT_UD ? VB_GRH : 0;
	p->fill = p->o->pp.kind == PP_SRQ ? 0 : 0x7b;
	if (st_session_open(&p->ss, &p->o->common, NULL, &p->r->head, f))
		return -1;
	mtu = vb_mtu_bytes(p->ss.dev.port.active_mtu);
	if (qa.qp_type == IBV_QPT_UD && p->o->common.size > mtu)
		return st_fault(f, "use --size of at most the MTU, or raise the netdev's MTU "
				"(ibv_ud_pingpong refuses it too: 'Requested size larger than port "
				"MTU')", "UD payload %u exceeds the path MTU %u: a datagram is one "
				"packet", p->o->common.size, mtu);
	/* Page-aligned, as the examples' buffer: rxe copies page by page. */
	p->buf = st_page_alloc(p->o->common.size + p->grh);
	if (!p->buf)
		return st_fault(f, NULL, "out of memory");
	memset(p->buf, p->fill, p->o->common.size + p->grh);
	p->mr = vb_reg_mr(p->ss.pd, p->buf, p->o->common.size + p->grh, IBV_ACCESS_LOCAL_WRITE, f);
	if (!p->mr)
		return -1;
	p->cq = vb_cq_create(p->ss.dev.ctx, (int)(p->o->pp.rx_depth + p->nqp),
			     p->ss.ch, f);
	if (!p->cq)
		return -1;
	p->wait = (struct vb_wait){ .cq = p->cq, .ch = p->ss.ch,
				    .timeout_ms = p->o->common.timeout_ms, .spin = true,
				    .event_first = true };
	if (p->o->pp.kind == PP_SRQ) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = p->o->pp.rx_depth, .max_sge = 1 } };

		p->srq = ibv_create_srq(p->ss.pd, &sa);
		if (!p->srq)
			return st_fault_err(f, errno, NULL, "ibv_create_srq: %s", strerror(errno));
		qa.srq = p->srq;
		qa.cap.max_recv_wr = 0;
	}
	qa.send_cq = qa.recv_cq = p->cq;
	/* Each QP to INIT before the exchange, as the examples do; no remote access. */
	for (unsigned int i = 0; i < p->nqp; i++) {
		p->qp[i] = vb_qp_create(p->ss.pd, &qa, f);
		if (!p->qp[i] || vb_qp_init(p->qp[i], qa.qp_type, 0, f))
			return -1;
		p->psn[i] = (uint32_t)((mono_ms() + i) * 2654435761u) & 0xffffff;
	}
	return 0;
}

/*
 * N receives, into the one buffer as the examples do (UD's with room for the
 * GRH), chained RECV_CHAIN to a call: the provider takes its queue's lock
 * once a call, not once a receive.
 */
#define RECV_CHAIN 64
static int post_recvs(struct pp_run *p, unsigned int n)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, p->o->common.size + p->grh, p->mr->lkey };
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
			return st_fault_err(&p->r->f, errno, NULL, "ibv_post_%srecv: %s", p->srq ? "srq_" : "",
				    strerror(errno));
		n -= k;
	}
	return 0;
}

static int post_send(struct pp_run *p, unsigned int i)
{
	struct ibv_sge sge = { (uintptr_t)p->buf + p->grh, p->o->common.size, p->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = WR_SEND, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *bad;

	if (p->ah) {
		wr.wr.ud.ah = p->ah;
		wr.wr.ud.remote_qpn = p->rem[0].qpn;
		wr.wr.ud.remote_qkey = VB_QKEY;
	}
	if ((errno = ibv_post_send(p->qp[i], &wr, &bad)))
		return st_fault_err(&p->r->f, errno, NULL, "ibv_post_send: %s", strerror(errno));
	return 0;
}

/* Each QP towards its peer (path MTU 1024 and hop limit 1, as the examples), then RTS. */
static int connect_qps(struct pp_run *p)
{
	for (unsigned int i = 0; i < p->nqp; i++) {
		struct vb_path path = { .type = qp_type(p), .dest_qpn = p->rem[i].qpn,
					.rq_psn = p->rem[i].psn, .sq_psn = p->psn[i],
					.dlid = p->rem[i].lid, .sgid_index = p->ss.dev.gid_index,
					.hop_limit = 1, .rd_atomic = 1, .mtu = (enum ibv_mtu)p->o->pp.mtu };

		memcpy(path.dgid, p->rem[i].gid, 16);
		if (vb_qp_ready(p->qp[i], &path, &p->r->f))
			return -1;
		/* UD: the address handle towards the peer carries the path. */
		if (path.type == IBV_QPT_UD && !(p->ah = vb_ah_create(p->ss.pd, &path, &p->r->f)))
			return -1;
	}
	return 0;
}

static int tcp_client(struct pp_run *p, uint64_t deadline)
{
	char err[200];
	int fd = sc_connect(p->o->common.host, p->o->common.port, deadline, err, sizeof(err));

	if (fd < 0)
		return st_fault(&p->r->f, "is the server running, and is its TCP port reachable?", "%s", err);
	return fd;
}

static int tcp_server(struct pp_run *p, uint64_t deadline)
{
	char err[200], peer[80];
	int lfd, fd;

	lfd = sc_listen(NULL, p->o->common.port, err, sizeof(err));
	if (lfd < 0)
		return st_fault(&p->r->f, NULL, "%s", err);
	fd = sc_accept(lfd, deadline, peer, sizeof(peer));
	close(lfd);
	if (fd == -ETIMEDOUT)
		return st_fault(&p->r->f, NULL, "no client connected within %u s",
				p->o->common.timeout_ms / 1000);
	if (fd < 0)
		return st_fault_err(&p->r->f, -fd, NULL, "accept: %s", strerror(-fd));
	return fd;
}

/* The peer's NMSG messages (ibv_srq_pingpong: always PP_MAX_QP), each checked to the byte. */
static int read_msgs(struct pp_run *p, int fd, uint64_t deadline)
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

static int write_msgs(struct pp_run *p, int fd, uint64_t deadline)
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
static int exchange(struct pp_run *p)
{
	uint64_t deadline = mono_ms() + p->o->common.timeout_ms;
	int fd, err;

	fd = p->o->pp.server ? tcp_server(p, deadline) : tcp_client(p, deadline);
	if (fd < 0)
		return -1;
	if (p->o->pp.server) {
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
			    "ibv_%s_pingpong's 'LID:QPN:PSN:GID' (refused)", pp_kind_name(p->o->pp.kind));
	if (err == -ETIMEDOUT)
		return st_fault(&p->r->f, NULL, "the peer sent nothing, or too little, within %u s",
			    p->o->common.timeout_ms / 1000);
	if (err == -ECONNRESET)
		return st_fault(&p->r->f, NULL, "the peer closed the connection in the middle of the exchange");
	if (err)
		return st_fault_err(&p->r->f, -err, NULL, "the exchange failed: %s", strerror(-err));
	return 0;
}

/* The QP a completion belongs to; -1 when none of ours. */
static int qp_index(const struct pp_run *p, uint32_t qpn)
{
	for (unsigned int i = 0; i < p->nqp; i++)
		if (p->qp[i]->qp_num == qpn)
			return (int)i;
	return -1;
}

/* The ping-pong: a QP sends when its last send and a receive are both done. */
static int traffic(struct pp_run *p)
{
	unsigned int scnt = 0, rcnt = 0, routs = p->o->pp.rx_depth, want = p->o->common.size + p->grh;
	uint64_t start;

	for (unsigned int i = 0; i < p->nqp; i++) {
		p->pending[i] = WR_RECV;
		if (!p->o->pp.server) {
			if (post_send(p, i))
				return -1;
			p->pending[i] |= WR_SEND;
		}
	}
	start = mono_us();
	while (rcnt < p->o->pp.iters || scnt < p->o->pp.iters) {
		struct ibv_wc wc[16];
		int n = vb_poll(&p->wait, wc, 16, &p->r->f);

		if (n == 0)
			return st_fault(&p->r->f, vb_traffic_hint(vb_unanswered_hint),
					"no completion for %u s after %u sends and %u receives",
					p->o->common.timeout_ms / 1000, scnt, rcnt);
		if (n < 0)
			return -1;
		for (int k = 0; k < n; k++) {
			int i = qp_index(p, wc[k].qp_num);

			if (wc[k].status != IBV_WC_SUCCESS && vb_wc_check(&wc[k], &p->r->f))
				return -1;
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
			if (scnt < p->o->pp.iters && !p->pending[i]) {
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
				if (post_recvs(p, p->o->pp.rx_depth - routs))
					return -1;
				routs = p->o->pp.rx_depth;
			}
		}
	}
	p->r->pp.usec = mono_us() - start;
	/* Sends and receives share the buffer, as in the examples: the payload must be intact. */
	for (unsigned int i = 0; i < p->o->common.size; i++)
		if ((uint8_t)p->buf[p->grh + i] != p->fill)
			return st_fault(&p->r->f, NULL, "byte %u of the received data is 0x%02x, not 0x%02x", i,
				    (uint8_t)p->buf[p->grh + i], p->fill);
	p->r->pp.iters = p->o->pp.iters;
	p->r->pp.bytes = (uint64_t)p->o->common.size * p->o->pp.iters * 2;
	return 0;
}

int st_pingpong(const struct st_opts *o, struct st_report *r)
{
	struct pp_run *p = calloc(1, sizeof(*p));
	int err;

	memset(r, 0, sizeof(*r));
	r->mode = ST_MODE_PINGPONG;
	snprintf(r->head.dev, sizeof(r->head.dev), "%s", o->common.dev);
	r->head.gid_index = -1;
	if (!p)
		return st_fault(&r->f, NULL, "out of memory");
	p->o = o;
	p->r = r;
	err = setup(p);
	if (!err)
		err = post_recvs(p, o->pp.rx_depth);
	if (!err)
		err = exchange(p);
	if (!err) {
		inet_ntop(AF_INET6, p->rem[0].gid, r->head.remote_gid, sizeof(r->head.remote_gid));
		r->pp.remote_qpn = p->rem[0].qpn;
		err = traffic(p);
	}
	for (unsigned int i = 0; i < p->nqp; i++)
		vb_qp_destroy(&p->qp[i]);
	vb_ah_destroy(&p->ah);
	vb_srq_destroy(&p->srq);
	vb_cq_destroy(&p->cq);
	vb_mr_dereg(&p->mr);
	r->pp.cq_events = p->ss.chan.events;
	st_session_close(&p->ss);
	free(p->buf);
	free(p);
	r->passed = !err;
	return err ? -1 : 0;
}
