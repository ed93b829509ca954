/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor's watch: the readings of the RDMA state (diag/monitor.h) on
 * monitor's schedule (diag/monitor_sched.h), woken by route netlink's
 * notifications, RDMA netlink's and the bell on rxe's functions, each
 * change given to EMIT as it is found. monitor and record are its
 * callers; their loop waits on its descriptors beside their own.
 */
#ifndef RDMACTL_DIAG_MONITOR_WATCH_H
#define RDMACTL_DIAG_MONITOR_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag/monitor.h"
#include "diag/monitor_sched.h"
#include "model/model.h"

struct kprobe_bell;
struct nl;

/* The descriptors a loop waits on for the watch. */
#define MONITOR_WATCH_FDS 3

/* What one watch keeps from one reading to the next. */
struct monitor_watch {
	struct model_src src;
	monitor_emit emit;
	void *arg;
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
 * The first reading from SRC (its netlink open) and the watch's sources
 * opened: 0, or the reading's negative errno. Nothing is emitted for it.
 */
int monitor_watch_start(struct monitor_watch *w, const struct model_src *src, monitor_emit emit,
			void *arg);
/* Whether the netdevs' and addresses' changes wake it (else GIDs are not followed). */
bool monitor_watch_routes(const struct monitor_watch *w);
/* Its descriptors into P; the most ms a loop may wait before the next step. */
int monitor_watch_fds(const struct monitor_watch *w, struct pollfd p[MONITOR_WATCH_FDS]);
/* What woke it in P (NULL: none; a wait ran out) taken, and the reading due made. */
void monitor_watch_step(struct monitor_watch *w, const struct pollfd p[MONITOR_WATCH_FDS]);
/* A reading now, whatever the schedule says (the last, before a caller ends). */
void monitor_watch_now(struct monitor_watch *w);
void monitor_watch_stop(struct monitor_watch *w);

#endif
