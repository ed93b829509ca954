// SPDX-License-Identifier: GPL-2.0-or-later
/* The command tree: each row's handler, options, arguments and help together. */
#include <stddef.h>

#include "cli/grammar.h"
#include "rdmactl/table.h"
#include "cmd/cmd.h"
#include "lazy/lazy.h"
#include "model/conf.h"
#include "selftest/selftest.h"

static const struct cli_opt add_opts[] = {
	{ "persist", 0, CLI_FLAG, .help = "also record it in the persistent-links file, so "
	  "'start' makes it again at boot; if that fails the link is removed" },
	{ "exist-ok", 0, CLI_FLAG, .help = "succeed when NAME already runs on NETDEV" },
	{ "force", 0, CLI_FLAG, .help = "allow loopback and non-Ethernet devices (the port "
	  "carries no RoCE traffic to other hosts there)" },
	{ NULL },
};

static const struct cli_opt del_opts[] = {
	{ "persist", 0, CLI_FLAG, .help = "also remove them from the persistent-links file" },
	{ "wait", 0, CLI_FLAG, .help = "delete even while processes hold them: wait until they "
	  "close" },
	{ "netdev", 0, CLI_STR, "NETDEV", .help = "the rxe link on NETDEV",
	  .complete = CLI_C_NETDEV },
	{ "all", 0, CLI_FLAG, .help = "every rxe link" },
	{ NULL },
};

static const struct cli_opt start_opts[] = {
	{ "watch", 0, CLI_FLAG, .help = "then stay until SIGTERM or SIGINT, making each link "
	  "again as its netdev comes back or the file gains it; at the end, delete the links "
	  "this run made" },
	{ "keep", 0, CLI_FLAG, .help = "with --watch, leave the links it made at its end" },
	{ "check", 0, CLI_FLAG, .help = "with --watch, print check's verdicts at the start and "
	  "after each change of a link" },
	{ NULL },
};

static const struct cli_opt stop_opts[] = {
	{ "wait", 0, CLI_FLAG, .help = "delete even while processes hold them: wait until they "
	  "close" },
	{ NULL },
};

#define ADD_ROW(word) \
	{ word, .fn = cmd_add, .opts = { add_opts }, .args = "[NAME] NETDEV", .min_args = 1, \
	  .max_args = 5, .live_only = true, \
	  .summary = "Create the rxe link NAME on the Ethernet device NETDEV.", \
	  .help = "Without NAME the first free rxeN is taken. The new link is printed as " \
		  "'link show' prints it. iproute2's 'NAME type rxe netdev NETDEV' works too." }

#define DEL_ROW(word) \
	{ word, { "remove", "delete" }, .fn = cmd_del, .opts = { del_opts }, \
	  .args = "[NAME|NETDEV]...", .max_args = CLI_ANY, .live_only = true, \
	  .summary = "Delete rxe links: by name (or by the netdev carrying one), the one on " \
		     "--netdev, or --all.", \
	  .help = "Every name is checked first: nothing is deleted when one is unknown, not " \
		  "an rxe device (hardware devices are refused), or held open by a process " \
		  "(named), since the kernel would make the delete wait for it." }

static const struct cli_cmd link_verbs[] = {
	{ "show", { "list" }, .fn = cmd_link_show, .args = "[DEV]", .max_args = 1,
	  .summary = "Show each rxe link (or DEV): device, port, state, physical state, netdev, "
		     "netdev MTU and active (RoCE) MTU.",
	  .help = "The MTU is read through libibverbs and needs ib_uverbs loaded." },
	ADD_ROW("add"),
	DEL_ROW("del"),
	{ "move", .fn = cmd_link_move, .args = "DEV NETNS", .min_args = 2, .max_args = 2,
	  .live_only = true,
	  .summary = "Move RDMA device DEV into network namespace NETNS (a name or a PID), as "
		     "'rdma dev set DEV netns NS': in the exclusive namespace mode only." },
	{ NULL },
};

