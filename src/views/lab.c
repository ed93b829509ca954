// SPDX-License-Identifier: GPL-2.0-or-later
/* A lab's nodes, its removal and its test's matrix, plain and JSON (lab.h). */
#include <inttypes.h>
#include <stdio.h>

#include "cli/out.h"
#include "ops/lab.h"
#include "views/lab.h"

void view_lab_nodes(struct out *o, const struct lab *l)
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

void view_lab_del(struct out *o, const char *name, size_t nodes)
{
	out_obj_open(o, NULL);
	out_str(o, "lab", "lab %s removed:", name);
	out_u64(o, "nodes", " %" PRIu64 " nodes", nodes);
	out_text(o, ", their rxe links, veths and namespaces, and the bridge");
	out_nl(o);
	out_obj_close(o);
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

void view_lab_test(struct out *o, const struct lab *l, const struct lab_pair *p, size_t n,
		   double seconds)
{
	size_t failed = 0;

	for (size_t k = 0; k < n; k++)
		failed += !p[k].passed;
	out_obj_open(o, NULL);
	out_str(o, "lab", "lab %s:", l->name);
	out_u64(o, "nodes", " %" PRIu64 " nodes,", l->n);
	out_u64(o, "pairs", " %" PRIu64 " pairs,", n);
	out_u64(o, "failed", " %" PRIu64 " failed,", failed);
	out_bool(o, "passed", NULL, failed == 0);
	out_dbl(o, "seconds", " %.1f s", seconds);
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
}
