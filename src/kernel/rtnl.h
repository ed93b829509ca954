/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few route netlink requests rdmactl makes, over kernel/nl.c: for a lab
 * of namespaces, a bridge, veth pairs with one end in a namespace, addresses,
 * links up and deleted; for check, the route to an address. A socket works in
 * the namespace it was opened in.
 */
#ifndef RDMACTL_RTNL_H
#define RDMACTL_RTNL_H

#include <stdint.h>

#include <net/if.h>

struct nl;

/* R: a socket of kernel/nl.c's, opened with NETLINK_ROUTE. */

/* A bridge NAME (down). -EEXIST when the name is taken. */
int rtnl_bridge_add(struct nl *r, const char *name);
/* A veth pair: NAME here (enslaved to MASTER when not NULL), PEER in the namespace NSFD. */
int rtnl_veth_add(struct nl *r, const char *name, const char *master, const char *peer,
		  int nsfd);
/* NAME up. */
int rtnl_link_up(struct nl *r, const char *name);
/* Deletes NAME (a veth's peer goes with it). -ENODEV when there is none. */
int rtnl_link_del(struct nl *r, const char *name);
/* The IPv4 address ADDR/PREFIX on NAME. */
int rtnl_addr4_add(struct nl *r, const char *name, uint32_t addr_be, unsigned int prefix);

/*
 * The kernel's route to ADDR (IPv4 or IPv6 text; RTM_GETROUTE) in R's
 * namespace: 0 and the device it leaves by in DEV, or a negative errno.
 */
int rtnl_route_dev(struct nl *r, const char *addr, char dev[IF_NAMESIZE]);

#endif
