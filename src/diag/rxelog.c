// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdma_rxe's kernel log lines, as users paste them from dmesg: what each
 * means on rxe, its causes and what tells which. The words are the kernel's
 * (6.1 and 7.3, read in their source and seen in the bed); some are debug
 * messages, printed only with rdma_rxe's dynamic debug on.
 */
#include <stddef.h>

#include "diag/failure.h"

#define KL DIAG_FAILURE_KERNEL_LOG

/* What tells a QP's failure on this host. */
#define TELL_QP_LOG "'rdmactl check --only qps' (each QP in trouble with its owner and " \
	"likely cause), 'rdmactl qp' (the QP's state and its peer's)"

/* How rdma_rxe's debug messages are turned on. */
#define DEBUG_ON "'echo module rdma_rxe +p > /sys/kernel/debug/dynamic_debug/control'"
#define DEBUG_WHERE " (dynamic debug: " DEBUG_ON ")"
/* A debug message: who sees it. */
#define DEBUG_ONLY " (a debug message: it prints only with rdma_rxe's dynamic debug on, " \
	DEBUG_ON ")"

static const struct diag_failure table[] = {
	{ KL, 1, "moved to error state",
	  "rxe moved a QP to ERR on a request it received and could not serve: the end that "
	  "sent it completes with an error, and every work request still queued on this one "
	  "is flushed" DEBUG_ONLY,
	  { "a remote access error: an RDMA READ or WRITE with a wrong rkey, address, length "
	    "or access flags (the requester completes IBV_WC_REM_ACCESS_ERR, and its program "
	    "often polls this end's flush first)",
	    "a SEND longer than the receive posted for it, or an opcode the QP was not made "
	    "for (RDMA READ or atomics without their access flags)",
	    NULL },
	  TELL_QP_LOG "; the error completion of the QP that sent the request",
	  "rxe0: qp#N rxe_receiver: moved to error state", NULL, NULL, 0 },
	{ KL, 2, "retransmit timer fired",
	  "rxe sent a request again: no ACK came within the QP's timeout" DEBUG_ONLY,
	  { "the peer QP is gone (destroyed, or its process ended): on 6.1 and 7.3 such a QP "
	    "resends for as long as its program runs, stays in RTS, and no completion comes",
	    "the peer is unreachable: a firewall dropping UDP 4791, the route, or the MTU",
	    "on Linux before 7.1, the peer in another network namespace: rxe answers only in "
	    "the initial one",
	    "a peer too slow to answer within the QP's timeout: a few such lines under load "
	    "are no fault",
	    NULL },
	  TELL_QP_LOG "; 'rdmactl check --peer ADDR' (the path to the peer), 'rdmactl check "
	  "--only firewall,netns' (this end's part); 'rdmactl stat' "
	  "(completer_retry_err counts them)",
	  "rxe0: qp#N retransmit_timer: retransmit timer fired",
	  "retransmit_timer: fired for", NULL, 0 },
	{ KL, 3, "already configured on",
	  "'rdma link add' (or rdmactl's add) was refused: the netdev has an rxe link "
	  "already, and a netdev takes one (7.3 says it as 'infiniband rxe0: rxe_newlink: "
	  "already configured on NETDEV')",
	  { "a link made earlier on it: by 'rdma link add', by rdmactl's units at boot or "
	    "hot-plug from the links file, or by another tool",
	    NULL },
	  "'rdmactl link' (the links and their netdevs), 'rdmactl persist list' (what boot "
	  "makes)",
	  "rdma_rxe: already configured on NETDEV", NULL, NULL, 0 },
	{ KL, 4, "rxe creation allowed on top of a real device only",
	  "rxe refused a link on a VLAN netdev",
	  { "the netdev is a VLAN: make the link on the netdev under it; the VLAN's addresses "
	    "become GIDs of that link",
	    NULL },
	  "'rdmactl netdevs' (each netdev, its link, its addresses), 'ip -d link show "
	  "NETDEV' (the VLAN's parent)",
	  "rdma_rxe: rxe creation allowed on top of a real device only", NULL, NULL, 0 },
	{ KL, 5, "failed to create ipv4 udp tunnel",
	  "rdma_rxe could not open its UDP port 4791: on 6.1 when the module loads (it then "
	  "does not load); on 7.3, where each network namespace has its own, when the first "
	  "link is made in one (the link is refused)",
	  { "another socket holds UDP 4791 in the initial network namespace: a program bound "
	    "to it",
	    NULL },
	  "'ss -ulpn sport = :4791' (who holds the port), 'rdmactl check --only modules'",
	  "rdma_rxe: Failed to create IPv4 UDP tunnel", "failed to create ipv6 udp tunnel", NULL, 0 },
	{ KL, 6, "ipv6 is not supported, can not create a udpv6 socket",
	  "rdma_rxe loaded without IPv6: RoCE v2 runs over IPv4 only",
	  { "IPv6 is off in the kernel (ipv6.disable=1 on its command line): the GIDs of "
	    "IPv6 addresses, the link-local one at index 0 among them, do not work; an "
	    "IPv4 address's GID does",
	    NULL },
	  "'rdmactl gids' (the GID to use), 'cat /proc/cmdline'",
	  "rdma_rxe: IPv6 is not supported, can not create a UDPv6 socket", NULL, NULL, 0 },
	{ KL, 7, "unable to pin memory region",
	  "ibv_reg_mr failed: rxe could not pin the memory to register (err = -12 is "
	  "ENOMEM, -14 EFAULT); a warning on 6.1, a debug message on 7.3" DEBUG_WHERE,
	  { "the process's RLIMIT_MEMLOCK is below what it registers and it has no "
	    "CAP_IPC_LOCK (64 KiB by default; 8 MiB for systemd's services)",
	    "the address range is not mapped in the process (a freed or wrong buffer)",
	    NULL },
	  "'rdmactl check --pid PID' (its memlock limit against CAP_IPC_LOCK), 'ulimit -l'",
	  "rdma_rxe: rxe_mr_init_user: Unable to pin memory region err = -12", NULL, NULL, 0 },
	{ KL, 8, "set down",
	  "rxe's port went down with its netdev: connected QPs on it fail (on 6.1 with "
	  "IBV_WC_LOC_QP_OP_ERR, later with flushes)",
	  { "the netdev was set down ('ip link set NETDEV down', a network manager) or lost "
	    "its carrier (a veth's peer down, a cable)",
	    NULL },
	  "'rdmactl show' (the port state and its netdev's), 'rdmactl monitor' (when it "
	  "changes)",
	  "infiniband rxe0: set down", NULL, NULL, 0 },
	{ KL, 12, "set active",
	  "rxe's port came up with its netdev (the link made, the netdev up, its carrier "
	  "back): no fault; a QP that failed while the port was down stays in ERR and must be "
	  "made again",
	  { NULL },
	  NULL, "infiniband rxe0: set active", NULL, NULL, DIAG_FAILURE_NOTICE },
	{ KL, 9, "ignoring netdev event",
	  "rxe saw an event of its netdev that it does not act on: no fault (rxe acts on "
	  "the netdev going up, down, away and changing its MTU)" DEBUG_ONLY,
	  { NULL },
	  NULL,
	  "rxe0: rxe_notify: ignoring netdev event = N for NETDEV", NULL, NULL, 0 },
	{ KL, 10, "no route to",
	  "rxe found no route to the QP's destination address: the packet is not sent "
	  "and the QP resends until it gives up or its program does" DEBUG_ONLY,
	  { "the destination's subnet has no route in the QP's network namespace",
	    "the GID index the program used gives an address of the other family or scope "
	    "(the link-local IPv6 GID at index 0 for a peer reached over IPv4)",
	    NULL },
	  "'rdmactl check --peer ADDR' (the route and the GID to use), 'rdmactl gids'",
	  "rxe0: qp#N rxe_find_route4: no route to ADDRESS", "host not reachable", NULL, 0 },
	{ KL, 11, "no mr matches rkey",
	  "a remote RDMA READ, WRITE or atomic named an rkey no memory region of this device "
	  "has: rxe refused it, the QP that sent it completes IBV_WC_REM_ACCESS_ERR and both "
	  "QPs go to ERR (rxe counts nothing for it)" DEBUG_ONLY,
	  { "the peer used a stale rkey: of a region deregistered, or of a run before this one",
	    "the peer used the rkey of another host's or another device's region",
	    "the rkey was corrupted on its way (the program's own exchange of it)", NULL },
	  "the rkey each side advertises and uses; the requester's error completion; "
	  "'rdmactl capture' (the NAK the responder sent)",
	  "rxe0: qp#17 check_rkey: no MR matches rkey 0x18d8", "no mr for key", NULL, 0 },
};

const struct diag_failure *diag_failure_rxelog(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
