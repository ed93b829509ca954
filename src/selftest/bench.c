// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --bench: SEND and RDMA WRITE latency (ping-pong, half the round
 * trip, as perftest's ib_send_lat and ib_write_lat report it) and RDMA WRITE
 * bandwidth with a pipeline of --depth outstanding writes (as ib_write_bw).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/clock.h"
#include "selftest/internal.h"

/* A signaled write every CQ_MOD posts, as perftest's default --cq-mod 100. */
#define CQ_MOD 100

/*
 * The latency samples' clock. Where the kernel's clocksource is not the TSC
 * (a guest whose TSCs it found unsynchronized falls back to the HPET), each
 * clock_gettime is a system call and an HPET read: about 1 us in the test
 * bed, against 11 ns for RDTSC, and on the path being measured. So samples
 * are counted in TSC ticks, as perftest counts them, and scaled to ns by the
 * monotonic clock over the whole run (two reads, off the path).
 */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static uint64_t ticks(void)
{
	return __rdtsc();
}
#else
static uint64_t ticks(void)
{
	return mono_ns();
}
#endif

/* The tag iteration I leaves in the last byte: never the one before it. */
static char tag(unsigned int i)
{
	return (char)(i % 255 + 1);
}

struct lat_end {
	struct st_end *e;
	unsigned int size;
	unsigned int sends_out;	/* signaled, not yet reaped */
	unsigned int posted;
	unsigned int iters;	/* messages in the run: receives to post in all */
	unsigned int recvs_out;	/* receives posted, not yet completed */
	unsigned int recvs_posted;
	uint64_t deadline;	/* mono_coarse_ms(): no progress by then is a failure */
	unsigned int timeout_ms;
	struct st_fault *f;	/* what went wrong */
};

/* A wait begins: its deadline is set at its first look at the clock, if it gets that far. */
static void progress(struct lat_end *l)
{
	l->deadline = 0;
}

static int late(struct lat_end *l, const char *what)
{
	uint64_t now = mono_coarse_ms();

	if (!l->deadline)
		l->deadline = now + l->timeout_ms;
	if (now < l->deadline)
		return 0;
	return st_fault(l->f, "the peer stopped answering: the netdev may be down (rdmactl check)",
			"no %s within %u ms", what, l->timeout_ms);
}

/* The check of every completion, its success tested here: it is on the measured path. */
static int wc_ok(struct lat_end *l, const struct ibv_wc *wc)
{
	return wc->status == IBV_WC_SUCCESS ? 0 : vb_wc_check(wc, l->f);
}

/*
 * One send in this many is signaled: CQ_MOD, as far as the send queue
 * allows. Before a signaled send, the one before it is reaped, so up to
 * twice this less one sends are in the queue.
 */
static unsigned int lat_signal(const struct st_end *e)
{
	unsigned int most = (e->sq_depth + 1) / 2;

	return most < CQ_MOD ? most : CQ_MOD;
}

/* Reaps send completions until at most MAX sends are outstanding. */
static int reap(struct lat_end *l, unsigned int max)
{
	struct ibv_wc wc[16];
	unsigned int spins = 0;

	progress(l);
	while (l->sends_out > max) {
		int n = ibv_poll_cq(l->e->scq, 16, wc);

		if (n < 0)
			return st_fault(l->f, NULL, "ibv_poll_cq failed");
		for (int i = 0; i < n; i++)
			if (wc_ok(l, &wc[i]))
				return -1;
		l->sends_out -= (unsigned int)n;
		if (n == 0 && ++spins % 256 == 0 && late(l, "send completion"))
			return -1;
	}
	return 0;
}

/*
 * Tops the receive queue up, once half of it is used, in one call: a receive
 * posted in each round trip was on the measured path (the provider's
 * ibv_post_recv is all user space, and emulated). It is called after a send,
 * while the peer works; never more receives in all than the run's messages,
 * so that none is left for a later stage's SENDs.
 */
