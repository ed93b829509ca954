/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a pasted status, event or errno means on rxe: its causes and what tells them (plain and JSON). */
#ifndef RDMACTL_VIEWS_EXPLAIN_H
#define RDMACTL_VIEWS_EXPLAIN_H

#include <stddef.h>

#include "model/failure.h"

struct out;

/* Each of F's N entries, TEXT_OF giving the library's words for it. */
void view_explain(struct out *o, const struct model_failure *const *f, size_t n,
		  const char *(*text_of)(enum model_failure_kind k, int value));

/* A whole log's known lines, SOURCE its name ("-" for standard input): the cause first. */
void view_explain_log(struct out *o, const char *source, const struct model_failure_log *l,
		      const char *(*text_of)(enum model_failure_kind k, int value));

#endif
