// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of the RoCE network: link, MTU, GIDs, subnets, firewall, IPv6, counters. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "checks/checks.h"
#include "model/gid.h"
#include "kernel/netdev.h"
#include "kernel/route.h"
#include "kernel/sysfs.h"
#include "kernel/verbs.h"

#define MAX_DEVS 64

void check_link(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs(c, devs, MAX_DEVS);
	char fix[256], dflt[IF_NAMESIZE + 1];

	if (!sysfs_exists(c->o.root, "/sys/class/infiniband")) {
		report(c, V_SKIP, NULL, "no RDMA in this kernel to make a link with (see the kernel "
		       "check)");
		return;
	}
	if (!check_model(c)) {
		report(c, V_FAIL, NULL, "the RDMA devices cannot be read (%s)", strerror(-c->model_err));
		return;
	}
	if (n == 0 && c->no_rxe) {
		report(c, V_SKIP, NULL, "no rxe link can be made without rdma_rxe (see the kernel check)");
		return;
	}
	if (n == 0) {
		netdev_default_route(c->o.root, dflt, sizeof(dflt));
		snprintf(fix, sizeof(fix), "rdmactl add rxe0 %s", *dflt ? dflt : "NETDEV");
		if (c->o.dev)
			report(c, V_FAIL, fix, "there is no rxe device named %s", c->o.dev);
		else
			report(c, V_FAIL, fix, "there is no rxe link%s%s", *dflt ? "; the default route "
			       "leaves by " : "", dflt);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		struct netdev nd;

		if (netdev_get(c->o.root, d->netdev, &nd) < 0) {
			snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s NETDEV", d->name,
				 d->name);
			report(c, V_FAIL, fix, "%s's netdev %s does not exist", d->name,
			       *d->netdev ? d->netdev : "(none)");
			continue;
		}
		if (!netdev_is_ethernet(&nd)) {
			netdev_default_route(c->o.root, dflt, sizeof(dflt));
			snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s %s", d->name, d->name,
				 *dflt ? dflt : "NETDEV");
			report(c, V_FAIL, fix, "%s runs on %s, %s: its port carries no RoCE traffic to "
			       "other hosts", d->name, nd.name,
			       nd.flags & IFF_LOOPBACK ? "the loopback device" : "not an Ethernet device");
			continue;
		}
		for (size_t j = 0; j < d->nports; j++) {
			const struct port *p = &d->ports[j];

			if (p->state == 4) {
				report(c, V_PASS, NULL, "%s port %u on %s is ACTIVE", d->name, p->num,
				       nd.name);
				continue;
			}
			snprintf(fix, sizeof(fix), "ip link set %s up", nd.name);
			report(c, V_FAIL, nd.carrier ? NULL : fix,
			       "%s port %u is %s (%s): %s is %s, carrier %s", d->name, p->num,
			       ib_port_state_name(p->state), ib_phys_state_name(p->phys_state), nd.name,
			       nd.operstate, nd.carrier ? "on" : "off");
		}
	}
}

void check_mtu(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs_or_skip(c, devs, MAX_DEVS);

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		int active, max, want;
		struct netdev nd;
		char next[96] = "";

		if (netdev_get(c->o.root, d->netdev, &nd) < 0)
			continue;	/* the link check says why */
		if (!check_live(c) || verbs_port_mtu(d->name, 1, &active, &max) < 0) {
			report(c, V_SKIP, NULL, "%s: the active MTU needs the live system and ib_uverbs",
			       d->name);
			continue;
		}
		want = rxe_roce_mtu(nd.mtu);
		if (want < 4096)
			snprintf(next, sizeof(next), "; netdev MTU %d would give %d", want * 2 + 80,
				 want * 2);
		if (active != want)
			report(c, V_WARN, NULL, "%s: active MTU %d, but %s's MTU %u gives %d: the device "
			       "did not follow an MTU change (re-create it: rdmactl del %s && rdmactl add "
			       "%s %s)", d->name, active, nd.name, nd.mtu, want, d->name, d->name, nd.name);
		else
			report(c, V_PASS, NULL, "%s: %s's MTU %u gives RoCE MTU %d, as active%s", d->name,
			       nd.name, nd.mtu, active, next);
	}
}

