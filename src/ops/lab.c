// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A lab of N RDMA nodes on one machine (lab.h): planned, made, found and
 * deleted. The route netlink work of the initial namespace is done here; each
 * node's own (its addresses, its rxe link) in the node (lab_node.h); lab
 * test's selftests are lab_test.c's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/netdev.h"
#include "kernel/netns.h"
#include "kernel/nl.h"
#include "kernel/release.h"
#include "kernel/roce.h"
#include "kernel/rtnl.h"
#include "kernel/sysfs.h"
#include "ops/op_err.h"
#include "ops/lab.h"
#include "ops/lab_node.h"
#include "ops/link.h"
#include "ops/system.h"

const char *lab_name_invalid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > LAB_NAME_MAX || name[0] < 'a' || name[0] > 'z')
		return "a lab's name is 1 to " LAB_NAME_MAX_TEXT " lower-case letters, '-' or '_', "
		       "starting with a letter (the nodes are NAME1, NAME2, ...)";
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || name[i] == '-' || name[i] == '_'))
			return "a lab's name has no digits or other signs: only lower-case letters, "
			       "'-' or '_' (the nodes are NAME1, NAME2, ...)";
	return NULL;
}

static bool lab_name_ok(const char *name)
{
	return !lab_name_invalid(name);
}

static void node_names(struct lab *l, size_t i, unsigned int num)
{
	struct in_addr a = { htonl(l->net + num) };

	snprintf(l->node[i].netns, sizeof(l->node[i].netns), "%s%u", l->name, num);
	inet_ntop(AF_INET, &a, l->node[i].addr, sizeof(l->node[i].addr));
}

int lab_plan(struct lab *l, const char *name, unsigned long n, const char *subnet,
	     struct op_err *e)
{
	char addr[INET_ADDRSTRLEN];
	unsigned int prefix;
	struct in_addr a;
	uint32_t mask;
	int len;

	memset(l, 0, sizeof(*l));
	if (!lab_name_ok(name))
		return op_err_set(e, -EINVAL, NULL, "'%s' is no lab name: 1 to %d lower-case letters, "
				  "'-' or '_' (the nodes are NAME1, NAME2, ...)", name, LAB_NAME_MAX);
	if (n < 1 || n > LAB_MAX_NODES)
		return op_err_set(e, -EINVAL, NULL, "a lab has 1 to %d nodes, not %lu", LAB_MAX_NODES, n);
	if (sscanf(subnet, "%15[0-9.]/%u%n", addr, &prefix, &len) != 2 || subnet[len] ||
	    inet_pton(AF_INET, addr, &a) != 1 || prefix < 8 || prefix > 30)
		return op_err_set(e, -EINVAL, NULL, "--subnet takes an IPv4 subnet A.B.C.D/P with P "
				  "from 8 to 30, not '%s'", subnet);
	mask = ~0u << (32 - prefix);
	if (n > (~mask) - 1)
		return op_err_set(e, -EINVAL, NULL, "%s has room for %u nodes, not %lu", subnet,
				  (~mask) - 1, n);
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->net = ntohl(a.s_addr) & mask;
	l->prefix = prefix;
	l->n = n;
	for (size_t i = 0; i < n; i++)
		node_names(l, i, (unsigned int)i + 1);
	return 0;
}

/* The host end of node NETNS's veth pair. */
static void host_end(char *buf, size_t len, const char *netns)
{
	snprintf(buf, len, "%s-h", netns);
}

struct node_arg {
	const struct lab *l;
	size_t i;
	bool probe;		/* refuse when rxe opens no socket here */
};

