// SPDX-License-Identifier: GPL-2.0-or-later
/* The GID checks: the table agrees with the addresses; the index a program uses is right. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "model/gidrule.h"
#include "model/gid.h"
#include "kernel/sysfs.h"

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

	if (sysfs_read(c->sys->root, mac, sizeof(mac), "/sys/class/net/%s/address", netdev) <= 0 ||
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
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs(c, devs, CHECK_MAX_DEVS);
	struct ifaddrs *ifa = check_ctx_addrs(c);
	char fix[256], text[GID_ADDR_LEN];
	bool ok = true;

	if (n == 0 || !ifa) {
		check_report(c, V_SKIP, NULL, n ? "the addresses are read on the live system only" :
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
			    !check_ctx_on_netdev(c, a->ifa_name, d->netdev))
				continue;
			addr_gid(a->ifa_addr, g);
			if (port_has_gid(p, g, a->ifa_name))
				continue;
			model_gid_addr(g, text, sizeof(text));
			check_report(c, V_FAIL, fix, "%s on %s has no GID in %s's table", text, a->ifa_name,
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
			model_gid_addr(s->raw, text, sizeof(text));
			check_report(c, V_FAIL, fix, "GID %u of %s (%s) belongs to no address of %s: a stale "
				     "entry", s->index, d->name, text, s->netdev);
			ok = false;
		}
		/* ...and index 0 is the MAC's link-local GID. */
		if (p->ngids && p->gids[0].index == 0 && mac_gid(c, d->netdev, want) &&
		    memcmp(want, p->gids[0].raw, 16)) {
			model_gid_addr(p->gids[0].raw, text, sizeof(text));
			check_report(c, V_FAIL, fix, "GID 0 of %s is %s, not the fe80:: address %s's MAC gives",
				     d->name, text, d->netdev);
			ok = false;
		}
	}
	if (ok)
		check_report(c, V_PASS, NULL, "every address on the rxe netdevs has its GID, every GID an "
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
	struct ifaddrs *ifa = check_ctx_addrs(c);
	struct in_addr pa;
	struct in6_addr p6;

	if (peer && inet_pton(AF_INET6, peer, &p6) == 1) {
		bool ll = IN6_IS_ADDR_LINKLOCAL(&p6);

		for (size_t i = 0; i < p->ngids; i++) {
			const struct gid_slot *g = &p->gids[i];

			if (!g->empty && !model_gid_is_v4mapped(g->raw) && model_gid_is_link_local(g->raw) == ll &&
			    !strcmp(g->type, "RoCE v2") && check_ctx_on_netdev(c, g->netdev, netdev))
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

			if (g->empty || !model_gid_is_v4mapped(g->raw) || strcmp(g->type, "RoCE v2"))
				continue;
			memcpy(&a, g->raw + 12, 4);
			len = v4_prefix(ifa, a, g->netdev, &net);
			if (len >= 0 && (pa.s_addr & htonl(len ? ~0u << (32 - len) : 0)) == net.s_addr)
				return g->index;
		}
	}
	return model_port_ipv4_gid_index(p, NULL);
}

