/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network devices as rxe sees them: type, state, MTU, driver, VLAN parent, IPv4. */
#ifndef RDMACTL_NETDEV_H
#define RDMACTL_NETDEV_H

#include <stdbool.h>
#include <stddef.h>

#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>

struct netdev {
	char name[IF_NAMESIZE];
	unsigned int type;	/* ARPHRD_*: 1 is Ethernet, 772 loopback */
	unsigned int flags;	/* IFF_* */
	bool carrier;
	char operstate[16];
	unsigned int mtu;
	int speed;		/* Mb/s, -1 when the device does not say */
	char driver[32];
	bool is_vlan;
	char vlan_parent[IF_NAMESIZE];
	char ipv4[INET_ADDRSTRLEN];	/* the first IPv4 address, "" if none */
};

/* -ENODEV when there is no such device. */
int netdev_get(const char *root, const char *name, struct netdev *n);
/* Only NAME and type of N (one sysfs file): what add needs. */
int netdev_basic(const char *root, const char *name, struct netdev *n);
/* NAME's MTU alone (one sysfs file): what a link line needs; -ENODEV when unread. */
int netdev_mtu(const char *root, const char *name, unsigned int *mtu);
/* NAME's operstate alone ("up", "down", "lowerlayerdown"...); -ENODEV when unread. */
int netdev_operstate(const char *root, const char *name, char *buf, size_t len);
/* NAME, type, flags, carrier and operstate only (four files): -ENODEV when there is none. */
int netdev_get_link(const char *root, const char *name, struct netdev *n);
/* Whether N carries traffic by its operstate: "up", or "unknown" with a carrier. */
bool netdev_carries(const struct netdev *n);
/* Every device in ROOT/sys/class/net, sorted by name. */
int netdev_list(const char *root, struct netdev **v, size_t *n);
bool netdev_is_ethernet(const struct netdev *n);
/* The netdev of the IPv4 default route (ROOT/proc/net/route); "" when there is none. */
void netdev_default_route(const char *root, char *buf, size_t len);

#endif
