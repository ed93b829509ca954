// SPDX-License-Identifier: GPL-2.0-or-later
/* lab add|show|test|del: N RDMA nodes on one machine, as network namespaces (printed by views/lab.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/clock.h"
#include "ops/op_err.h"
#include "ops/lab.h"
#include "views/lab.h"

#define LAB_DEFAULT_NAME "rdlab"

/* The lab --name names (the default rdlab), checked as a usage error for every verb alike. */
static int lab_name(const struct cli_args *a, const char **name)
{
	const char *why;

	*name = cli_str(a, "name") ? cli_str(a, "name") : LAB_DEFAULT_NAME;
	why = lab_name_invalid(*name);
	return why ? cli_usage(a, "--name '%s': %s", *name, why) : 0;
}

/* After add or show: L's nodes, or E when ERR; L freed either way. */
static int nodes_done(struct cmd_ctx *ctx, struct lab *l, int err, const struct op_err *e)
{
	if (!err)
		view_lab_nodes(ctx->out, l);
	free(l);
	return err ? cmd_fail(e) : 0;
}

int cmd_lab_add(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *name;
	struct lab *l;
	struct op_err e;
	unsigned long n;
	int err;

	if ((err = lab_name(a, &name)))
		return err;
	if (!cli_uint(a->argv[0], 1, LAB_MAX_NODES, &n))
		return cli_usage(a, "N is a number of nodes from 1 to %d, not '%s'", LAB_MAX_NODES,
				 a->argv[0]);
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	err = lab_plan(l, name, n, cli_str(a, "subnet") ? cli_str(a, "subnet") :
		       "10.78.0.0/24", &e);
	if (err) {	/* the plan's refusals are the arguments': a usage error, no errno */
		free(l);
		return cli_usage(a, "%s", e.what);
	}
	return nodes_done(ctx, l, lab_add(l, &e), &e);
}

int cmd_lab_show(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *name;
	struct op_err e;
	struct lab *l;
	int err = lab_name(a, &name);

	if (err)
		return err;
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	return nodes_done(ctx, l, lab_find(name, l, &e), &e);
}

int cmd_lab_del(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *name;
	struct op_err e;
	size_t nodes;
	int err = lab_name(a, &name);

	if (err)
		return err;
	err = lab_del(name, &nodes, &e);
	if (err)
		return cmd_fail(&e);
	view_lab_del(ctx->out, name, nodes);
	return 0;
}

int cmd_lab_test(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct lab_pair *p = NULL;
	size_t n = 0, failed = 0;
	const char *name;
	struct op_err e;
	struct lab *l;
	uint64_t t0;
	int err = lab_name(a, &name);

	if (err)
		return err;
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	err = lab_find(name, l, &e);
	if (err) {
		free(l);
		return cmd_fail(&e);
	}
	t0 = mono_us();
	err = lab_test(l, (unsigned int)cli_value(a, "timeout") * 1000, &p, &n, &e);
	if (err < 0) {
		free(l);
		return cmd_fail(&e);
	}
	for (size_t k = 0; k < n; k++)
		failed += !p[k].passed;
	view_lab_test(ctx->out, l, p, n, (double)(mono_us() - t0) / 1e6);
	free(p);
	free(l);
	return failed ? -EIO : 0;
}
