/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor --journal (cmd/monitor_journal.c): the watch's events and the
 * host-wide probes' failures written to the systemd journal, an entry each,
 * instead of printed.
 */
#ifndef RDMACTL_CMD_MONITOR_H
#define RDMACTL_CMD_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "diag/monitor_watch.h"
#include "kernel/journal.h"
#include "kernel/record.h"

/*
 * The QPs the probes saw made, by number (a slot each number's, a later QP
 * taking an earlier's): the owner of one made and gone between two of the
 * watch's readings, which they do not name.
 */
#define MONITOR_JOURNAL_MADE 512

struct monitor_journal {
	struct monitor_watch *w;	/* the watch, for the QPs' owners and the GID tables */
	struct rdma_qp made[MONITOR_JOURNAL_MADE];
	struct record *probes;		/* NULL: what they would see is in UNSEEN */
	struct record_sees sees;
	char unseen[320];
	uint64_t boot_ns;		/* the monotonic clock's zero on the wall clock */
	unsigned long sent;
	bool rearm;			/* a device came: the probes are armed anew */
	int err;			/* the first entry the journal refused: monitor ends */
	char why[JOURNAL_WHY_MAX];
};

/*
 * The probes armed for every process of the host and the first entry
 * (monitor-started) sent: 0, or the journal's negative errno, J->why
 * saying why. W is the watch, started.
 */
int monitor_journal_begin(struct monitor_journal *j, struct monitor_watch *w);
/* The probes' descriptor, for the loop's poll; -1 when none were armed. */
int monitor_journal_fd(const struct monitor_journal *j);
/* The watch's event E, an entry when it is a failure or a change of the host's. */
void monitor_journal_event(const struct monitor_event *e, void *arg);
/*
 * After a device came (rdma_rxe loaded again, its kprobe gone with the old
 * module): the probes armed anew. Called by the loop, outside the watch's step.
 */
void monitor_journal_rearm(struct monitor_journal *j);
/* The probes' records now there: each failure an entry. */
void monitor_journal_drain(struct monitor_journal *j);
void monitor_journal_end(struct monitor_journal *j);

#endif
