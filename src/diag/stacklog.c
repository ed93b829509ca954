// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The messages RDMA programs print when they fail, each as its program's
 * source writes it (a printf format: its conversions stand for anything),
 * what it means on rxe, its causes and what tells which. The formats were
 * read in the programs Debian ships (rdma-core 44's libibverbs examples and
 * libibverbs, perftest 4.5) and are held to their binaries by
 * bats/offline/55-explain.bats. The kernel's and modprobe's are
 * diag/kernlog.c's.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "diag/failure.h"

#define MSG DIAG_FAILURE_MESSAGE

/* Where each program's words are: "PROGRAM (rdma-core's FILE)". */
#define PINGPONG "ibv_rc_pingpong (rdma-core's libibverbs/examples/rc_pingpong.c; the uc, ud, " \
	"srq and xsrq ping-pongs say the same)"
#define DEVINFO "ibv_devinfo (rdma-core's libibverbs/examples/devinfo.c)"
#define LIBIBVERBS "libibverbs.so.1 (rdma-core's libibverbs/init.c and dynamic_driver.c)"
#define PERFTEST "ib_write_bw (perftest's src/perftest_resources.c; every ib_*_bw and _lat)"
#define BASH "bash (its words for a command it cannot find; sudo's are the same)"
#define PERFTEST_CM "ib_write_bw (perftest's src/perftest_communication.c; every ib_*_bw " \
	"and _lat given -R)"

/* A registration past the memlock limit, as the ping-pongs and perftest meet it. */
#define MEMLOCK_CAUSE "the process's memlock limit (RLIMIT_MEMLOCK) is smaller than the " \
	"buffer, and it has no CAP_IPC_LOCK in the initial user namespace: ENOMEM (a " \
	"container's or a service's limit, often 64 KiB or 8 MiB)"
#define TELL_MEMLOCK "'rdmactl check --only memlock' (this shell's limit), 'rdmactl check " \
	"--pid PID' (the program's own, as the kernel applies it)"

#define TELL_GID "'rdmactl gids' (the index of each netdev's RoCE v2 IPv4 GID, marked), " \
	"'rdmactl check --gid-index N' (N the index given to -g, -x)"
#define TELL_PEER "'rdmactl check --peer ADDR' on both hosts (the link on the route's " \
	"netdev, the firewall, namespaces, MTU)"
#define TELL_DEV "'rdmactl check' (the module, the link, the uverbs node, the provider); " \
	"'rdmactl show'"

