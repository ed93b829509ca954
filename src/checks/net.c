// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of the RoCE network: link, MTU, subnets, IPv6, counters. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "kernel/roce.h"
#include "model/counter.h"
#include "kernel/netdev.h"
#include "kernel/rtnl.h"
#include "kernel/sysfs.h"

/* No rxe device to check: what --dev named, or that there is none, and the link to make. */
static void no_link(struct check_ctx *c)
{
	char fix[256], dflt[IF_NAMESIZE + 1];
	struct netdev nd;

	netdev_default_route(c->sys->root, dflt, sizeof(dflt));
	snprintf(fix, sizeof(fix), "rdmactl add %s %s", c->o.dev ? c->o.dev : "rxe0",
		 *dflt ? dflt : "NETDEV");
	/* --dev named a netdev: the link to make is on it, under an rxe name. */
	if (c->o.dev && netdev_basic(c->sys->root, c->o.dev, &nd) == 0) {
		const struct model *m = check_ctx_model(c);
		const struct rdma_dev *on = m ? model_rxe_on(m, c->o.dev) : NULL;

		if (on)
			snprintf(fix, sizeof(fix), "rdmactl check --dev %s", on->name);
		else
			snprintf(fix, sizeof(fix), "rdmactl add %s", c->o.dev);
		check_report(c, V_FAIL, fix, "%s is a netdev, not an rxe device: --dev takes the "
			     "rxe device's name ('rdmactl link' lists them)%s%s", c->o.dev,
			     on ? "; the one on it is " : ", and it carries none",
			     on ? on->name : "");
	} else if (c->o.dev)
		check_report(c, V_FAIL, fix, "there is no rxe device named %s", c->o.dev);
	else
		check_report(c, V_FAIL, fix, "there is no rxe link%s%s", *dflt ? "; the default route "
			     "leaves by " : "", dflt);
}

/* D's netdev: there, and an Ethernet device that is not the loopback; else said. */
static bool netdev_ok(struct check_ctx *c, const struct rdma_dev *d)
{
	const struct port *p0 = d->nports ? &d->ports[0] : NULL;	/* rxe has one */
	char fix[256], dflt[IF_NAMESIZE + 1];

	if (!p0 || !p0->netdev_exists) {
		snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s NETDEV", d->name,
			 d->name);
		check_report(c, V_FAIL, fix, "%s's netdev %s does not exist", d->name,
			     *d->netdev ? d->netdev : "(none)");
		return false;
	}
	if (p0->netdev_type != ARPHRD_ETHER || (p0->netdev_flags & IFF_LOOPBACK)) {
		netdev_default_route(c->sys->root, dflt, sizeof(dflt));
		snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s %s", d->name, d->name,
			 *dflt ? dflt : "NETDEV");
		check_report(c, V_FAIL, fix, "%s runs on %s, %s: its port carries no RoCE traffic to "
			     "other hosts", d->name, p0->netdev,
			     p0->netdev_flags & IFF_LOOPBACK ? "the loopback device" :
			     "not an Ethernet device");
		return false;
	}
	return true;
}

/* Each port of D: ACTIVE, or why not and what sets it up. */
static void ports_state(struct check_ctx *c, const struct rdma_dev *d)
{
	char fix[256];

	for (size_t j = 0; j < d->nports; j++) {
		const struct port *p = &d->ports[j];

		if (p->state == 4) {
			check_report(c, V_PASS, NULL, "%s port %u on %s is ACTIVE", d->name, p->num,
				     p->netdev);
			continue;
		}
		/* Down: set it up; up with a carrier: the device did not follow it. */
		if (p->carrier)
			snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s %s", d->name,
				 d->name, p->netdev);
		else
			snprintf(fix, sizeof(fix), "ip link set %s up", p->netdev);
		check_report(c, V_FAIL, fix,
			     "%s port %u is %s (%s): %s is %s, carrier %s", d->name, p->num,
			     model_port_state_name(p->state),
			     model_phys_state_name(p->phys_state), p->netdev,
			     *p->operstate ? p->operstate : "unknown",
			     p->carrier ? "on" : "off");
	}
}