static int node_setup(void *arg, void *out, struct op_err *e)
{
	const struct node_arg *a = arg;
	const struct lab_node *nd = &a->l->node[a->i];
	struct link_add_req req = { .name = nd->netns, .netdev = LAB_NETDEV };
	struct in_addr addr;
	struct nl *r;
	struct nl *nl;
	int err;

	(void)out;
	inet_pton(AF_INET, nd->addr, &addr);
	err = nl_open(&r, NETLINK_ROUTE);
	if (err)
		return op_err_set(e, err, NULL, "cannot open a route netlink socket in %s", nd->netns);
	err = rtnl_link_up(r, "lo");
	if (!err)
		err = rtnl_addr4_add(r, LAB_NETDEV, addr.s_addr, a->l->prefix);
	if (!err)
		err = rtnl_link_up(r, LAB_NETDEV);
	nl_close(r);
	if (err)
		return op_err_set(e, err, NULL, "cannot set %s up with %s/%u in %s", LAB_NETDEV,
				  nd->addr, a->l->prefix, nd->netns);
	err = nl_open(&nl, NETLINK_RDMA);
	if (err)
		return op_err_netlink_open(e, err, "");
	err = link_add(nl, &req, e);
	nl_close(nl);
	if (err)
		return err;
	if (a->probe && netns_udp_bound("", ROCE_V2_UDP_PORT) == 0)
		return op_err_set(e, -EOPNOTSUPP, NULL, "rdma_rxe of this kernel (%s) carries no "
				  "traffic from a network namespace but the initial one: it opened no "
				  "UDP %d socket in %s (before Linux 7.1 it has one, in the initial "
				  "namespace only). A lab of namespaces needs Linux 7.1 or later "
				  "(Debian's 7.3 is in trixie-backports)", release_name(""),
				  ROCE_V2_UDP_PORT, nd->netns);
	return 0;
}

/* Deletes the rxe link named as the node, seen from inside it; *OUT: there was one. */
static int node_unlink(void *arg, void *out, struct op_err *e)
{
	struct nl *nl;
	int err = nl_open(&nl, NETLINK_RDMA);

	if (err)
		return op_err_netlink_open(e, err, "");
	err = link_del_name(nl, arg, e);
	nl_close(nl);
	*(bool *)out = err == 1;
	return err < 0 ? err : 0;
}

/*
 * Removes node NETNS, whatever of it is there: its rxe link (from inside; from
 * here when it is not there, as exclusive mode leaves one unmoved), veth and
 * namespace. 0 when nothing of it was there; 1 when something was removed.
 */
static int node_remove(struct nl *r, const char *netns, struct op_err *e)
{
	char path[PATH_MAX], h[IF_NAMESIZE + 8];
	bool ns = netns_path(netns, path, sizeof(path)) == 0 && access(path, F_OK) == 0;
	bool inside = false;
	struct op_err ie = { 0 };
	struct nl *nl;
	int err, found = ns;

	if (ns && lab_node_run(netns, node_unlink, (void *)netns, &inside, sizeof(inside), &ie))
		return (*e = ie).err;
	if (!inside && nl_open(&nl, NETLINK_RDMA) == 0) {
		err = link_del_name(nl, netns, e);
		nl_close(nl);
		if (err < 0)
			return err;
		found |= err;
	}
	host_end(h, sizeof(h), netns);
	err = rtnl_link_del(r, h);
	if (err && err != -ENODEV)
		return op_err_set(e, err, NULL, "cannot delete %s", h);
	found |= !err;
	if (ns) {
		err = netns_del(netns);
		if (err)
			return op_err_set(e, err, NULL, "cannot delete network namespace %s", netns);
	}
	return found;
}

/* Removes nodes 0..N-1 of L, then its bridge when BRIDGE. */
static void undo(struct nl *r, const struct lab *l, size_t n, bool bridge)
{
	struct op_err ignore;

	for (size_t i = 0; i < n; i++)
		node_remove(r, l->node[i].netns, &ignore);
	if (bridge)
		rtnl_link_del(r, l->name);
}

