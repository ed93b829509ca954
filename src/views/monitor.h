/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monitor's events: a line each (plain), an object a line (JSON). */
#ifndef RDMACTL_VIEWS_MONITOR_H
#define RDMACTL_VIEWS_MONITOR_H

#include <stdbool.h>

struct out;
struct monitor_event;

/* E, stamped with the wall clock's TIME ("2026-11-27T09:10:11.123Z"). */
void view_monitor_event(struct out *o, const struct monitor_event *e, const char *time);
/*
 * monitor --journal's first entry: what it sees (refused verbs, rdma_cm's
 * events, QPs' error completions, the QPs and devices) and what not
 * (WHY_NOT, or NULL).
 */
void view_monitor_started(struct out *o, const char *time, bool verbs, bool rdma_cm,
			  bool completions, bool qps, const char *why_not);

#endif
