// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A QP's first completion in error, with no failure of its process before
 * it, of a status rdma_rxe gives when a QP's path goes from under it: a
 * flush (7.3), a local QP operation error (6.1), a local protection error
 * (5.10). Where the record saw its
 * device's port or netdev go down, one of its GIDs removed, or the device
 * itself removed, at that moment, that is the cause, not the status's own
 * (diag/record.h's diag_record_flushes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag/record.h"

/*
 * How long before the flush a change may have come, and how long after it
 * the watch may have read it (it stamps a change when it reads it: 3 to 60
 * ms after the flush in the bed, on 6.1 and 7.3).
 */
#define CHANGE_BEFORE_MS 10000
#define CHANGE_AFTER_MS 2000

/* T ("2026-12-03T07:30:12.764Z", a record's time) in ms since the epoch; -1: no such time. */
static long long ms_of(const char *t)
{
	struct tm tm;
	const char *end;
	unsigned int ms;

	memset(&tm, 0, sizeof(tm));
	end = strptime(t, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || sscanf(end, ".%3uZ", &ms) != 1)
		return -1;
	return (long long)timegm(&tm) * 1000 + ms;
}

/*
 * The statuses rdma_rxe ends a QP's work requests with when its path goes,
 * as the bed measured them with perftest writing and the netdev set down
 * or the address deleted: 5.10 IBV_WC_LOC_PROT_ERR, 6.1
 * IBV_WC_LOC_QP_OP_ERR, 7.3 IBV_WC_WR_FLUSH_ERR. (A retry exceeded is
 * left to its own verdict: rxe resends for as long as the program runs.)
 */
static bool path_status(int st)
{
	return st == 2 || st == 4 || st == 5;
}

/* Whether a failure of F's process that is no flush came before F (its cause, then). */
static bool explained(const struct model_record *r, const struct model_record_failure *f)
{
	for (size_t i = 0; i < r->n; i++)
		if (&r->f[i] != f && !r->f[i].flush && model_record_same_process(&r->f[i], f) &&
		    strcmp(r->f[i].time, f->time) <= 0)
			return true;
	return false;
}

/* The change of F's device nearest F, within the window; NULL when none. */
static const struct model_record_change *change_of(const struct model_record *r,
						   const struct model_record_failure *f,
						   long long *gap)
{
	const struct model_record_change *best = NULL;
	long long at = ms_of(f->time);

	for (size_t i = 0; at >= 0 && i < r->nchanges; i++) {
		const struct model_record_change *c = &r->changes[i];
		long long d = ms_of(c->time) - at;

		if (strcmp(c->ifname, f->ifname) || ms_of(c->time) < 0 || d < -CHANGE_BEFORE_MS ||
		    d > CHANGE_AFTER_MS)
			continue;
		if (!best || llabs(d) < llabs(*gap)) {
			best = c;
			*gap = d;
		}
	}
	return best;
}

/* F's verdict from C, read GAP ms from it. */
static void say(struct model_record_failure *f, const struct model_record_change *c, long long gap)
{
	const char *how = !strcmp(c->event, "gid-removed") ? "one of its GIDs removed" :
			  !strcmp(c->event, "device-removed") ? "the device removed" :
			  !strcmp(c->event, "netdev-state") ? "its netdev down" : "its port down";

	snprintf(f->cause, sizeof(f->cause), "%s while the QP ran (%s: %s): rdma_rxe ended its work "
		 "requests in error; none of them was at fault", how, c->ifname, c->what);
	snprintf(f->evidence, sizeof(f->evidence), "the record's %s line at %s, %lld ms %s this "
		 "completion, the QP's first in error (status %d), with no failure of its process "
		 "before it", c->event, c->time, llabs(gap), gap < 0 ? "before" : "after",
		 f->wc_status);
	if (!strcmp(c->event, "gid-removed"))
		snprintf(f->fix, sizeof(f->fix), "keep the address of that GID on its netdev for "
			 "the job's length (a DHCP lease or a network manager may take it away), "
			 "then make the QPs anew: a QP in ERR does not come back");
	else if (!strcmp(c->event, "device-removed"))
		snprintf(f->fix, sizeof(f->fix), "keep %s for the job's length (rdmactl del, 'rdma "
			 "link delete' or rdma_rxe unloaded removes it); rdmactl add it again, then "
			 "make the QPs anew", c->ifname);
	else
		snprintf(f->fix, sizeof(f->fix), "bring the netdev up ('ip link set NETDEV up'), "
			 "wait for %s's port to be ACTIVE ('rdmactl status'), then make the QPs anew: "
			 "a QP in ERR does not come back", c->ifname);
	f->sure = false;
	f->flush = false;	/* a cause now: the flushes after it follow it */
}

void diag_record_flushes(struct model_record *r)
{
	bool said = false;

	for (size_t i = 0; i < r->n; i++) {
		struct model_record_failure *f = &r->f[i];
		const struct model_record_change *c;
		long long gap = 0;

		if (!path_status(f->wc_status) || !*f->ifname || explained(r, f))
			continue;
		c = change_of(r, f, &gap);
		if (c) {
			say(f, c, gap);
			said = true;
		}
	}
	/* Which failure is each process's cause is chosen anew. */
	if (said)
		model_record_done(r);
}
