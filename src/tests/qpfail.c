// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A user's RDMA program that fails, for the VM tests of what rdmactl says
 * about live QPs: two RC QPs of one process, connected to each other in
 * loopback on DEV, failing one way (MODE), then holding their QPs until it
 * is killed. It uses libibverbs alone, as a program written apart from
 * rdmactl would, and prints each completion it polls ("completion STATUS
 * TEXT", libibverbs' words), then "holding PID".
 *
 * Usage: qpfail DEV[,DEV2] GID_INDEX MODE [PAIRS|COUNT]
 *   DEV2       B's device: A on DEV sends to B on DEV2, each device with its
 *              own PD, CQ and MR, so the packets cross DEV's netdev (the
 *              captures' tests); GID_INDEX is then both devices'
 *   ok         a SEND into a posted receive: both QPs stay in RTS
 *   rnr        a SEND with no receive posted and rnr_retry 0: RNR retry exceeded
 *   rnr-exit   the same, then it exits at once (its QPs gone within a
 *              millisecond of the error), as most programs do
 *   dead-peer  the receiving QP destroyed, then a SEND: no completion comes
 *   bad-rkey   an RDMA WRITE with a key the peer never gave: remote access error
 *   wrong-psn  B told to expect PSN 0 where A starts at 0x1000, then a SEND:
 *              no completion comes (B NAKs once, then drops A's resends)
 *   wrong-gid  B connected with GID index 0 (its own and A's), A with GID_INDEX,
 *              as two ends given different -g; then a SEND: no completion
 *              comes (B drops what A sends from an address it was not given)
 *   memlock    4 MiB registered under a 64 KiB locked-memory limit: ENOMEM
 *   many       PAIRS pairs connected to each other, idle: the benchmark's load
 *   churn      COUNT QPs made (to INIT) and destroyed, one a millisecond, on a
 *              clock of its own (a late one is made at once); then "made N"
 *              and it exits 0: the count the record's must equal
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/resource.h>

#include <infiniband/verbs.h>

#define LEN 4096

/* What a QP needs of its device. */
struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;	/* one for both QPs on one device, as many programs do */
	struct ibv_mr *mr;
	union ibv_gid gid, gid0;	/* at GID_INDEX, and at 0 */
};

struct prog {
	struct side one, two;
	struct side *sa, *sb;	/* A's and B's: the same one on one device */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_qp *a, *b;	/* A sends; B receives */
	int gid_index;
	char *buf;
};

static void die(const char *what)
{
	fprintf(stderr, "qpfail: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; l && l[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			ctx = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	return ctx;
}

static struct ibv_qp *make_qp(struct prog *p, struct side *s)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = s->cq, .recv_cq = s->cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr at = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	struct ibv_qp *qp = ibv_create_qp(s->pd, &qa);

	(void)p;
	if (!qp)
		die("ibv_create_qp");
	if (ibv_modify_qp(qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("ibv_modify_qp INIT");
	return qp;
}

/* How a QP is connected to its peer, beyond the peer's number and side. */
struct conn {
	int rnr_retry;			/* 7: forever */
	uint32_t sq_psn;		/* the PSN it sends first; each expects 0 */
	bool gid0;			/* GID index 0 both ends, not GID_INDEX */
};

/* QP to RTR then RTS towards DEST on side TO, as C says. */
static void connect_qp(struct prog *p, struct ibv_qp *qp, uint32_t dest, struct side *to,
		       struct conn c)
{
	struct ibv_qp_attr at = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = dest,
		.rq_psn = 0, .max_dest_rd_atomic = 1, .min_rnr_timer = 1,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = c.gid0 ? to->gid0 : to->gid,
				      .sgid_index = (uint8_t)(c.gid0 ? 0 : p->gid_index),
				      .hop_limit = 64 } },
	};

	if (ibv_modify_qp(qp, &at, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("ibv_modify_qp RTR");
	at = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
				   .rnr_retry = (uint8_t)c.rnr_retry, .sq_psn = c.sq_psn,
				   .max_rd_atomic = 1 };
	if (ibv_modify_qp(qp, &at, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("ibv_modify_qp RTS");
}

static void post_recv(struct prog *p)
{
	struct ibv_sge sge = { (uintptr_t)p->buf + LEN / 2, LEN / 2, p->sb->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (ibv_post_recv(p->b, &wr, &bad))
		die("ibv_post_recv");
}

static void post_send(struct prog *p, enum ibv_wr_opcode op, uint32_t rkey)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, 64, p->sa->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)p->buf + LEN / 2;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(p->a, &wr, &bad))
		die("ibv_post_send");
}

/* Prints each completion polled within SECONDS, up to WANT of them; how many came. */
static int poll_for(struct prog *p, int want, int seconds)
{
	struct timespec t0, t;
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct ibv_wc wc;
		int n = ibv_poll_cq(p->sa->cq, 1, &wc);

		if (n == 0 && p->sb != p->sa)
			n = ibv_poll_cq(p->sb->cq, 1, &wc);

		if (n < 0)
			die("ibv_poll_cq");
		if (n == 1) {
			printf("completion %d %s (QP %u)\n", wc.status, ibv_wc_status_str(wc.status),
			       wc.qp_num);
			fflush(stdout);
			got++;
			continue;
		}
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (got < want && t.tv_sec - t0.tv_sec < seconds);
	return got;
}

static void on_term(int sig)
{
	(void)sig;
	_exit(0);
}

/* Side S on context CTX with PD (NULL: one of its own): its GID, CQ and the buffer's MR. */
static void open_side(struct prog *p, struct side *s, struct ibv_context *ctx, struct ibv_pd *pd)
{
	s->ctx = ctx;
	s->pd = pd ? pd : ibv_alloc_pd(s->ctx);
	if (!s->pd)
		die("ibv_alloc_pd");
	if (ibv_query_gid(s->ctx, 1, p->gid_index, &s->gid) || ibv_query_gid(s->ctx, 1, 0, &s->gid0))
		die("ibv_query_gid");
	s->cq = ibv_create_cq(s->ctx, 16, NULL, NULL, 0);
	if (!s->cq)
		die("ibv_create_cq");
	s->mr = ibv_reg_mr(s->pd, p->buf, LEN, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	if (!s->mr)
		die("ibv_reg_mr");
}

int main(int argc, char **argv)
{
	struct prog p = { 0 };
	const char *mode;
	char *dev2;

	mode = argc > 3 ? argv[3] : "";
	if (argc != 4 + (!strcmp(mode, "many") || !strcmp(mode, "churn"))) {
		fprintf(stderr, "usage: qpfail DEV[,DEV2] GID_INDEX ok|rnr|rnr-exit|dead-peer|bad-rkey|"
			"wrong-psn|wrong-gid|memlock|many PAIRS|churn COUNT\n");
		return 2;
	}
	p.gid_index = atoi(argv[2]);
	signal(SIGTERM, on_term);
	dev2 = strchr(argv[1], ',');
	if (dev2)
		*dev2++ = '\0';
	p.ctx = open_dev(argv[1]);
	if (!p.ctx)
		die(argv[1]);
	p.pd = ibv_alloc_pd(p.ctx);
	if (!p.pd)
		die("ibv_alloc_pd");
	if (!strcmp(mode, "memlock")) {
		struct rlimit rl = { 64 << 10, 64 << 10 };
		size_t len = 4 << 20;
		void *big = malloc(len);

		if (setrlimit(RLIMIT_MEMLOCK, &rl))
			die("setrlimit");
		if (!big || ibv_reg_mr(p.pd, big, len, IBV_ACCESS_LOCAL_WRITE))
			die("ibv_reg_mr of 4 MiB succeeded");
		printf("ibv_reg_mr %d %s\n", errno, strerror(errno));
		goto hold;
	}
	p.buf = calloc(1, LEN);
	if (!p.buf)
		die("calloc");
	open_side(&p, &p.one, p.ctx, p.pd);
	p.sa = p.sb = &p.one;
	if (dev2) {
		struct ibv_context *ctx2 = open_dev(dev2);

		if (!ctx2)
			die(dev2);
		open_side(&p, &p.two, ctx2, NULL);
		p.sb = &p.two;
	}
	if (!strcmp(mode, "churn")) {
		struct timespec at;
		int n = atoi(argv[4]), i;

		clock_gettime(CLOCK_MONOTONIC, &at);
		for (i = 0; i < n; i++) {
			if (ibv_destroy_qp(make_qp(&p, p.sa)))
				die("ibv_destroy_qp");
			at.tv_nsec += 1000000;
			if (at.tv_nsec >= 1000000000) {
				at.tv_sec++;
				at.tv_nsec -= 1000000000;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		}
		printf("made %d\n", i);
		return 0;
	}
	p.a = make_qp(&p, p.sa);
	p.b = make_qp(&p, p.sb);
	connect_qp(&p, p.a, p.b->qp_num, p.sb, (struct conn){
		.rnr_retry = !strncmp(mode, "rnr", 3) ? 0 : 7,
		.sq_psn = !strcmp(mode, "wrong-psn") ? 0x1000 : 0 });
	connect_qp(&p, p.b, p.a->qp_num, p.sa, (struct conn){
		.rnr_retry = 7, .gid0 = !strcmp(mode, "wrong-gid") });
	printf("QPs %u -> %u\n", p.a->qp_num, p.b->qp_num);
	if (!strcmp(mode, "ok")) {
		post_recv(&p);
		post_send(&p, IBV_WR_SEND, 0);
		poll_for(&p, 2, 10);
	} else if (!strcmp(mode, "rnr") || !strcmp(mode, "rnr-exit")) {
		post_send(&p, IBV_WR_SEND, 0);
		poll_for(&p, 1, 10);
		if (!strcmp(mode, "rnr-exit"))
			return 1;
	} else if (!strcmp(mode, "dead-peer") || !strcmp(mode, "wrong-psn") ||
		   !strcmp(mode, "wrong-gid")) {
		if (!strcmp(mode, "dead-peer") && ibv_destroy_qp(p.b))
			die("ibv_destroy_qp");
		if (strcmp(mode, "dead-peer"))
			post_recv(&p);
		post_send(&p, IBV_WR_SEND, 0);
		if (!poll_for(&p, 1, 2))
			printf("no completion in 2 s\n");
	} else if (!strcmp(mode, "bad-rkey")) {
		post_recv(&p);
		post_send(&p, IBV_WR_RDMA_WRITE, p.sb->mr->rkey ^ 0x5a5a00);
		poll_for(&p, 2, 10);
	} else if (!strcmp(mode, "many")) {
		for (int i = 1; i < atoi(argv[4]); i++) {
			struct ibv_qp *x = make_qp(&p, p.sa), *y = make_qp(&p, p.sb);

			connect_qp(&p, x, y->qp_num, p.sb, (struct conn){ .rnr_retry = 7 });
			connect_qp(&p, y, x->qp_num, p.sa, (struct conn){ .rnr_retry = 7 });
		}
	} else {
		fprintf(stderr, "qpfail: no mode '%s'\n", mode);
		return 2;
	}
hold:
	printf("holding %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
