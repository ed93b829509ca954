// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl: global options, command dispatch, errno-to-exit-status mapping. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "model/conf.h"
#include "model/model.h"
#include "kernel/nl.h"
#include "cli/out.h"
#include "cli/rdmactl.h"
#include "kernel/verbs.h"


static int exit_status(int ret)
{
	if (ret == 0)
		return RC_EXIT_OK;
	if (ret == -EUSAGE)
		return RC_EXIT_USAGE;
	return RC_EXIT_FAIL;
}

static int dispatch(struct rc_ctx *ctx, int argc, char **argv)
{
	const struct rc_cmd *c;
	int n;

	c = cli_lookup(rc_commands, argv[0], &n);
	if (!c) {
		if (n > 1) {
			fprintf(stderr, "rdmactl: ambiguous command '%s': ", argv[0]);
			cli_print_matches(stderr, rc_commands, argv[0]);
			fputs("\n", stderr);
		} else {
			pr_err("unknown command '%s'; try 'rdmactl help'", argv[0]);
		}
		return -EUSAGE;
	}
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_print_command(stdout, "rdmactl", c);
		return 0;
	}
	return c->fn(ctx, argc, argv);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "sysfs-root", required_argument, NULL, 'S' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct rc_ctx ctx = {
		.sysfs_root = getenv("RDMACTL_SYSFS_ROOT"),
		.config = getenv("RDMACTL_CONFIG"),
	};
	bool version = false;
	int ret, err, opt;

	/* '+': options stop at the command word; the rest belong to the command. */
	while ((opt = getopt_long(argc, argv, "+jphV", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			ctx.json = true;
			break;
		case 'p':
			ctx.pretty = true;
			break;
		case 'S':
			ctx.sysfs_root = optarg;
			break;
		case 'c':
			ctx.config = optarg;
			break;
		case 'h':
			rc_print_usage(stdout);
			return RC_EXIT_OK;
		case 'V':
			version = true;
			break;
		default:
			fputs("Try 'rdmactl help'.\n", stderr);
			return RC_EXIT_USAGE;
		}
	}
	if (!ctx.sysfs_root)
		ctx.sysfs_root = "";
	/* Live: a device's GIDs come from libibverbs in one call when it can. */
	model_set_gid_source(verbs_gids);
	if (!ctx.config || !*ctx.config)
		ctx.config = RDMACTL_CONF_DEFAULT;

	ctx.out = out_new(stdout, ctx.json, ctx.pretty);
	if (!ctx.out) {
		pr_err("out of memory");
		return RC_EXIT_FAIL;
	}
	if (version) {
		char *v[] = { "version", NULL };

		ret = cmd_version(&ctx, 1, v);
	} else if (optind >= argc) {
		rc_print_usage(stderr);
		ret = -EUSAGE;
	} else {
		ret = dispatch(&ctx, argc - optind, argv + optind);
	}
	nl_close(ctx.nl);
	err = out_finish(ctx.out);
	if (err && !ret) {
		pr_err("cannot write the output: %s", strerror(-err));
		ret = err;
	}
	return exit_status(ret);
}
