// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for diag/monitor.c: each change between two readings said
 * once, in order; a QP's move to ERR with its cause; a resending QP said
 * once; error counters' rises summed and said at most every few seconds;
 * and diag/monitor_sched.c, when the next reading comes and what it takes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "diag/monitor.h"
#include "diag/monitor_sched.h"

struct seen {
	char lines[32][160];
	size_t n;
};

static void record(const struct monitor_event *e, void *arg)
{
	struct seen *s = arg;
	char *l = s->lines[s->n++];

	switch (e->kind) {
	case MON_DEVICE_ADDED:
		snprintf(l, 160, "added %s", e->dev->name);
		break;
	case MON_DEVICE_REMOVED:
		snprintf(l, 160, "removed %s", e->dev->name);
		break;
	case MON_PORT_STATE:
	case MON_NETDEV_STATE:
		snprintf(l, 160, "%s %s/%u %s->%s", e->kind == MON_PORT_STATE ? "port" : "netdev",
			 e->dev->name, e->port->num, e->from, e->to);
		break;
	case MON_NETDEV_MTU:
		snprintf(l, 160, "mtu %d->%d", e->from_mtu, e->to_mtu);
		break;
	case MON_GID_ADDED:
	case MON_GID_REMOVED:
		snprintf(l, 160, "gid %s %u", e->kind == MON_GID_ADDED ? "added" : "removed",
			 e->gid->index);
		break;
	case MON_QP_CREATED:
		snprintf(l, 160, "qp %u created %s%s", e->qp->qpn, e->to, e->diag ? " (why)" : "");
		break;
	case MON_QP_DESTROYED:
		snprintf(l, 160, "qp %u destroyed", e->qp->qpn);
		break;
	case MON_QP_STATE:
		snprintf(l, 160, "qp %u %s->%s%s%s%s", e->qp->qpn, e->from, e->to,
			 e->diag ? ": " : "", e->diag ? e->diag->cause : "",
			 e->diag && strstr(e->diag->evidence, "it may be another's") ?
			 " [may be another's]" : "");
		break;
	case MON_QP_STALLED:
		snprintf(l, 160, "qp %u resending", e->qp->qpn);
		break;
	case MON_COUNTER:
		snprintf(l, 160, "%s +%llu = %llu", e->counter, (unsigned long long)e->delta,
			 (unsigned long long)e->value);
		break;
	}
}

/* A reading: rxe0 with one port (state ST, operstate OP, MTU), its counters C, QPs Q. */
struct fake {
	struct rdma_dev dev;
	struct port port;
	struct counter c[3];
	struct rdma_qp q[4];
	struct monitor_snap s;
};

static void fake(struct fake *f, uint8_t st, const char *op, int mtu, uint64_t resent,
		 uint64_t rnr, uint64_t ms)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->dev.name, sizeof(f->dev.name), "rxe0");
	snprintf(f->dev.driver, sizeof(f->dev.driver), "rxe");
	f->port.num = 1;
	f->port.state = st;
	snprintf(f->port.operstate, sizeof(f->port.operstate), "%s", op);
	f->port.netdev_mtu = mtu;
	f->port.counters_known = true;
	f->c[0] = (struct counter){ "completer_retry_err", resent };
	f->c[1] = (struct counter){ "retry_rnr_exceeded_err", rnr };
	f->c[2] = (struct counter){ "sent_pkts", 1000 + ms };	/* no error counter: never said */
	f->port.counters = f->c;
	f->port.ncounters = 3;
	f->dev.ports = &f->port;
	f->dev.nports = 1;
	f->s.read.m.devs = &f->dev;
	f->s.read.m.n = 1;
	f->s.read.m_ok = true;
	f->s.read.qs.v = f->q;
	f->s.qs_ok = true;
	f->s.ms = ms;
}

static void add_qp(struct fake *f, uint32_t qpn, uint32_t rqpn, uint8_t state)
{
	struct rdma_qp *q = &f->q[f->s.read.qs.n++];

	*q = (struct rdma_qp){ .port = 1, .qpn = qpn, .rqpn = rqpn, .has_rqpn = true, .type = 2,
			       .state = state, .pid = 40, .peer = -1, .has_sq_psn = true,
			       .has_rq_psn = true };
	snprintf(q->dev, sizeof(q->dev), "rxe0");
	model_qp_find_peers(&f->s.read.qs);
}

