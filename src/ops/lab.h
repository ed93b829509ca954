/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A lab: N RDMA nodes on one machine, each a network namespace NAME1..NAMEn
 * with a veth (eth0 inside, NAMEi-h on the bridge NAME outside), an IPv4
 * address of SUBNET (.i) and an rxe link named as its namespace. They never
 * print.
 */
#ifndef RDMACTL_OPS_LAB_H
#define RDMACTL_OPS_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "selftest/selftest.h"

struct op_err;

#define LAB_MAX_NODES 64
#define LAB_NAME_MAX 8		/* NAMEnn-h fits a netdev's 15 bytes */
#define LAB_NAME_MAX_TEXT "8"	/* the same, for messages */
#define LAB_NETDEV "eth0"	/* each node's netdev, as in a container */

struct lab_node {
	char netns[16];		/* NAMEi, also its rxe link's name */
	char addr[16];		/* dotted IPv4 */
};

struct lab {
	char name[LAB_NAME_MAX + 1];
	uint32_t net;		/* the subnet, host order; nodes get net + i */
	unsigned int prefix;
	size_t n;
	struct lab_node node[LAB_MAX_NODES];
};

/* Why NAME cannot name a lab, or NULL when it can. */
const char *lab_name_invalid(const char *name);

/* L's nodes for NAME, N nodes and SUBNET ("A.B.C.D/P"): -EINVAL with E saying what is wrong. */
int lab_plan(struct lab *l, const char *name, unsigned long n, const char *subnet,
	     struct op_err *e);
/*
 * Makes L: the bridge, then each node. Refused with -EOPNOTSUPP, and undone,
 * when rxe opens no socket in the first node's namespace (before Linux 7.1).
 * On any error everything made is removed.
 */
int lab_add(const struct lab *l, struct op_err *e);
/*
 * Removes the lab NAME: each node's rxe link, veth and namespace, then the
 * bridge, whatever of them is there. Into *NODES how many nodes it had;
 * -ENOENT when there was nothing of it.
 */
int lab_del(const char *name, size_t *nodes, struct op_err *e);
/* The lab NAME as it is: its nodes found in /run/netns, in order; -ENOENT for none. */
int lab_find(const char *name, struct lab *l, struct op_err *e);

/* One client's run against one server. */
struct lab_pair {
	unsigned int from, to;	/* node indexes */
	bool passed;
	uint64_t usec;
	struct st_fault f;	/* the first stage that failed */
};

/*
 * Proves L all-pairs: a selftest server in every node, and from every node a
 * selftest client against every other's. Into PAIRS (n*(n-1), caller frees)
 * the results in order (from, to); 0 when every pair passed, 1 when one
 * failed, or a negative errno when the test could not run.
 */
int lab_test(const struct lab *l, unsigned int timeout_ms, struct lab_pair **pairs,
	     size_t *npairs, struct op_err *e);

#endif
