// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl check's verdicts and closing count (plain, JSON and JUnit XML). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks/checks.h"
#include "cli/github.h"
#include "cli/junit.h"
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

/* R's words for a report: what it found, then its fix. */
static char *said(const struct check_result *r, const char *tag)
{
	char *t = NULL;

	if (asprintf(&t, "%s%s%s%s", tag, r->msg, r->fix ? "\nfix: " : "", r->fix ? r->fix : "") < 0)
		return NULL;
	return t;
}

int view_check_junit(FILE *f, const struct check_ctx *c, bool strict, size_t count[4])
{
	struct junit_case *k = calloc(c->nr + 1, sizeof(*k));
	char (*cls)[64] = calloc(c->nr + 1, sizeof(*cls));
	int err = k && cls ? 0 : -ENOMEM;

	for (int i = 0; i < 4; i++)
		count[i] = 0;
	for (size_t i = 0; !err && i < c->nr; i++) {
		const struct check_result *r = &c->r[i];
		bool fail = r->v == V_FAIL || (strict && r->v == V_WARN);

		count[r->v]++;
		snprintf(cls[i], sizeof(cls[i]), "rdmactl.check.%s", r->id);
		k[i] = (struct junit_case){ .classname = cls[i], .name = r->msg, .message = r->msg,
					    .result = fail ? JUNIT_FAIL : r->v == V_SKIP ?
						      JUNIT_SKIP : JUNIT_PASS };
		/* A failure's text, or a warning's words beside its pass. */
		if (fail || r->v == V_WARN) {
			char *t = said(r, fail ? "" : "warn: ");

			if (!t)
				err = -ENOMEM;
			*(fail ? &k[i].text : &k[i].out) = t;
		}
	}
	if (!err)
		err = junit_write(f, "rdmactl check", k, c->nr);
	for (size_t i = 0; k && i < c->nr; i++) {
		free((char *)k[i].text);
		free((char *)k[i].out);
	}
	free(k);
	free(cls);
	return err;
}

void view_check_annotations(FILE *f, const struct check_ctx *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct check_result *r = &c->r[i];
		char title[64], *fix = NULL;
		const char *lines[2] = { r->msg };

		if (r->v != V_FAIL && r->v != V_WARN)
			continue;
		snprintf(title, sizeof(title), "rdmactl check: %s", r->id);
		if (r->fix && asprintf(&fix, "fix: %s", r->fix) < 0)
			fix = NULL;
		lines[1] = fix;
		github_annotation(f, r->v == V_FAIL ? "error" : "warning", title, lines, fix ? 2 : 1);
		free(fix);
	}
	fflush(f);
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
