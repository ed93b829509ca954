// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor: what changes, as it happens, until interrupted: devices, ports,
 * netdevs, GIDs, QPs and error counters. Route netlink's link and address
 * notifications wake it at once (the GIDs follow the addresses), and so do
 * rxe's QP and device functions where a kprobe can be had on them (root);
 * without those, the rest is read every MONITOR_TICK_MS (longer with
 * thousands of QPs, whose dump costs), which bounds an event's delay; the
 * counters less often (snap).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/clock.h"
#include "kernel/kprobe.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "kernel/runloop.h"
#include "diag/monitor.h"
#include "diag/monitor_sched.h"
#include "ops/op_err.h"
#include "views/monitor.h"

#define MONITOR_BELL_RETRY_MS 5000

/*
 * rxe's functions through which every QP is made, moved, failed or
 * destroyed, and every rxe device made (rdma link add) or freed (its link
 * deleted, its netdev gone, the module unloaded): all in rdma_rxe from
 * 5.10 to 7.3. The last two make the bell ring for rxe's devices too
 * (ring_anew's *DEVICES); the first RXE_QP_FUNCS are the QPs'.
 */
static const char *const rxe_funcs[] = { "rxe_create_qp", "rxe_modify_qp", "rxe_qp_error",
					 "rxe_destroy_qp", "rxe_newlink", "rxe_dealloc" };
#define RXE_QP_FUNCS 4

/* This process's CPU time, in ms (the kernel's work for its dumps included). */
static uint64_t cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

struct emitter {
	struct cmd_ctx *ctx;
	unsigned long left;	/* events still to print; 0: no limit */
	bool done;		/* --count's events printed */
	int err;
};

static void emit(const struct monitor_event *e, void *arg)
{
	struct emitter *em = arg;
	struct timespec now;
	struct tm tm;
	char t[40];
	struct out *o;
	int err;

	if (runloop_asked() || em->done || em->err)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(t + strlen(t), sizeof(t) - strlen(t), ".%03ldZ", now.tv_nsec / 1000000);
	o = out_new(stdout, em->ctx->json, false);
	if (!o) {
		em->err = -ENOMEM;
		return;
	}
	view_monitor_event(o, e, t);
	err = out_finish(o);
	if (!err && fflush(stdout))
		err = -errno;
	if (err)
		em->err = err;
	if (em->left && !--em->left)
		em->done = true;
}

/* Whether A and B differ in their devices or their ports' states: what moves QPs at once. */
static bool ports_moved(const struct model *a, const struct model *b)
{
	if (a->n != b->n)
		return true;
	for (size_t i = 0; i < b->n; i++) {
		const struct rdma_dev *d = &b->devs[i], *was = model_find(a, d->name);

		if (!was || was->nports != d->nports)
			return true;
		for (size_t k = 0; k < d->nports; k++)
			if (was->ports[k].state != d->ports[k].state ||
			    strcmp(was->ports[k].operstate, d->ports[k].operstate))
				return true;
	}
	return false;
}

/*
 * A reading into S: the QPs from the netlink (open), the ports from sysfs.
 * With WHAT.qps, the QPs are dumped, else PREV's stand (qs_carried: S has
 * none of its own for the caller to move PREV's in after monitor_diff,
 * which compares none): their dump is the cost that grows with their number (they are dumped all the same
 * when PREV is NULL or a device or port moved since). With WHAT.counters
 * (or PREV NULL, or a QP made, moved or destroyed: its cause may be in
 * them) the ports' counters are read, else PREV's carried over: sysfs's
 * dozens of files a port are most of a reading's cost, and nothing
 * changed that they would explain. Counters are never read without the
 * QPs: a QP's lack of progress is judged against their rise. The CPU the
 * dump took, in ms, in *QCOST when it was made.
 */
struct snap_what {
	bool qps, counters;
};

