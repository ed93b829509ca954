/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdmactl check's verdicts and closing count (plain and JSON). */
#ifndef RDMACTL_VIEWS_CHECK_H
#define RDMACTL_VIEWS_CHECK_H

#include <stddef.h>

struct out;
struct check_ctx;

/* Check verdicts and the closing count; COUNT gets the number of each verdict. */
void view_check(struct out *o, const struct check_ctx *c, size_t count[4]);

/* Every check's id and what it looks at, as check --list prints them. */
void view_check_list(struct out *o);

#endif