static int node_add(struct nl *r, const struct lab *l, size_t i, int mode, struct op_err *e)
{
	const char *ns = l->node[i].netns;
	struct node_arg a = { .l = l, .i = i, .probe = i == 0 };
	char h[IF_NAMESIZE + 8], path[PATH_MAX];
	struct nl *nl;
	int err, fd;

	err = netns_add(ns);
	if (err)
		return op_err_set(e, err, NULL, err == -EEXIST ? "network namespace %s exists already "
				  "('ip netns list'): is a lab named %s there? ('rdmactl lab del %s')" :
				  "cannot make network namespace %s", ns, l->name, l->name);
	fd = netns_open(ns, path, sizeof(path));
	if (fd < 0)
		return op_err_set(e, fd, NULL, "cannot open %s", path);
	host_end(h, sizeof(h), ns);
	err = rtnl_veth_add(r, h, l->name, LAB_NETDEV, fd);
	if (err) {
		/* Only the namespace is this node's so far: a device named H is not. */
		close(fd);
		netns_del(ns);
		return op_err_set(e, err, NULL, err == -EEXIST ? "a network device named %s exists "
				  "already" : "cannot make the veth pair %s", h);
	}
	err = rtnl_link_up(r, h);
	if (err)
		op_err_set(e, err, NULL, "cannot set %s up", h);
	else
		err = lab_node_run(ns, node_setup, &a, NULL, 0, e);
	/* Exclusive mode made the device here, in the initial namespace: it moves in. */
	if (!err && mode == 0) {
		err = nl_open(&nl, NETLINK_RDMA);
		if (err) {
			op_err_netlink_open(e, err, "");
		} else {
			err = link_move(nl, ns, fd, ns, e);
			nl_close(nl);
		}
	}
	close(fd);
	if (err) {
		struct op_err ignore;

		node_remove(r, ns, &ignore);
	}
	return err;
}

int lab_add(const struct lab *l, struct op_err *e)
{
	struct nldev_sys sys = { -1, -1 };
	struct nl *r;
	struct nl *nl;
	size_t i;
	int err;

	err = nl_open(&nl, NETLINK_RDMA);
	if (err)
		return op_err_netlink_open(e, err, "");
	err = system_get(nl, &sys, e);
	nl_close(nl);
	if (err)
		return err;
	err = nl_open(&r, NETLINK_ROUTE);
	if (err)
		return op_err_set(e, err, NULL, "cannot open a route netlink socket");
	err = rtnl_bridge_add(r, l->name);
	if (err) {
		nl_close(r);
		return op_err_set(e, err, NULL, err == -EEXIST ? "a network device named %s exists "
				  "already: is a lab named so there? ('rdmactl lab del %s')" :
				  "cannot make the bridge %s", l->name, l->name);
	}
	err = rtnl_link_up(r, l->name);
	if (err)
		op_err_set(e, err, NULL, "cannot set the bridge %s up", l->name);
	/* A node that fails removes what it made of itself; the others go here. */
	for (i = 0; !err && i < l->n; i++) {
		err = node_add(r, l, i, sys.netns_mode, e);
		if (err)
			break;
	}
	if (err)
		undo(r, l, i, true);
	nl_close(r);
	return err;
}

/* NAME followed by digits only: node NAMEi's number, or 0. */
static unsigned int node_number(const char *entry, const char *name)
{
	size_t n = strlen(name);
	char *end;
	unsigned long v;

	if (strncmp(entry, name, n) || entry[n] < '1' || entry[n] > '9')
		return 0;
	v = strtoul(entry + n, &end, 10);
	return *end || v > LAB_MAX_NODES ? 0 : (unsigned int)v;
}

static int cmp_node(const void *a, const void *b)
{
	const struct lab_node *x = a, *y = b;
	size_t lx = strlen(x->netns), ly = strlen(y->netns);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->netns, y->netns);
}