static int snap(struct cmd_ctx *ctx, const struct monitor_snap *prev, struct snap_what what,
		uint64_t *qcost, struct monitor_snap *s)
{
	struct model_src src = cmd_model_src(ctx);
	bool counters;
	uint64_t t;
	int err;

	memset(s, 0, sizeof(*s));
	s->ms = mono_ms();
	what.qps = what.qps || what.counters || !prev || !prev->qs_ok;
	/*
	 * The QPs first, as the observer reads (a QP seen in ERR with the RNR
	 * counter still 0 was blamed on a local error in a whole run on 6.1
	 * when the counters went first).
	 */
	t = cpu_ms();
	if (what.qps) {
		s->qs_ok = !diag_qpwatch_read_qps(&src, NULL, &s->read);
		*qcost = cpu_ms() - t;
	} else {
		/* Left empty here: the caller moves PREV's QPs in once the two are compared. */
		s->qs_ok = s->qs_carried = true;
	}
	counters = what.qps && (what.counters || !prev || monitor_qps_changed(prev, s));
	err = diag_qpwatch_read_ports(&src, NULL, counters, true, &s->read);
	if (err) {
		model_qps_free(&s->read.qs);
		return err;
	}
	if (!what.qps && ports_moved(&prev->read.m, &s->read.m)) {
		/* Carried, they would be the QPs of a device gone or a port down. */
		monitor_snap_free(s);
		what.qps = true;
		return snap(ctx, prev, what, qcost, s);
	}
	if (!counters) {
		err = monitor_carry_counters(prev, s);
		if (err) {
			monitor_snap_free(s);
			return err;
		}
	}
	s->counted = counters;
	return 0;
}

static int gids(struct cmd_ctx *ctx, struct model *m)
{
	struct model_src src = cmd_model_src(ctx);

	src.verbs = true;
	return model_load(&src, NULL, (struct model_ask){ .ports = MODEL_PORTS_STATES,
							  .gids = MODEL_GIDS_USED }, m);
}

/*
 * The bell on rxe's functions, anew where S has devices: when none is
 * had (rdma_rxe not loaded yet), or rdma_rxe was loaded again since (the
 * old probes do not see its functions; a stat a reading tells). Tried at
 * most every MONITOR_BELL_RETRY_MS; not again once refused for good (not
 * root, no kprobes). *DEVICES: whether it rings for rxe devices made and
 * freed too.
 */
static void ring_anew(struct kprobe_bell **bell, bool *devices, const struct monitor_snap *s,
		      uint64_t *tried)
{
	int err;

	if (!s->read.m.n || *tried == UINT64_MAX || (*bell && !kprobe_bell_stale(*bell)) ||
	    (*tried && s->ms - *tried < MONITOR_BELL_RETRY_MS))
		return;
	*tried = s->ms;
	kprobe_bell_close(*bell);
	*bell = NULL;
	*devices = false;
	err = kprobe_bell_open(bell, "rdma_rxe", rxe_funcs, sizeof(rxe_funcs) / sizeof(*rxe_funcs));
	if (!err)
		*devices = true;
	else if (err == -ENOENT)	/* a kernel whose rxe names its device functions otherwise */
		err = kprobe_bell_open(bell, "rdma_rxe", rxe_funcs, RXE_QP_FUNCS);
	if (err == -EACCES || err == -ENODEV)
		*tried = UINT64_MAX;	/* not root, or no kprobes: not asked again */
}

/* A route netlink socket that the links' and addresses' changes wake; NULL when none can be had. */
static struct nl *route_events(void)
{
	static const unsigned int groups[] = { RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR,
					       RTNLGRP_IPV6_IFADDR };
	struct nl *r;

	if (nl_open(&r, NETLINK_ROUTE))
		return NULL;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (nl_join(r, groups[i])) {
			nl_close(r);
			return NULL;
		}
	return r;
}

/*
 * An RDMA netlink socket in the notification group, that devices
 * registered or unregistered and netdevs attached or detached wake; NULL
 * where it cannot be joined: devices are then seen at the next reading,
 * as they are where the kernel sends nothing (5.10, 6.1).
 */
static struct nl *rdma_events(void)
{
	struct nl *r;

	if (nl_open(&r, NETLINK_RDMA))
		return NULL;
	if (nl_join(r, NLDEV_GROUP_NOTIFY)) {
		nl_close(r);
		return NULL;
	}
	return r;
}

/* What one run of monitor keeps from one reading to the next. */
struct run {
	struct cmd_ctx *ctx;
	struct emitter em;
	struct monitor_snap prev;	/* the last reading */
	struct monitor_memo memo;
	struct monitor_sched sc;
	struct model g;			/* the GIDs, as last read */
	struct nl *route, *notify;	/* route and rdma netlink's notifications, or NULL */
	struct kprobe_bell *bell;	/* rxe's functions ringing, or NULL */
	bool bell_devices;		/* it rings for rxe's devices too */
	uint64_t qcost, tried;
};

/*
 * What woke monitor in P (route netlink, the bell, rdma netlink), drained:
 * whether anything did. A GID change is said at once, from R's GIDs to
 * their new reading.
 */