static const struct diag_failure table[] = {
	{ MSG, 1, "Failed to modify QP to RTR",
	  "the QP could not be given its path to the peer: ibv_modify_qp to RTR was refused "
	  "(EINVAL most often), so no connection was made",
	  { "the GID index given (-g) is not one that reaches the peer: -g 0 where the RoCE v2 "
	    "IPv4 GID is at index 1 (rxe puts the fe80:: GID at 0), or an index with no GID",
	    "no GID index at all: without -g the path has no GRH, which RoCE requires",
	    "the peer's GID (from its address) is not reachable from the netdev of the GID "
	    "given: another subnet, no route",
	    "an MTU (-m) larger than the port's active MTU", NULL },
	  TELL_GID, "Failed to modify QP to RTR", NULL, PINGPONG, 0 },
	{ MSG, 2, "Failed to modify QP %d to RTR",
	  "perftest could not give its QP the path to the peer: ibv_modify_qp to RTR was refused",
	  { "the GID index (-x) is not one that reaches the peer: -x 0 where the RoCE v2 IPv4 "
	    "GID is at index 1 (rxe puts the fe80:: GID at 0)",
	    "the two ends chose GIDs of different types or families ('Found Incompatibility "
	    "issue with GID types' beside it)",
	    "an MTU (-m) larger than the port's active MTU", NULL },
	  TELL_GID, "Failed to modify QP 322 to RTR", NULL, PERFTEST, 0 },
	{ MSG, 3, "Failed to modify QP to RTS",
	  "the connected QP could not be made ready to send: ibv_modify_qp to RTS was refused",
	  { "the move to RTR before it did not take (an earlier message says so)",
	    "a timeout or retry count out of range", NULL },
	  "the program's earlier lines; " TELL_GID, "Failed to modify QP to RTS", NULL, PINGPONG, 0 },
	{ MSG, 4, "Failed to modify QP to INIT",
	  "the new QP could not be bound to its port: ibv_modify_qp to INIT was refused",
	  { "a port number (-i) the device does not have: rxe devices have port 1 alone",
	    "access flags the device does not allow", NULL },
	  "'rdmactl show' (the device's ports)", "Failed to modify QP to INIT", NULL, PINGPONG, 0 },
	{ MSG, 5, "Couldn't register MR",
	  "ibv_reg_mr was refused: the buffer could not be pinned for RDMA",
	  { MEMLOCK_CAUSE,
	    "access flags the device does not allow (on-demand paging on an old kernel)", NULL },
	  TELL_MEMLOCK, "Couldn't register MR", NULL, PINGPONG, 0 },
	{ MSG, 6, "Couldn't create QP",
	  "ibv_create_qp was refused",
	  { "a queue deeper (-r) or more scatter entries than the device allows (rxe: "
	    "max_qp_wr 1048576, max_sge 32 on 6.1; 'ibv_devinfo -v' says)",
	    "the device's QP count used up (max_qp) by other programs", NULL },
	  "'rdmactl show -s' (the device's limits), 'rdmactl qp' (the QPs in use)",
	  "Couldn't create QP", NULL, PINGPONG, 0 },
	{ MSG, 7, "Couldn't create CQ",
	  "ibv_create_cq was refused",
	  { "more entries than the device allows (max_cqe)", NULL },
	  "'rdmactl show -s' (the device's limits)", "Couldn't create CQ", NULL, PINGPONG, 0 },
	{ MSG, 8, "Couldn't get context for %s",
	  "the device was found but could not be opened (ibv_open_device)",
	  { "its uverbs node is missing or refused: a container started without --device "
	    "/dev/infiniband/uverbsN, or the device cgroup refuses it",
	    "the node's permissions: not root and the node not opened to the user (rdma-core's "
	    "udev rules make it 0666)",
	    "rdma-core's rxe provider (ibverbs-providers) is not installed: libibverbs warns "
	    "'couldn't load driver' before this", NULL },
	  TELL_DEV, "Couldn't get context for rxe0", NULL, PINGPONG, 0 },
	{ MSG, 9, "No IB devices found",
	  "libibverbs lists no RDMA device that this process can use",
	  { "no rxe link exists: 'rdmactl add rxe0 NETDEV' (or 'rdmactl up') makes one",
	    "rdma-core's rxe provider is missing (ibverbs-providers): the device is there and "
	    "libibverbs skips it",
	    "a container without /dev/infiniband/uverbsN (--device)",
	    "the link is in another network namespace and the RDMA subsystem is in exclusive "
	    "mode", NULL },
	  TELL_DEV, "No IB devices found", NULL, DEVINFO, 0 },
	{ MSG, 41, "Failed to open device",
	  "ibv_devinfo found the device but could not open it (ibv_open_device on its "
	  "/dev/infiniband/uverbsN)",
	  { "the node is not open to this user: not root and the node's mode not 0666 "
	    "(rdma-core's udev rules make it so; a container's /dev may not)",
	    "a container's device cgroup refuses the node: started without --device "
	    "/dev/infiniband/uverbsN (EPERM)",
	    "the node is missing from a container's /dev (only the sysfs entry is there)", NULL },
	  "'ls -l /dev/infiniband', 'rdmactl check --only uverbs' (this user's), 'rdmactl check "
	  "--pid PID' (the nodes the program's root shows)", "Failed to open device", NULL,
	  DEVINFO, 0 },
	{ MSG, 42, "libibverbs: Warning: no userspace device-specific driver found for %s",
	  "libibverbs found the kernel's device but no provider library for it: the device is "
	  "skipped, and programs say no device was found",
	  { "ibverbs-providers is not installed (a container image with libibverbs alone)",
	    "a libibverbs of another build than its providers (one copied in, or from "
	    "another distribution)", NULL },
	  "'rdmactl check --only provider'",
	  "libibverbs: Warning: no userspace device-specific driver found for "
	  "/sys/class/infiniband_verbs/uverbs0", NULL, LIBIBVERBS, 0 },
	{ MSG, 10, "Failed to get IB devices list",
	  "libibverbs could not list devices at all (ibv_get_device_list failed)",
	  { "ib_uverbs is not loaded: /sys/class/infiniband_verbs is missing",
	    "the kernel has no RDMA support", NULL },
	  "'rdmactl check --only kernel,modules'", "Failed to get IB devices list", NULL, DEVINFO, 0 },
	{ MSG, 11, "Couldn't connect to %s:%d",
	  "the TCP connection that exchanges the QPs' addresses before any RDMA was refused or "
	  "timed out: no RDMA was tried yet",
	  { "the server side is not running yet, or listens on another port (-p)",
	    "a firewall drops the TCP port (18515 for the ping-pongs and perftest by default)",
	    "the address given is not the server's", NULL },
	  "whether the server runs ('ss -ltnp'), the firewall ('rdmactl check --only "
	  "firewall')", "Couldn't connect to 10.0.0.2:18515", NULL, PINGPONG, 0 },
	{ MSG, 47, "Couldn't listen to port %d",
	  "the server side could not open its TCP port for the exchange of addresses: nothing "
	  "was tried over RDMA",
	  { "another program listens on that port: an earlier server still running, or "
	    "perftest's server (the ping-pongs and perftest both take 18515 when no -p is "
	    "given)", NULL },
	  "'ss -ltnp sport = :PORT' (who listens)", "Couldn't listen to port 18515", NULL,
	  PINGPONG, 0 },
	{ MSG, 12, "Couldn't read/write remote address",
	  "the exchange of addresses over TCP ended early: the other side closed it",
	  { "the other side failed first and exited: its own output names the cause", NULL },
	  "the other side's output", "Couldn't read/write remote address", NULL, PINGPONG,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 24, "client read/write",
	  "the ping-pong's client lost the TCP exchange of addresses: the server closed it "
	  "(the errno's words after it are stale, perror's after a read that met the end)",
	  { "the server failed first (its 'Failed to modify QP to RTR', 'Couldn't register MR' "
	    "...) and exited: its own output names the cause", NULL },
	  "the server's output", "client read/write: No space left on device", NULL, PINGPONG,
	  DIAG_FAILURE_PERROR | DIAG_FAILURE_FOLLOWS },
	{ MSG, 25, "server read",
	  "the ping-pong's server lost the TCP exchange of addresses: the client closed it",
	  { "the client failed first and exited: its own output names the cause", NULL },
	  "the client's output", "server read: Success", NULL, PINGPONG,
	  DIAG_FAILURE_PERROR | DIAG_FAILURE_FOLLOWS },
	{ MSG, 26, "Couldn't connect to remote QP",
	  "the ping-pong could not connect its QP to the peer's: the line before it names the step",
	  { "the move to RTR was refused ('Failed to modify QP to RTR' before it)", NULL },
	  "the line before it; " TELL_GID, "Couldn't connect to remote QP", NULL, PINGPONG,
	  DIAG_FAILURE_FOLLOWS },
	/* The rest of perftest's: a run that fails before or while it measures. */
	{ MSG, 27, "Unable to find the Infiniband/RoCE device",
	  "perftest found no RDMA device by the name given, or none at all",
	  { "-d names a device that is not here (mlx5_0 where the device is rxe0)",
	    "no rxe link exists, or none this process can see (a container without "
	    "/dev/infiniband)", NULL },
	  "'rdmactl link' (the devices' names), 'rdmactl check --only link'",
	  " Unable to find the Infiniband/RoCE device", NULL, PERFTEST, 0 },
	{ MSG, 35, "IB device %s not found",
	  "no RDMA device by the name given (-d, --ib-dev)",
	  { "-d names a device that is not here (mlx5_0 where the device is rxe0)",
	    "the link was made under another name, or not at all", NULL },
	  "'rdmactl link' (the devices' names)", "IB device mlx5_0 not found", NULL, PINGPONG " "
	  "and perftest", 0 },
	{ MSG, 36, "Couldn't allocate MR",
	  "perftest could not register its buffer with the device",
	  { MEMLOCK_CAUSE, NULL },
	  TELL_MEMLOCK, "Couldn't allocate MR", NULL, PERFTEST, 0 },
	{ MSG, 37, "Failed to create MR",
	  "perftest's memory registration failed (after 'Couldn't allocate MR')",
	  { "the registration's own failure, named on the line before it", NULL },
	  "the line before it", "Failed to create MR", NULL, PERFTEST, DIAG_FAILURE_FOLLOWS },
	{ MSG, 38, "Couldn't create IB resources",
	  "perftest could not set up its device, queues or memory, so nothing was measured",
	  { "a step before it failed: the lines before it name it (a registration past the "
	    "memlock limit most often)", NULL },
	  "the lines before it", " Couldn't create IB resources", NULL, PERFTEST,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 39, "ethernet_read_keys: Couldn't read remote address",
	  "perftest's exchange of keys and addresses over TCP ended early: the other side closed it",
	  { "the other side failed first and exited: its own output names the cause", NULL },
	  "the other side's output", "ethernet_read_keys: Couldn't read remote address", NULL,
	  PERFTEST, DIAG_FAILURE_FOLLOWS },
	{ MSG, 40, "Unable to read to socket/rdma_cm",
	  "perftest's read from the other side failed",
	  { "the other side failed first and exited: its own output names the cause", NULL },
	  "the other side's output", " Unable to read to socket/rdma_cm", NULL, PERFTEST,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 28, "Unable to open file descriptor for socket connection",
	  "perftest could not open its TCP connection to the server, so nothing was measured",
	  { "the connection was refused or timed out ('Couldn't connect to' before it): the "
	    "server not running, another port (-p), a firewall on the TCP port", NULL },
	  "the line before it", "Unable to open file descriptor for socket connection", NULL,
	  PERFTEST, DIAG_FAILURE_FOLLOWS },
	{ MSG, 29, "Unable to init the socket connection",
	  "perftest's connection to the other side failed before any RDMA",
	  { "the TCP connection failed ('Couldn't connect to' before it)",
	    "with -R, rdma_cm's connect failed ('Unexpected CM event bl blka N' before it)",
	    NULL },
	  "the lines before it", " Unable to init the socket connection", NULL, PERFTEST,
	  DIAG_FAILURE_FOLLOWS },
	/* The tool tutorials name that rdma-core no longer ships. */
	{ MSG, 50, "%s: command not found",
	  "rxe_cfg, the script tutorials use to make rxe links ('rxe_cfg start', 'rxe_cfg add "
	  "eth0'), is not installed: rdma-core removed it in 2020, as iproute2's 'rdma link "
	  "add' does its work; Debian 11 and later ship none",
	  { "a tutorial older than the tools: 'rdmactl add rxe0 NETDEV' makes a link ('rdma "
	    "link add rxe0 type rxe netdev NETDEV' too), 'rdmactl start' and 'rdmactl status' "
	    "do what rxe_cfg's start and status did, 'rdmactl add --persist' keeps a link "
	    "across boots", NULL },
	  "'rdmactl status' (each Ethernet device and its rxe link, as rxe_cfg status showed)",
	  "bash: rxe_cfg: command not found", "rxe_cfg", BASH, 0 },
	/* With -R: the connection made through rdma_cm, not TCP. */
	{ MSG, 44, "Unexpected CM event bl blka %d",
	  "perftest's rdma_cm connect (-R) got rdma_cm event N where it waited for ESTABLISHED: "
	  "the number is the event's (rdma_cma.h), and the run ends",
	  { "8 (RDMA_CM_EVENT_REJECTED): nothing listens on that port at the server's address: "
	    "the server not started, started without -R (it waits on TCP, not rdma_cm), or on "
	    "another port (-p)",
	    "7 (RDMA_CM_EVENT_UNREACHABLE): the server's rdma_cm did not answer: a firewall "
	    "dropping UDP 4791 on the path, or on Linux before 7.1 the server in another "
	    "network namespace",
	    "6 (RDMA_CM_EVENT_CONNECT_ERROR): the server answered, but a QP could not be moved "
	    "to RTR or RTS with what it answered", NULL },
	  TELL_PEER "; 'rdmactl check --only firewall,netns' (this end's part)",
	  "Unexpected CM event bl blka 8", NULL, PERFTEST_CM, DIAG_FAILURE_OWN_STATUS },
	{ MSG, 45, "Unable to perform rdma_client function",
	  "perftest's client side of the rdma_cm connection (-R) failed, and the run ends",
	  { "the connect failed: the line before it says how ('Unexpected CM event bl blka N')",
	    NULL },
	  "the line before it", " Unable to perform rdma_client function", NULL, PERFTEST_CM,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 46, "Unable to perform rdma_server function",
	  "perftest's server side of the rdma_cm connection (-R) failed, and the run ends",
	  { "the client's connect request did not become a connection: the lines before it "
	    "say how", NULL },
	  "the lines before it", " Unable to perform rdma_server function", NULL, PERFTEST_CM,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 30, "Found Incompatibility issue with GID types.",
	  "the two ends' GIDs are of different types or families: one chose RoCE v1 or IPv6, "
	  "the other RoCE v2 over IPv4",
	  { "-x given on one side only, or different indexes on the two sides: on rxe give "
	    "each its RoCE v2 IPv4 GID's index", NULL },
	  TELL_GID, " Found Incompatibility issue with GID types.", NULL, PERFTEST, 0 },
	{ MSG, 31, "Unable to Connect the HCA's through the link",
	  "perftest could not connect its QPs to the other side's",
	  { "a QP's move to RTR or RTS was refused ('Failed to modify QP %d to RTR' before it)",
	    NULL },
	  "the line before it; " TELL_GID, " Unable to Connect the HCA's through the link",
	  NULL, PERFTEST, DIAG_FAILURE_FOLLOWS },
	{ MSG, 32, "Failed to exchange data between server and clients",
	  "the exchange over TCP between the two sides broke off",
	  { "the other side failed first and exited: its own output names the cause",
	    "the two sides run different tests or options (ib_write_bw against ib_read_bw, "
	    "another -s, -q or -c)", NULL },
	  "the other side's output, its command line", " Failed to exchange data between "
	  "server and clients", NULL, PERFTEST, DIAG_FAILURE_FOLLOWS },
	{ MSG, 33, "Completion with error at",
	  "perftest polled a completion with an error (at client, or at server): the status on "
	  "the next line says why",
	  { "the status's causes ('Failed status N' after it)", NULL },
	  "the line after it", " Completion with error at client", NULL, PERFTEST,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 34, "Failed status %d: wr_id %d syndrom 0x%x",
	  "the error completion perftest polled: its work completion status, and the "
	  "device's own code (vendor_err, which perftest calls syndrom)",
	  { "the status's causes, explained beside it", NULL },
	  "the status beside it", " Failed status 12: wr_id 0 syndrom 0x81", NULL, PERFTEST,
	  DIAG_FAILURE_FOLLOWS },
	{ MSG, 48, "parse WC failed %d",
	  "the ping-pong met a work completion that did not succeed and stops",
	  { "the status on the line before it ('Failed status ... for wr_id ...')", NULL },
	  "the line before it", "parse WC failed 1", NULL, PINGPONG, DIAG_FAILURE_FOLLOWS },
	{ MSG, 49, "libibverbs: Warning: couldn't open config directory '%s'.",
	  "libibverbs has no providers' configuration, so it knows no driver and finds no "
	  "device ('No IB devices found' follows)",
	  { "ibverbs-providers is not installed (it holds /etc/libibverbs.d and the providers, "
	    "rxe's among them): a container image or a host with libibverbs1 alone", NULL },
	  "'rdmactl check --only provider'; 'dpkg -S /etc/libibverbs.d'",
	  "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.", NULL,
	  LIBIBVERBS, 0 },
	{ MSG, 13, "libibverbs: Warning: couldn't load driver '%s'",
	  "libibverbs found a provider named in its configuration but could not load it: its "
	  "devices are skipped",
	  { "rdma-core's providers (ibverbs-providers) are not installed, or of another "
	    "version than libibverbs", NULL },
	  "'rdmactl check --only provider'", "libibverbs: Warning: couldn't load driver 'librxe-rdmav34.so'",
	  NULL, LIBIBVERBS, 0 },
	{ MSG, 14, "libibverbs: Warning: RLIMIT_MEMLOCK is %llu bytes.",
	  "libibverbs warns at start that the memlock limit is small: memory registrations past "
	  "it fail with ENOMEM",
	  { "the limit the program inherited (a service, a container, a login's default); root "
	    "with CAP_IPC_LOCK is not bound by it", NULL },
	  "'rdmactl check --only memlock', 'rdmactl check --pid PID'",
	  "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.", NULL, LIBIBVERBS, 0 },
	{ MSG, 15, "Driver %s does not support the kernel ABI of %u (supports %u to %u) for device %s",
	  "libibverbs' provider and the kernel's uverbs speak different ABI versions: the "
	  "device is skipped",
	  { "an rdma-core much older or newer than the kernel (a container image's userland on "
	    "another host's kernel)", NULL },
	  "'rdmactl check --only provider'",
	  "libibverbs: Warning: Driver rxe does not support the kernel ABI of 3 (supports 2 to 2) "
	  "for device rxe0", NULL, LIBIBVERBS, 0 },
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

const struct diag_failure *diag_failure_stacklog(size_t *n)
{
	*n = NTABLE;
	return table;
}

/*
 * The length of the printf conversion at P ('%' first); 0 for "%%", a
 * literal '%'. The kernel's %p takes the letters and digits after it as its
 * own (%pI4, %pISpcs: an address).
 */
static size_t conversion(const char *p)
{
	size_t i = 1;

	if (p[1] == '%')
		return 0;
	i += strspn(p + i, "-+ #0123456789.*");
	i += strspn(p + i, "hlLqjzt");
	if (p[i] == 'p')
		return i + 1 + strspn(p + i + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				      "0123456789");
	return p[i] ? i + 1 : i;
}

/*
 * The next literal run of the format at *F into SEG (SIZE bytes), lowercased,
 * each run of white space one space, the white space before a conversion
 * left to it; *F moved past the conversion that ends it (*CONV: its letter,
 * '\0' when none did). The run's length (0 for none, as between two conversions); -1 at
 * the format's end. AFTER: a conversion came before, whose white space after
 * it is the run's ("QP %d to RTR" needs " to rtr").
 */
static long next_segment(const char **fp, bool after, char *seg, size_t size, char *conv)
{
	const char *f = *fp;
	size_t n = 0;

	*conv = '\0';
	if (!*f)
		return -1;
	while (*f && n + 1 < size) {
		size_t c;

		if (*f == '%' && (c = conversion(f)) > 0) {
			/* The letter; the kernel's %pI4 and the like are a 'p'. */
			*conv = f[strspn(f + 1, "-+ #0123456789.*hlLqjzt") + 1];
			f += c;
			break;
		}
		if (*f == '%')
			f++;	/* "%%" */
		if (isspace((unsigned char)*f)) {
			if (n ? seg[n - 1] != ' ' : after)
				seg[n++] = ' ';
		} else {
			seg[n++] = (char)tolower((unsigned char)*f);
		}
		f++;
	}
	/* Trailing white space of a run is the conversion's to fill. */
	while (n && seg[n - 1] == ' ' && *f)
		n--;
	seg[n] = '\0';
	*fp = f;
	return (long)n;
}

/*
 * Where a number conversion KIND ('d', 'u', 'x'...) printed at P ends, one
 * space before it allowed; NULL when P holds none. Other conversions print
 * anything.
 */
static const char *number_end(const char *p, char kind)
{
	const char *digits = kind == 'x' || kind == 'X' ? "0123456789abcdef" : "0123456789";
	size_t n;

	if (*p == ' ')
		p++;
	if ((kind == 'd' || kind == 'i') && (*p == '-' || *p == '+'))
		p++;
	if ((kind == 'x' || kind == 'X') && p[0] == '0' && p[1] == 'x')
		p += 2;
	n = strspn(p, digits);
	return n ? p + n : NULL;
}

static bool numeric(char kind)
{
	return kind && strchr("diuxXo", kind);
}

/*
 * The rest of the format at F matched in HAY from AT, a conversion PREV
 * ('\0': none) before it: where its first literal run stands (AT when it
 * has none), or -1.
 */
static long format_from(const char *hay, const char *at, const char *f, char prev)
{
	char seg[256], conv;
	const char *end;
	long n = next_segment(&f, prev != '\0', seg, sizeof(seg), &conv);

	if (numeric(prev) && !(end = number_end(at, prev)))
		return -1;
	if (n < 0)	/* the format's end: a conversion before it prints something */
		return !prev || numeric(prev) || *at ? at - hay : -1;
	if (!n)		/* two conversions together: the two print something */
		return format_from(hay, at, f, conv && !prev ? conv : 's');
	/* A number ends where it ends: the run comes right after it. */
	if (numeric(prev))
		return !strncmp(end, seg, (size_t)n) && format_from(hay, end + n, f, conv) >= 0 ?
		       end - hay : -1;
	/*
	 * Anything else: the first place the run stands, at least a byte on
	 * (the first only: a line is matched in time linear in its length,
	 * whatever it holds).
	 */
	end = prev && !*at ? NULL : strstr(at + (prev != '\0'), seg);
	return end && format_from(hay, end + n, f, conv) >= 0 ? end - hay : -1;
}

long diag_failure_format_at(const char *hay, const char *format)
{
	/*
	 * Each literal run of FORMAT, lowercased, in order in HAY; a number
	 * conversion matches a number, any other anything but nothing: "QP %d
	 * to RTR" is neither "QP to RTR" nor "QP state to RTR".
	 */
	return format_from(hay, hay, format, '\0');
}

size_t diag_failure_format_anchor(const char *format, char *buf, size_t size)
{
	char seg[256], conv;
	const char *f = format;
	size_t best = 0;
	long n;

	buf[0] = '\0';
	for (bool after = false; (n = next_segment(&f, after, seg, sizeof(seg), &conv)) >= 0;
	     after = conv)
		if ((size_t)n > best && (size_t)n < size) {
			best = (size_t)n;
			memcpy(buf, seg, best + 1);
		}
	return best;
}