static void ports_and_devices(void **state)
{
	struct fake a, b;
	struct monitor_memo memo = { 0 };
	struct seen s = { 0 };
	struct monitor_snap none = { 0 };

	(void)state;
	fake(&a, 4, "up", 1500, 0, 0, 10000);
	fake(&b, 1, "down", 9000, 0, 0, 10500);
	monitor_diff(&a.s, &b.s, &memo, record, &s);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.lines[0], "port rxe0/1 ACTIVE->DOWN");
	assert_string_equal(s.lines[1], "netdev rxe0/1 up->down");
	assert_string_equal(s.lines[2], "mtu 1500->9000");
	/* A device gone, and back. */
	s.n = 0;
	monitor_diff(&b.s, &none, &memo, record, &s);
	monitor_diff(&none, &b.s, &memo, record, &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.lines[0], "removed rxe0");
	assert_string_equal(s.lines[1], "added rxe0");
	/* Nothing changed: nothing said. */
	s.n = 0;
	monitor_diff(&b.s, &b.s, &memo, record, &s);
	assert_int_equal(s.n, 0);
	monitor_memo_free(&memo);
}

static void qps(void **state)
{
	struct fake a, b, c, d;
	struct monitor_memo memo = { 0 };
	struct seen s = { 0 };

	(void)state;
	fake(&a, 4, "up", 1500, 0, 0, 10000);
	add_qp(&a, 17, 18, MODEL_QPS_RTS);
	fake(&b, 4, "up", 1500, 0, 1, 10500);
	add_qp(&b, 17, 18, MODEL_QPS_ERR);
	add_qp(&b, 18, 17, MODEL_QPS_RTS);
	add_qp(&b, 19, 20, MODEL_QPS_RTS);
	add_qp(&b, 21, 22, MODEL_QPS_ERR);
	monitor_diff(&a.s, &b.s, &memo, record, &s);
	assert_int_equal(s.n, 5);
	/*
	 * Two QPs of rxe0 in ERR and one RNR counted: the counter may be the
	 * other's, the one rule check and qp apply (diag_qp_apportion).
	 */
	assert_string_equal(s.lines[0], "qp 17 RTS->ERR: RNR retries ran out: its peer had no "
			    "receive posted when its SEND came [may be another's]");
	assert_string_equal(s.lines[1], "qp 18 created RTS");
	assert_string_equal(s.lines[2], "qp 19 created RTS");
	/* ... one made and failed within a reading comes with its cause. */
	assert_string_equal(s.lines[3], "qp 21 created ERR (why)");
	assert_string_equal(s.lines[4], "retry_rnr_exceeded_err +1 = 1");
	/* 19's peer 20 is nowhere and rxe0 resends: said once, though it goes on. */
	s.n = 0;
	fake(&c, 4, "up", 1500, 15, 1, 11000);
	add_qp(&c, 17, 18, MODEL_QPS_ERR);
	add_qp(&c, 18, 17, MODEL_QPS_RTS);
	add_qp(&c, 19, 20, MODEL_QPS_RTS);
	monitor_diff(&b.s, &c.s, &memo, record, &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.lines[0], "qp 21 destroyed");
	assert_string_equal(s.lines[1], "qp 19 resending");
	/* The counter's rise is held back within the interval, and summed after it. */
	s.n = 0;
	fake(&d, 4, "up", 1500, 30, 1, 12000);
	add_qp(&d, 18, 17, MODEL_QPS_RTS);
	add_qp(&d, 19, 20, MODEL_QPS_RTS);
	monitor_diff(&c.s, &d.s, &memo, record, &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.lines[0], "qp 17 destroyed");
	/* 18's peer is gone too, and it took nothing in while rxe0 resent: one that may be. */
	assert_string_equal(s.lines[1], "qp 18 resending");
	s.n = 0;
	d.s.ms = 10500 + MONITOR_COUNTER_MS;
	monitor_diff(&d.s, &d.s, &memo, record, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.lines[0], "completer_retry_err +30 = 30");
	monitor_memo_free(&memo);
}

