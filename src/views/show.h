/* SPDX-License-Identifier: GPL-2.0-or-later */
/* show, gids and netdevs: the devices, their ports and GID tables, and their netdevs (plain, JSON). */
#ifndef RDMACTL_VIEWS_SHOW_H
#define RDMACTL_VIEWS_SHOW_H

#include <stdbool.h>

struct out;
struct model;
struct netdev;

/* Every device of M and its ports (MODEL_MTU_LINK); with STATS, each port's counters. */
void view_show(struct out *o, const struct model *m, bool stats);
/* Every GID slot of M's ports, the one -g needs for RoCE v2 over IPv4 marked, and the count in use. */
void view_gids(struct out *o, const struct model *m);
/*
 * Each port of M and its device's netdev, as ibdev2netdev prints it: ND[i]
 * the netdev of M's device i as read (an empty operstate: not known).
 */
void view_netdevs(struct out *o, const struct model *m, const struct netdev *nd);

#endif