void check_link(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs(c, devs, CHECK_MAX_DEVS);
	const struct rdma_dev *named;

	if (!sysfs_exists(c->sys->root, "/sys/class/infiniband")) {
		check_report(c, V_SKIP, NULL, "no RDMA in this kernel to make a link with (see the kernel "
			     "check)");
		return;
	}
	if (!check_ctx_model(c)) {
		check_report(c, V_FAIL, "rdmactl show", "the RDMA devices cannot be read (%s)",
			     strerror(-c->model_err));
		return;
	}
	if (n == 0 && c->no_rxe) {
		check_report(c, V_SKIP, NULL, "no rxe link can be made without rdma_rxe (see the kernel check)");
		return;
	}
	named = c->o.dev ? model_find(check_ctx_model(c), c->o.dev) : NULL;
	if (n == 0 && named && !strcmp(named->driver, "rxe") && !check_dev_here(c, named)) {
		check_report(c, V_SKIP, NULL, "%s is another network namespace's (see the netns check)",
			     c->o.dev);
		return;
	}
	if (n == 0) {
		no_link(c);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (netdev_ok(c, devs[i]))
			ports_state(c, devs[i]);
}

void check_mtu(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs_or_skip(c, devs, CHECK_MAX_DEVS);

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		const struct port *p = d->nports ? &d->ports[0] : NULL;	/* rxe has one */
		int want, max;
		char next[96] = "", fix[256];

		if (!p || p->netdev_mtu <= 0)
			continue;	/* the link check says why */
		/* What the driver would set for this netdev MTU, against what it reports. */
		model_rxe_port_mtu((unsigned int)p->netdev_mtu, &want, &max);
		if (p->mtu_source != MTU_DEVICE) {
			/* link shows WANT (it follows from the netdev); the device's own word is live. */
			check_report(c, V_SKIP, NULL, "%s: %s's MTU %d gives RoCE MTU %d, as link shows; "
				     "whether the device followed it is asked of the device itself "
				     "(libibverbs), on the live system with ib_uverbs only", d->name,
				     p->netdev, p->netdev_mtu, want);
			continue;
		}
		if (want < 4096)
			snprintf(next, sizeof(next), "; netdev MTU %d would give %d",
				 want * 2 + ROCE_HEADERS, want * 2);
		snprintf(fix, sizeof(fix), "rdmactl del %s && rdmactl add %s %s", d->name, d->name,
			 p->netdev);
		if (p->active_mtu != want)
			check_report(c, V_WARN, fix, "%s: active MTU %d, but %s's MTU %d gives %d: the device "
				     "did not follow an MTU change (re-create it: rdmactl del %s && rdmactl add "
				     "%s %s)", d->name, p->active_mtu, p->netdev, p->netdev_mtu, want, d->name,
				     d->name, p->netdev);
		else
			check_report(c, V_PASS, NULL, "%s: %s's MTU %d gives RoCE MTU %d, as active%s",
				     d->name, p->netdev, p->netdev_mtu, p->active_mtu, next);
	}
}

/* Two rxe netdevs of DEVS (N) with IPv4 addresses in one subnet, each pair said; false when any. */
static bool subnets_apart(struct check_ctx *c, const struct rdma_dev *const *devs, size_t n,
			  struct ifaddrs *ifa)
{
	char fix[256];
	bool ok = true;

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
				if (check_ctx_on_netdev(c, a->ifa_name, devs[i]->netdev))
					da = devs[i];
				if (check_ctx_on_netdev(c, b->ifa_name, devs[i]->netdev))
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
			check_report(c, V_FAIL, fix, "%s (%s on %s) and %s (%s on %s) are in one IPv4 subnet in "
				     "one namespace: RC over their IPv4 GIDs fails at RTR, because the route "
				     "to a local address goes via lo", da->name, sa, a->ifa_name, db->name, sb,
				     b->ifa_name);
			ok = false;
		}
	}
	return ok;
}

/* Strict reverse-path filtering drops RoCE packets that arrive "asymmetrically": false when on. */
static bool rp_filter_loose(struct check_ctx *c, const struct rdma_dev *const *devs, size_t n)
{
	char fix[256], rp[8], rpall[8] = "0";
	bool ok = true;

	sysfs_read(c->sys->root, rpall, sizeof(rpall), "/proc/sys/net/ipv4/conf/all/rp_filter");
	for (size_t i = 0; i < n; i++) {
		if (sysfs_read(c->sys->root, rp, sizeof(rp), "/proc/sys/net/ipv4/conf/%s/rp_filter",
			       devs[i]->netdev) <= 0)
			continue;
		if (atoi(rp) == 1 || (atoi(rpall) == 1 && atoi(rp) != 2)) {
			snprintf(fix, sizeof(fix), "sysctl -w net.ipv4.conf.all.rp_filter=2 "
				 "net.ipv4.conf.%s.rp_filter=2", devs[i]->netdev);
			check_report(c, V_WARN, fix, "strict rp_filter on %s (%s's netdev): RoCE packets whose "
				     "reverse route leaves elsewhere are dropped", devs[i]->netdev,
				     devs[i]->name);
			ok = false;
		}
	}
	return ok;
}

