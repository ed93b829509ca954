/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What changed between two readings of the RDMA state, as monitor's events:
 * devices, their ports and netdevs, GIDs, QPs (made, moving, destroyed,
 * resending with no answer) and the error counters.
 */
#ifndef RDMACTL_DIAG_MONITOR_H
#define RDMACTL_DIAG_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/qp.h"
#include "diag/qpdiag.h"
#include "diag/qpwatch.h"

/*
 * One reading: the QPs, then the ports' states, netdevs' MTUs and states,
 * counters, read as the QP observer reads (diag/qpwatch.h) on monitor's
 * schedule; read.m_ok always.
 */
struct monitor_snap {
	struct diag_qpread read;
	bool qs_ok;		/* the QPs were read */
	bool counted;		/* the counters were read, not carried over */
	bool qs_carried;	/* the QPs were not read: the last reading's stand, qs is empty */
	uint64_t ms;		/* when, on the monotonic clock */
};

enum monitor_kind {
	MON_DEVICE_ADDED,
	MON_DEVICE_REMOVED,
	MON_PORT_STATE,		/* the port's state: from, to */
	MON_NETDEV_STATE,	/* its netdev's operstate: from, to */
	MON_NETDEV_MTU,		/* its netdev's MTU: from_mtu, to_mtu (and the port's active MTU) */
	MON_GID_ADDED,
	MON_GID_REMOVED,
	MON_QP_CREATED,		/* to: its state; diag when it is in ERR or SQE already */
	MON_QP_STATE,		/* from, to; diag when it moved to ERR or SQE */
	MON_QP_DESTROYED,
	MON_QP_STALLED,		/* resending with no answer: diag */
	MON_COUNTER,		/* an error counter rose: counter, value, delta */
};

struct monitor_event {
	enum monitor_kind kind;
	const struct rdma_dev *dev;
	const struct port *port;	/* NULL for a device's events */
	const struct gid_slot *gid;
	const struct rdma_qp *qp;
	const char *from, *to;
	int from_mtu, to_mtu;
	const char *counter;
	uint64_t value, delta;
	const struct diag_qp *diag;	/* NULL when no cause is told */
};

typedef void (*monitor_emit)(const struct monitor_event *e, void *arg);

/* What monitor keeps between readings so that each change is said once. */
struct monitor_memo {
	struct monitor_mark {
		char dev[RDMA_NAME_MAX];
		uint32_t port;
		char name[48];
		uint64_t value;	/* the counter when last said (or first seen) */
	} *marks;
	size_t nmarks;
	uint64_t said_ms;	/* when counters were last said */
	struct monitor_stalled {
		char dev[RDMA_NAME_MAX];
		uint32_t qpn;
	} *stalled;
	size_t nstalled;
};

/* Error counters that rose are said at most this often, their rises summed. */
#define MONITOR_COUNTER_MS 5000

/*
 * Emits what changed from A to B (B's events point into B, a removal's
 * into A) through EMIT, in this order: devices, ports and netdevs, QPs,
 * counters. MEMO remembers the QPs said to be resending and the counters
 * said, so that neither is said again each reading.
 */
void monitor_diff(const struct monitor_snap *a, const struct monitor_snap *b,
		  struct monitor_memo *memo, monitor_emit emit, void *arg);
/* The GIDs added and removed from A's tables to B's (both read with GIDs). */
void monitor_diff_gids(const struct model *a, const struct model *b, monitor_emit emit,
		       void *arg);
/* Whether B's QPs differ from A's: one made, gone, or in another state. */
bool monitor_qps_changed(const struct monitor_snap *a, const struct monitor_snap *b);
/*
 * B, read without its counters, given A's for each port both have: the
 * counters as last read, which a reading with them is then measured
 * against. -ENOMEM, B left with what it had.
 */
int monitor_carry_counters(const struct monitor_snap *a, struct monitor_snap *b);
void monitor_memo_free(struct monitor_memo *memo);
void monitor_snap_free(struct monitor_snap *s);

#endif