static const struct cli_cmd persist_verbs[] = {
	{ "list", { "show" }, .fn = cmd_persist_list,
	  .summary = "Show the links the persistent-links file records." },
	{ "add", .fn = cmd_persist_add, .args = "NAME NETDEV", .min_args = 2, .max_args = 2,
	  .summary = "Record NAME on NETDEV without touching the kernel." },
	{ "del", { "remove", "delete" }, .fn = cmd_persist_del, .args = "NAME|NETDEV...",
	  .min_args = 1, .max_args = CLI_ANY,
	  .summary = "Forget links, by name or by netdev, without touching the kernel." },
	{ "wants", .fn = cmd_persist_wants, .args = "DIR", .min_args = 1, .max_args = 1,
	  .summary = "Write into DIR, for each netdev the file lists, a drop-in by which the "
		     "netdev's systemd device unit wants rdmactl-link@NETDEV.service.",
	  .help = "systemd's generator for rdmactl runs it at boot and at every 'systemctl "
		  "daemon-reload', so a netdev that appears later gets its links." },
	{ NULL },
};

static const struct cli_opt show_opts[] = {
	{ "stats", 's', CLI_FLAG, .help = "add each port's hw_counters" },
	{ NULL },
};

#define SHOW_ROW(word, hide) \
	{ word, .fn = cmd_show, .opts = { show_opts }, .args = "[DEV]", .max_args = 1, \
	  .hidden = hide, \
	  .summary = "Show RDMA devices and their ports.", \
	  .help = "Per device: node type and GUIDs, firmware, driver (rxe recognised), netdev, " \
		  "uverbs node; per port: state, physical state, link layer, max and active " \
		  "MTU, rate, GID and pkey table lengths." }

static const struct cli_cmd dev_verbs[] = {
	SHOW_ROW("show", false),
	{ NULL },
};

static const struct cli_opt gids_opts[] = {
	{ "all", 0, CLI_FLAG, .help = "empty slots too" },
	{ NULL },
};

static const char *const check_formats[] = { "text", "junit", NULL };

static const struct cli_opt check_opts[] = {
	{ "dev", 0, CLI_STR, "DEV", .help = "only this rxe device", .complete = CLI_C_RDMA },
	{ "gid-index", 0, CLI_UINT, "N", .max = 0xffff, .help = "vet the GID index a program "
	  "uses (its -g): a mismatch names the index to use instead" },
	{ "peer", 0, CLI_STR, "ADDR", .help = "the remote address: GID family, route" },
	{ "only", 0, CLI_STR, "ID,...", .help = "only these checks", .complete = CLI_C_COMMAND,
	  .from = "check --list", .list = true },
	{ "list", 0, CLI_FLAG, .help = "list the checks and their ids" },
	{ "strict", 0, CLI_FLAG, .help = "warnings fail too" },
	{ "pid", 0, CLI_UINT, "PID", .min = 1, .max = 4194304, .help = "check that process "
	  "instead: its libibverbs, memlock limit, RDMA variables, namespace and QPs" },
	{ "module-file", 0, CLI_STR, "KO", .help = "vet an out-of-tree module before loading it",
	  .complete = CLI_C_FILE },
	{ "since", 0, CLI_STR, "TIME", .help = "the journal check's failures from TIME on, as "
	  "journalctl's --since takes it ('-2h', '30min ago', 'today', '2026-12-03 09:10'; "
	  "default: an hour ago)" },
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = check_formats,
	  .help = "junit: the verdicts as a JUnit XML test report, for a CI job's test "
		  "results (default text; -j: JSON)" },
	{ NULL },
};


static const struct cli_opt kernel_opts[] = {
	{ "kernel", 0, CLI_STR, "KVER", .help = "another installed kernel's release (default: "
	  "the running kernel's)" },
	{ NULL },
};

static const struct cli_opt module_install_opts[] = {
	{ "source", 0, CLI_STR, "TARBALL|DIR", .help = "build from this kernel source tarball "
	  "or tree (default: Debian's /usr/src/linux-source-X.Y.tar.xz of the same version)",
	  .complete = CLI_C_FILE },
	{ "force", 0, CLI_FLAG, .help = "build even when rdma_rxe is there, or the source's "
	  "version differs from the kernel's (unsupported)" },
	{ "install-deps", 0, CLI_FLAG, .help = "apt-get what is missing: headers, source, dkms, "
	  "or the distribution's package that has rdma_rxe" },
	{ NULL },
};

static const char *const ci_setup_formats[] = { "text", "junit", NULL };

