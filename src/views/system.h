/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system show: the RDMA subsystem's settings, in rdma system show's words (plain, JSON). */
#ifndef RDMACTL_VIEWS_SYSTEM_H
#define RDMACTL_VIEWS_SYSTEM_H

struct out;
struct nldev_sys;

/* S, today's settings, and BOOT, the namespace mode of the next boot (-1 not known). */
void view_system(struct out *o, const struct nldev_sys *s, int boot);

#endif
