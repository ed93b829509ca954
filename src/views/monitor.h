/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monitor's events: a line each (plain), an object a line (JSON). */
#ifndef RDMACTL_VIEWS_MONITOR_H
#define RDMACTL_VIEWS_MONITOR_H

struct out;
struct monitor_event;

/* E, stamped with the wall clock's TIME ("2026-11-27T09:10:11.123Z"). */
void view_monitor_event(struct out *o, const struct monitor_event *e, const char *time);

#endif
