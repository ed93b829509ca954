// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl check's verdicts and closing count (plain and JSON). */
#include "checks/checks.h"
#include "cli/out.h"
#include "views/check.h"

void view_check(struct out *o, const struct check_ctx *c, size_t count[4])
{
	for (int i = 0; i < 4; i++)
		count[i] = 0;
	out_arr_open(o, NULL);
	for (size_t i = 0; i < c->nr; i++) {
		const struct check_result *r = &c->r[i];
		char tag[8];

		snprintf(tag, sizeof(tag), "%s", check_verdict_name(r->v));
		for (char *t = tag; *t; t++)
			*t = (char)(*t - 'a' + 'A');
		count[r->v]++;
		out_obj_open(o, NULL);
		out_text(o, "%-5s ", tag);
		out_str(o, "id", "%-16s", r->id);
		out_str(o, "result", NULL, check_verdict_name(r->v));
		out_str(o, "detail", " %s", r->msg);
		out_nl(o);
		out_str(o, "fix", r->fix ? "      fix: %s\n" : NULL, r->fix);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_text(o, "check: %zu pass, %zu warn, %zu fail, %zu skip\n", count[V_PASS],
		 count[V_WARN], count[V_FAIL], count[V_SKIP]);
}

void view_check_list(struct out *o)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < check_ndefs; i++) {
		out_obj_open(o, NULL);
		out_str(o, "id", "%-16s", check_defs[i].id);
		out_str(o, "summary", " %s\n", check_defs[i].summary);
		out_obj_close(o);
	}
	out_arr_close(o);
}
