// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The messages of the programs and the kernel's drivers that run over
 * rdma_cm and verbs on rxe, each as its source writes it (a printf format)
 * with what it means on rxe: librdmacm's tools, UCX, libfabric's fi_info,
 * NVMe over RDMA (the kernel's host and target, libnvme), NFS over RDMA's
 * mount.nfs, MPICH's ch4, NCCL's NET/IB and SPDK's NVMe host (from their
 * public source). The formats were read in what Debian 12 ships (rdma-core
 * 44, UCX 1.13, libfabric 1.17, libnvme 1.3, nfs-utils 2.6.2, MPICH 4.0.2,
 * Linux 6.1's modules) and are held to those binaries by
 * bats/offline/55-explain.bats.
 */
#include <stddef.h>

#include "diag/failure.h"

#define MSG DIAG_FAILURE_MESSAGE

#define RPING "rping (rdma-core's librdmacm/examples/rping.c)"
#define RDMA_CLIENT "rdma_client (rdma-core's librdmacm/examples/rdma_client.c; rdma_server " \
	"says the same)"
#define CMATOSE "ucmatose (rdma-core's librdmacm/examples/cmatose.c; udaddy.c says the same)"
#define UCX_IB "libuct_ib.so.0 (UCX's src/uct/ib/base/ib_md.c and ib_iface.c)"
#define UCX_STATUS "libucs.so.0 (UCX's src/ucs/type/status.c: ucs_status_string)"
#define UCX_UCP "libucp.so.0 (UCX's src/ucp/core/ucp_context.c)"
#define FI_INFO "fi_info (libfabric's util/info.c)"
#define RC_EXAMPLE "RDMA_RC_example.c (the RC example of the RDMA Aware Networks " \
	"Programming User Manual, copied into many programs; Debian ships no binary of it)"
#define GCC "cc1 (GCC's C front end), building an rdma_rxe source of another kernel"
#define OMPI_OPENIB "help-mpi-btl-openib.txt (Open MPI 4.1's openib BTL, its help text)"
#define OMPI_CPC "help-mpi-btl-openib-cpc-base.txt (Open MPI 4.1's openib BTL, its help text)"
#define NVME_HOST "nvme-rdma.ko (Linux's drivers/nvme/host/rdma.c)"
#define NVME_TARGET "nvmet-rdma.ko (Linux's drivers/nvme/target/rdma.c)"
#define LIBNVME "libnvme.so.1 (libnvme's src/nvme/fabrics.c; nvme connect prints it)"
#define NCCL_IB "NCCL (its src/transport/net_ib.cc, public source; Debian ships no NCCL)"
#define NCCL_IBV "NCCL (its src/misc/ibvwrap.cc, public source; Debian ships no NCCL)"
#define MPICH "libmpich.so.12 (MPICH 4.0.2's src/mpi/errhan/errnames.txt, its error stack's " \
	"lines)"
#define SPDK_HOST "SPDK (its lib/nvme/nvme_rdma.c, public source; Debian ships no SPDK)"
#define MOUNT_NFS "mount.nfs (nfs-utils's utils/mount/error.c; mount -t nfs and -t nfs4 run it)"

#define TELL_MEMLOCK "'rdmactl check --only memlock' (this shell's limit), 'rdmactl check " \
	"--pid PID' (the program's own, as the kernel applies it)"
#define TELL_PEER "'rdmactl check --peer ADDR' on both hosts (the link on the route's " \
	"netdev, the firewall, namespaces, MTU)"
#define TELL_NCCL "'rdmactl check --pid PID' (NCCL's variables against the links: NCCL_IB_HCA, " \
	"NCCL_IB_GID_INDEX, NCCL_SOCKET_IFNAME)"
#define TELL_DEV "'rdmactl check' (the module, the link, the uverbs node, the provider)"
#define MEMLOCK_CAUSE "the process's memlock limit (RLIMIT_MEMLOCK) is smaller than " \
	"what it registers, and it has no CAP_IPC_LOCK in the initial user namespace (a " \
	"container's or a service's limit, often 64 KiB or 8 MiB)"

static const struct diag_failure table[] = {
	/* librdmacm's tools. */
	{ MSG, 1, "No RDMA devices were detected",
	  "rdma_create_event_channel found no RDMA device this process can use (ENODEV)",
	  { "no rxe link exists: 'rdmactl add rxe0 NETDEV' (or 'rdmactl up') makes one",
	    "a container without the uverbs node (--device /dev/infiniband/uverbsN)",
	    "rdma-core's rxe provider (ibverbs-providers) is not installed", NULL },
	  TELL_DEV, "No RDMA devices were detected", NULL, RPING, 0 },
	{ MSG, 43, "rdma_getaddrinfo: %s",
	  "rdma_getaddrinfo failed, and the program printed its return with gai_strerror: "
	  "'Bad value for ai_flags' is what -1 reads as there, the errno it set unsaid (measured "
	  "with rdma-core 44 on a host with no RDMA device)",
	  { "'Bad value for ai_flags': no RDMA device this process can use (ENODEV): no rxe "
	    "link made, rdma_rxe not loaded, or a container without the uverbs node",
	    "'Name or service not known': the name given to -s or -b does not resolve", NULL },
	  "'rdmactl check --only modules,link,uverbs' (the module, the link, the uverbs node); "
	  "'getent hosts NAME'", "rdma_getaddrinfo: Bad value for ai_flags", NULL, RDMA_CLIENT, 0 },
	{ MSG, 44, "rdma_client: end %d",
	  "rdma_client's last line: 0 when it worked, -1 when a call failed, the line before it "
	  "naming the call and its errno ('rdma_connect: Connection refused')",
	  { "the call named on the line before it failed, for its errno's reasons", NULL },
	  "the line before it", "rdma_client: end -1", NULL,
	  "rdma_client (rdma-core's librdmacm/examples/rdma_client.c)", DIAG_FAILURE_NOTICE },
	{ MSG, 2, "failed to create RDMA CM event channel",
	  "librdmacm could not open the rdma_cm node (/dev/infiniband/rdma_cm)",
	  { "rdma_ucm is not loaded, so the node does not exist (modprobe rdma_ucm; "
	    "'rdmactl module load' loads it with rdma_rxe)",
	    "a container started without --device /dev/infiniband/rdma_cm",
	    "the node's permissions: not root and the node not opened to the user", NULL },
	  "'rdmactl check --only modules,uverbs', 'ls -l /dev/infiniband'",
	  "failed to create RDMA CM event channel", NULL, CMATOSE, 0 },
	{ MSG, 3, "bind address failed",
	  "rdma_bind_addr refused the source address given",
	  { "no local netdev holds that address (EADDRNOTAVAIL)",
	    "the netdev that holds it has no rxe link (ENODEV): 'rdmactl add rxe0 NETDEV'",
	    NULL },
	  "'rdmactl link' (which netdev each rxe link is on), 'ip addr'",
	  "cmatose: bind address failed", NULL, CMATOSE, 0 },
	{ MSG, 4, "failed to reg MR",
	  "ibv_reg_mr was refused: the test's buffers could not be pinned",
	  { MEMLOCK_CAUSE, NULL }, TELL_MEMLOCK, "failed to reg MR", NULL, CMATOSE, 0 },
	{ MSG, 5, "buf reg_mr failed",
	  "rping's ibv_reg_mr was refused: its buffer could not be pinned",
	  { MEMLOCK_CAUSE, NULL }, TELL_MEMLOCK, "rdma_buf reg_mr failed", NULL, RPING, 0 },
	{ MSG, 6, "unable to create QP",
	  "rdma_create_qp was refused",
	  { "queues deeper than the device allows, or its QP count used up (max_qp)",
	    MEMLOCK_CAUSE, NULL },
	  "'rdmactl show -s' (the device's limits), " TELL_MEMLOCK,
	  "cmatose: unable to create QP", NULL, CMATOSE, 0 },
	{ MSG, 7, "getaddrinfo failed (%s) - invalid hostname or IP address",
	  "the name given could not be resolved: no RDMA was tried",
	  { "a host name the resolver does not know, or a typing error in the address", NULL },
	  "'getent ahosts NAME'",
	  "getaddrinfo failed (Name or service not known) - invalid hostname or IP address",
	  NULL, RPING, 0 },

	/* The manual's RC example and the programs grown from it. */
	{ MSG, 19, "failed to modify QP state to RTR",
	  "the QP could not be given its path to the peer: ibv_modify_qp to RTR was refused "
	  "(EINVAL most often), so no connection was made",
	  { "no GID index given: the example's -g defaults to -1, no GRH, which RoCE requires; "
	    "give -g with the index of the RoCE v2 IPv4 GID",
	    "the GID index given is not one that reaches the peer: -g 0 where the RoCE v2 IPv4 "
	    "GID is at index 1 (rxe puts the fe80:: GID at 0)",
	    "an MTU larger than the port's active MTU", NULL },
	  "'rdmactl gids' (the index of each netdev's RoCE v2 IPv4 GID, marked), 'rdmactl check "
	  "--gid-index N' (N the index given to -g)", "failed to modify QP state to RTR", NULL,
	  RC_EXAMPLE, 0 },
	{ MSG, 20, "could not get gid for port %d, index %d",
	  "ibv_query_gid refused the port or index asked",
	  { "a port rxe does not have: rxe devices have port 1 alone (-i)",
	    "an index past the device's GID table", NULL },
	  "'rdmactl gids' (the indexes the device has)", "could not get gid for port 1, index 0",
	  NULL, RC_EXAMPLE, 0 },
	{ MSG, 21, "failed to create QP",
	  "ibv_create_qp was refused",
	  { "a queue deeper or more scatter entries than the device allows ('ibv_devinfo -v' "
	    "says its max_qp_wr and max_sge)",
	    "the device's QP count used up (max_qp) by other programs", NULL },
	  "'rdmactl show -s' (the device's limits), 'rdmactl qp' (the QPs in use)",
	  "failed to create QP", NULL, RC_EXAMPLE, 0 },
	{ MSG, 22, "failed to connect QPs",
	  "the example's connection of the two QPs failed: the line before it names the step",
	  { "the move to RTR was refused ('failed to modify QP state to RTR' before it)",
	    "the exchange of the QPs' addresses over TCP failed: the other side ended first",
	    NULL },
	  "the line before it; " "'rdmactl check --gid-index N'", "failed to connect QPs", NULL,
	  RC_EXAMPLE, DIAG_FAILURE_FOLLOWS },

	/* Open MPI's openib BTL, where UCX is not used. */
	{ MSG, 29, "No OpenFabrics connection schemes reported that they were able to be",
	  "Open MPI's openib BTL found no way to connect on the port: it is disabled there, and "
	  "MPI falls back to TCP or fails",
	  { "on RoCE (rxe) only the rdmacm scheme works, and it needs rdma_ucm loaded and an "
	    "IP address on the rxe link's netdev",
	    "the openib BTL is not what Open MPI 4.1 uses on rxe: the UCX PML is "
	    "(OMPI_MCA_pml=ucx, which 'rdmactl env' sets)", NULL },
	  "'rdmactl env' (Open MPI's and UCX's variables), 'rdmactl check --only modules'",
	  "No OpenFabrics connection schemes reported that they were able to be", NULL, OMPI_CPC,
	  0 },
	{ MSG, 45, "WARNING: There was an error initializing an OpenFabrics device.",
	  "Open MPI's openib BTL could not set the device up (opening it, its protection "
	  "domain, its queues or the device's parameters), and leaves it out: MPI goes on over "
	  "its other transports or fails",
	  { "the openib BTL is not what Open MPI 4.1 uses on rxe: the UCX PML is "
	    "(OMPI_MCA_pml=ucx, which 'rdmactl env' sets; '--mca btl ^openib' leaves the "
	    "openib BTL out and this warning with it)",
	    "a step of its set-up failed: Open MPI's lines before it, with '--mca "
	    "btl_base_verbose 100', say which", NULL },
	  "'rdmactl env' (Open MPI's and UCX's variables), 'ompi_info' (its transports)",
	  "WARNING: There was an error initializing an OpenFabrics device.", NULL, OMPI_OPENIB,
	  0 },
	{ MSG, 30, "Open MPI tried to use a GID index that was too large for an",
	  "the GID index btl_openib_gid_index named does not exist on the device",
	  { "an index past the rxe device's GID table, or set for another host", NULL },
	  "'rdmactl gids' (the indexes the device has)",
	  "Open MPI tried to use a GID index that was too large for an", NULL, OMPI_OPENIB, 0 },
	{ MSG, 31, "The InfiniBand retry count between two MPI processes has been",
	  "Open MPI's openib BTL saw a QP give up after its retries (transport retry counter "
	  "exceeded) between two ranks",
	  { "the peer is unreachable over RoCE: a firewall on UDP 4791, no rxe link on the "
	    "peer's route, another subnet",
	    "the two ranks chose GIDs of different types or families", NULL },
	  TELL_PEER, "The InfiniBand retry count between two MPI processes has been", NULL,
	  OMPI_OPENIB, 0 },

	/* An rdma_rxe source built against another kernel's headers (an old DKMS tree). */
	{ MSG, 23, "too many arguments to function",
	  "the compiler refused a call to the RDMA core: the source was written for another "
	  "kernel, whose function took other arguments",
	  { "an rdma_rxe source of another kernel release built against this one's ib_core "
	    "(a DKMS tree copied from elsewhere, a tutorial's tarball): 'rdmactl module "
	    "install' builds the one of the running kernel's own source", NULL },
	  "'rdmactl module install' (it takes the source of the running kernel)",
	  "drivers/infiniband/sw/rxe/rxe_mr.c:170:14: error: too many arguments to function "
	  "'ib_umem_get'", "ib_", GCC, 0 },
	{ MSG, 24, "implicit declaration of function",
	  "the compiler found a call to a function this kernel's headers do not declare: the "
	  "source was written for another kernel",
	  { "an rdma_rxe source of another kernel release built against this one's ib_core: "
	    "'rdmactl module install' builds the one of the running kernel's own source", NULL },
	  "'rdmactl module install' (it takes the source of the running kernel)",
	  "rxe_net.c:181:9: error: implicit declaration of function 'rdma_get_gid_attr'",
	  "rxe_", GCC, 0 },

	/* UCX. */
	{ MSG, 8, "Please set max locked memory (ulimit -l) to 'unlimited' (current: %llu kbytes)",
	  "UCX's verbs transport had a registration or a queue refused (ibv_reg_mr, "
	  "ibv_create_cq, ibv_create_srq: Cannot allocate memory) and names the memlock limit",
	  { MEMLOCK_CAUSE,
	    "a queue deeper than the device allows (rare: the limit is the common cause)", NULL },
	  TELL_MEMLOCK,
	  "ib_iface.c:1060 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory : "
	  "Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)",
	  NULL, UCX_IB, 0 },
	{ MSG, 9, "no usable transports/devices",
	  "UCX found no transport on any device that its settings allow",
	  { "UCX_NET_DEVICES names a device this host lacks (mlx5_0:1 copied from another "
	    "host), or a port other than rxe's 1",
	    "UCX_TLS names transports that need hardware (dc, ud_mlx5, rc_mlx5): rxe has "
	    "rc_verbs and ud_verbs",
	    "no rxe link, or the process cannot open it (a container without the uverbs node)",
	    NULL },
	  "'rdmactl check --pid PID' (UCX's variables held to the links as UCX reads them), "
	  "'ucx_info -d'",
	  "ucp_context.c:1582 UCX  ERROR no usable transports/devices (asked rc on network: "
	  "mlx5_0:1)", NULL, UCX_UCP, 0 },
	{ MSG, 25, "not available, please use one or more of: %s",
	  "UCX was asked for a device or transport this host does not have, and names those it "
	  "has",
	  { "UCX_NET_DEVICES names a device of another host (mlx5_0:1): the list after it has "
	    "this host's (rxe0:1 for the rxe link)",
	    "UCX_TLS names a transport this host lacks", NULL },
	  "'rdmactl env' (UCX's variables for this host's link), 'rdmactl check --pid PID'",
	  "ucp_context.c:1014 UCX  WARN  network device 'mlx5_0:1' is not available, please use "
	  "one or more of: 'lo'(tcp), 'rxe0:1'(ib), 'veth0'(tcp)", NULL, UCX_UCP, 0 },
	{ MSG, 26, "waiting for addr/route resolution state %d",
	  "rping's address or route resolution failed: the line before it names the call and "
	  "its errno",
	  { "no rxe link on the netdev the address (or the route to it) is on: 'rdma_resolve_"
	    "route: No such device' (ENODEV), as for 127.0.0.1, whose netdev is lo", NULL },
	  "'rdmactl link' (which netdev each rxe link is on), 'rdmactl check --peer ADDR'",
	  "waiting for addr/route resolution state 11", NULL, RPING, DIAG_FAILURE_FOLLOWS },
	{ MSG, 10, "Endpoint timeout",
	  "UCX gave up on a peer: no acknowledgement came after its retries (a completion "
	  "with 'transport retry counter exceeded' under it)",
	  { "the peer is unreachable over RoCE (a firewall on UDP 4791, no rxe link on the "
	    "route's netdev, another subnet)",
	    "the two ends chose GIDs of different types or families (UCX_IB_GID_INDEX given "
	    "on one side alone)",
	    "the peer process ended or hung", NULL },
	  TELL_PEER, "UCX  ERROR ... Endpoint timeout", NULL, UCX_STATUS, 0 },
	{ MSG, 11, "Destination is unreachable",
	  "UCX has no path to the peer's address over the transports both ends have",
	  { "the ends chose different devices or GIDs: another subnet, RoCE v1 on one side "
	    "and v2 on the other", "the peer is unreachable over RoCE", NULL },
	  TELL_PEER, "UCX  ERROR ... Destination is unreachable", NULL, UCX_STATUS, 0 },

	/* libfabric. */
	{ MSG, 12, "fi_getinfo: %d",
	  "fi_info found no provider that matches what was asked (-61, FI_ENODATA: no data "
	  "available)",
	  { "no RDMA device this process can use: no rxe link, or no uverbs node in a "
	    "container",
	    "the rxe link's netdev has no IP address: the verbs provider finds devices through "
	    "rdma_cm, by the addresses of their netdevs",
	    "FI_PROVIDER or -p names a provider this libfabric lacks or excludes", NULL },
	  TELL_DEV, "fi_getinfo: -61", NULL, FI_INFO, 0 },

	/* MPICH 4.0's ch4 device, over libfabric (ch4:ofi) or UCX (ch4:ucx): its error stack. */
	{ MSG, 39, "OFI fi_getinfo() failed (%s:%d:%s:%s)",
	  "MPICH's libfabric netmod found no provider for what it needs: the last word in the "
	  "parentheses is libfabric's reason ('No data available': none matched)",
	  { "no RDMA device this process can use: no rxe link, or no uverbs node in a "
	    "container; the verbs provider finds devices through the addresses of their "
	    "netdevs",
	    "FI_PROVIDER (or MPIR_CVAR_OFI_USE_PROVIDER) names a provider this libfabric lacks "
	    "or that does not serve this host (rxe is served by verbs;ofi_rxm)", NULL },
	  "'fi_info -p verbs' (what libfabric's verbs provider sees); " TELL_DEV,
	  "MPIDI_OFI_mpi_init_hook(596): OFI fi_getinfo() failed (ofi_init.c:596:"
	  "MPIDI_OFI_mpi_init_hook:No data available)", NULL, MPICH, 0 },
	{ MSG, 40, "ucx function returned with failed status(%s %d %s %s)",
	  "MPICH's UCX netmod got an error status from UCX: the last words in the parentheses "
	  "are UCX's status",
	  { "UCX found no device or transport to use: UCX_NET_DEVICES names one that is not "
	    "here, or no rxe link ('No such device'; UCX's own warning before it names what "
	    "it has)",
	    "the peer is unreachable over the transport UCX chose ('Destination is "
	    "unreachable', 'Endpoint timeout')", NULL },
	  "UCX's own lines before it; 'rdmactl env' (UCX_NET_DEVICES for the rxe link), "
	  "'rdmactl check --pid PID'",
	  "MPIDI_UCX_mpi_init_hook(185): ucx function returned with failed status(ucx_init.c "
	  "185 MPIDI_UCX_mpi_init_hook No such device)", NULL, MPICH, DIAG_FAILURE_FOLLOWS },

	/* NVMe over RDMA: the kernel's host and target, nvme-cli through libnvme. */
	{ MSG, 13, "rdma connection establishment failed (%d)",
	  "the kernel's NVMe host could not connect a queue to the target over rdma_cm",
	  { "(-104, ECONNRESET): the target refused the connect (a 'Connect rejected' line "
	    "beside it: no nvmet port listens on that address and service id, 4420 by "
	    "default, or the subsystem does not allow this host)",
	    "(-104, ECONNRESET) with no 'Connect rejected': the target never answered, it is "
	    "unreachable over RoCE (a firewall on UDP 4791, no rxe link on the target's "
	    "netdev, another subnet)",
	    "(-12, ENOMEM): more I/O queues or deeper ones than the device gives ('failed to "
	    "initialize MR pool' beside it): fewer with nvme connect's --nr-io-queues, "
	    "--queue-size", NULL },
	  TELL_PEER "; the target's kernel log (nvmet_rdma's lines)",
	  "nvme nvme0: rdma connection establishment failed (-104)", NULL, NVME_HOST, 0 },
	{ MSG, 14, "rdma_resolve_addr failed (%d).",
	  "the kernel's NVMe host found no RDMA device toward the target's address",
	  { "(-19, ENODEV): no rxe link on the netdev the route to the target leaves by",
	    "(-110, ETIMEDOUT): the target's address did not answer ARP", NULL },
	  "'rdmactl check --peer ADDR'; 'rdmactl link'",
	  "nvme nvme0: rdma_resolve_addr failed (-19).", NULL, NVME_HOST, 0 },
	{ MSG, 15, "Connect rejected: status %d (%s).",
	  "the target's rdma_cm refused the NVMe host's connect request",
	  { "status 8 (invalid service ID): no nvmet port listens there (port 4420 not "
	    "enabled, or another address family)",
	    "status 28 (consumer defined): nvmet refused it (its own line says why)", NULL },
	  "the target's nvmet configuration (its ports and the subsystems linked to them)",
	  "nvme nvme0: Connect rejected: status 8 (invalid service ID).", NULL, NVME_HOST, 
	  DIAG_FAILURE_OWN_STATUS },
	{ MSG, 16, "binding CM ID to %pISpcs failed (%d)",
	  "the kernel's NVMe target could not listen on the port's address",
	  { "(-19, ENODEV): the netdev that holds the address has no rxe link",
	    "(-99, EADDRNOTAVAIL): no local netdev holds the address", NULL },
	  "'rdmactl link', 'ip addr'", "nvmet_rdma: binding CM ID to 10.0.0.1:4420 failed (-19)",
	  NULL, NVME_TARGET, 0 },
	{ MSG, 17, "failed to write to nvme-fabrics device",
	  "nvme connect's request to the kernel failed: the kernel log's nvme lines say why",
	  { "the connection to the target failed (the kernel's 'rdma connection "
	    "establishment failed' beside it)",
	    "nvme-rdma is not loaded: the kernel did not know the rdma transport", NULL },
	  "'dmesg' (nvme's lines), " TELL_PEER,
	  "could not add new controller: failed to write to nvme-fabrics device", NULL, LIBNVME,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 18, "failed to open nvme-fabrics device",
	  "nvme connect could not open /dev/nvme-fabrics",
	  { "nvme-fabrics (with nvme-rdma) is not loaded: 'modprobe nvme-rdma'", NULL },
	  "'lsmod', 'ls -l /dev/nvme-fabrics'", "failed to open nvme-fabrics device", NULL,
	  LIBNVME, 0 },
	/*
	 * NCCL's NET/IB transport, as its source words it (a line of NCCL_DEBUG=
	 * WARN or INFO, after "host:pid:tid [dev] NCCL WARN"). The newer
	 * completion line ends in four optional GID strings, left out here.
	 */
	{ MSG, 33, "NET/IB : Got completion from peer %s with error %d, opcode %d, len %d, vendor err %d",
	  "NCCL's network proxy polled an error completion on its connection to that peer: "
	  "the status (error N, a work completion status) says why; vendor err is the "
	  "device's own code",
	  { "the status's causes, explained beside it: on rxe most often 12, the retry counter "
	    "exceeded: the peer unreachable over RoCE v2 (UDP 4791 dropped, another subnet) or "
	    "the wrong GID (NCCL_IB_GID_INDEX)",
	    "the peer rank's process ended, its QPs gone: its own log says why", NULL },
	  "the status beside it; " TELL_NCCL ", " TELL_PEER,
	  "gpu-201:9981:10021 [2] NCCL WARN NET/IB : Got completion from peer 10.0.1.12<48133> "
	  "with error 12, opcode 0, len 32768, vendor err 129 (Recv)", NULL, NCCL_IB,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 34, "NET/IB : Got completion from peer %s with status=%d opcode=%d len=%d vendor err %d (%s)",
	  "NCCL's network proxy polled an error completion on its connection to that peer: "
	  "status=N is the work completion status that says why; vendor err is the device's "
	  "own code",
	  { "the status's causes, explained beside it: on rxe most often 12, the retry counter "
	    "exceeded: the peer unreachable over RoCE v2 (UDP 4791 dropped, another subnet) or "
	    "the wrong GID (NCCL_IB_GID_INDEX; the line's localGid and remoteGid say which)",
	    "the peer rank's process ended, its QPs gone: its own log says why", NULL },
	  "the status beside it; " TELL_NCCL ", " TELL_PEER,
	  "NCCL WARN NET/IB : Got completion from peer 10.0.1.12<48133> with status=12 opcode=0 "
	  "len=0 vendor err 129 (Recv) localGid ::ffff:10.0.1.11 remoteGid ::ffff:10.0.1.12",
	  NULL, NCCL_IB, DIAG_FAILURE_FOLLOWS },
	{ MSG, 35, "Call to ibv_modify_qp failed with %d %s, %s",
	  "NCCL could not move a QP to its next state; the line names the device, the states, "
	  "the local GID index and both GIDs",
	  { "next state RTR with a local GID index that is no RoCE v2 IPv4 GID: on rxe the "
	    "fe80:: GIDs are at 0 and 1 (NCCL_IB_GID_INDEX, or NCCL's own choice with "
	    "NCCL_IB_ADDR_FAMILY and NCCL_IB_ROCE_VERSION_NUM)",
	    "a remote GID this netdev cannot reach: another subnet, no route", NULL },
	  "'rdmactl gids' (the index of each netdev's RoCE v2 IPv4 GID, marked), 'rdmactl "
	  "check --gid-index N' (N the line's local GID index); " TELL_NCCL,
	  "NCCL WARN Call to ibv_modify_qp failed with 22 Invalid argument, on dev rxe0:1, curr "
	  "state INIT, next state RTR, local GID index 0, local GID fe80::5054:ff:fe12:3456, "
	  "remote GID fe80::5054:ff:fe12:3457", NULL, NCCL_IBV, 0 },
	{ MSG, 36, "Call to ibv_reg_mr failed with error %s",
	  "NCCL could not register a buffer with the device",
	  { MEMLOCK_CAUSE, NULL },
	  TELL_MEMLOCK, "NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory",
	  NULL, NCCL_IBV, 0 },
	{ MSG, 37, "Call to ibv_create_cq failed with error %s",
	  "NCCL could not create a completion queue on the device",
	  { MEMLOCK_CAUSE, "a queue deeper than the device allows (rxe: max_cqe)", NULL },
	  TELL_MEMLOCK ", 'rdmactl show -s' (the device's limits)",
	  "NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory", NULL,
	  NCCL_IBV, 0 },
	{ MSG, 38, "NET/IB : No device found.",
	  "NCCL's IB transport found no RDMA device to use: NCCL goes on over TCP (NET/Socket), "
	  "slower, and says no more at its default verbosity",
	  { "no rxe link exists, or none this process can see (a container started without "
	    "--device /dev/infiniband/uverbsN)",
	    "NCCL_IB_HCA names devices that are not here (mlx5_0 on a host whose device is rxe0)",
	    "libibverbs finds no provider for the device (ibverbs-providers missing in the "
	    "image)", NULL },
	  "'rdmactl check --only link,provider', 'rdmactl link'; " TELL_NCCL,
	  "node-2:880:887 [0] NCCL INFO NET/IB : No device found.", NULL, NCCL_IB, 0 },
	/*
	 * SPDK's NVMe over RDMA host, as its source words it (after "[time]
	 * nvme_rdma.c:N:function: *ERROR*: "): the event received names the cause.
	 */
	{ MSG, 41, "Expected %s but received %s (%d) from CM event channel (status = %d)",
	  "SPDK's NVMe host waited for one rdma_cm event and got another: the one received, "
	  "and its status, say why",
	  { "RDMA_CM_EVENT_ADDR_ERROR (status -19, ENODEV): no rxe link on the netdev the "
	    "route to the target leaves by",
	    "RDMA_CM_EVENT_REJECTED (status 8, invalid service ID): nothing listens for NVMe "
	    "over RDMA at that address and port (the target's listener: SPDK's "
	    "nvmf_subsystem_add_listener, or the kernel's nvmet port)",
	    "RDMA_CM_EVENT_UNREACHABLE or ROUTE_ERROR: the target unreachable over RoCE v2 "
	    "(UDP 4791 dropped, another subnet)", NULL },
	  "the event beside it; " TELL_PEER,
	  "[2026-12-01 10:00:00.123456] nvme_rdma.c:1384:nvme_rdma_process_event: *ERROR*: "
	  "Expected RDMA_CM_EVENT_ESTABLISHED but received RDMA_CM_EVENT_REJECTED (8) from CM "
	  "event channel (status = 8)", NULL, SPDK_HOST,
	  DIAG_FAILURE_FOLLOWS | DIAG_FAILURE_OWN_STATUS },
	{ MSG, 42, "RDMA connect error %d",
	  "SPDK's NVMe host could not connect a queue pair to the target",
	  { "the rdma_cm event before it says why (its 'Expected ... but received' line)",
	    NULL },
	  "the line before it", "nvme_rdma.c:1123:nvme_rdma_connect_established: *ERROR*: RDMA "
	  "connect error -74", NULL, SPDK_HOST, DIAG_FAILURE_FOLLOWS },
	/*
	 * NFS over RDMA. mount.nfs says most failures in the errno's words
	 * ('mount.nfs4: Connection refused', '... Protocol error'): the errno
	 * entries carry NFS's causes; this is its own.
	 */
	{ MSG, 32, "%s: requested NFS version or transport protocol is not supported",
	  "the kernel's NFS client refused the version or the transport asked for "
	  "(EPROTONOSUPPORT)",
	  { "proto=rdma on a kernel without the RPC-over-RDMA transport (the rpcrdma module): "
	    "its NFS client cannot speak RDMA",
	    "an NFS version (vers=) this kernel or the server does not serve", NULL },
	  "'modprobe rpcrdma'; on the server, 'cat /proc/fs/nfsd/versions'",
	  "mount.nfs4: requested NFS version or transport protocol is not supported", NULL,
	  MOUNT_NFS, 0 },
};

const struct diag_failure *diag_failure_applog(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
