// SPDX-License-Identifier: GPL-2.0-or-later
/* help and version: they never touch the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "views/help.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

/* -j help: each command as a record, its synopsis and summary, never text. */
static void help_record(const char *path, const struct cli_cmd *c, void *arg)
{
	struct out *o = arg;
	char *syn = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&syn, &len);

	if (f) {
		cli_print_synopsis(f, "rdmactl ", path, c, 100000);
		fclose(f);
	}
	if (syn && len && syn[len - 1] == '\n')
		syn[len - 1] = '\0';
	view_help_command(o, path, syn, c->summary);
	free(syn);
}

int cmd_help(struct cmd_ctx *ctx, const struct cli_args *a)
{
	/* A completion script and the man page's source are no JSON: -j would be ignored. */
	if (ctx->json && cli_num(a, "format", 0) != 0)
		return cli_usage(a, "--format %s is a file of its own, not JSON: leave out -j",
				 cli_str(a, "format"));
	if (ctx->json) {
		const struct cli_cmd *tab = ctx->root, *c = NULL;
		char prefix[64] = "";
		int n;

		/* The words name a command or a node: its records alone. */
		for (int i = 0; i < a->argc; i++) {
			c = tab ? cli_lookup(tab, a->argv[i], &n) : NULL;
			if (!c)
				return cli_usage(a, "no command '%s'%s%s", a->argv[i],
						 *prefix ? " under " : "", prefix);
			if (i + 1 < a->argc)
				snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix),
					 "%s%s", *prefix ? " " : "", c->name);
			tab = c->verbs;
		}
		view_help_begin(ctx->out);
		for (const struct cli_cmd *k = c ? c : ctx->root; k->name; k++) {
			if (!k->hidden)
				cli_each_leaf(k, prefix, help_record, ctx->out);
			if (c)
				break;	/* the one named */
		}
		view_help_end(ctx->out);
		return 0;
	}
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
	view_version(ctx->out, VERSION);
	return 0;
}
