// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor's schedule: when the next reading comes, and what it takes (monitor_sched.h). */
#include <string.h>

#include "diag/monitor_sched.h"

static uint64_t at_least(uint64_t v, uint64_t floor)
{
	return v > floor ? v : floor;
}

void monitor_sched_start(struct monitor_sched *s, uint64_t now, uint64_t qcost)
{
	memset(s, 0, sizeof(*s));
	s->last = now;
	s->qcost = qcost;
	s->next = s->qnext = now + MONITOR_TICK_MS;
}

void monitor_sched_woke(struct monitor_sched *s, uint64_t now)
{
	/* After the change has settled, and never sooner than the last reading's cost allows. */
	uint64_t t = at_least(now + MONITOR_SETTLE_MS, s->last + s->cost * MONITOR_BUSY_FACTOR);

	if (t < s->next)
		s->next = t;
	/* Once more a while after: a device's removal is said before it is gone. */
	s->dump = s->again = true;
}

struct monitor_sched_what monitor_sched_what(const struct monitor_sched *s, uint64_t now,
					     bool bell)
{
	/* Without the bell each reading dumps the QPs: nothing else would tell their changes. */
	return (struct monitor_sched_what){ .qps = s->dump || !bell || now >= s->qnext,
					    .counters = now >= s->qnext };
}

void monitor_sched_failed(struct monitor_sched *s, uint64_t now)
{
	s->cost = 0;
	s->last = now;
	s->next = now + MONITOR_TICK_MS;
}

void monitor_sched_done(struct monitor_sched *s, uint64_t now, const struct monitor_sched_done *d)
{
	uint64_t wait;

	s->dump = false;
	s->cost = d->cost;
	s->qcost = d->qcost;
	s->last = now;
	if (d->counted) {
		/*
		 * The counters, and the QPs with them, when their cost allows:
		 * every MONITOR_COUNTER_MS at most; where the bell tells the QPs'
		 * changes, that is when the QPs are dumped unasked.
		 */
		wait = s->qcost * (d->bell ? MONITOR_BELL_COST_FACTOR : MONITOR_COST_FACTOR);
		s->qnext = now + at_least(wait, MONITOR_COUNTER_MS);
	}
	/* Without the bell, each reading dumps the QPs: its whole cost counts. */
	wait = (d->bell ? s->cost - (d->qps && s->cost > s->qcost ? s->qcost : 0) : s->cost) *
	       MONITOR_COST_FACTOR;
	s->next = now + at_least(wait, d->bell ? MONITOR_BELL_TICK_MS : MONITOR_TICK_MS);
	/*
	 * Where every change wakes monitor (rxe's devices and QPs the bell,
	 * netdevs and so rxe's ports route netlink), nothing is read between
	 * the counters' readings. Another driver's device is seen at the next
	 * of those where the kernel sends no notification of it (before 6.12).
	 */
	if (d->quiet)
		s->next = s->qnext;
	if (s->again) {
		s->next = now + MONITOR_AGAIN_MS;
		s->dump = true;
		s->again = false;
	}
	if (s->qnext < s->next)
		s->next = s->qnext;
}