/* Node NETNS's address: eth0's IPv4 as the node sees it. */
static int node_addr(void *arg, void *out, struct op_err *e)
{
	struct netdev nd;
	int err = netdev_get("", LAB_NETDEV, &nd);

	(void)arg;
	if (err)
		return op_err_set(e, err, NULL, "the node has no %s", LAB_NETDEV);
	snprintf(out, INET_ADDRSTRLEN, "%s", nd.ipv4);
	return *nd.ipv4 ? 0 : op_err_set(e, -EADDRNOTAVAIL, NULL, "%s has no IPv4 address",
					  LAB_NETDEV);
}

/* sysfs_list's EACH: an entry of /run/netns that is one of the lab's nodes. */
static int collect_node(void *arg, const char *entry)
{
	struct lab *l = arg;

	if (l->n < LAB_MAX_NODES && node_number(entry, l->name))
		snprintf(l->node[l->n++].netns, sizeof(l->node[0].netns), "%.15s", entry);
	return 0;
}

int lab_find(const char *name, struct lab *l, struct op_err *e)
{
	memset(l, 0, sizeof(*l));
	if (!lab_name_ok(name))
		return op_err_set(e, -EINVAL, NULL, "'%s' is no lab name", name);
	snprintf(l->name, sizeof(l->name), "%s", name);
	sysfs_list("", "/run/netns", collect_node, l);
	if (!l->n)
		return op_err_set(e, -ENOENT, NULL, "there is no lab named %s ('rdmactl lab add N' "
				  "makes one)", name);
	qsort(l->node, l->n, sizeof(l->node[0]), cmp_node);
	for (size_t i = 0; i < l->n; i++) {
		int err = lab_node_run(l->node[i].netns, node_addr, NULL, l->node[i].addr,
				   sizeof(l->node[i].addr), e);

		if (err)
			return op_err_add(e, "node %s of lab %s", l->node[i].netns, name), err;
	}
	return 0;
}

int lab_del(const char *name, size_t *nodes, struct op_err *e)
{
	struct lab l = { 0 };
	struct nl *r;
	int err = 0, found = 0;

	*nodes = 0;
	if (!lab_name_ok(name))
		return op_err_set(e, -EINVAL, NULL, "'%s' is no lab name", name);
	err = nl_open(&r, NETLINK_ROUTE);
	if (err)
		return op_err_set(e, err, NULL, "cannot open a route netlink socket");
	/* The nodes: by their namespaces, and by their veths where a namespace is gone. */
	snprintf(l.name, sizeof(l.name), "%s", name);
	sysfs_list("", "/run/netns", collect_node, &l);
	for (unsigned int i = 1; i <= LAB_MAX_NODES && l.n < LAB_MAX_NODES; i++) {
		char ns[16], h[IF_NAMESIZE + 8];
		bool listed = false;

		snprintf(ns, sizeof(ns), "%s%u", name, i);
		host_end(h, sizeof(h), ns);
		for (size_t k = 0; k < l.n; k++)
			listed |= !strcmp(l.node[k].netns, ns);
		if (!listed && if_nametoindex(h))
			snprintf(l.node[l.n++].netns, sizeof(l.node[0].netns), "%s", ns);
	}
	for (size_t i = 0; !err && i < l.n; i++) {
		int got = node_remove(r, l.node[i].netns, e);

		if (got < 0)
			err = got;
		else
			*nodes += (size_t)got;
	}
	if (!err) {
		int b = rtnl_link_del(r, name);

		if (b && b != -ENODEV)
			err = op_err_set(e, b, NULL, "cannot delete the bridge %s", name);
		found = !b;
	}
	nl_close(r);
	/* The kernel checks the privilege before it looks for what is named: said as that. */
	if (err == -EPERM || err == -EACCES)
		return op_err_set(e, err, NULL, "lab del needs root: it deletes the lab's "
				  "namespaces, veths and bridge");
	if (!err && !found && !*nodes)
		return op_err_set(e, -ENOENT, NULL, "there is no lab named %s (no namespace %s1..., "
				  "no bridge %s)", name, name, name);
	return err;
}