static int post_recvs(struct lat_end *l)
{
	struct ibv_sge sge = { (uintptr_t)(l->e->buf + l->size), l->size, l->e->mr->lkey };
	struct ibv_recv_wr wr[ST_RQ_DEPTH], *bad;
	unsigned int n = l->iters - l->recvs_posted;
	int err;

	if (l->recvs_out > ST_RQ_DEPTH / 2 || !n)
		return 0;
	if (n > ST_RQ_DEPTH - l->recvs_out)
		n = ST_RQ_DEPTH - l->recvs_out;
	for (unsigned int i = 0; i < n; i++)
		wr[i] = (struct ibv_recv_wr){ .wr_id = ST_LAT_SEND, .sg_list = &sge, .num_sge = 1,
					      .next = i + 1 < n ? &wr[i + 1] : NULL };
	err = ibv_post_recv(l->e->qp, wr, &bad);
	if (err)
		return st_fault_err(l->f, err, NULL, "ibv_post_recv: %s", strerror(err));
	l->recvs_out += n;
	l->recvs_posted += n;
	return 0;
}

/* SEND (or RDMA WRITE into the peer's second half) of the first SIZE bytes. */
static int post_one(struct lat_end *l, bool write)
{
	struct ibv_sge sge = { (uintptr_t)l->e->buf, l->size, l->e->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = ST_LAT_SEND, .sg_list = &sge, .num_sge = 1,
				  .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_SEND }, *bad;
	/*
	 * Completions cost, and the clock is running: one send in lat_signal()
	 * is signaled, as perftest signals one in its --cq-mod.
	 */
	bool signaled = ++l->posted % lat_signal(l->e) == 0;
	int err;

	if (signaled) {
		wr.send_flags = IBV_SEND_SIGNALED;
		if (reap(l, 0))
			return -1;
	}
	if (l->size <= ST_INLINE)
		wr.send_flags |= IBV_SEND_INLINE;
	if (write) {
		wr.wr.rdma.remote_addr = l->e->rem.addr + l->size;
		wr.wr.rdma.rkey = l->e->rem.rkey;
	}
	err = ibv_post_send(l->e->qp, &wr, &bad);
	if (err)
		return st_fault_err(l->f, err, NULL, "ibv_post_send: %s", strerror(err));
	l->sends_out += signaled;
	return 0;
}

/* Waits for the peer's SEND to arrive. */
static int wait_recv(struct lat_end *l)
{
	struct ibv_wc wc;
	unsigned int spins = 0;

	progress(l);
	for (;;) {
		int n = ibv_poll_cq(l->e->rcq, 1, &wc);

		if (n < 0)
			return st_fault(l->f, NULL, "ibv_poll_cq failed");
		if (n == 1)
			break;
		/* The clock costs: look at it now and then. */
		if (++spins % 1024 == 0 && late(l, "receive"))
			return -1;
	}
	if (wc_ok(l, &wc))
		return -1;
	l->recvs_out--;
	if (wc.byte_len != l->size)
		return st_fault(l->f, NULL, "received %u bytes, expected %u", wc.byte_len, l->size);
	return 0;
}

/* Waits for the peer's WRITE of iteration I: its tag in the last byte of the second half. */
static int wait_write(struct lat_end *l, unsigned int i)
{
	const volatile char *last = l->e->buf + 2 * l->size - 1;
	unsigned int spins = 0;

	progress(l);
	while (*last != tag(i))
		if (++spins % 4096 == 0 && late(l, "write from the peer"))
			return -1;
	return 0;
}

/* Sends (or writes) iteration I and reaps what completed. */
static int ping(struct lat_end *l, bool write, unsigned int i)
{
	l->e->buf[l->size - 1] = tag(i);
	return post_one(l, write);
}

/* The answering side of iteration I: wait for the peer's message, answer it. */
static int pong(struct lat_end *l, bool write, unsigned int i)
{
	if (write)
		return wait_write(l, i) || ping(l, true, i);
	return wait_recv(l) || ping(l, false, i) || post_recvs(l);
}

