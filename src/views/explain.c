// SPDX-License-Identifier: GPL-2.0-or-later
/* What a pasted status, event, errno or log line means on rxe: its causes and what tells them. */
#include <inttypes.h>
#include <string.h>

#include "cli/out.h"
#include "views/explain.h"

static const char *kind_words(enum model_failure_kind k)
{
	return k == MODEL_FAILURE_WC_STATUS ? "work completion status" :
	       k == MODEL_FAILURE_CM_EVENT ? "rdma_cm event" :
	       k == MODEL_FAILURE_ERRNO ? "errno" : "rdma_rxe's kernel log";
}

void view_explain(struct out *o, const struct model_failure *const *f, size_t n,
		  const char *(*text_of)(enum model_failure_kind k, int value))
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < n; i++) {
		const char *text = f[i]->kind == MODEL_FAILURE_ERRNO ? strerror(f[i]->value) :
				   text_of ? text_of(f[i]->kind, f[i]->value) : NULL;

		out_obj_open(o, NULL);
		out_str(o, "name", "%s:", f[i]->name);
		out_str(o, "kind", NULL, model_failure_kind_name(f[i]->kind));
		out_text(o, " %s", kind_words(f[i]->kind));
		if (f[i]->kind == MODEL_FAILURE_KERNEL_LOG) {
			/* No number, and the kernel's words are the line itself. */
			out_str(o, "value", NULL, NULL);
			out_str(o, "text", ", as in \"%s\"", f[i]->form);
		} else {
			out_s64(o, "value", " %" PRId64, f[i]->value);
			out_str(o, "text", ", \"%s\"", text);
		}
		out_nl(o);
		out_str(o, "what", "  %s\n", f[i]->what);
		if (f[i]->causes[0])
			out_text(o, "  causes on rxe, most likely first:\n");
		out_arr_open(o, "causes");
		for (size_t k = 0; k < MODEL_FAILURE_CAUSES && f[i]->causes[k]; k++)
			out_str(o, NULL, "    - %s\n", f[i]->causes[k]);
		out_arr_close(o);
		out_str(o, "tell", f[i]->tell ? "  tells which: %s\n" : NULL, f[i]->tell);
		out_obj_close(o);
	}
	out_arr_close(o);
}
