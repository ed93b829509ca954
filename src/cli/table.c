// SPDX-License-Identifier: GPL-2.0-or-later
/* The command table: handler, synopsis and help text together; help comes from it. */
#include <errno.h>
#include <stdio.h>

#include "cli/grammar.h"
#include "model/conf.h"
#include "cli/out.h"
#include "cli/rdmactl.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

const struct rc_cmd rc_commands[] = {
	{ "add", cmd_add, "[--persist] [--exist-ok] [--force] [NAME] NETDEV",
	  "Create the rxe link NAME on the Ethernet device NETDEV.\n"
	  "Without NAME the first free rxeN is taken. The new link is printed.\n"
	  "  --persist   also record it in the persistent-links file, so 'start'\n"
	  "              re-creates it at boot; if that fails the link is removed\n"
	  "  --exist-ok  succeed when NAME already runs on NETDEV\n"
	  "  --force     allow loopback and non-Ethernet devices (the port\n"
	  "              carries no RoCE traffic to other hosts there)" },
	{ "del", cmd_del, "[--persist] [--wait] NAME... | --netdev NETDEV | --all",
	  "Delete rxe links: by name, the one on NETDEV, or all of them.\n"
	  "Every name is checked first: nothing is deleted when one is unknown,\n"
	  "not an rxe device (hardware devices are refused), or held open by a\n"
	  "process (named), since the kernel would make the delete wait for it.\n"
	  "  --persist   also remove them from the persistent-links file\n"
	  "  --wait      delete even while processes hold them: wait until they close" },
	{ "link", cmd_link, "[NAME]",
	  "Show each rxe link: device, port, state, physical state, netdev,\n"
	  "netdev MTU and active (RoCE) MTU. The MTU needs ib_uverbs loaded." },
	{ "status", cmd_status, "",
	  "Show every Ethernet device as rxe_cfg status did: link, driver, speed,\n"
	  "MTU, IPv4 address, its rxe device and that device's RoCE MTU." },
	{ "start", cmd_start, "",
	  "Load ib_core, ib_uverbs, rdma_ucm and rdma_rxe (with their\n"
	  "dependencies; built-in modules count as loaded), then create every link\n"
	  "in the persistent-links file that does not exist yet." },
	{ "stop", cmd_stop, "[--wait]",
	  "Delete every rxe link, then unload rdma_rxe unless something uses it.\n"
	  "Nothing is deleted while a process holds an rxe device open (each is\n"
	  "named) unless --wait: then the kernel waits until they close it." },
	{ "persist", cmd_persist, "[list | add NAME NETDEV | del NAME|NETDEV...]",
	  "Show or edit the persistent-links file (default " RDMACTL_CONF_DEFAULT ",\n"
	  "or --config FILE, or RDMACTL_CONFIG): one 'NAME NETDEV' a line, '#'\n"
	  "comments. Edits keep comments and replace the file atomically; a\n"
	  "malformed file is reported by line and never rewritten." },
	{ "show", cmd_show, "[-s|--stats] [DEV]",
	  "Show RDMA devices and their ports: node type and GUIDs, firmware,\n"
	  "driver (rxe recognised), netdev, uverbs node; per port the state,\n"
	  "physical state, link layer, max and active MTU, rate, GID and pkey\n"
	  "table lengths. -s adds the port's hw_counters. Read from sysfs (the MTUs\n"
	  "from libibverbs, on the live system only)." },
	{ "gids", cmd_gids, "[--all] [DEV]",
	  "Show the GID table: device, port, index, GID, the address it stands for\n"
	  "(IPv4 for ::ffff:a.b.c.d), type and netdev. Every slot is read; only\n"
	  "occupied ones are shown unless --all. The first RoCE v2 IPv4 GID of\n"
	  "each netdev is marked: that index is what -g needs (JSON: recommended)." },
	{ "netdevs", cmd_netdevs, "[DEV]",
	  "The ibdev2netdev view, rxe included: 'rxe0 port 1 ==> ens4 (Up)'." },
	{ "check", cmd_check,
	  "[--dev DEV] [--gid-index N] [--peer ADDR] [--only ID,...] [--list] [--strict] [--module-file KO]",
	  "Find out why Soft-RoCE does not work, and say how to fix it. Each check\n"
	  "has a stable id (--list) and gives pass, warn, fail or skip with a line on\n"
	  "what it found and, unless it passed, a fix to paste. docs/checks.md has\n"
	  "a section per id.\n"
	  "  --gid-index N  vet the GID index a program uses (its -g): a mismatch\n"
	  "                 names the index to use instead\n"
	  "  --peer ADDR    the remote address: GID family, route\n"
	  "  --dev DEV      only this rxe device\n"
	  "  --only ID,...  only these checks\n"
	  "  --strict       warnings fail too\n"
	  "  --module-file KO  vet an out-of-tree module before loading it\n"
	  "Exit status: 0 nothing failed, 1 something did, 2 usage error." },
	{ "selftest", cmd_selftest,
	  "[--gid-index N] [--timeout S] [--size BYTES] [--bench[=lat|bw] [--iters N] [--depth N]] [--cm] "
	  "[--server [--bind ADDR] [--once] | --client HOST] [--port P] [--pingpong] [DEV]",
	  "Prove an rxe link end to end. In loopback, two RC QPs on DEV (every rxe\n"
	  "device without DEV) do SEND with immediate data, RDMA WRITE, RDMA READ,\n"
	  "atomic compare-and-swap and fetch-and-add over buffers larger than one\n"
	  "MTU and not page-aligned, and every byte is checked. Each stage is\n"
	  "reported with its time; a failure names the stage, the verbs call or\n"
	  "work completion status, and a hint.\n"
	  "  --gid-index N  use GID N (default: the RoCE v2 GID of an IPv4 address)\n"
	  "  --timeout S    bound every wait (default 5)\n"
	  "  --size BYTES   bytes per operation (default 12411)\n"
	  "  --server       two hosts: serve clients one at a time, each its own\n"
	  "                 buffer, until interrupted (--once: one client);\n"
	  "                 --bind ADDR listens on one address only\n"
	  "  --client HOST  two hosts: run every stage against HOST's server\n"
	  "  --port P       TCP port of the exchange (default 18516)\n"
	  "  --bench        measure instead: SEND and RDMA WRITE latency (min,\n"
	  "                 typical, 99%) and RDMA WRITE bandwidth (=lat or =bw:\n"
	  "                 only those); --size (default 2 for latency, 65536 for\n"
	  "                 bandwidth), --iters (default 1000 and 5000), --depth\n"
	  "                 writes in flight (default 128)\n"
	  "  --cm           connect through librdmacm (address and route\n"
	  "                 resolution); with --server or --client it speaks\n"
	  "                 rping's protocol (--port default 7174, --size default\n"
	  "                 64, --iters pings default 100)\n"
	  "  --pingpong     speak ibv_rc_pingpong's exchange and traffic, as --server\n"
	  "                 or --client HOST (--port, default 18515; --iters,\n"
	  "                 default 1000; --size default 4096; --timeout default 30),\n"
	  "                 with a stock ibv_rc_pingpong on the other side" },
	{ "up", cmd_up, "[NETDEV]",
	  "From nothing to a proven link in one command: start (load the\n"
	  "modules), add --exist-ok on NETDEV (default: the netdev of the default\n"
	  "route), check that device, and run its loopback selftest; then a\n"
	  "one-line summary. Stops at the first step that fails. With -j the steps\n"
	  "print on stderr and stdout has the summary as JSON." },
	{ "help", cmd_help, "[COMMAND]",
	  "Show the commands, or one command's synopsis and help.\n"
	  "Works on any machine: it never touches the kernel." },
	{ "version", cmd_version, "",
	  "Print rdmactl's version (same as -V)." },
	{ NULL, NULL, NULL, NULL },
};

