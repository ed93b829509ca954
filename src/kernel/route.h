/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's route to an address (RTM_GETROUTE): which device it leaves by. */
#ifndef RDMACTL_ROUTE_H
#define RDMACTL_ROUTE_H

#include <net/if.h>

/* ADDR is IPv4 or IPv6 text. 0 and the device's name in DEV, or a negative errno. */
int route_dev(const char *addr, char dev[IF_NAMESIZE]);

#endif