/* --peer's route: it leaves by an rxe netdev (or lo), said either way. */
static void peer_route(struct check_ctx *c, const struct rdma_dev *const *devs, size_t n)
{
	char fix[256], dev[IF_NAMESIZE];
	struct nl *r;
	int err = 0;
	bool rxe = false;

	/* A link-local peer is reached by the netdev its zone names, no route. */
	if (c->o.peer_zone)
		snprintf(dev, sizeof(dev), "%s", c->o.peer_zone);
	else if (!(err = model_sys_route(c->sys, &r)))
		err = rtnl_route_dev(r, c->o.peer, dev);

	for (size_t i = 0; !err && i < n; i++)
		rxe |= check_ctx_on_netdev(c, dev, devs[i]->netdev);
	if (err) {
		check_report(c, V_FAIL, "ip route add PEER/PREFIX via GATEWAY dev NETDEV",
			     "there is no route to %s (%s)", c->o.peer, strerror(-err));
	} else if (!rxe && strcmp(dev, "lo")) {
		snprintf(fix, sizeof(fix), "rdmactl add %s", dev);
		check_report(c, V_FAIL, fix, "the route to %s leaves by %s, which carries no rxe device "
			     "(add one there, or route %s by an rxe netdev)", c->o.peer, dev, c->o.peer);
	} else {
		check_report(c, V_PASS, NULL, "the route to %s leaves by %s%s", c->o.peer, dev,
			     strcmp(dev, "lo") ? ", an rxe netdev" : " (a local address: loopback)");
	}
}

void check_subnet(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs(c, devs, CHECK_MAX_DEVS);
	struct ifaddrs *ifa = check_ctx_addrs(c);
	bool ok;

	if (n == 0 || !ifa) {
		check_report(c, V_SKIP, NULL, n ? "addresses and routes are read on the live system only" :
			     "no rxe device to check (see the link check)");
		return;
	}
	ok = subnets_apart(c, devs, n, ifa);
	ok = rp_filter_loose(c, devs, n) && ok;
	if (c->o.peer)
		peer_route(c, devs, n);
	else if (ok)
		check_report(c, V_PASS, NULL, "no two rxe netdevs share an IPv4 subnet; no strict rp_filter");
}

void check_ipv6(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs_or_skip(c, devs, CHECK_MAX_DEVS);
	char v[8], fix[128];
	bool ok = true;

	if (n == 0)
		return;
	if (!sysfs_exists(c->sys->root, "/proc/sys/net/ipv6")) {
		check_report(c, V_WARN, "remove ipv6.disable=1 from the kernel command line",
			     "IPv6 is off in this kernel: the fe80:: GIDs (index 0) cannot be used");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (sysfs_read(c->sys->root, v, sizeof(v), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
			       devs[i]->netdev) > 0 && !strcmp(v, "1")) {
			snprintf(fix, sizeof(fix), "sysctl -w net.ipv6.conf.%s.disable_ipv6=0",
				 devs[i]->netdev);
			check_report(c, V_WARN, fix, "IPv6 is disabled on %s: %s's fe80:: GID (index 0) has no "
				     "address behind it and cannot be used", devs[i]->netdev, devs[i]->name);
			ok = false;
		}
	}
	if (ok)
		check_report(c, V_PASS, NULL, "IPv6 is enabled on every rxe netdev");
}

void check_counters(struct check_ctx *c)
{
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	size_t n = check_ctx_rxe_devs_or_skip(c, devs, CHECK_MAX_DEVS);
	bool ok = true;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < devs[i]->nports; j++) {
			const struct port *p = &devs[i]->ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				const struct model_counter_info *t =
					model_counter_info(p->counters[k].name);

				char fix[192];

				if (!t || !t->trouble || p->counters[k].value == 0)
					continue;
				/* Past trouble: which QP has it now, and whether it still moves. */
				snprintf(fix, sizeof(fix), "rdmactl qp %s; rdmactl stat %s --interval 5",
					 devs[i]->name, devs[i]->name);
				check_report(c, V_WARN, fix, "%s port %u: %s is %" PRIu64 ": %s",
					     devs[i]->name, p->num, p->counters[k].name,
					     p->counters[k].value, t->trouble);
				ok = false;
			}
		}
	}
	if (ok)
		check_report(c, V_PASS, NULL, "no rxe error counter has moved");
}
