/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The port counters, named and explained, with their change (plain, JSON, Prometheus). */
#ifndef RDMACTL_VIEWS_STAT_H
#define RDMACTL_VIEWS_STAT_H

#include <stdio.h>

struct out;
struct model;

/*
 * M's counters, a port at a time, each with its meaning; with PREV (the
 * sample INTERVAL_S seconds before, NULL for none) the change since.
 */
void view_stat(struct out *o, const struct model *m, const struct model *prev,
	       unsigned int interval_s);
/* M's counters in Prometheus's text exposition format, for node_exporter's textfile collector. */
void view_stat_prometheus(FILE *f, const struct model *m);

#endif
