// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl up: from nothing to a proven link: start, add, check, selftest. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/netdev.h"
#include "model/names.h"
#include "cli/out.h"
#include "cli/rdmactl.h"

/*
 * Runs one step through its command's own handler. Its output is plain text:
 * on stdout, or on stderr when stdout carries up's JSON summary.
 */
static int step(struct rc_ctx *ctx, const char *title, int (*fn)(struct rc_ctx *, int, char **),
		int argc, char **argv)
{
	struct rc_ctx sub = *ctx;
	FILE *f = ctx->json ? stderr : stdout;
	int err, oerr;

	fprintf(f, "== %s\n", title);
	fflush(f);
	sub.json = false;
	sub.out = out_new(f, false, false);
	if (!sub.out)
		return -ENOMEM;
	err = fn(&sub, argc, argv);
	oerr = out_finish(sub.out);
	ctx->nl = sub.nl;	/* the socket a step opened serves the next */
	return err ? err : oerr;
}

int cmd_up(struct rc_ctx *ctx, int argc, char **argv)
{
	char netdev[IF_NAMESIZE + 1] = "", dev[64] = "";
	char *start_argv[] = { "start", NULL };
	char *add_argv[] = { "add", "--exist-ok", netdev, NULL };
	char *check_argv[] = { "check", "--dev", dev, NULL };
	char *st_argv[] = { "selftest", dev, NULL };
	const char *failed = NULL;
	int err;

	if (argc > 2) {
		fprintf(stderr, "rdmactl: up: at most one NETDEV; try 'rdmactl help up'\n");
		return -EUSAGE;
	}
	if (argc == 2) {
		if (netdev_name_invalid(argv[1])) {
			fprintf(stderr, "rdmactl: up: netdev '%s': %s\n", argv[1],
				netdev_name_invalid(argv[1]));
			return -EUSAGE;
		}
		snprintf(netdev, sizeof(netdev), "%s", argv[1]);
	} else {
		netdev_default_route(ctx->sysfs_root, netdev, sizeof(netdev));
		if (!*netdev) {
			fprintf(stderr, "rdmactl: up: there is no default route to take the netdev "
				"from: name it, 'rdmactl up NETDEV'\n");
			return -EUSAGE;
		}
	}

	err = step(ctx, "rdmactl start", cmd_start, 1, start_argv);
	if (err) {
		failed = "start";
		goto out;
	}
	err = step(ctx, "rdmactl add --exist-ok", cmd_add, 3, add_argv);
	if (err) {
		failed = "add";
		goto out;
	}
	/* The device add made or found: the one on NETDEV. */
	err = rc_rxe_on(ctx, netdev, dev, sizeof(dev));
	if (err) {
		failed = "add";
		goto out;
	}
	err = step(ctx, "rdmactl check", cmd_check, 3, check_argv);
	if (err) {
		failed = "check";
		goto out;
	}
	err = step(ctx, "rdmactl selftest", cmd_selftest, 2, st_argv);
	if (err)
		failed = "selftest";
out:
	out_obj_open(ctx->out, NULL);
	out_str(ctx->out, "netdev", "up: %s", netdev);
	out_str(ctx->out, "ifname", ": %s", *dev ? dev : NULL);
	out_bool(ctx->out, "proven", NULL, !failed);
	out_str(ctx->out, "failed_step", NULL, failed);
	if (failed)
		out_text(ctx->out, ": stopped at %s: see above\n", failed);
	else
		out_text(ctx->out, " is up and proven: modules loaded, link ACTIVE, every check "
			 "passed, selftest passed\n");
	out_obj_close(ctx->out);
	return err;
}