static void gid_index_one(struct check_ctx *c, const struct rdma_dev *d)
{
	const struct port *p = &d->ports[0];
	int64_t want = right_index(c, p, d->netdev, c->o.peer);
	const struct gid_slot *s = model_gidrule_slot(p, c->o.gid_index);
	const struct gid_slot *w = want >= 0 ? model_gidrule_slot(p, want) : NULL;
	char have[GID_ADDR_LEN] = "", good[GID_ADDR_LEN] = "", fix[64], why[200] = "", g[32];
	bool peer6 = c->o.peer && strchr(c->o.peer, ':');
	struct in6_addr p6;
	bool peer_ll = peer6 && inet_pton(AF_INET6, c->o.peer, &p6) == 1 && IN6_IS_ADDR_LINKLOCAL(&p6);

	if (s)
		model_gid_addr(s->raw, have, sizeof(have));
	if (w)
		model_gid_addr(w->raw, good, sizeof(good));
	/* The fix is the argument to pass: -g for rdma-core's examples, -x for perftest. */
	snprintf(fix, sizeof(fix), "-g %" PRId64 "   (perftest: -x %" PRId64 ")", want, want);
	snprintf(g, sizeof(g), "-g %" PRId64, c->o.gid_index);
	/* The rule every index is held to; then what a named peer's family asks. */
	if (!model_gidrule(d->name, p, c->o.gid_index, g, c->o.peer, why, sizeof(why))) {
		if (!c->o.peer && s && model_gid_is_link_local(s->raw))
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " (give --peer fe80::... if that is meant)");
	} else if (c->o.peer && !peer6 && !model_gid_is_v4mapped(s->raw))
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, an IPv6%s GID, but the peer %s is IPv4",
			 c->o.gid_index, have, model_gid_is_link_local(s->raw) ? " link-local" : "", c->o.peer);
	else if (peer6 && model_gid_is_v4mapped(s->raw))
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, an IPv4 GID, but the peer %s is IPv6",
			 c->o.gid_index, have, c->o.peer);
	else if (model_gid_is_link_local(s->raw) && peer6 && !peer_ll)
		snprintf(why, sizeof(why), "-g %" PRId64 " is %s, link-local, but the peer %s is off-link",
			 c->o.gid_index, have, c->o.peer);
	if (!*why) {
		check_report(c, V_PASS, NULL, "%s: -g %" PRId64 " is %s (%s on %s)%s%s", d->name,
			     c->o.gid_index, have, s->type, s->netdev, c->o.peer ? ", right for " : "",
			     c->o.peer ? c->o.peer : "");
		return;
	}
	if (want < 0) {
		snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", d->netdev);
		check_report(c, V_FAIL, fix, "GID index mismatch on %s: %s; no GID of the right family "
			     "exists: add an address to %s", d->name, why, d->netdev);
	} else
		check_report(c, V_FAIL, fix, "GID index mismatch on %s: %s (verbs programs then fail with "
			     "'failed to modify QP state to RTR'); use -g %" PRId64 " (%s on %s)", d->name,
			     why, want, good, w->netdev);
}

void check_gid_index(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs_or_skip(c, devs, CHECK_MAX_DEVS), zoned = 0;

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
		/* A peer's family picks the GID: IPv4, IPv6 global or link-local. */
		if (c->o.peer) {
			const struct gid_slot *w;
			int64_t want;

			/* A zoned link-local peer is on its zone's link, not any other. */
			if (c->o.peer_zone && !check_ctx_on_netdev(c, c->o.peer_zone, d->netdev))
				continue;
			zoned++;
			want = right_index(c, p, d->netdev, c->o.peer);
			w = want >= 0 ? model_gidrule_slot(p, want) : NULL;
			if (w) {
				model_gid_addr(w->raw, addr, sizeof(addr));
				check_report(c, V_PASS, NULL, "%s: RoCE v2 to %s: -g %" PRId64 " (%s on %s)",
					     d->name, c->o.peer, want, addr, w->netdev);
			} else {
				char fix[128];

				snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", d->netdev);
				check_report(c, V_FAIL, fix, "%s has no RoCE v2 GID of %s's family on %s: "
					     "add such an address to it", d->name, c->o.peer, d->netdev);
			}
			continue;
		}
		for (size_t k = 0; k < p->ngids; k++) {
			const struct gid_slot *g = &p->gids[k];

			if (g->empty || !model_gid_is_v4mapped(g->raw) || strcmp(g->type, "RoCE v2"))
				continue;
			model_gid_addr(g->raw, addr, sizeof(addr));
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s-g %u for %s on %s",
				 *list ? ", " : "", g->index, addr, g->netdev);
		}
		if (*list) {
			check_report(c, V_PASS, NULL, "%s: RoCE v2 over IPv4: %s", d->name, list);
		} else {
			char fix[128];

			snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", d->netdev);
			check_report(c, V_WARN, fix, "%s has no IPv4 GID: %s has no IPv4 address, so RoCE v2 "
				     "over IPv4 is impossible", d->name, d->netdev);
		}
	}
	if (c->o.peer_zone && c->o.gid_index < 0 && !zoned) {
		char fix[64];

		snprintf(fix, sizeof(fix), "rdmactl add %s", c->o.peer_zone);
		check_report(c, V_FAIL, fix, "no rxe device is on %s, the link --peer %s%%%s is on",
			     c->o.peer_zone, c->o.peer, c->o.peer_zone);
	}
}
