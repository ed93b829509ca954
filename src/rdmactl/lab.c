// SPDX-License-Identifier: GPL-2.0-or-later
/* The lab's branch of the command tree: N nodes on one machine, their verbs and options. */
#include <stddef.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "lazy/lazy.h"
#include "rdmactl/table.h"

static const struct cli_opt lab_name_opts[] = {
	{ "name", 0, CLI_STR, "NAME", .help = "the lab's name: its bridge, and NAME1, NAME2, ... "
	  "its nodes' namespaces and rxe links (default rdlab)" },
	{ NULL },
};

static const struct cli_opt lab_add_opts[] = {
	{ "subnet", 0, CLI_STR, "A.B.C.D/P", .help = "the nodes' IPv4 subnet: node i gets its "
	  "i-th address (default 10.78.0.0/24)" },
	{ NULL },
};

static const struct cli_default lab_timeout_defaults[] = { { NULL, 5 } };

static const struct cli_opt lab_test_opts[] = {
	{ "timeout", 0, CLI_UINT, "S", .min = 1, .max = 3600, .help = "bound every wait of "
	  "each pair's selftest", .defaults = lab_timeout_defaults, .unit = "s" },
	{ NULL },
};

const struct cli_cmd rdmactl_lab_verbs[] = {
	{ "show", { "list" }, .fn = cmd_lab_show, .opts = { lab_name_opts }, .live_only = true,
	  .summary = "The lab's nodes: namespace, netdev, address, rxe link, bridge." },
	{ "add", .fn = cmd_lab_add, .opts = { lab_name_opts, lab_add_opts }, .args = "N",
	  .min_args = 1, .max_args = 1, .live_only = true,
	  .summary = "Make a lab of N nodes (1 to 64): each a network namespace NAMEi with a "
		     "veth (eth0 inside, on the bridge NAME outside), an address and an rxe "
		     "link NAMEi.",
	  .help = "Refused, and undone, on a kernel whose rdma_rxe carries no traffic from a "
		  "namespace (before Linux 7.1), as the first node's UDP 4791 socket shows. In "
		  "the exclusive namespace mode each rxe link is moved into its node. On any "
		  "failure everything made is removed." },
	{ "test", .fn = cmd_lab_test, .opts = { lab_name_opts, lab_test_opts }, .live_only = true,
	  .libs = LAZY_VERBS,
	  .summary = "Prove the lab all-pairs: a selftest server in every node, and every "
		     "node's selftest client against every other's; a matrix (JSON: pairs).",
	  .help = "Exit status 1 when a pair failed; each failure is shown with its hint." },
	{ "del", { "remove", "delete" }, .fn = cmd_lab_del, .opts = { lab_name_opts },
	  .live_only = true,
	  .summary = "Remove the lab: each node's rxe link, veth and namespace, then the bridge; "
		     "whatever of it a failed run left." },
	{ NULL },
};