/* Whether IFNAME is NETDEV or one of its VLAN (upper) devices. */
static bool on_netdev(const struct check_ctx *c, const char *ifname, const char *netdev)
{
	return !strcmp(ifname, netdev) ||
	       sysfs_exists(c->o.root, "/sys/class/net/%s/upper_%s", netdev, ifname);
}

/* ADDR of an interface as the GID RoCE v2 makes of it. */
static void addr_gid(const struct sockaddr *sa, uint8_t g[16])
{
	memset(g, 0, 16);
	if (sa->sa_family == AF_INET) {
		g[10] = g[11] = 0xff;
		memcpy(g + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else {
		memcpy(g, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
}

static bool port_has_gid(const struct port *p, const uint8_t g[16], const char *ifname)
{
	for (size_t i = 0; i < p->ngids; i++)
		if (!memcmp(p->gids[i].raw, g, 16) && !strcmp(p->gids[i].netdev, ifname))
			return true;
	return false;
}

static bool iface_has_addr(struct ifaddrs *ifa, const uint8_t g[16], const char *ifname)
{
	for (struct ifaddrs *i = ifa; i; i = i->ifa_next) {
		uint8_t a[16];

		if (!i->ifa_addr || strcmp(i->ifa_name, ifname) ||
		    (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		addr_gid(i->ifa_addr, a);
		if (!memcmp(a, g, 16))
			return true;
	}
	return false;
}

/* fe80::/64 with the EUI-64 of MAC: the default GID rdma_rxe gives index 0. */
static bool mac_gid(const struct check_ctx *c, const char *netdev, uint8_t g[16])
{
	char mac[32];
	unsigned int m[6];

	if (sysfs_read(c->o.root, mac, sizeof(mac), "/sys/class/net/%s/address", netdev) <= 0 ||
	    sscanf(mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 6)
		return false;
	memset(g, 0, 16);
	g[0] = 0xfe;
	g[1] = 0x80;
	g[8] = (uint8_t)(m[0] ^ 2);
	g[9] = (uint8_t)m[1];
	g[10] = (uint8_t)m[2];
	g[11] = 0xff;
	g[12] = 0xfe;
	g[13] = (uint8_t)m[3];
	g[14] = (uint8_t)m[4];
	g[15] = (uint8_t)m[5];
	return true;
}

void check_gid_consistency(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs(c, devs, MAX_DEVS);
	struct ifaddrs *ifa = check_addrs(c);
	char fix[256], text[GID_ADDR_LEN];
	bool ok = true;

	if (n == 0 || !ifa) {
		report(c, V_SKIP, NULL, n ? "the addresses are read on the live system only" :
		       "no rxe device to check (see the link check)");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		const struct port *p = &d->ports[0];
		uint8_t g[16], want[16];

		if (d->nports == 0)
			continue;
		/* Re-creating the device rebuilds its table from the addresses. */
		snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s %s", d->name, d->name,
			 d->netdev);
		/* Every address has its GID... */
		for (struct ifaddrs *a = ifa; a; a = a->ifa_next) {
			if (!a->ifa_addr || (a->ifa_addr->sa_family != AF_INET &&
					     a->ifa_addr->sa_family != AF_INET6) ||
			    !on_netdev(c, a->ifa_name, d->netdev))
				continue;
			addr_gid(a->ifa_addr, g);
			if (port_has_gid(p, g, a->ifa_name))
				continue;
			gid_addr(g, text, sizeof(text));
			report(c, V_FAIL, fix, "%s on %s has no GID in %s's table", text, a->ifa_name,
			       d->name);
			ok = false;
		}
		/* ...every GID an address (the MAC's fe80:: at index 0 aside)... */
		for (size_t k = 0; k < p->ngids; k++) {
			const struct gid_slot *s = &p->gids[k];

			if (s->empty || !*s->netdev || iface_has_addr(ifa, s->raw, s->netdev))
				continue;
			if (s->index == 0 && mac_gid(c, s->netdev, want) && !memcmp(want, s->raw, 16))
				continue;
			gid_addr(s->raw, text, sizeof(text));
			report(c, V_FAIL, fix, "GID %u of %s (%s) belongs to no address of %s: a stale "
			       "entry", s->index, d->name, text, s->netdev);
			ok = false;
		}
		/* ...and index 0 is the MAC's link-local GID. */
		if (p->ngids && p->gids[0].index == 0 && mac_gid(c, d->netdev, want) &&
		    memcmp(want, p->gids[0].raw, 16)) {
			gid_addr(p->gids[0].raw, text, sizeof(text));
			report(c, V_FAIL, fix, "GID 0 of %s is %s, not the fe80:: address %s's MAC gives",
			       d->name, text, d->netdev);
			ok = false;
		}
	}
	if (ok)
		report(c, V_PASS, NULL, "every address on the rxe netdevs has its GID, every GID an "
		       "address, and GID 0 matches the MAC");
}

/* IPv4 prefix length of address A on IFNAME (from getifaddrs), -1 if not there. */
static int v4_prefix(struct ifaddrs *ifa, struct in_addr a, const char *ifname, struct in_addr *net)
{
	for (struct ifaddrs *i = ifa; i; i = i->ifa_next) {
		uint32_t mask;

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !i->ifa_netmask ||
		    (ifname && strcmp(i->ifa_name, ifname)) ||
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr != a.s_addr)
			continue;
		mask = ntohl(((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr);
		net->s_addr = a.s_addr & htonl(mask);
		return __builtin_popcount(mask);
	}
	return -1;
}

/* The GID index RoCE v2 to PEER (NULL: to an IPv4 peer) should use on port P. */
static int64_t right_index(struct check_ctx *c, const struct port *p, const char *netdev,
			   const char *peer)
{
	struct ifaddrs *ifa = check_addrs(c);
	struct in_addr pa;
	struct in6_addr p6;

	if (peer && inet_pton(AF_INET6, peer, &p6) == 1) {
		bool ll = IN6_IS_ADDR_LINKLOCAL(&p6);

		for (size_t i = 0; i < p->ngids; i++) {
			const struct gid_slot *g = &p->gids[i];

			if (!g->empty && !gid_is_v4mapped(g->raw) && gid_is_link_local(g->raw) == ll &&
			    !strcmp(g->type, "RoCE v2") && on_netdev(c, g->netdev, netdev))
				return g->index;
		}
		return -1;
	}
	/* IPv4: the GID of the address on the peer's subnet, else the first. */
	if (peer && inet_pton(AF_INET, peer, &pa) == 1 && ifa) {
		for (size_t i = 0; i < p->ngids; i++) {
			const struct gid_slot *g = &p->gids[i];
			struct in_addr a, net;
			int len;

			if (g->empty || !gid_is_v4mapped(g->raw) || strcmp(g->type, "RoCE v2"))
				continue;
			memcpy(&a, g->raw + 12, 4);
			len = v4_prefix(ifa, a, g->netdev, &net);
			if (len >= 0 && (pa.s_addr & htonl(len ? ~0u << (32 - len) : 0)) == net.s_addr)
				return g->index;
		}
	}
	return port_ipv4_gid_index(p, NULL);
}

static const struct gid_slot *slot(const struct port *p, int64_t index)
{
	for (size_t i = 0; i < p->ngids; i++)
		if (p->gids[i].index == index && !p->gids[i].empty)
			return &p->gids[i];
	return NULL;
}

static void gid_index_one(struct check_ctx *c, const struct rdma_dev *d)
{
	const struct port *p = &d->ports[0];
	int64_t want = right_index(c, p, d->netdev, c->o.peer);
	const struct gid_slot *s = slot(p, c->o.gid_index), *w = want >= 0 ? slot(p, want) : NULL;
	char have[GID_ADDR_LEN] = "", good[GID_ADDR_LEN] = "", fix[64], why[160] = "";
	bool peer6 = c->o.peer && strchr(c->o.peer, ':');
	struct in6_addr p6;
	bool peer_ll = peer6 && inet_pton(AF_INET6, c->o.peer, &p6) == 1 && IN6_IS_ADDR_LINKLOCAL(&p6);

	if (s)
		gid_addr(s->raw, have, sizeof(have));
	if (w)
		gid_addr(w->raw, good, sizeof(good));
	/* The fix is the argument to pass: -g for rdma-core's examples, -x for perftest. */
	snprintf(fix, sizeof(fix), "-g %" PRId64 "   (perftest: -x %" PRId64 ")", want, want);
	if (!s)
		snprintf(why, sizeof(why), "slot %" PRId64 " of %s is empty", c->o.gid_index, d->name);
	else if (strcmp(s->type, "RoCE v2"))
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, a %s GID, not RoCE v2", c->o.gid_index,
			 have, *s->type ? s->type : "typeless");
	else if (c->o.peer && !peer6 && !gid_is_v4mapped(s->raw))
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, an IPv6%s GID, but the peer %s is IPv4",
			 c->o.gid_index, have, gid_is_link_local(s->raw) ? " link-local" : "", c->o.peer);
	else if (peer6 && gid_is_v4mapped(s->raw))
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, an IPv4 GID, but the peer %s is IPv6",
			 c->o.gid_index, have, c->o.peer);
	else if (gid_is_link_local(s->raw) && peer6 && !peer_ll)
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, link-local, but the peer %s is off-link",
			 c->o.gid_index, have, c->o.peer);
	else if (gid_is_link_local(s->raw) && !c->o.peer && want >= 0)
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, the link-local IPv6 GID: it works only "
			 "between fe80:: GIDs on one link (give --peer fe80::... if that is meant)",
			 c->o.gid_index, have);
	if (!*why) {
		report(c, V_PASS, NULL, "%s: -g %" PRId64 " is %s (%s on %s)%s%s", d->name,
		       c->o.gid_index, have, s->type, s->netdev, c->o.peer ? ", right for " : "",
		       c->o.peer ? c->o.peer : "");
		return;
	}
	if (want < 0)
		report(c, V_FAIL, NULL, "GID index mismatch on %s: %s; no GID of the right family "
		       "exists: add an address to %s", d->name, why, d->netdev);
	else
		report(c, V_FAIL, fix, "GID index mismatch on %s: %s (verbs programs then fail with "
		       "'failed to modify QP state to RTR'); use -g %" PRId64 " (%s on %s)", d->name,
		       why, want, good, w->netdev);
}

void check_gid_index(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs_or_skip(c, devs, MAX_DEVS);

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		char list[512] = "", addr[GID_ADDR_LEN];
		const struct port *p;

		if (d->nports == 0)
			continue;
		if (c->o.gid_index >= 0) {
			gid_index_one(c, d);
			continue;
		}
		p = &d->ports[0];
		for (size_t k = 0; k < p->ngids; k++) {
			const struct gid_slot *g = &p->gids[k];

			if (g->empty || !gid_is_v4mapped(g->raw) || strcmp(g->type, "RoCE v2"))
				continue;
			gid_addr(g->raw, addr, sizeof(addr));
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s-g %u for %s on %s",
				 *list ? ", " : "", g->index, addr, g->netdev);
		}
		if (*list) {
			report(c, V_PASS, NULL, "%s: RoCE v2 over IPv4: %s", d->name, list);
		} else {
			char fix[128];

			snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", d->netdev);
			report(c, V_WARN, fix, "%s has no IPv4 GID: %s has no IPv4 address, so RoCE v2 "
			       "over IPv4 is impossible", d->name, d->netdev);
		}
	}
}

