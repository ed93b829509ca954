// SPDX-License-Identifier: GPL-2.0-or-later
/* help and version: they never touch the kernel. */
#include <stdio.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

int cmd_help(struct cmd_ctx *ctx, const struct cli_args *a)
{
	switch (cli_num(a, "format", 0)) {
	case 1:
		cli_print_bash(stdout, ctx->root, cli_global_opts);
		return 0;
	case 2:
		cli_print_scdoc(stdout, ctx->root);
		/* The man page's list of check ids, from the registry check runs. */
		fputs("checks\t", stdout);
		for (size_t i = 0; i < check_ndefs; i++)
			printf("%s*%s* (%s)", i ? "; " : "\t", check_defs[i].id, check_defs[i].summary);
		fputs(".\n", stdout);
		return 0;
	default:
		return cli_print_help(stdout, ctx->root, a->argc, (const char *const *)a->argv);
	}
}

int cmd_version(struct cmd_ctx *ctx, const struct cli_args *a)
{
	(void)a;
	out_obj_open(ctx->out, NULL);
	out_str(ctx->out, "version", "rdmactl %s\n", VERSION);
	out_obj_close(ctx->out);
	return 0;
}
