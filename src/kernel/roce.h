/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RoCE v2 facts every layer shares, from the kernel's up: one home for each. */
#ifndef RDMACTL_ROCE_H
#define RDMACTL_ROCE_H

/* The UDP port RoCE v2 packets go to (IANA's, and rdma_rxe's socket). */
#define ROCE_V2_UDP_PORT 4791

/*
 * What RoCE v2 puts around a payload in an Ethernet frame's MTU, as rdma_rxe
 * reserves it: IPv4 (20), UDP (8), the base transport header (12), the
 * extended transport headers it leaves room for, and the ICRC (4): 80.
 */
#define ROCE_HEADERS 80

/*
 * The modules Soft-RoCE needs, in the order start loads them: the core, the
 * user-space verbs interface, rdma_ucm (/dev/infiniband/rdma_cm, for rdma_cm
 * programs) and the driver. What start loads and what check looks at.
 */
#define RXE_NMODULES 4
static const char *const rxe_modules[RXE_NMODULES] = {
	"ib_core", "ib_uverbs", "rdma_ucm", "rdma_rxe",
};

/* Why a RoCE peer stops answering, in the one wording every message uses. */
#define ROCE_UNANSWERED_CAUSES "a firewall on UDP 4791, the route, or the MTU"

/* Why no RoCE packet moves from a network namespace on a kernel before 7.1. */
#define ROCE_NETNS_TRAP "rxe carries no traffic from this network namespace on this kernel " \
	"(before Linux 7.1 its UDP 4791 socket is in the initial namespace only): use the " \
	"host's namespace (--network host) or Linux 7.1+ (rdmactl check)"

#endif