void check_subnet(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs(c, devs, MAX_DEVS);
	struct ifaddrs *ifa = check_addrs(c);
	char fix[256], rp[8], rpall[8] = "0";
	bool ok = true;

	if (n == 0 || !ifa) {
		report(c, V_SKIP, NULL, n ? "addresses and routes are read on the live system only" :
		       "no rxe device to check (see the link check)");
		return;
	}
	/* Two rxe netdevs with IPv4 addresses in one subnet. */
	for (struct ifaddrs *a = ifa; a; a = a->ifa_next) {
		for (struct ifaddrs *b = a->ifa_next; b; b = b->ifa_next) {
			const struct rdma_dev *da = NULL, *db = NULL;
			uint32_t ma, mb, m, x, y;
			char sa[INET_ADDRSTRLEN], sb[INET_ADDRSTRLEN];

			if (!a->ifa_addr || !b->ifa_addr || a->ifa_addr->sa_family != AF_INET ||
			    b->ifa_addr->sa_family != AF_INET || !a->ifa_netmask || !b->ifa_netmask ||
			    !strcmp(a->ifa_name, b->ifa_name))
				continue;
			for (size_t i = 0; i < n; i++) {
				if (on_netdev(c, a->ifa_name, devs[i]->netdev))
					da = devs[i];
				if (on_netdev(c, b->ifa_name, devs[i]->netdev))
					db = devs[i];
			}
			if (!da || !db || da == db)
				continue;
			ma = ntohl(((struct sockaddr_in *)a->ifa_netmask)->sin_addr.s_addr);
			mb = ntohl(((struct sockaddr_in *)b->ifa_netmask)->sin_addr.s_addr);
			m = ma & mb;	/* the shorter prefix */
			x = ntohl(((struct sockaddr_in *)a->ifa_addr)->sin_addr.s_addr);
			y = ntohl(((struct sockaddr_in *)b->ifa_addr)->sin_addr.s_addr);
			if ((x & m) != (y & m))
				continue;
			inet_ntop(AF_INET, &((struct sockaddr_in *)a->ifa_addr)->sin_addr, sa, sizeof(sa));
			inet_ntop(AF_INET, &((struct sockaddr_in *)b->ifa_addr)->sin_addr, sb, sizeof(sb));
			snprintf(fix, sizeof(fix), "give %s and %s different subnets (ip addr del/add), "
				 "or use one rxe device", a->ifa_name, b->ifa_name);
			report(c, V_FAIL, fix, "%s (%s on %s) and %s (%s on %s) are in one IPv4 subnet in "
			       "one namespace: RC over their IPv4 GIDs fails at RTR, because the route "
			       "to a local address goes via lo", da->name, sa, a->ifa_name, db->name, sb,
			       b->ifa_name);
			ok = false;
		}
	}
	/* Strict reverse-path filtering drops RoCE packets that arrive "asymmetrically". */
	sysfs_read(c->o.root, rpall, sizeof(rpall), "/proc/sys/net/ipv4/conf/all/rp_filter");
	for (size_t i = 0; i < n; i++) {
		if (sysfs_read(c->o.root, rp, sizeof(rp), "/proc/sys/net/ipv4/conf/%s/rp_filter",
			       devs[i]->netdev) <= 0)
			continue;
		if (atoi(rp) == 1 || (atoi(rpall) == 1 && atoi(rp) != 2)) {
			snprintf(fix, sizeof(fix), "sysctl -w net.ipv4.conf.all.rp_filter=2 "
				 "net.ipv4.conf.%s.rp_filter=2", devs[i]->netdev);
			report(c, V_WARN, fix, "strict rp_filter on %s (%s's netdev): RoCE packets whose "
			       "reverse route leaves elsewhere are dropped", devs[i]->netdev,
			       devs[i]->name);
			ok = false;
		}
	}
	if (c->o.peer) {
		char dev[IF_NAMESIZE];
		int err = route_dev(c->o.peer, dev);
		bool rxe = false;

		for (size_t i = 0; !err && i < n; i++)
			rxe |= on_netdev(c, dev, devs[i]->netdev);
		if (err) {
			report(c, V_FAIL, NULL, "there is no route to %s (%s)", c->o.peer, strerror(-err));
			ok = false;
		} else if (!rxe && strcmp(dev, "lo")) {
			snprintf(fix, sizeof(fix), "rdmactl add %s", dev);
			report(c, V_FAIL, fix, "the route to %s leaves by %s, which carries no rxe device "
			       "(add one there, or route %s by an rxe netdev)", c->o.peer, dev, c->o.peer);
			ok = false;
		} else {
			report(c, V_PASS, NULL, "the route to %s leaves by %s%s", c->o.peer, dev,
			       strcmp(dev, "lo") ? ", an rxe netdev" : " (a local address: loopback)");
		}
	}
	if (ok && !c->o.peer)
		report(c, V_PASS, NULL, "no two rxe netdevs share an IPv4 subnet; no strict rp_filter");
}