static const struct cli_opt ci_setup_opts[] = {
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = ci_setup_formats,
	  .help = "junit: each step as a JUnit XML test case, for a CI job's test report; what "
		  "the steps print, and the text, then go to standard error (default text; -j: "
		  "JSON)" },
	{ "install-deps", 0, CLI_FLAG, .help = "apt-get what rdma_rxe needs on this kernel: the "
	  "distribution's package that has it, or the headers, source and dkms to build it" },
	{ "dotenv", 0, CLI_STR, "FILE", .complete = CLI_C_FILE,
	  .help = "under GitLab CI, write the variables to FILE (default rdmactl.env), for the "
	  "job's artifacts:reports:dotenv" },
	{ NULL },
};

static const struct cli_opt module_remove_opts[] = {
	{ "wait", 0, CLI_FLAG, .help = "unload even while processes hold rxe devices: wait "
	  "until they close" },
	{ NULL },
};

static const struct cli_cmd module_verbs[] = {
	{ "status", .fn = cmd_module_status, .opts = { kernel_opts }, .live_only = true,
	  .summary = "Where the kernel's rdma_rxe comes from (built in, its own tree, DKMS, "
		     "none), whether it is loaded and taints the kernel; the headers and source "
		     "a build needs; whether the kernel demands signed modules." },
	{ "install", .fn = cmd_module_install, .opts = { kernel_opts, module_install_opts },
	  .live_only = true,
	  .summary = "Give a kernel without rdma_rxe one: the distribution's package when apt "
		     "knows one, else a build of drivers/infiniband/sw/rxe from the kernel's own "
		     "source, registered with DKMS (rebuilt on kernel upgrades); on the running "
		     "kernel it is then loaded and proven by making and deleting a link.",
	  .help = "A kernel that has rdma_rxe is left alone unless --force. What is missing "
		  "is named with the apt-get command that supplies it. A failed build leaves "
		  "nothing behind and shows the compiler's first error." },
	{ "remove", .fn = cmd_module_remove, .opts = { kernel_opts, module_remove_opts },
	  .live_only = true,
	  .summary = "Undo 'module install': unload rdma_rxe, then remove its DKMS entry and "
		     "source.",
	  .help = "Nothing is removed while a process holds an rxe device open (each is "
		  "named) unless --wait." },
	{ NULL },
};

static const struct cli_opt system_set_opts[] = {
	{ "persist", 0, CLI_FLAG, .help = "also from boot: ib_core's netns_mode in "
	  "/etc/modprobe.d/rdmactl-netns.conf (exclusive writes it, shared removes it)" },
	{ NULL },
};

static const char *const netns_modes[] = { "shared", "exclusive", NULL };

static const struct cli_cmd system_verbs[] = {
	{ "show", .fn = cmd_system_show, .live_only = true,
	  .summary = "The RDMA subsystem's settings, as 'rdma system show': the network "
		     "namespace mode and copy-on-fork.",
	  .help = "netns shared: every RDMA device is seen from every network namespace; "
		  "exclusive: a device belongs to one namespace. copy-on-fork on: registered "
		  "memory is copied into a forked child, off before Linux 5.13 (JSON: netns, "
		  "null when the kernel does not say; copy_on_fork)." },
	{ "set", .fn = cmd_system_set, .opts = { system_set_opts }, .args = "netns MODE",
	  .arg_words = netns_modes,
	  .min_args = 2, .max_args = 2, .live_only = true,
	  .summary = "Set the network namespace mode (shared or exclusive), as 'rdma system "
		     "set netns MODE'; then show the settings.",
	  .help = "The kernel changes it only while no network namespace but the initial one "
		  "exists (containers have theirs): else it is refused, or with --persist taken "
		  "from the next boot." },
	{ NULL },
};

static const char *const env_families[] = { "ipv4", "ipv6", NULL };
static const char *const env_formats[] = { "sh", "github", NULL };

static const char *const stat_formats[] = { "text", "prometheus", NULL };

static const struct cli_opt stat_opts[] = {
	{ "interval", 0, CLI_UINT, "S", .min = 1, .max = 86400, .unit = "s",
	  .help = "print each counter's change over S seconds, as it comes" },
	{ "count", 0, CLI_UINT, "N", .min = 1, .max = 1000000,
	  .help = "how many changes --interval prints (default 1)" },
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = stat_formats,
	  .help = "prometheus: one sample in Prometheus's text format, for node_exporter's "
		  "textfile collector" },
	{ NULL },
};