static bool woken(struct run *r, struct pollfd p[3])
{
	struct model g2;
	bool woke = false;

	if (p[1].revents && kprobe_bell_drain(r->bell))
		woke = true;
	if (p[2].revents && nl_drain(r->notify) > 0)
		woke = true;	/* a device came or went, or its netdev */
	if (p[0].revents && nl_drain(r->route) > 0) {
		if (!gids(r->ctx, &g2)) {
			monitor_diff_gids(&r->g, &g2, emit, &r->em);
			model_free(&r->g);
			r->g = g2;
		}
		woke = true;	/* a netdev's change moves ports and QPs */
	}
	return woke;
}

/* The reading R's schedule asks for now, and what changed since the last said. */
static void read_and_say(struct run *r)
{
	struct monitor_sched_what w = monitor_sched_what(&r->sc, mono_ms(), r->bell != NULL);
	struct snap_what what = { .qps = w.qps, .counters = w.counters };
	struct monitor_snap now;
	uint64_t cost = cpu_ms();

	if (snap(r->ctx, &r->prev, what, &r->qcost, &now)) {
		monitor_sched_failed(&r->sc, mono_ms());
		return;	/* sysfs mid-change: the next reading tells */
	}
	monitor_diff(&r->prev, &now, &r->memo, emit, &r->em);
	if (now.qs_carried) {
		now.read.qs = r->prev.read.qs;
		now.qs_carried = false;
		memset(&r->prev.read.qs, 0, sizeof(r->prev.read.qs));
	}
	cost = cpu_ms() - cost;
	ring_anew(&r->bell, &r->bell_devices, &now, &r->tried);
	monitor_sched_done(&r->sc, mono_ms(), &(struct monitor_sched_done){
		.cost = cost, .qcost = r->qcost, .qps = what.qps, .counted = now.counted,
		.bell = r->bell != NULL,
		.quiet = r->bell && r->bell_devices && r->route && !kprobe_bell_stale(r->bell) });
	monitor_snap_free(&r->prev);
	r->prev = now;
}

int cmd_monitor(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct run r = { .ctx = ctx, .em = { .ctx = ctx, .left = cli_num(a, "count", 0) } };
	struct runloop l;
	struct op_err e;
	struct nl *rdma;
	int err;

	if (!model_sys_live(&ctx->sys))
		return cli_usage(a, "monitor watches the running system: not with --sysfs-root");
	/* The QPs come from the RDMA netlink: without it there is nothing to watch. */
	err = cmd_netlink(ctx, &rdma);
	if (err)
		return err;
	runloop_begin(&l, true);
	out_stream_begin();	/* a reader that goes (a pipe to head) ends it, quietly */
	err = snap(ctx, NULL, (struct snap_what){ .qps = true, .counters = true }, &r.qcost,
		   &r.prev);
	if (err) {
		runloop_end(&l);
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, NULL), &e));
	}
	if (gids(ctx, &r.g))
		memset(&r.g, 0, sizeof(r.g));
	r.route = route_events();
	if (!r.route)
		pr_warn("monitor: no route netlink notifications: GID changes are not followed");
	r.notify = rdma_events();
	ring_anew(&r.bell, &r.bell_devices, &r.prev, &r.tried);
	monitor_sched_start(&r.sc, mono_ms(), r.qcost);
	while (!runloop_asked() && !r.em.done && !r.em.err) {
		struct pollfd p[3] = { { .fd = r.route ? nl_fd(r.route) : -1, .events = POLLIN },
				       { .fd = kprobe_bell_fd(r.bell), .events = POLLIN },
				       { .fd = r.notify ? nl_fd(r.notify) : -1, .events = POLLIN } };
		uint64_t t = mono_ms();
		int n = runloop_wait(&l, p, 3, t >= r.sc.next ? 0 : (int)(r.sc.next - t));

		if (n < 0 && n != -EINTR) {
			err = n;
			break;
		}
		if (runloop_asked())
			break;
		if (n > 0 && woken(&r, p))
			monitor_sched_woke(&r.sc, mono_ms());
		if (mono_ms() >= r.sc.next)
			read_and_say(&r);
	}
	runloop_end(&l);
	kprobe_bell_close(r.bell);
	monitor_snap_free(&r.prev);
	model_free(&r.g);
	monitor_memo_free(&r.memo);
	nl_close(r.route);
	nl_close(r.notify);
	if (out_reader_gone(r.em.err))
		return 0;
	if (r.em.err || err) {
		op_err_set(&e, r.em.err ? r.em.err : err, NULL, "monitor: cannot go on");
		return cmd_fail(&e);
	}
	return 0;
}
