// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor's watch (monitor_watch.h): route netlink's link and address
 * notifications wake it at once (the GIDs follow the addresses), and so do
 * rxe's QP and device functions where a kprobe can be had on them (root);
 * without those, the rest is read every MONITOR_TICK_MS (longer with
 * thousands of QPs, whose dump costs), which bounds an event's delay; the
 * counters less often (snap).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include "kernel/clock.h"
#include "kernel/kprobe.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "diag/monitor.h"
#include "diag/monitor_sched.h"
#include "diag/monitor_watch.h"

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

static int snap(const struct model_src *base, const struct monitor_snap *prev,
		struct snap_what what, uint64_t *qcost, struct monitor_snap *s)
{
	struct model_src src = *base;
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
		return snap(base, prev, what, qcost, s);
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

static int gids(const struct model_src *base, struct model *m)
{
	struct model_src src = *base;

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

/*
 * What woke monitor in P (route netlink, the bell, rdma netlink), drained:
 * whether anything did. A GID change is said at once, from R's GIDs to
 * their new reading.
 */
static bool woken(struct monitor_watch *r, const struct pollfd p[MONITOR_WATCH_FDS])
{
	struct model g2;
	bool woke = false;

	if (p[1].revents && kprobe_bell_drain(r->bell))
		woke = true;
	if (p[2].revents && nl_drain(r->notify) > 0)
		woke = true;	/* a device came or went, or its netdev */
	if (p[0].revents && nl_drain(r->route) > 0) {
		if (!gids(&r->src, &g2)) {
			monitor_diff_gids(&r->g, &g2, r->emit, r->arg);
			model_free(&r->g);
			r->g = g2;
		}
		woke = true;	/* a netdev's change moves ports and QPs */
	}
	return woke;
}

/* The reading R's schedule asks for now, and what changed since the last said. */
static void read_and_say(struct monitor_watch *r)
{
	struct monitor_sched_what w = monitor_sched_what(&r->sc, mono_ms(), r->bell != NULL);
	struct snap_what what = { .qps = w.qps, .counters = w.counters };
	struct monitor_snap now;
	uint64_t cost = cpu_ms();

	if (snap(&r->src, &r->prev, what, &r->qcost, &now)) {
		monitor_sched_failed(&r->sc, mono_ms());
		return;	/* sysfs mid-change: the next reading tells */
	}
	monitor_diff(&r->prev, &now, &r->memo, r->emit, r->arg);
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


int monitor_watch_start(struct monitor_watch *w, const struct model_src *src, monitor_emit emit,
			void *arg)
{
	int err;

	memset(w, 0, sizeof(*w));
	w->src = *src;
	w->emit = emit;
	w->arg = arg;
	err = snap(&w->src, NULL, (struct snap_what){ .qps = true, .counters = true }, &w->qcost,
		   &w->prev);
	if (err)
		return err;
	if (gids(&w->src, &w->g))
		memset(&w->g, 0, sizeof(w->g));
	w->route = route_events();
	w->notify = rdma_events();
	ring_anew(&w->bell, &w->bell_devices, &w->prev, &w->tried);
	monitor_sched_start(&w->sc, mono_ms(), w->qcost);
	return 0;
}

bool monitor_watch_routes(const struct monitor_watch *w)
{
	return w->route != NULL;
}

int monitor_watch_fds(const struct monitor_watch *w, struct pollfd p[MONITOR_WATCH_FDS])
{
	uint64_t t = mono_ms();

	p[0] = (struct pollfd){ .fd = w->route ? nl_fd(w->route) : -1, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = kprobe_bell_fd(w->bell), .events = POLLIN };
	p[2] = (struct pollfd){ .fd = w->notify ? nl_fd(w->notify) : -1, .events = POLLIN };
	return t >= w->sc.next ? 0 : (int)(w->sc.next - t);
}

void monitor_watch_step(struct monitor_watch *w, const struct pollfd p[MONITOR_WATCH_FDS])
{
	if (p && woken(w, p))
		monitor_sched_woke(&w->sc, mono_ms());
	if (mono_ms() >= w->sc.next)
		read_and_say(w);
}

void monitor_watch_now(struct monitor_watch *w)
{
	monitor_sched_woke(&w->sc, mono_ms());
	w->sc.next = mono_ms();
	read_and_say(w);
}

void monitor_watch_stop(struct monitor_watch *w)
{
	kprobe_bell_close(w->bell);
	monitor_snap_free(&w->prev);
	model_free(&w->g);
	monitor_memo_free(&w->memo);
	nl_close(w->route);
	nl_close(w->notify);
	memset(w, 0, sizeof(*w));
}