static const struct cli_opt monitor_opts[] = {
	{ "count", 0, CLI_UINT, "N", .min = 1, .max = 1000000,
	  .help = "stop after N events (default: until interrupted)" },
	{ "journal", 0, CLI_FLAG, .help = "write to the systemd journal instead, an entry each: "
	  "every process's verbs and rdma_cm calls the kernel refused and QPs' error "
	  "completions (as root, eBPF), QPs moved to error or resending, and the devices', "
	  "ports', netdevs', GIDs' and error counters' changes, with fields RDMACTL_EVENT=, "
	  "RDMACTL_PID=, RDMACTL_QPN=, RDMACTL_CAUSE=...; rdmactl-monitor.service runs it, "
	  "and check reads it back" },
	{ NULL },
};

static const struct cli_opt record_opts[] = {
	{ "output", 'o', CLI_STR, "FILE", .complete = CLI_C_FILE,
	  .help = "write the record to FILE (default rdmactl-record.jsonl here), a JSON object a "
	  "line as it happens: a record killed leaves it readable up to its last line" },
	{ "timeout", 0, CLI_UINT, "S", .min = 1, .max = 604800, .unit = "s",
	  .help = "end the command after S seconds (SIGTERM to each of its processes, SIGKILL "
	  "2 s later), what its QPs were doing read first; exit status 124 as timeout(1)'s" },
	{ "capture", 0, CLI_FLAG,
	  .help = "capture the RoCE v2 packets of every rxe device's netdev and of what it sends "
	  "to itself; those of the command's QPs and their peers within 2 s before and 1 s after "
	  "each error are written to FILE's name with .pcap for .jsonl (tshark, 'rdmactl capture "
	  "--read'); the last 32768 held in memory meanwhile" },
	{ NULL },
};

static const struct cli_opt report_opts[] = {
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = check_formats,
	  .help = "junit: JUnit XML for a CI job's test report: a <testcase> a failure (classname "
	  "rdmactl.record.COMMAND), its cause, evidence and fix the failure's text; one that "
	  "passes for a file where nothing failed" },
	{ NULL },
};

static const struct cli_opt capture_opts[] = {
	{ "count", 0, CLI_UINT, "N", .min = 1, .max = 100000000,
	  .help = "stop after N packets (default: until interrupted, or the file's end)" },
	{ "duration", 0, CLI_UINT, "S", .min = 1, .max = 86400, .unit = "s",
	  .help = "stop after S seconds" },
	{ "qp", 0, CLI_STR, "QPN", .help = "only the packets to or from this QP (a number, or "
	  "0x and hex)" },
	{ "write", 'w', CLI_STR, "FILE", .complete = CLI_C_FILE,
	  .help = "write the packets to FILE as pcap (tshark and Wireshark read it as RoCE v2) "
	  "instead of a line each; the conversations and counts are still printed" },
	{ "read", 'r', CLI_STR, "FILE", .complete = CLI_C_FILE,
	  .help = "read the packets from a pcap file (tcpdump's, -i any's too, Wireshark's, "
	  "-w's; - for standard input) instead of a device: works anywhere, RDMA or not" },
	{ NULL },
};

static const struct cli_opt explain_opts[] = {
	{ "file", 0, CLI_STR, "FILE", .complete = CLI_C_FILE,
	  .help = "read a whole log (- for standard input, as a lone - word is): each line "
	  "rdmactl knows is named with its line number, repeats counted, the likely cause "
	  "first; exit 1 when nothing in it is known" },
	{ "list", 0, CLI_FLAG, NULL, .help = "every status, event, errno, kernel line and "
	  "message known, with where its words come from" },
	{ "no-host", 0, CLI_FLAG, NULL, .help = "the words come from another machine: do not "
	  "run the checks that tell their causes apart on this one" },
	{ NULL },
};

static const struct cli_opt env_opts[] = {
	{ "family", 0, CLI_CHOICE, "FAMILY", .choices = env_families,
	  .help = "the address family whose GID index to give (default ipv4)" },
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = env_formats,
	  .help = "sh: export lines for eval (default); github: NAME=VALUE lines for "
		  "$GITHUB_ENV; -j: JSON" },
	{ NULL },
};

static const char *const help_formats[] = { "text", "bash", "scdoc", NULL };

static const struct cli_opt help_opts[] = {
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = help_formats,
	  .help = "bash: a completion script; scdoc: the man page's synopses" },
	{ NULL },
};