static void counters_carried(void **state)
{
	struct fake a, b;
	struct port p;

	(void)state;
	fake(&a, 4, "up", 1500, 7, 2, 10000);
	add_qp(&a, 17, 18, MODEL_QPS_RTS);
	fake(&b, 4, "up", 1500, 0, 0, 10500);
	add_qp(&b, 17, 18, MODEL_QPS_RTS);
	assert_false(monitor_qps_changed(&a.s, &b.s));
	/* B read without counters takes A's, its own array, to be freed with B. */
	p = b.port;
	p.counters = NULL;
	p.ncounters = 0;
	p.counters_known = false;
	b.dev.ports = &p;
	assert_int_equal(monitor_carry_counters(&a.s, &b.s), 0);
	assert_true(p.counters_known);
	assert_int_equal(p.ncounters, 3);
	assert_ptr_not_equal(p.counters, a.port.counters);
	assert_int_equal(p.counters[0].value, 7);
	assert_int_equal(p.counters[1].value, 2);
	free(p.counters);
	/* A QP moved, made or gone is a change. */
	b.q[0].state = MODEL_QPS_ERR;
	assert_true(monitor_qps_changed(&a.s, &b.s));
	b.q[0].state = MODEL_QPS_RTS;
	add_qp(&b, 18, 17, MODEL_QPS_RTS);
	assert_true(monitor_qps_changed(&a.s, &b.s));
	assert_true(monitor_qps_changed(&b.s, &a.s));
}

static void gids(void **state)
{
	struct gid_slot ga[2] = { { .index = 0 }, { .index = 1 } }, gb[2] = { { .index = 0 },
									  { .index = 2 } };
	struct fake a, b;
	struct seen s = { 0 };

	(void)state;
	fake(&a, 4, "up", 1500, 0, 0, 0);
	fake(&b, 4, "up", 1500, 0, 0, 0);
	ga[1].raw[15] = 1;
	gb[1].raw[15] = 2;
	a.port.gids = ga;
	b.port.gids = gb;
	a.port.ngids = b.port.ngids = 2;
	a.port.gids_known = b.port.gids_known = true;
	monitor_diff_gids(&a.s.read.m, &b.s.read.m, record, &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.lines[0], "gid removed 1");
	assert_string_equal(s.lines[1], "gid added 2");
	/* A table not read is not an empty one. */
	s.n = 0;
	b.port.gids_known = false;
	monitor_diff_gids(&a.s.read.m, &b.s.read.m, record, &s);
	assert_int_equal(s.n, 0);
}

/* Without the bell: every reading dumps the QPs; its cost sets the next, a tick at least. */
static void schedule_without_bell(void **state)
{
	struct monitor_sched s;
	struct monitor_sched_what w;

	(void)state;
	monitor_sched_start(&s, 1000, 2);
	assert_int_equal(s.next, 1000 + MONITOR_TICK_MS);
	assert_int_equal(s.qnext, 1000 + MONITOR_TICK_MS);
	w = monitor_sched_what(&s, 1500, false);
	assert_true(w.qps && w.counters);
	/* A cheap reading with the counters: the next in a tick, the counters' in 5 s. */
	monitor_sched_done(&s, 1510, &(struct monitor_sched_done){ .cost = 3, .qcost = 2,
		.qps = true, .counted = true });
	assert_int_equal(s.next, 1510 + MONITOR_TICK_MS);
	assert_int_equal(s.qnext, 1510 + MONITOR_COUNTER_MS);
	w = monitor_sched_what(&s, 2010, false);
	assert_true(w.qps);
	assert_false(w.counters);
	/* Thousands of QPs: a dump of 100 ms puts the next 2 s on (5% of a core). */
	monitor_sched_done(&s, 2110, &(struct monitor_sched_done){ .cost = 100, .qcost = 90,
		.qps = true });
	assert_int_equal(s.next, 2110 + 100 * MONITOR_COST_FACTOR);
	/* A dump of 400 ms with the counters: those wait 8 s, and the next reading no later. */
	monitor_sched_done(&s, 5000, &(struct monitor_sched_done){ .cost = 420, .qcost = 400,
		.qps = true, .counted = true });
	assert_int_equal(s.qnext, 5000 + 400 * MONITOR_COST_FACTOR);
	assert_int_equal(s.next, s.qnext);
	/* A reading that failed: a tick on, and its cost forgotten. */
	monitor_sched_failed(&s, 6000);
	assert_int_equal(s.next, 6000 + MONITOR_TICK_MS);
	assert_int_equal(s.cost, 0);
}

