// SPDX-License-Identifier: GPL-2.0-or-later
/* help and version: they never touch the kernel. */
#include <stdio.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cli/rdmactl.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

int cmd_help(struct rc_ctx *ctx, const struct cli_args *a)
{
	switch (cli_num(a, "format", 0)) {
	case 1:
		cli_print_bash(stdout, ctx->root);
		return 0;
	case 2:
		cli_print_scdoc(stdout, ctx->root);
		return 0;
	default:
		return cli_print_help(stdout, ctx->root, a->argc, (const char *const *)a->argv);
	}
}

int cmd_version(struct rc_ctx *ctx, const struct cli_args *a)
{
	(void)a;
	out_obj_open(ctx->out, NULL);
	out_str(ctx->out, "version", "rdmactl %s\n", VERSION);
	out_obj_close(ctx->out);
	return 0;
}
