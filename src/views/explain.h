/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a pasted status, event or errno means on rxe: its causes and what tells them (plain and JSON). */
#ifndef RDMACTL_VIEWS_EXPLAIN_H
#define RDMACTL_VIEWS_EXPLAIN_H

#include <stddef.h>

#include "checks/checks.h"
#include "diag/failure.h"

struct out;

/*
 * An entry held to this host: the checks its "tells which" names, run
 * here. CMD is what was run ("rdmactl check --only memlock"); WHY_NOT, when
 * they were not run, why (R then empty).
 */
#define VIEW_EXPLAIN_HOST_RESULTS 8
struct view_explain_host {
	char cmd[128];
	const char *why_not;
	const struct check_result *r[VIEW_EXPLAIN_HOST_RESULTS];
	size_t n;
	/* The entry's causes as R ranks them (diag_failure_rank); NRANK 0: not ranked. */
	struct diag_failure_ranked rank[DIAG_FAILURE_CAUSES];
	size_t nrank;
};

/*
 * Each of F's N entries, TEXT_OF giving the library's words for it; HOST[i]
 * (NULL, or NULL members: no check named) what this host shows of entry i.
 */
void view_explain(struct out *o, const struct diag_failure *const *f, size_t n,
		  const char *(*text_of)(enum diag_failure_kind k, int value),
		  const struct view_explain_host *const *host);

/* A whole log's known lines, SOURCE its name ("-" for standard input): the cause first. */
void view_explain_log(struct out *o, const char *source, const struct diag_failure_log *l,
		      const char *(*text_of)(enum diag_failure_kind k, int value),
		      const struct view_explain_host *const *host);

#endif
