/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few route netlink requests a lab of namespaces needs (libmnl): a
 * bridge, veth pairs with one end in a namespace, addresses, links up and
 * deleted. A socket works in the namespace it was opened in.
 */
#ifndef RDMACTL_RTNL_H
#define RDMACTL_RTNL_H

#include <stdint.h>

struct rtnl;

int rtnl_open(struct rtnl **r);
void rtnl_close(struct rtnl *r);

/* A bridge NAME (down). -EEXIST when the name is taken. */
int rtnl_bridge_add(struct rtnl *r, const char *name);
/* A veth pair: NAME here (enslaved to MASTER when not NULL), PEER in the namespace NSFD. */
int rtnl_veth_add(struct rtnl *r, const char *name, const char *master, const char *peer,
		  int nsfd);
/* NAME up. */
int rtnl_link_up(struct rtnl *r, const char *name);
/* Deletes NAME (a veth's peer goes with it). -ENODEV when there is none. */
int rtnl_link_del(struct rtnl *r, const char *name);
/* The IPv4 address ADDR/PREFIX on NAME. */
int rtnl_addr4_add(struct rtnl *r, const char *name, uint32_t addr_be, unsigned int prefix);

#endif
