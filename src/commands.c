// SPDX-License-Identifier: GPL-2.0-or-later
/* The command table: handler, synopsis and help text together; help comes from it. */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "out.h"
#include "rdmactl.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

const struct rc_cmd rc_commands[] = {
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
