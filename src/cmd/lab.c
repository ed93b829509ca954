// SPDX-License-Identifier: GPL-2.0-or-later
/* lab add|show|test|del: N RDMA nodes on one machine, as network namespaces. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/clock.h"
#include "ops/explain.h"
#include "ops/lab.h"

#define LAB_DEFAULT_NAME "rdlab"

/* The lab --name names (the default rdlab), checked as a usage error for every verb alike. */
static int lab_name(const struct cli_args *a, const char **name)
{
	const char *why;

	*name = cli_str(a, "name") ? cli_str(a, "name") : LAB_DEFAULT_NAME;
	why = lab_name_invalid(*name);
	return why ? cli_usage(a, "--name '%s': %s", *name, why) : 0;
}

/* The nodes, a record each: what add made and what show finds. */
static void nodes_view(struct out *o, const struct lab *l)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < l->n; i++) {
		out_obj_open(o, NULL);
		out_str(o, "node", "%s", l->node[i].netns);
		out_str(o, "netns", " netns %s", l->node[i].netns);
		out_str(o, "netdev", " netdev %s", LAB_NETDEV);
		out_str(o, "address", " address %s", l->node[i].addr);
		out_str(o, "ifname", " rxe %s", l->node[i].netns);
		out_str(o, "bridge", " bridge %s", l->name);
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(o);
}

/* After add or show: L's nodes, or E when ERR; L freed either way. */
static int nodes_done(struct cmd_ctx *ctx, struct lab *l, int err, const struct op_err *e)
{
	if (!err)
		nodes_view(ctx->out, l);
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
	out_obj_open(ctx->out, NULL);
	out_str(ctx->out, "lab", "lab %s removed:", name);
	out_u64(ctx->out, "nodes", " %" PRIu64 " nodes", nodes);
	out_text(ctx->out, ", their rxe links, veths and namespaces, and the bridge");
	out_nl(ctx->out);
	out_obj_close(ctx->out);
	return 0;
}

/* The matrix as text: a row a client node, a column a server node. */
static void matrix_text(struct out *o, const struct lab *l, const struct lab_pair *p, size_t n)
{
	out_text(o, "%-10s", "client");
	for (size_t j = 0; j < l->n; j++)
		out_text(o, " %-8s", l->node[j].netns);
	out_nl(o);
	for (size_t i = 0; i < l->n; i++) {
		out_text(o, "%-10s", l->node[i].netns);
		for (size_t j = 0; j < l->n; j++) {
			const char *cell = "-";

			for (size_t k = 0; k < n; k++)
				if (p[k].from == i && p[k].to == j)
					cell = p[k].passed ? "pass" : "FAIL";
			out_text(o, " %-8s", cell);
		}
		out_nl(o);
	}
	for (size_t k = 0; k < n; k++)
		if (!p[k].passed) {
			out_text(o, "%s -> %s: %s", l->node[p[k].from].netns, l->node[p[k].to].netns,
				 p[k].f.detail);
			out_nl(o);
			if (*p[k].f.hint) {
				out_text(o, "  hint: %s", p[k].f.hint);
				out_nl(o);
			}
		}
}

int cmd_lab_test(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct out *o = ctx->out;
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
	out_obj_open(o, NULL);
	out_str(o, "lab", "lab %s:", l->name);
	out_u64(o, "nodes", " %" PRIu64 " nodes,", l->n);
	out_u64(o, "pairs", " %" PRIu64 " pairs,", n);
	out_u64(o, "failed", " %" PRIu64 " failed,", failed);
	out_bool(o, "passed", NULL, failed == 0);
	out_dbl(o, "seconds", " %.1f s", (double)(mono_us() - t0) / 1e6);
	out_nl(o);
	if (!out_is_json(o))
		matrix_text(o, l, p, n);
	out_arr_open(o, "pairs");
	for (size_t k = 0; out_is_json(o) && k < n; k++) {
		out_obj_open(o, NULL);
		out_str(o, "from", NULL, l->node[p[k].from].netns);
		out_str(o, "to", NULL, l->node[p[k].to].netns);
		out_str(o, "to_address", NULL, l->node[p[k].to].addr);
		out_str(o, "result", NULL, p[k].passed ? "pass" : "fail");
		out_u64(o, "usec", NULL, p[k].usec);
		out_str(o, "detail", NULL, p[k].passed ? NULL : p[k].f.detail);
		out_str(o, "hint", NULL, p[k].passed || !*p[k].f.hint ? NULL : p[k].f.hint);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_obj_close(o);
	free(p);
	free(l);
	return failed ? -EIO : 0;
}
