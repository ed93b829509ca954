// SPDX-License-Identifier: GPL-2.0-or-later
/* What a failing RDMA program's words mean on rxe: statuses, events, errnos. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "kernel/roce.h"
#include "diag/failure.h"

#define WC DIAG_FAILURE_WC_STATUS
#define CM DIAG_FAILURE_CM_EVENT
#define ER DIAG_FAILURE_ERRNO

/* What tells a QP's failure on this host: the live check, its state and owner, the counters. */
#define TELL_QP "'rdmactl check --only qps' (each QP in trouble with its owner and likely " \
	"cause; '--pid PID' for one program's), 'rdmactl qp' (the QP's state and its peer's), " \
	"'rdmactl stat' (the counters)"

static const struct diag_failure table[] = {
	{ WC, IBV_WC_SUCCESS, "IBV_WC_SUCCESS", "the work request completed", { NULL }, NULL, NULL, NULL, NULL, DIAG_FAILURE_NOTICE },
	{ WC, IBV_WC_LOC_LEN_ERR, "IBV_WC_LOC_LEN_ERR",
	  "a message did not fit: a SEND was longer than the receive posted for it, or a "
	  "scatter list ran past its memory region",
	  { "the two ends disagree on the message size (each side's --size, buffer or MTU)",
	    "a receive buffer posted too small, or a UD receive without its 40 bytes of GRH",
	    NULL },
	  "the sizes each side posts; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_LOC_QP_OP_ERR, "IBV_WC_LOC_QP_OP_ERR",
	  "the work request was not one this QP can do as asked",
	  { "on Linux 6.1, rxe's word for a path gone under a connected QP: the source GID's "
	    "address removed, or the netdev set down (later kernels flush instead)",
	    "on Linux 6.1, a peer in another network namespace: rxe answers only in the "
	    "initial one before 7.1",
	    "more scatter entries or inline data than the QP was made with, or an opcode its "
	    "type does not have (RDMA READ or atomics on UC or UD)",
	    "a UD send larger than the path MTU", NULL },
	  "'rdmactl check' (the port, the addresses behind the GIDs, namespaces); the QP's "
	  "capabilities against the request; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_LOC_EEC_OP_ERR, "IBV_WC_LOC_EEC_OP_ERR",
	  "an EE context failed: reliable datagram, which rxe does not have", { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_LOC_PROT_ERR, "IBV_WC_LOC_PROT_ERR",
	  "a local buffer is not covered by the lkey given for it",
	  { "the address or length runs outside the memory region registered",
	    "the lkey of another memory region, or of one already deregistered",
	    "the memory region belongs to another protection domain than the QP", NULL },
	  "the lkey, address and length of the failed work request", NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_WR_FLUSH_ERR, "IBV_WC_WR_FLUSH_ERR",
	  "the QP was already in the error state: this work request never ran, it was "
	  "flushed. It is the consequence, not the cause",
	  { "an earlier work request of this QP failed: its completion (the first that is not "
	    "a flush) names the cause",
	    "the peer's QP failed first and this one followed (a remote access error moves "
	    "both to ERR on rxe; a program polling a shared CQ may see the flush first)",
	    "the program moved the QP to ERR or destroyed it while requests were posted",
	    "the netdev went down or the source GID's address was removed under the QP",
	    NULL },
	  "the first error completion the program polled; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_MW_BIND_ERR, "IBV_WC_MW_BIND_ERR",
	  "a memory window could not be bound",
	  { "the memory region was not registered with IBV_ACCESS_MW_BIND",
	    "the window's range or access goes beyond its memory region's", NULL },
	  "'rdmactl selftest --transport mw' proves the device's windows", NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_BAD_RESP_ERR, "IBV_WC_BAD_RESP_ERR",
	  "the responder answered with something the request did not expect",
	  { "two programs speak to one QP number (a stale peer QPN after a restart)", NULL },
	  TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_LOC_ACCESS_ERR, "IBV_WC_LOC_ACCESS_ERR",
	  "local memory lacks the access the operation needs",
	  { "a receive or RDMA READ lands in memory registered without "
	    "IBV_ACCESS_LOCAL_WRITE", NULL },
	  "the access flags of the local memory region", NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_REM_INV_REQ_ERR, "IBV_WC_REM_INV_REQ_ERR",
	  "the responder refused the request as invalid",
	  { "a SEND longer than the receive the peer posted",
	    "an operation the peer's QP does not allow: RDMA READ or atomics with its "
	    "max_dest_rd_atomic 0, or without the remote access flags on its QP",
	    "a misaligned atomic (not 8 bytes, not 8-aligned)", NULL },
	  "the peer's QP attributes and the sizes each side posts; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_REM_ACCESS_ERR, "IBV_WC_REM_ACCESS_ERR",
	  "the responder refused access to its memory: both QPs are now in ERR",
	  { "a wrong rkey: of another region, a deregistered one, or another host's",
	    "the remote address and length run outside the peer's memory region",
	    "the peer's region (or QP) lacks IBV_ACCESS_REMOTE_WRITE, _READ or _ATOMIC", NULL },
	  "the rkey, address and length the peer advertised; rxe counts nothing for this "
	  "error, so the completion is the only witness; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_REM_OP_ERR, "IBV_WC_REM_OP_ERR",
	  "the responder could not complete the operation",
	  { "the peer's receive was too small or its memory failed it (its own completion "
	    "says which)", NULL },
	  "the peer program's own completion; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_RETRY_EXC_ERR, "IBV_WC_RETRY_EXC_ERR",
	  "no acknowledgement came after the QP's retry_cnt resends: the QP gave up and is "
	  "now in ERR",
	  { "the peer is unreachable: " ROCE_UNANSWERED_CAUSES,
	    "the two hosts' rxe links are in different network namespaces on a kernel before "
	    "Linux 7.1 (rxe answers only in the initial one)",
	    "the wrong GID index: a RoCE v1 or link-local GID where the peer speaks RoCE v2 over "
	    "IPv4 (the classic -g 0)",
	    "the peer's QP is gone (its process ended or destroyed it); on rxe that was "
	    "measured to make the sender resend forever instead, a hang with no status", NULL },
	  "'rdmactl check --peer ADDR', 'rdmactl check --gid-index N', 'rdmactl check --only "
	  "firewall,netns' (this end's part); " TELL_QP
	  " (retry_exceeded_err, completer_retry_err)", NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_RNR_RETRY_EXC_ERR, "IBV_WC_RNR_RETRY_EXC_ERR",
	  "the peer answered Receiver Not Ready more times than the QP's rnr_retry allows: it "
	  "had no receive posted for a SEND",
	  { "the peer posts its receives after this side starts sending",
	    "the peer's receive queue ran empty: it reposts too slowly, or too few",
	    "rnr_retry too small: 7 means retry forever", NULL },
	  "the peer's receive posting; 'rdmactl stat' (rcvd_rnr_err here, send_rnr_err on the "
	  "peer, retry_rnr_exceeded_err)", NULL, "receiver-not-ready retry", NULL, 0 },
	{ WC, IBV_WC_LOC_RDD_VIOL_ERR, "IBV_WC_LOC_RDD_VIOL_ERR",
	  "reliable datagram domain violation: rxe has no reliable datagram", { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_REM_INV_RD_REQ_ERR, "IBV_WC_REM_INV_RD_REQ_ERR",
	  "invalid reliable datagram request: rxe has no reliable datagram", { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_REM_ABORT_ERR, "IBV_WC_REM_ABORT_ERR",
	  "the responder aborted the operation",
	  { "the peer's QP went to ERR while the message was in flight", NULL }, TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_INV_EECN_ERR, "IBV_WC_INV_EECN_ERR",
	  "invalid EE context number: rxe has no reliable datagram", { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_INV_EEC_STATE_ERR, "IBV_WC_INV_EEC_STATE_ERR",
	  "invalid EE context state: rxe has no reliable datagram", { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_FATAL_ERR, "IBV_WC_FATAL_ERR", "the device failed",
	  { "the rxe link was deleted, or rdma_rxe unloaded, under the program", NULL },
	  "'rdmactl link', 'dmesg'", NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_RESP_TIMEOUT_ERR, "IBV_WC_RESP_TIMEOUT_ERR",
	  "a response did not come in time",
	  { "the peer is unreachable or gone: " ROCE_UNANSWERED_CAUSES, NULL },
	  "'rdmactl check --peer ADDR'; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_GENERAL_ERR, "IBV_WC_GENERAL_ERR",
	  "an error the other statuses do not name",
	  { "on rxe, a request the driver could not carry out (memory it could not map)", NULL },
	  "'dmesg'; " TELL_QP, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_TM_ERR, "IBV_WC_TM_ERR", "tag matching failed: rxe has no tag matching",
	  { NULL }, NULL, NULL, NULL, NULL, 0 },
	{ WC, IBV_WC_TM_RNDV_INCOMPLETE, "IBV_WC_TM_RNDV_INCOMPLETE",
	  "tag matching rendezvous left to software: rxe has no tag matching", { NULL },
	  NULL, NULL, NULL, NULL, 0 },

	{ CM, RDMA_CM_EVENT_ADDR_ERROR, "RDMA_CM_EVENT_ADDR_ERROR",
	  "rdma_resolve_addr failed: no RDMA device was found for the address",
	  { "no rxe link on the netdev that holds the source address, or on the one the route "
	    "to the peer leaves by",
	    "the peer's address did not answer ARP or neighbour discovery in time (error -110)",
	    "no route to the peer (error -101, -113)", NULL },
	  "'rdmactl check --peer ADDR'; 'rdmactl link' (an rxe link on the route's netdev)", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_ROUTE_ERROR, "RDMA_CM_EVENT_ROUTE_ERROR",
	  "rdma_resolve_route failed",
	  { "the route to the peer changed or vanished between address and route resolution",
	    NULL },
	  "'ip route get ADDR'; 'rdmactl check --peer ADDR'", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_CONNECT_ERROR, "RDMA_CM_EVENT_CONNECT_ERROR",
	  "the connection could not be made after the request was sent",
	  { "the peer's rdma_cm answered but its side failed (its QP or device)",
	    "the peer is unreachable over RoCE: " ROCE_UNANSWERED_CAUSES, NULL },
	  "'rdmactl check --peer ADDR'", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_UNREACHABLE, "RDMA_CM_EVENT_UNREACHABLE",
	  "the connect request got no answer: the peer's rdma_cm never replied",
	  { "a firewall drops UDP 4791 (the connect request travels over RoCE itself)",
	    "the peer's rxe link is missing, down, or in another network namespace on a kernel "
	    "before Linux 7.1",
	    "the MTU: the netdevs on the path disagree", NULL },
	  "'rdmactl check --peer ADDR' on both hosts", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_REJECTED, "RDMA_CM_EVENT_REJECTED",
	  "the peer refused the connect request",
	  { "nothing listens on that port there (status 8: invalid service ID)",
	    "the server's program refused it (status 28: consumer reject), as a server that "
	    "serves one client does", NULL },
	  "the server program, and its port", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_DEVICE_REMOVAL, "RDMA_CM_EVENT_DEVICE_REMOVAL",
	  "the RDMA device under the connection went away",
	  { "the rxe link was deleted ('rdmactl del', 'rdma link delete') or rdma_rxe "
	    "unloaded", "its netdev was removed (rxe goes with it)", NULL },
	  "'rdmactl link'; 'rdmactl status'", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_ADDR_CHANGE, "RDMA_CM_EVENT_ADDR_CHANGE",
	  "the address the connection stands on changed",
	  { "a bonding failover, or the address moved to another netdev", NULL },
	  "'ip addr'; 'rdmactl gids'", NULL, NULL, NULL, 0 },
	{ CM, RDMA_CM_EVENT_DISCONNECTED, "RDMA_CM_EVENT_DISCONNECTED",
	  "the peer disconnected, or the connection failed",
	  { "the peer program ended or called rdma_disconnect",
	    "the QP went to ERR (its own completion says why)", NULL },
	  TELL_QP, NULL, NULL, NULL, 0 },

	{ ER, ENOMEM, "ENOMEM", "out of memory, as a verbs call counts it",
	  { "ibv_reg_mr: the process's locked-memory limit (ulimit -l, LimitMEMLOCK, a "
	    "container's) is below what it registers, and it lacks CAP_IPC_LOCK",
	    "ibv_create_qp, ibv_create_cq: queues deeper than the device allows, or the "
	    "locked-memory limit again", NULL },
	  "'rdmactl check' (memlock), 'ulimit -l' in the program's own environment", NULL, NULL, NULL, 0 },
	{ ER, EINVAL, "EINVAL", "a verbs or rdma_cm call refused an argument",
	  { "ibv_modify_qp: an attribute the transition does not take, or a GID index beyond "
	    "the table ('rdmactl gids')",
	    "ibv_modify_qp to RTR: a path MTU above the port's active MTU",
	    "ibv_create_qp: capabilities above the device's (max_send_wr, max_inline_data)",
	    NULL },
	  "'rdmactl gids', 'rdmactl show' (the port's MTUs)", NULL, NULL, NULL, 0 },
	{ ER, ETIMEDOUT, "ETIMEDOUT", "a wait ran out of time",
	  { "rdma_cm address resolution: the peer's address did not answer ARP or neighbour "
	    "discovery (RDMA_CM_EVENT_ADDR_ERROR, error -110)",
	    "the peer is unreachable: " ROCE_UNANSWERED_CAUSES, NULL },
	  "'rdmactl check --peer ADDR'", NULL, NULL, NULL, 0 },
	{ ER, ENODEV, "ENODEV", "no RDMA device where one was needed",
	  { "rdma_bind_addr, rdma_resolve_addr, rdma_resolve_route: no rxe link on the netdev of "
	    "the address or of the route to it (lo for 127.0.0.1)",
	    "ibv_open_device: the device was deleted", NULL },
	  "'rdmactl link'; 'rdmactl add rxe0 NETDEV'", NULL, NULL, NULL, 0 },
	{ ER, EADDRNOTAVAIL, "EADDRNOTAVAIL", "the address is not this host's",
	  { "rdma_bind_addr to an address no local netdev holds", NULL }, "'ip addr'", NULL, NULL, NULL, 0 },
	{ ER, EADDRINUSE, "EADDRINUSE", "the port is taken",
	  { "another rdma_cm listener on that port (another server still running)", NULL },
	  "'rdma res show cm_id'", NULL, NULL, NULL, 0 },
	{ ER, ECONNREFUSED, "ECONNREFUSED", "the peer refused the connection",
	  { "nothing listens on that port there (RDMA_CM_EVENT_REJECTED)",
	    "an NFS mount with proto=rdma: the server's knfsd does not listen for RDMA (its "
	    "/proc/fs/nfsd/portlist lacks 'rdma 20049'), or no NFS server runs there "
	    "('mount.nfs4: Connection refused')", NULL },
	  "the server program, and its port; for NFS, the server's /proc/fs/nfsd/portlist", NULL,
	  NULL, NULL, 0 },
	{ ER, EPROTO, "EPROTO", "a protocol error",
	  { "an NFSv4 mount with proto=rdma to an address whose netdev has no rxe link: the "
	    "kernel's RPC-over-RDMA transport finds no device for it ('mount.nfs4: Protocol "
	    "error'; measured on 6.12, the generic kernel and the cloud one)",
	    "the kernel ships no rdma_rxe (Debian's cloud kernels), so no link could be made: "
	    "'rdmactl module install' builds it", NULL },
	  "'rdmactl link' (each link's netdev), 'ip route get ADDR', 'rdmactl check --only "
	  "modules'", NULL, NULL, NULL, 0 },
	{ ER, ENETUNREACH, "ENETUNREACH", "no route to the peer's network",
	  { "the route table has no way to the address", NULL }, "'ip route get ADDR'", NULL, NULL, NULL, 0 },
	{ ER, EHOSTUNREACH, "EHOSTUNREACH", "the peer host cannot be reached",
	  { "no answer to ARP or neighbour discovery for the address", NULL },
	  "'ip neigh'; 'rdmactl check --peer ADDR'", NULL, NULL, NULL, 0 },
	{ ER, EPERM, "EPERM", "the call needs a privilege the process lacks",
	  { "a container's device cgroup refuses a uverbs or rdma_cm node: it was started "
	    "without --device /dev/infiniband/uverbsN (and /dev/infiniband/rdma_cm)",
	    "raw packet QPs need CAP_NET_RAW",
	    "rdma_rxe's netlink (rdma link add) needs CAP_NET_ADMIN", NULL },
	  "the process's capabilities; 'rdmactl check --pid PID' (the nodes its root shows)",
	  NULL, NULL, NULL, 0 },
	{ ER, EOPNOTSUPP, "EOPNOTSUPP", "the device does not do what was asked",
	  { "a verb or QP type rxe does not have (XRC on old kernels, ODP before 6.12, "
	    "tag matching)", NULL },
	  "'rdmactl selftest --transport all' (what the device claims and does)", NULL, NULL, NULL, 0 },
	{ ER, EAGAIN, "EAGAIN", "try again: nothing was ready",
	  { "ibv_get_cq_event or rdma_get_cm_event on a nonblocking channel with nothing in it",
	    NULL }, NULL, NULL, NULL, NULL, 0 },
	{ ER, EBUSY, "EBUSY", "the resource is in use",
	  { "deregistering a memory region a memory window is still bound to",
	    "deleting an rxe link a process holds open", NULL },
	  "'rdmactl del' names the process that holds it", NULL, NULL, NULL, 0 },
	{ ER, ECONNRESET, "ECONNRESET", "the connection was reset",
	  { "the kernel's NVMe host says it of every failed connect: the target refused it or "
	    "never answered (its 'Connect rejected' line, or none)",
	    "the peer of the TCP exchange before any RDMA (the ping-pongs, perftest) ended "
	    "first: its own output names the cause", NULL },
	  "'rdmactl check --peer ADDR'; the other side's output", NULL, NULL, NULL, 0 },
	{ ER, ENOENT, "ENOENT", "a file or node the call needs does not exist",
	  { "/dev/infiniband/rdma_cm is missing (rdma_ucm not loaded, or a container started "
	    "without --device /dev/infiniband/rdma_cm): librdmacm cannot open it",
	    "a uverbs node missing from a container (--device /dev/infiniband/uverbsN)",
	    "insmod of a module with (err -2) after a symbol: a module it needs is not loaded",
	    NULL },
	  "'rdmactl check --only modules,uverbs', 'ls -l /dev/infiniband'", NULL, NULL, NULL, 0 },
	{ ER, EACCES, "EACCES", "permission denied",
	  { "a uverbs or rdma_cm node not opened to this user (rdma-core's udev rules make "
	    "them 0666; a container's device rules may not)",
	    "a container's device cgroup refuses the node (EPERM more often)", NULL },
	  "'ls -l /dev/infiniband', 'rdmactl check --only uverbs' (this user's), 'rdmactl check "
	  "--pid PID'", NULL, NULL, NULL, 0 },
	{ ER, ENOEXEC, "ENOEXEC", "the kernel refused a module file as not for it",
	  { "a module built for another kernel release or architecture ('Invalid module "
	    "format')", NULL },
	  "'rdmactl check --only modules'", NULL, NULL, NULL, 0 },
	{ ER, EKEYREJECTED, "EKEYREJECTED", "the kernel refused a module's signature",
	  { "Secure Boot enforces module signatures and the module (DKMS's rdma_rxe) is "
	    "signed with a key that is not enrolled ('Key was rejected by service')", NULL },
	  "'rdmactl check --only modules'; 'mokutil --sb-state'", NULL, NULL, NULL, 0 },
	{ ER, ENOSPC, "ENOSPC", "a table is full",
	  { "ibv_post_send, ibv_post_recv: more work requests than the queue's depth",
	    "the kernel's GID table of the link is full (ib_core's 'unable to add gid ... "
	    "error=-28'): 1024 entries on rxe, two for each address", NULL },
	  "the queue depths the QP was made with; 'rdmactl gids LINK' (the GID table)", NULL,
	  NULL, NULL, 0 },
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

const char *diag_failure_kind_name(enum diag_failure_kind k)
{
	return k == WC ? "wc_status" : k == CM ? "cm_event" : k == ER ? "errno" :
	       k == DIAG_FAILURE_MESSAGE ? "message" : "kernel_log";
}

/* The LEN entries of T after the N in OUT already, as far as MAX allows: the new count. */
static size_t append(const struct diag_failure **out, size_t n, size_t max,
		     const struct diag_failure *t, size_t len)
{
	for (size_t i = 0; i < len; i++, n++)
		if (n < max)
			out[n] = t + i;
	return n;
}

size_t diag_failure_all(const struct diag_failure **out, size_t max)
{
	const struct diag_failure *kl, *msg, *app, *kern;
	size_t nkl, nmsg, napp, nkern, n;

	kl = diag_failure_rxelog(&nkl);
	msg = diag_failure_stacklog(&nmsg);
	app = diag_failure_applog(&napp);
	kern = diag_failure_kernlog(&nkern);
	n = append(out, 0, max, table, NTABLE);
	n = append(out, n, max, kl, nkl);
	n = append(out, n, max, msg, nmsg);
	n = append(out, n, max, app, napp);
	return append(out, n, max, kern, nkern);
}