/* Samples in ticks to ns, by the run's length in both: NS took NTICKS. */
static void ticks_to_ns(uint64_t *v, unsigned int n, uint64_t ns, uint64_t nticks)
{
	double scale = nticks ? (double)ns / (double)nticks : 1;

	for (unsigned int i = 0; i < n; i++)
		v[i] = (uint64_t)((double)v[i] * scale);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Round trips in ns to half-round-trip latencies in usec, as perftest reports them. */
static void lat_stats(struct st_stats *t, uint64_t *rtt, unsigned int n)
{
	double sum = 0;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	for (unsigned int i = 0; i < n; i++)
		sum += (double)rtt[i];
	t->t_min = (double)rtt[0] / 2000;
	t->t_typical = (double)rtt[n / 2] / 2000;
	t->t_p99 = (double)rtt[(size_t)((n - 1) * 0.99)] / 2000;
	t->t_max = (double)rtt[n - 1] / 2000;
	t->t_avg = sum / n / 2000;
}

static struct lat_end lat_end(struct st_run *s, struct st_end *e, unsigned int size,
			      struct st_fault *f)
{
	return (struct lat_end){ .e = e, .size = size, .timeout_ms = s->o->common.timeout_ms, .f = f };
}

/* The receives posted before the run: a full queue, or one for each message. */
static void first_recvs(struct lat_end *l, unsigned int iters)
{
	l->iters = iters;
	l->recvs_out = l->recvs_posted = iters < ST_RQ_DEPTH ? iters : ST_RQ_DEPTH;
}

void st_bench_prepare(struct st_end *b, const struct wire_step *step, struct st_fault *res)
{
	struct lat_end l = { .e = b, .size = step->size, .iters = step->iters, .f = res };

	if (step->stage == ST_LAT_SEND) {
		post_recvs(&l);
	} else if (step->stage == ST_LAT_WRITE) {
		st_poison(b->buf, 2 * (size_t)step->size);
	} else {
		st_poison(b->buf, step->size);
	}
}

void st_bench_serve(struct st_run *s, struct st_end *b, const struct wire_step *step,
		    struct st_fault *res)
{
	struct lat_end l = lat_end(s, b, step->size, res);
	bool write = step->stage == ST_LAT_WRITE;
	int err = 0;

	if (!write)
		first_recvs(&l, step->iters);	/* st_bench_prepare posted them */
	for (unsigned int i = 0; !err && i < step->iters; i++)
		err = pong(&l, write, i);
	if (!err)
		reap(&l, 0);
}

struct answerer {
	struct st_run *s;
	struct wire_step step;
	struct st_fault res;
};

/* Loopback: B answers in a thread of its own, as a server process would. */
static void *answer(void *arg)
{
	struct answerer *an = arg;

	memset(&an->res, 0, sizeof(an->res));
	st_bench_serve(an->s, &an->s->b, &an->step, &an->res);
	return NULL;
}

int st_bench_lat(struct st_run *s, enum st_stage stage, bool loopback)
{
	struct st_stage_result *x = &s->r->st[stage];
	unsigned int n = s->o->lat_iters, size = s->o->lat_size;
	bool write = stage == ST_LAT_WRITE;
	struct wire_step step = { .stage = (uint8_t)stage, .phase = WIRE_PREPARE, .iters = n,
				  .size = size };
	struct st_fault res, af = { 0 };
	struct lat_end a = lat_end(s, &s->a, size, &af);
	struct answerer an = { .s = s, .step = step };
	uint64_t *rtt = calloc(n, sizeof(*rtt));
	pthread_t tid;
	int err = 0;

	if (!rtt)
		return st_fail(s, NULL, "out of memory for %u samples", n);
	if (s->peer->step(s, &step, &res) || (res.failed && st_fail_as(s, &res)))
		goto out_free;
	st_poison(s->a.buf, 2 * (size_t)size);
	a.iters = n;
	if (!write && post_recvs(&a))
		err = -1;
	if (!err && loopback && (errno = pthread_create(&tid, NULL, answer, &an))) {
		st_fail_err(s, errno, NULL, "pthread_create: %s", strerror(errno));
		goto out_free;
	}
	/*
	 * One tick read an iteration, at its start, as perftest takes its
	 * timestamps: a round trip is the time from one iteration's start to the
	 * next's, the loop's own cost included.
	 */
	uint64_t ns0 = mono_ns(), t0 = ticks(), t = t0;

	for (unsigned int i = 0; !err && i < n; i++) {
		uint64_t next;

		err = ping(&a, write, i);
		if (!err)
			err = write ? wait_write(&a, i) : post_recvs(&a) || wait_recv(&a);
		next = ticks();
		rtt[i] = next - t;
		t = next;
	}
	if (!err) {
		ticks_to_ns(rtt, n, mono_ns() - ns0, t - t0);
		err = reap(&a, 0);
	}
	if (loopback) {
		/* The answerer ends by itself: on its last answer, or its own timeout. */
		pthread_join(tid, NULL);
		if (!err && an.res.failed) {
			st_fail_as(s, &an.res);
			goto out_free;
		}
	}
	if (err) {
		st_fail_as(s, &af);
		goto out_free;
	}
	step.phase = WIRE_CHECK;
	if (s->peer->step(s, &step, &res) || (res.failed && st_fail_as(s, &res)))
		goto out_free;
	lat_stats(&x->stats, rtt, n);
	x->stats.iters = n;
	x->stats.size = size;
	free(rtt);
	return st_done(s, (uint64_t)n * size * 2);
out_free:
	free(rtt);
	return -1;
}

int st_bench_bw(struct st_run *s)
{
	struct st_stage_result *x = &s->r->st[ST_BW_WRITE];
	unsigned int n = s->o->bw_iters, size = s->o->bw_size, depth = s->o->depth;
	unsigned int mod = depth < CQ_MOD ? depth : CQ_MOD, posted = 0, done = 0, since = 0;
	unsigned int spins = 0;	/* empty polls: the clock is looked at every 256th */
	struct wire_step step = { .stage = ST_BW_WRITE, .phase = WIRE_PREPARE, .iters = n,
				  .size = size };
	struct ibv_sge sge = { (uintptr_t)s->a.buf, size, s->a.mr->lkey };
	struct ibv_send_wr wr[CQ_MOD], *bad;
	struct st_fault res, af = { 0 };
	struct lat_end a = lat_end(s, &s->a, size, &af);
	uint64_t t0, usec;

	if (s->peer->step(s, &step, &res) || (res.failed && st_fail_as(s, &res)))
		return -1;
	st_fill(s->a.buf, size, ST_BW_WRITE);
	for (unsigned int i = 0; i < CQ_MOD; i++)
		wr[i] = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1,
					      .opcode = IBV_WR_RDMA_WRITE,
					      .wr.rdma = { s->a.rem.addr, s->a.rem.rkey } };
	progress(&a);
	t0 = mono_ns();
	while (done < n) {
		struct ibv_wc wc[16];
		unsigned int k = 0;
		int got;

		/*
		 * What the pipeline has room for, up to one signaled write's
		 * worth, in one chained post: rxe's provider rings the kernel
		 * once a call, not once a write.
		 */
		while (k < mod && posted + k < n && posted + k - done < depth) {
			/* Each signaled write's wr_id counts the writes it completes. */
			since++;
			wr[k].send_flags = since == mod || posted + k + 1 == n ? IBV_SEND_SIGNALED : 0;
			wr[k].wr_id = since;
			if (size <= ST_INLINE)
				wr[k].send_flags |= IBV_SEND_INLINE;
			if (wr[k].send_flags & IBV_SEND_SIGNALED)
				since = 0;
			wr[k].next = NULL;
			if (k)
				wr[k - 1].next = &wr[k];
			k++;
		}
		if (k && (errno = ibv_post_send(s->a.qp, wr, &bad)))
			return st_fail_err(s, errno, NULL, "ibv_post_send: %s", strerror(errno));
		posted += k;
		got = ibv_poll_cq(s->a.scq, 16, wc);
		if (got < 0)
			return st_fail(s, NULL, "ibv_poll_cq failed");
		for (int i = 0; i < got; i++) {
			if (wc_ok(&a, &wc[i]))
				return st_fail_as(s, &af);
			done += (unsigned int)wc[i].wr_id;
		}
		if (got)
			progress(&a);
		else if (++spins % 256 == 0 && late(&a, "write completion"))
			return st_fail(s, af.hint, "%s after %u of %u writes", af.detail, done, n);
	}
	usec = (mono_ns() - t0) / 1000;
	step.phase = WIRE_CHECK;
	if (s->peer->step(s, &step, &res) || (res.failed && st_fail_as(s, &res)))
		return -1;
	x->stats.iters = n;
	x->stats.size = size;
	if (usec) {
		x->stats.mib_s = (double)n * size / usec * 1e6 / (1 << 20);
		x->stats.gb_s = (double)n * size * 8 / usec / 1e3;
	}
	st_done(s, (uint64_t)n * size);
	x->usec = usec;
	return 0;
}