/* With the bell: the QPs are dumped when it rings and with the counters; quiet between. */
static void schedule_with_bell(void **state)
{
	struct monitor_sched s;
	struct monitor_sched_what w;

	(void)state;
	monitor_sched_start(&s, 0, 5);
	monitor_sched_done(&s, 500, &(struct monitor_sched_done){ .cost = 6, .qcost = 5,
		.qps = true, .counted = true, .bell = true });
	/* The counters' next: 5 ms of dump times 200 is 1 s, less than their 5 s. */
	assert_int_equal(s.qnext, 500 + MONITOR_COUNTER_MS);
	assert_int_equal(s.next, 500 + MONITOR_BELL_TICK_MS);
	w = monitor_sched_what(&s, 1500, true);
	assert_false(w.qps);
	assert_false(w.counters);
	/* The dump's cost is the bell's to bear: what is left of the reading's sets the next. */
	monitor_sched_done(&s, 1600, &(struct monitor_sched_done){ .cost = 160, .qcost = 50,
		.qps = true, .bell = true });
	assert_int_equal(s.next, 1600 + (160 - 50) * MONITOR_COST_FACTOR);
	/* Every change wakes monitor: nothing is read until the counters are. */
	monitor_sched_done(&s, 2000, &(struct monitor_sched_done){ .cost = 1, .qcost = 50,
		.bell = true, .quiet = true });
	assert_int_equal(s.next, s.qnext);
	w = monitor_sched_what(&s, s.qnext, true);
	assert_true(w.qps && w.counters);
}

/* An event: read after it settles, no sooner than the last cost allows, and once more after. */
static void schedule_woken(void **state)
{
	struct monitor_sched s;

	(void)state;
	monitor_sched_start(&s, 0, 1);
	monitor_sched_done(&s, 100, &(struct monitor_sched_done){ .cost = 2, .qcost = 1,
		.qps = true, .counted = true, .bell = true });
	monitor_sched_woke(&s, 200);
	assert_int_equal(s.next, 200 + MONITOR_SETTLE_MS);
	assert_true(monitor_sched_what(&s, s.next, true).qps);
	monitor_sched_done(&s, 240, &(struct monitor_sched_done){ .cost = 50, .qcost = 1,
		.qps = true, .bell = true });
	/* Once more a while after, the QPs with it. */
	assert_int_equal(s.next, 240 + MONITOR_AGAIN_MS);
	assert_true(s.dump);
	/* A busy program: the next event's reading waits four times the last one's cost. */
	monitor_sched_woke(&s, 250);
	assert_int_equal(s.next, 240 + 50 * MONITOR_BUSY_FACTOR);
	/* An event never puts the reading later than it was. */
	monitor_sched_done(&s, 450, &(struct monitor_sched_done){ .cost = 1, .qcost = 1,
		.qps = true, .bell = true });
	monitor_sched_done(&s, 760, &(struct monitor_sched_done){ .cost = 1, .qcost = 1,
		.qps = true, .bell = true });
	assert_int_equal(s.next, 760 + MONITOR_BELL_TICK_MS);
	monitor_sched_woke(&s, 770);
	assert_int_equal(s.next, 770 + MONITOR_SETTLE_MS);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ports_and_devices),
		cmocka_unit_test(qps),
		cmocka_unit_test(counters_carried),
		cmocka_unit_test(gids),
		cmocka_unit_test(schedule_without_bell),
		cmocka_unit_test(schedule_with_bell),
		cmocka_unit_test(schedule_woken),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("monitor", tests, NULL, NULL);
}