void rc_print_usage(FILE *f)
{
	fputs("Usage: rdmactl [OPTIONS] COMMAND [ARGS]\n"
	      "       rdmactl help [COMMAND]\n"
	      "\n"
	      "Soft-RoCE (rdma_rxe) provisioning and diagnostics.\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json             JSON output (the stable interface for programs)\n"
	      "  -p, --pretty           indent JSON output\n"
	      "      --sysfs-root DIR   read sysfs and proc below DIR (also RDMACTL_SYSFS_ROOT)\n"
	      "      --config FILE      the persistent-links file (also RDMACTL_CONFIG;\n"
	      "                         default " RDMACTL_CONF_DEFAULT ")\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          print the version\n"
	      "\n"
	      "Commands (a unique prefix is enough):\n", f);
	cli_print_commands(f, rc_commands);
	fputs("\nExit status: 0 success, 1 failure, 2 usage error.\n", f);
}

int cmd_help(struct rc_ctx *ctx, int argc, char **argv)
{
	const struct rc_cmd *c;
	int n;

	(void)ctx;
	if (argc > 2) {
		pr_err("help takes at most one command");
		return -EUSAGE;
	}
	if (argc < 2) {
		rc_print_usage(stdout);
		return 0;
	}
	c = cli_lookup(rc_commands, argv[1], &n);
	if (!c) {
		pr_err("%s command '%s'; try 'rdmactl help'",
		       n > 1 ? "ambiguous" : "unknown", argv[1]);
		return -EUSAGE;
	}
	cli_print_command(stdout, "rdmactl", c);
	return 0;
}

int cmd_version(struct rc_ctx *ctx, int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		pr_err("version takes no arguments");
		return -EUSAGE;
	}
	out_obj_open(ctx->out, NULL);
	out_str(ctx->out, "version", "rdmactl %s\n", VERSION);
	out_obj_close(ctx->out);
	return 0;
}