void check_ipv6(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs_or_skip(c, devs, MAX_DEVS);
	char v[8], fix[128];
	bool ok = true;

	if (n == 0)
		return;
	if (!sysfs_exists(c->o.root, "/proc/sys/net/ipv6")) {
		report(c, V_WARN, "remove ipv6.disable=1 from the kernel command line",
		       "IPv6 is off in this kernel: the fe80:: GIDs (index 0) cannot be used");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (sysfs_read(c->o.root, v, sizeof(v), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
			       devs[i]->netdev) > 0 && !strcmp(v, "1")) {
			snprintf(fix, sizeof(fix), "sysctl -w net.ipv6.conf.%s.disable_ipv6=0",
				 devs[i]->netdev);
			report(c, V_WARN, fix, "IPv6 is disabled on %s: %s's fe80:: GID (index 0) has no "
			       "address behind it and cannot be used", devs[i]->netdev, devs[i]->name);
			ok = false;
		}
	}
	if (ok)
		report(c, V_PASS, NULL, "IPv6 is enabled on every rxe netdev");
}

/* rxe's error counters and what a non-zero value has meant. */
static const struct {
	const char *name;
	const char *meaning;
} trouble[] = {
	{ "retry_exceeded_err", "a peer stopped answering: firewall on UDP 4791, route, MTU, or its QP is gone" },
	{ "retry_rnr_exceeded_err", "a peer had no receive posted for too long (RNR)" },
	{ "completer_retry_err", "requests were sent again for want of an ACK" },
	{ "send_err", "packets could not be sent (netdev down, no route)" },
	{ "link_downed", "the port went down" },
	{ "rcvd_seq_err", "packets arrived out of sequence: loss on the path" },
	{ "rcvd_rnr_err", "this side answered RNR: a receive queue ran empty" },
	{ "out_of_seq_request", "requests arrived out of sequence" },
};

void check_counters(struct check_ctx *c)
{
	const struct rdma_dev *devs[MAX_DEVS];
	size_t n = check_rxe_devs_or_skip(c, devs, MAX_DEVS);
	bool ok = true;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < devs[i]->nports; j++) {
			const struct port *p = &devs[i]->ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				for (size_t t = 0; t < sizeof(trouble) / sizeof(trouble[0]); t++) {
					if (strcmp(p->counters[k].name, trouble[t].name) ||
					    p->counters[k].value == 0)
						continue;
					report(c, V_WARN, NULL, "%s port %u: %s is %" PRIu64 ": %s",
					       devs[i]->name, p->num, trouble[t].name,
					       p->counters[k].value, trouble[t].meaning);
					ok = false;
				}
			}
		}
	}
	if (ok)
		report(c, V_PASS, NULL, "no rxe error counter has moved");
}
