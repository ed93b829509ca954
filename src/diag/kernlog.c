// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kernel says of RDMA beyond rdma_rxe's data path (that is
 * diag/rxelog.c), and modprobe with it: loading a module (the module
 * loader, its signing, kmod's modprobe), rdma_rxe at link add, ib_core's GID
 * cache, rdma_cm's debug lines, the NFS client's RPC-over-RDMA transport.
 * Each is its printk format as Linux's source writes it (6.12's; the module
 * loader's the same from 5.10 to 7.3), held to the strings of a Debian
 * kernel's module or of modprobe by bats/offline/55-explain.bats, and the
 * loader's to the words src/kernel/klog.c reads in the kernel log.
 */
#include <stddef.h>

#include "diag/failure.h"

#define MSG DIAG_FAILURE_MESSAGE

#define MODLOADER "Linux's module loader (kernel/module/main.c and version.c; the same words " \
	"from 5.10 to 7.3)"
#define MODSIGNING "Linux's module signing (kernel/module/signing.c)"
#define MODPROBE "modprobe (kmod's tools/modprobe.c and libkmod)"
#define RXE_KO "rdma_rxe.ko (Linux's drivers/infiniband/sw/rxe/rxe.c)"
#define RDMA_CM_KO "rdma_cm.ko (Linux's drivers/infiniband/core/cma.c; debug messages, " \
	"printed with its dynamic debug on)"
#define IB_CORE_KO "ib_core.ko (Linux's drivers/infiniband/core/cache.c, a rate-limited warning)"
#define RPCRDMA_KO "rpcrdma.ko (Linux's net/sunrpc/xprtrdma/frwr_ops.c)"

static const struct diag_failure table[] = {
	/* The kernel's module loader and modprobe: an rdma_rxe loaded by hand or built elsewhere. */
	{ MSG, 1, "%s: Unknown symbol %s (err %d)",
	  "the kernel refused to load a module: it uses a symbol no loaded module exports",
	  { "the module was loaded with insmod before the modules it needs: rdma_rxe needs "
	    "ib_core, ib_uverbs, udp_tunnel and ip6_udp_tunnel first (modprobe and 'rdmactl "
	    "module load' load them in order)",
	    "with (err -22): the module was built against another kernel's symbols", NULL },
	  "'rdmactl check --only modules' (it reads the kernel log and names the modules to "
	  "load first, in order)", "rdma_rxe: Unknown symbol udp_sock_create4 (err -2)", NULL,
	  MODLOADER, 0 },
	{ MSG, 2, "%s: disagrees about version of symbol %s",
	  "the kernel refused a module built against other headers than its own",
	  { "an rdma_rxe built for another kernel, or against a vendor's ib_core where the "
	    "kernel's is loaded (or the other way round)", NULL },
	  "'rdmactl check --only modules'; 'rdmactl module install' builds one from this "
	  "kernel's own source", "rdma_rxe: disagrees about version of symbol ib_register_device",
	  NULL, MODLOADER, 0 },
	{ MSG, 3, "%s: version magic '%s' should be '%s'",
	  "the kernel refused a module built for another kernel release",
	  { "an rdma_rxe.ko copied from another kernel's packages or build", NULL },
	  "'rdmactl check --only modules'; 'rdmactl module install' builds one for this kernel",
	  "rdma_rxe: version magic '6.1.0-31-amd64 SMP preempt mod_unload modversions ' should be "
	  "'6.12.12+bpo-amd64 SMP preempt mod_unload modversions '", NULL, MODLOADER, 0 },
	{ MSG, 4, "%s: module verification failed: signature and/or required key missing - "
	  "tainting kernel",
	  "a module without a signature the kernel trusts was loaded anyway (signatures are not "
	  "enforced here): the kernel is marked tainted, and the module works",
	  { "an out-of-tree module (DKMS's rdma_rxe) not signed with an enrolled key: no fault "
	    "while Secure Boot does not enforce signatures", NULL },
	  "'rdmactl check --only modules'",
	  "rdma_rxe: module verification failed: signature and/or required key missing - "
	  "tainting kernel", NULL, MODSIGNING, DIAG_FAILURE_NOTICE },
	{ MSG, 5, "Loading of %s is rejected",
	  "the kernel enforces module signatures (Secure Boot's lockdown, module.sig_enforce) "
	  "and refused an unsigned module",
	  { "an out-of-tree rdma_rxe (DKMS's) not signed with a key the kernel trusts: DKMS "
	    "signs with its own key, which must be enrolled (mokutil --import, then a "
	    "reboot)", NULL },
	  "'rdmactl check --only modules'", "Loading of unsigned module is rejected", NULL,
	  MODSIGNING, 0 },
	{ MSG, 6, "Module %s not found in directory %s",
	  "modprobe found no such module for the running kernel",
	  { "the kernel ships no rdma_rxe (Debian's cloud kernels): 'rdmactl module install' "
	    "builds it from the kernel's own source",
	    "modules of the running kernel not installed (a container's /lib/modules, a kernel "
	    "upgraded and not rebooted)", NULL },
	  "'rdmactl check --only kernel,modules'",
	  "modprobe: FATAL: Module rdma_rxe not found in directory /lib/modules/6.1.0-31-cloud-amd64",
	  NULL, MODPROBE, 0 },
	{ MSG, 7, "Unknown symbol in module, or unknown parameter (see dmesg)",
	  "modprobe could not load a module; the kernel log says which symbol or parameter",
	  { "the module built for another kernel or loaded before what it needs: the kernel "
	    "log's 'Unknown symbol' line says which", NULL },
	  "'rdmactl check --only modules' (it reads that kernel log line)",
	  "modprobe: ERROR: could not insert 'rdma_rxe': Unknown symbol in module, or unknown "
	  "parameter (see dmesg)", NULL, MODPROBE, 0 },
	{ MSG, 8, "Invalid module format",
	  "the kernel refused the module file as not for it (ENOEXEC, said so by modprobe and "
	  "insmod)",
	  { "a module built for another kernel release or architecture: the kernel log's "
	    "'version magic' or 'disagrees about version' line says which", NULL },
	  "'rdmactl check --only modules'; 'rdmactl check --only modules --module-file FILE' "
	  "vets a file before it is loaded",
	  "modprobe: ERROR: could not insert 'rdma_rxe': Invalid module format", NULL, MODPROBE, 0 },
	/* rdma_rxe's own at link add ('rdma_rxe: rxe_newlink: failed to add NETDEV' from 6.12). */
	{ MSG, 9, "failed to add %s",
	  "rdma_rxe could not make the link the RDMA netlink asked for ('rdma link add', "
	  "rdmactl's add): the netdev's name is last",
	  { "up to Linux 6.14, the crc32 crypto module could not be loaded as the link was "
	    "made (ENOENT; 'failed to allocate crc algorithm' beside it): the kernel's own "
	    "module request runs modprobe in the real root, which fails under a chroot or where "
	    "the running kernel's modules are not installed",
	    "the netdev has an rxe link already (EEXIST; 'already configured on' before it)",
	    "from Linux 7.1, rxe's UDP port 4791 could not be opened in the link's network "
	    "namespace ('Failed to create IPv4 UDP tunnel' before it)", NULL },
	  "'rdmactl check --only modules'; the errno 'rdma link add' or 'rdmactl add' gave; "
	  "'rdmactl link'", "rdma_rxe: rxe_newlink: failed to add veth0", "rdma_rxe", RXE_KO, 0 },

	/* rdma_cm, with its dynamic debug on. */
	{ MSG, 10, "RDMA CM: ADDR_ERROR: failed to acquire device. status %d",
	  "rdma_cm resolved the address but found no RDMA device on the netdev of the source "
	  "address (RDMA_CM_EVENT_ADDR_ERROR follows)",
	  { "no rxe link on the netdev the route to the peer leaves by (status -19, ENODEV)",
	    NULL },
	  "'rdmactl link' (which netdev each rxe link is on), 'rdmactl check --peer ADDR'",
	  "RDMA CM: ADDR_ERROR: failed to acquire device. status -19", NULL, RDMA_CM_KO,
	  DIAG_FAILURE_OWN_STATUS },
	{ MSG, 11, "RDMA CM: ADDR_ERROR: failed to resolve IP. status %d",
	  "rdma_cm could not resolve the peer's address to a neighbour (RDMA_CM_EVENT_ADDR_ERROR "
	  "follows)",
	  { "the peer's address did not answer ARP or neighbour discovery (status -110)",
	    "no route to it (-101, -113)", NULL },
	  "'rdmactl check --peer ADDR', 'ip neigh'",
	  "RDMA CM: ADDR_ERROR: failed to resolve IP. status -110", NULL, RDMA_CM_KO,
	  DIAG_FAILURE_OWN_STATUS },
	{ MSG, 12, "RDMA CM: REJECTED: %s",
	  "the peer's connection manager refused the connect request, for the reason the line "
	  "names (ib_cm's words; RDMA_CM_EVENT_REJECTED follows, its status the reason's number)",
	  { "'invalid service ID' (status 8): nothing listens on that port at the peer's address",
	    "'consumer defined' (status 28): the peer's program refused it (rdma_reject), or "
	    "the peer's rdma_cm could not move its QP to RTR or RTS on the reply",
	    "'stale conn' (status 10): the peer still holds an earlier connection of the same "
	    "QP number, a client started again at once; it clears when that one's timewait ends",
	    NULL },
	  "the server program and its port; the peer's kernel log (its rdma_cm's lines)",
	  "RDMA CM: REJECTED: invalid service ID", NULL, RDMA_CM_KO, 0 },
	{ MSG, 13, "RDMA CM: CONNECT_ERROR: failed to handle reply. status %d",
	  "the peer accepted, but this end could not move its QP to RTR or RTS with what the "
	  "reply carried, nor send the last message of the handshake: it rejects the "
	  "connection (RDMA_CM_EVENT_CONNECT_ERROR follows); the status is the errno",
	  { "rxe refused the QP's attributes (status -22, EINVAL): an initiator depth "
	    "(rdma_conn_param's initiator_depth, the QP's max_rd_atomic) above the device's "
	    "max_qp_rd_atom, which rxe checks at RTS",
	    "the QP was destroyed or moved to ERR by the program while connecting", NULL },
	  "'rdmactl show LINK' (the device's limits), 'rdmactl qp' (the QP's state)",
	  "RDMA CM: CONNECT_ERROR: failed to handle reply. status -22", NULL, RDMA_CM_KO,
	  DIAG_FAILURE_OWN_STATUS },

	/* ib_core's GID cache. */
	{ MSG, 14, "%s: unable to add gid %pI6 error=%d",
	  "ib_core could not put an address of the link's netdev in the port's GID table: "
	  "RoCE cannot use that address (no GID index names it)",
	  { "the GID table is full (error=-28, ENOSPC): rxe's holds 1024 entries, two for "
	    "each address (RoCE v1 and v2), the addresses of the netdev's VLANs counted too",
	    "out of memory (error=-12)", NULL },
	  "'rdmactl gids LINK' and 'rdmactl show LINK' (its GIDs, the table's length), 'ip -br "
	  "addr' (the netdev's addresses and its VLANs')",
	  "__ib_cache_gid_add: unable to add gid fe80:0000:0000:0000:5054:00ff:fe12:3456 "
	  "error=-28", NULL, IB_CORE_KO, 0 },

	/* NFS over RDMA: the client's transport. */
	{ MSG, 15, "rpcrdma: 'frwr' mode is not supported by device %s",
	  "the NFS client's RPC-over-RDMA transport refused the RDMA device the route to the "
	  "server leaves by: it lacks fast registration (the mount fails)",
	  { "the device named is not rxe: rxe has fast registration (6.12's source: 512 pages "
	    "a request); the route to the server leaves by another RDMA device's netdev",
	    NULL },
	  "'rdmactl link' (which devices are rxe, on which netdev), 'ip route get SERVER'",
	  "rpcrdma: 'frwr' mode is not supported by device rdma0", NULL, RPCRDMA_KO, 0 },
};

const struct diag_failure *diag_failure_kernlog(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
