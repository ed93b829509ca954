// SPDX-License-Identifier: GPL-2.0-or-later
/* What a pasted status, event, errno or log line means on rxe: its causes and what tells them. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "cli/out.h"
#include "views/explain.h"

static const char *kind_words(enum diag_failure_kind k)
{
	return k == DIAG_FAILURE_WC_STATUS ? "work completion status" :
	       k == DIAG_FAILURE_CM_EVENT ? "rdma_cm event" :
	       k == DIAG_FAILURE_ERRNO ? "errno" : k == DIAG_FAILURE_MESSAGE ? "message of" :
	       "rdma_rxe's kernel log";
}

/* F's causes as H ranks them, each with the check it rests on and what that found. */
static void ranked(struct out *o, const struct diag_failure *f, const struct view_explain_host *h)
{
	out_text(o, "  causes on rxe, as this host's checks rank them (shown here first, "
		 "then untold, then not here):\n");
	out_arr_open(o, "causes");
	for (size_t i = 0; i < h->nrank; i++) {
		size_t c = h->rank[i].cause;
		const char *short_of;
		const char *id = diag_failure_rests(f, c, &short_of);
		enum verdict v = check_verdict_of(h->r, h->n, id);
		enum diag_failure_standing s = h->rank[i].standing;

		out_obj_open(o, NULL);
		out_u64(o, "index", NULL, c);
		out_str(o, "cause", "    - %s\n", f->causes[c]);
		out_str(o, "check", NULL, v == V_SKIP ? NULL : id);
		out_str(o, "standing", NULL, diag_failure_standing_name(s));
		if (s == DIAG_FAILURE_SHOWN)
			out_text(o, "      shown here: %s %s (above)\n", id, v == V_FAIL ? "fails" : "warns");
		else if (s == DIAG_FAILURE_CLEARED)
			out_text(o, "      not here now: %s passes (above)\n", id);
		else if (v == V_PASS && short_of)
			out_text(o, "      %s passes here, which does not clear it: %s\n", id, short_of);
		out_obj_close(o);
	}
	out_arr_close(o);
}

/* What this host shows of an entry: the verdicts of the checks that tell which cause. */
static void host(struct out *o, const struct diag_failure *f, const struct view_explain_host *h)
{
	if (!h) {
		out_str(o, "host", NULL, NULL);
		return;
	}
	out_obj_open(o, "host");
	out_bool(o, "held", NULL, !h->why_not);
	out_str(o, "command", "  on this host (%s", h->cmd);
	out_str(o, "why_not", h->why_not ? "): not held to it, %s\n" : NULL, h->why_not);
	if (!h->why_not)
		out_text(o, ", now):\n");
	out_arr_open(o, "results");
	for (size_t i = 0; i < h->n; i++) {
		out_obj_open(o, NULL);
		/* The members check -j gives a result. */
		out_str(o, "id", "    %s", h->r[i]->id);
		out_str(o, "result", ": %s,", check_verdict_name(h->r[i]->v));
		out_str(o, "detail", " %s\n", h->r[i]->msg);
		out_str(o, "fix", h->r[i]->fix ? "      fix: %s\n" : NULL, h->r[i]->fix);
		out_obj_close(o);
	}
	out_arr_close(o);
	if (h->nrank) {
		ranked(o, f, h);
	} else {
		out_arr_open(o, "causes");
		out_arr_close(o);
	}
	out_obj_close(o);
}

/* One entry's members: its name and kind, its words, what happened, its causes, what tells. */
static void entry(struct out *o, const struct diag_failure *f,
		  const char *(*text_of)(enum diag_failure_kind k, int value),
		  const struct view_explain_host *h)
{
	const char *text = f->kind == DIAG_FAILURE_ERRNO ? strerror(f->value) :
			   text_of ? text_of(f->kind, f->value) : NULL;
	bool by_host = h && h->nrank;

	out_str(o, "name", "%s:", f->name);
	out_str(o, "kind", NULL, diag_failure_kind_name(f->kind));
	out_text(o, " %s", kind_words(f->kind));
	out_str(o, "source", f->source ? " %s" : NULL, f->source);
	if (f->kind == DIAG_FAILURE_KERNEL_LOG || f->kind == DIAG_FAILURE_MESSAGE) {
		/* No number, and the kernel's or program's words are the line itself. */
		out_str(o, "value", NULL, NULL);
		out_str(o, "text", ", as in \"%s\"", f->form);
	} else {
		out_s64(o, "value", " %" PRId64, f->value);
		out_str(o, "text", ", \"%s\"", text);
	}
	out_nl(o);
	out_str(o, "what", "  %s\n", f->what);
	/* Ranked by this host's checks, they follow its verdicts instead. */
	if (f->causes[0] && !by_host)
		out_text(o, "  causes on rxe, most likely first:\n");
	out_arr_open(o, "causes");
	for (size_t k = 0; k < DIAG_FAILURE_CAUSES && f->causes[k]; k++)
		out_str(o, NULL, by_host ? NULL : "    - %s\n", f->causes[k]);
	out_arr_close(o);
	out_str(o, "tell", f->tell ? "  tells which: %s\n" : NULL, f->tell);
	host(o, f, h);
}

void view_explain(struct out *o, const struct diag_failure *const *f, size_t n,
		  const char *(*text_of)(enum diag_failure_kind k, int value),
		  const struct view_explain_host *const *h)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < n; i++) {
		out_obj_open(o, NULL);
		entry(o, f[i], text_of, h ? h[i] : NULL);
		out_obj_close(o);
	}
	out_arr_close(o);
}

void view_explain_log(struct out *o, const char *source, const struct diag_failure_log *l,
		      const char *(*text_of)(enum diag_failure_kind k, int value),
		      const struct view_explain_host *const *h)
{
	out_obj_open(o, NULL);
	out_str(o, "source", "%s: ", source);
	out_u64(o, "lines", "%" PRIu64 " line", l->lines);
	out_text(o, l->lines == 1 ? "" : "s");
	out_u64(o, "known", l->known ? ", %" PRIu64 " with something rdmactl knows" :
		", nothing rdmactl knows in them", l->known);
	out_nl(o);
	if (l->cause >= 0) {
		const struct diag_failure_log_item *c = &l->items[l->cause];

		out_str(o, "cause", "most likely the cause: %s, line", c->f->name);
		out_text(o, " %zu (the first error; what follows it most often comes of it)\n",
			 c->lines[0]);
	} else {
		out_str(o, "cause", NULL, NULL);
	}
	out_arr_open(o, "items");
	for (size_t i = 0; i < l->n; i++) {
		const struct diag_failure_log_item *it = &l->items[i];
		size_t shown = it->count;

		bool many = it->count > 1;

		if (shown > DIAG_FAILURE_LOG_LINES)
			shown = DIAG_FAILURE_LOG_LINES;

		out_obj_open(o, NULL);
		out_text(o, "\nline %zu", it->lines[0]);
		out_u64(o, "count", many ? " (%" PRIu64 " lines in all:" : NULL, it->count);
		out_arr_open(o, "lines");
		for (size_t k = 0; k < shown; k++)
			out_u64(o, NULL, !many ? NULL : k ? ", %" PRIu64 : " %" PRIu64, it->lines[k]);
		out_arr_close(o);
		if (many)
			out_text(o, "%s)", it->count > shown ? ", ..." : "");
		out_str(o, "quote", ": %s\n", it->quote);
		entry(o, it->f, text_of, h ? h[i] : NULL);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_obj_close(o);
}
