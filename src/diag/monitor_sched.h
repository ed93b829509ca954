/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor's schedule: when it reads the system next, and whether the QPs
 * and the counters with it, from what woke it and what the last reading
 * cost. Pure: the clock's readings and the CPU's are given, never taken.
 */
#ifndef RDMACTL_DIAG_MONITOR_SCHED_H
#define RDMACTL_DIAG_MONITOR_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "diag/monitor.h"	/* MONITOR_COUNTER_MS: the counters read at most this often */

/* Without a bell, what is not woken for is read this often. */
#define MONITOR_TICK_MS 500
/*
 * Where rxe's QP functions ring the bell, the QPs are dumped when it rings
 * and with the counters; the readings between, of devices and ports alone,
 * come this often where the bell does not ring for rxe's devices too
 * (their changes wake monitor too, where the kernel sends them: netdevs
 * always, RDMA devices on 6.12 and later); where it does, none come.
 */
#define MONITOR_BELL_TICK_MS 1000
/*
 * A reading costs the kernel's dump of every QP: with thousands of QPs the
 * next dump waits this many times as long as the last one took of the
 * CPU, so that monitor keeps to some 5% of a core however many there are;
 * to 0.5% where the bell rings, for then a QP's change does not wait for
 * the next dump.
 */
#define MONITOR_COST_FACTOR 20
#define MONITOR_BELL_COST_FACTOR 200
/*
 * After an event, the reading waits this long: the kprobe fires as rxe's
 * function returns, before ib_core has added or removed the QP it made or
 * destroyed; and no sooner than this many times the last reading's cost
 * after it, so that a program making thousands of QPs costs monitor some
 * 20% of a core while it does, not all of one.
 */
#define MONITOR_SETTLE_MS 30
#define MONITOR_BUSY_FACTOR 4
/* And once more this long after an event's reading, for what was still on its way. */
#define MONITOR_AGAIN_MS 300

struct monitor_sched {
	uint64_t next;		/* the next reading, on the monotonic clock (ms) */
	uint64_t qnext;		/* the next with the counters and the QPs */
	uint64_t last;		/* when the last reading ended */
	uint64_t cost;		/* the last reading's CPU ms (0 after one that failed) */
	uint64_t qcost;		/* the last QP dump's CPU ms */
	bool dump;		/* the QPs go with the next reading: an event asks */
	bool again;		/* one more reading after the event's */
};

/* What a reading takes besides the devices and ports. */
struct monitor_sched_what {
	bool qps, counters;
};

/* How the reading that ended went, and what wakes monitor now. */
struct monitor_sched_done {
	uint64_t cost;		/* its CPU ms */
	uint64_t qcost;		/* the last QP dump's: its own, or an earlier reading's */
	bool qps;		/* it dumped the QPs */
	bool counted;		/* it read the counters */
	bool bell;		/* rxe's QP functions ring */
	bool quiet;		/* every change wakes monitor: nothing to read between the counters */
};

/* The first reading, of everything, ended at NOW; its QP dump cost QCOST. */
void monitor_sched_start(struct monitor_sched *s, uint64_t now, uint64_t qcost);
/* Something changed at NOW (a bell, a notification): the reading comes sooner. */
void monitor_sched_woke(struct monitor_sched *s, uint64_t now);
/* What the reading at NOW takes, BELL said whether rxe's QP functions ring. */
struct monitor_sched_what monitor_sched_what(const struct monitor_sched *s, uint64_t now,
					     bool bell);
/* The reading failed at NOW (sysfs mid-change): the next tells, a tick later. */
void monitor_sched_failed(struct monitor_sched *s, uint64_t now);
/* The reading ended at NOW as D says: when the next comes, and the counters' next. */
void monitor_sched_done(struct monitor_sched *s, uint64_t now, const struct monitor_sched_done *d);

#endif