const struct cli_cmd rdmactl_commands[] = {
	ADD_ROW("add"),
	DEL_ROW("del"),
	{ "link", .verbs = link_verbs, .dflt = "show",
	  .summary = "The rxe links: show them, add one, delete some." },
	{ "status", .fn = cmd_status,
	  .summary = "Show every Ethernet device as rxe_cfg status did: link, driver, speed, "
		     "MTU, IPv4 address, its rxe device and that device's RoCE MTU." },
	{ "start", .fn = cmd_start, .opts = { start_opts }, .args = "[NETDEV]...",
	  .max_args = CLI_ANY, .live_only = true, .libs = LAZY_KMOD,
	  .summary = "Load ib_core, ib_uverbs, rdma_ucm and rdma_rxe (with their dependencies; "
		     "built-in modules count as loaded), then create every link of the "
		     "persistent-links file that does not exist yet (with NETDEVs, those on them).",
	  .help = "A link whose netdev does not exist yet is 'absent', not a failure: "
		  "rdmactl-link@NETDEV.service makes it when the netdev appears. Where no "
		  "systemd runs (a container; the pod of docs/fleets.md), --watch does that "
		  "itself: it reads the file again whenever a netdev comes, goes or changes "
		  "and every 10 s, prints each change of a link as a line (a JSON record a "
		  "line with -j; with --check, check's verdicts after each), and at SIGTERM "
		  "or SIGINT deletes the links it made (those it found running stay), or with "
		  "--keep leaves them, and exits 0." },
	{ "stop", .fn = cmd_stop, .opts = { stop_opts }, .args = "[NETDEV]...",
	  .max_args = CLI_ANY, .live_only = true, .libs = LAZY_KMOD,
	  .summary = "Delete every rxe link, then unload rdma_rxe unless something uses it; with "
		     "NETDEVs, delete the links on them only.",
	  .help = "Nothing is deleted while a process holds an rxe device open (each is named) "
		  "unless --wait: then the kernel waits until they close it." },
	{ "persist", { "persistent" }, .verbs = persist_verbs, .dflt = "list",
	  .summary = "Show or edit the persistent-links file (default " RDMACTL_CONF_DEFAULT
		     ", or --config FILE): one 'NAME NETDEV' a line, '#' comments.",
	  .help = "Edits keep comments and replace the file atomically; a malformed file is "
		  "reported by line and never rewritten." },
	SHOW_ROW("show", false),
	{ "dev", .verbs = dev_verbs, .dflt = "show", .hidden = true,
	  .summary = "iproute2's word for show." },
	{ "gids", .fn = cmd_gids, .opts = { gids_opts }, .args = "[DEV]", .max_args = 1,
	  .summary = "Show the GID table: device, port, index, GID, the address it stands for, "
		     "type and netdev.",
	  .help = "Every slot is read; only occupied ones are shown unless --all. The first "
		  "RoCE v2 IPv4 GID of each netdev is marked: that index is what -g needs "
		  "(JSON: recommended)." },
	{ "netdevs", .fn = cmd_netdevs, .args = "[DEV]", .max_args = 1,
	  .summary = "The ibdev2netdev view, rxe included: 'rxe0 port 1 ==> ens4 (Up)'." },
	{ "stat", .fn = cmd_stat, .opts = { stat_opts }, .args = "[DEV]", .max_args = 1,
	  .summary = "The port counters, each named as one across kernels and explained; their "
		     "change over an interval.",
	  .help = "One sample without --interval; with it, each counter's change over S "
		  "seconds, --count times (JSON: a document a sample, one a line). The "
		  "counters are the drivers' (rxe's hw_counters): what each counts, and which "
		  "are errors, is said beside it." },
	{ "explain", .fn = cmd_explain, .opts = { explain_opts }, .args = "WORDS|NUMBER|-",
	  .max_args = CLI_ANY,
	  .libs = LAZY_VERBS | LAZY_RDMACM,
	  .summary = "What a failing program's words mean on rxe: a work completion status, an "
		     "rdma_cm event, an errno or rdma_rxe's log line, its causes and what tells "
		     "which.",
	  .help = "Give what the program printed: a status's number, name or text ('transport "
		  "retry counter exceeded'), an event (RDMA_CM_EVENT_ADDR_ERROR, error -110), an "
		  "errno (ENOMEM, errno 12), a line of rdma_rxe's from dmesg ('moved to error "
		  "state'), or the whole line; each one found is explained, in the order the "
		  "words have them. A whole log with --file LOG or - (standard input): its known "
		  "lines by number, each failure once with how many lines hold it, the likely "
		  "cause (the first error before the flushes and disconnects it brings) first. "
		  "Each failure is held to this host: the checks its 'tells which' names "
		  "('check --only memlock', 'check --gid-index', with 0) are run here and their "
		  "verdicts shown beside it; --no-host when the words come from another "
		  "machine." },
	{ "qp", .fn = cmd_qp, .args = "[DEV]", .max_args = 1,
	  .summary = "Every live QP: device, port, QPN, type, state, owner, PSNs, its peer when "
		     "it is on this host, and a verdict.",
	  .help = "Read from the RDMA netlink's resource dump, as 'rdma res show qp' reads it; "
		  "each owner's command from /proc. A QP whose other end is a QP of this host "
		  "(loopback, another namespace, a lab) names that peer, its state and owner." },
	{ "capture", .fn = cmd_capture, .opts = { capture_opts }, .args = "[DEV]", .max_args = 1,
	  .libs = LAZY_PCAP,
	  .summary = "The RoCE v2 packets an rxe device sends and receives, a line each (opcode, "
		     "QP, PSN, ACK or NAK by name, resends, waits), and each QP's conversation.",
	  .help = "Captured on the device's netdev through libpcap (UDP to port 4791), as "
		  "tcpdump would, which needs root or CAP_NET_RAW. Packets between QPs of one "
		  "rxe device never reach the netdev (rxe delivers them to itself): they are "
		  "read at rdma_rxe's rxe_rcv through eBPF where the module has BTF (Debian's "
		  "from 6.1), at its rxe_loopback where it has none (5.10), which needs root or CAP_BPF and CAP_PERFMON too; where they "
		  "cannot be, capture says why and goes on with the netdev's. Without DEV, the "
		  "one RDMA device there is. At the end "
		  "(--count, --duration, the file's end, or SIGINT): each QP's packets, bytes, "
		  "resent requests, NAKs by kind and longest wait; JSON: an object a line, "
		  "\"record\" packet, qp or end." },
	{ "monitor", .fn = cmd_monitor, .opts = { monitor_opts }, .libs = LAZY_VERBS,
	  .summary = "What changes, as it happens: devices, ports, netdevs, GIDs, QPs (made, "
		     "moving to error with the likely cause, resending, destroyed), error counters.",
	  .help = "A line an event (JSON: an object a line) until interrupted or --count "
		  "events. Link and address changes wake it as they happen (route netlink), "
		  "and as root so do rxe's QPs and devices (kprobes on its functions): the "
		  "QPs are read then, and with the error counters every 5 seconds. Without "
		  "root, devices, ports and QPs are read every half second (less often with "
		  "thousands of QPs, to keep to some 5% of a core), the counters every 5 "
		  "seconds. Error counters that rise are said at most every 5 seconds, their "
		  "rises summed; a QP resending with no answer is said once. The man page "
		  "has the whole schedule." },
	{ "record", .fn = cmd_record, .opts = { record_opts }, .libs = LAZY_VERBS | LAZY_JSONC,
	  .args = "-- CMD [ARG...]", .min_args = 1, .max_args = CLI_ANY, .command_line = true,
	  .summary = "Run a command and record what its RDMA did: each verb or rdma_cm call "
		     "refused and why, its QPs failing, then report what failed.",
	  .help = "CMD runs as it is: its standard streams, terminal and environment "
		  "untouched, its exit status passed through, SIGTERM and SIGHUP sent to "
		  "record passed on. Every process it starts is followed, however deep, and "
		  "only those. As root (eBPF, kprobes): each call of theirs the kernel refused, "
		  "with the attributes that explain it, and each rdma_cm event; their QPs made, "
		  "moved to error with the likely cause, resending with no answer, destroyed; "
		  "the devices', ports' and GIDs' changes and error counters. At the end, what "
		  "failed on standard error, each with its process, cause, evidence and fix; "
		  "'rdmactl report FILE' reads the record again later, on any machine." },
	{ "report", .fn = cmd_report, .opts = { report_opts }, .libs = LAZY_JSONC,
	  .args = "FILE...", .min_args = 1,
	  .max_args = CLI_ANY,
	  .summary = "What a record says failed, read back from its file, on any machine.",
	  .help = "Each FILE 'rdmactl record' wrote: the command and how it ended, then each "
		  "failure with its process, cause, evidence and fix (in plain text, a "
		  "process's first; -j gives every one, marked when it follows an earlier). "
		  "Records read together (the hosts of one job) give a failed QP its peer, "
		  "the QP its connect named, in any of them, and say which end failed or "
		  "ended first. Nothing of this host is read." },
	{ "system", .verbs = system_verbs, .dflt = "show",
	  .summary = "The RDMA subsystem's settings, as 'rdma system': the network namespace mode "
		     "and copy-on-fork; set the mode, now and from boot." },
	{ "check", .fn = cmd_check, .opts = { check_opts },
	  .summary = "Find out why Soft-RoCE does not work, and say how to fix it.",
	  .help = "Each check has a stable id (--list) and gives pass, warn, fail or skip with "
		  "a line on what it found and, unless it passed, a fix to paste. Exit status: "
		  "0 nothing failed, 1 something did, 2 usage error." },
	{ "selftest", .verbs = rdmactl_selftest_verbs, .dflt = "loopback",
	  .summary = "Prove rxe links end to end with libibverbs: in loopback, or between two "
		     "hosts." },
	{ "env", .fn = cmd_env, .opts = { env_opts }, .args = "[DEV]", .max_args = 1,
	  .summary = "What each RDMA stack needs to use an rxe link: device, port, netdev, "
		     "address and GID index, and the settings of UCX, NCCL, libfabric, Open MPI, "
		     "perftest and the verbs examples.",
	  .help = "Without DEV, the one rxe device with an ACTIVE port and a RoCE v2 GID of "
		  "the family's address (several: name one). eval \"$(rdmactl env)\" sets them "
		  "in a shell; rdmactl env --format github >>\"$GITHUB_ENV\" in a CI job." },
	{ "lab", .verbs = rdmactl_lab_verbs, .dflt = "show",
	  .summary = "N RDMA nodes on one machine, for multi-node tests without N machines: "
		     "network namespaces on a bridge, each with an rxe link (Linux 7.1 or later)." },
	{ "module", .verbs = module_verbs, .dflt = "status",
	  .summary = "rdma_rxe for kernels that lack it: status, install (build it from the "
		     "kernel's source with DKMS), remove." },
	{ "ci-setup", .fn = cmd_ci_setup, .opts = { ci_setup_opts }, .args = "[NETDEV]",
	  .max_args = 1, .live_only = true, .libs = LAZY_KMOD | LAZY_VERBS,
	  .summary = "RDMA made ready on a CI runner: rdma_rxe for the running kernel (its own, "
		     "the distribution's package, or a DKMS build), a proven link, and its "
		     "variables where the CI system reads them.",
	  .help = "Each way tried is said, and what came of it. Under GitHub Actions "
		  "(GITHUB_ACTIONS=true) the stacks' variables go to $GITHUB_ENV, the link's "
		  "device, netdev, gid_index and address to $GITHUB_OUTPUT, and what was tried "
		  "to the step summary, failed or not; under GitLab CI (GITLAB_CI=true) the "
		  "variables go to a dotenv file; elsewhere nothing is written. Exit status 0 "
		  "when the link is proven, 1 when not, with the reason; where this machine "
		  "cannot have rdma_rxe, the bed can (rxe-vm run -- CMD)." },
	{ "up", .fn = cmd_up, .args = "[NETDEV]", .max_args = 1, .live_only = true,
	  .libs = LAZY_KMOD | LAZY_VERBS,
	  .summary = "From nothing to a proven link in one command: start, add --exist-ok on "
		     "NETDEV (default: the netdev of the default route), check that device, and "
		     "run its loopback selftest; then a one-line summary.",
	  .help = "Every argument is checked before anything is loaded. Stops at the first "
		  "step that fails. With -j the steps print on stderr and stdout has the "
		  "summary as JSON." },
	{ "help", .fn = cmd_help, .opts = { help_opts }, .args = "[COMMAND [VERB]]",
	  .max_args = 2,
	  .summary = "Show the commands, or one command's synopsis and help.",
	  .help = "Works on any machine: it never touches the kernel." },
	{ "version", .fn = cmd_version, .summary = "Print rdmactl's version (same as -V)." },
	{ NULL },
};
