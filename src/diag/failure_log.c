// SPDX-License-Identifier: GPL-2.0-or-later
/* A whole log's known lines: each failure once, where it first stands, and the likely cause. */
#include <stdbool.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "diag/failure.h"

void diag_failure_log_init(struct diag_failure_log *l)
{
	memset(l, 0, sizeof(*l));
	l->cause = -1;
}

/* LINE's first bytes into BUF, each control or non-ASCII byte a '?': never printed raw. */
static void quote(char *buf, size_t size, const char *line, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < size; i++) {
		unsigned char c = (unsigned char)line[i];

		buf[n++] = c == '\t' ? ' ' : c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	buf[n] = '\0';
}

void diag_failure_log_line(struct diag_failure_log *l, const char *line, size_t len,
			    const char *(*text_of)(enum diag_failure_kind k, int value))
{
	const struct diag_failure *f[16];
	size_t n;

	l->lines++;
	/* A NUL in the line ends the text matched: binary data is passed over, not refused. */
	n = diag_failure_match_n(line, len, text_of, f, sizeof(f) / sizeof(f[0]));
	if (n)
		l->known++;
	for (size_t i = 0; i < n; i++) {
		struct diag_failure_log_item *it = NULL;

		for (size_t j = 0; j < l->n && !it; j++)
			if (l->items[j].f == f[i])
				it = &l->items[j];
		if (!it) {
			if (l->n == DIAG_FAILURE_LOG_ITEMS)
				continue;
			it = &l->items[l->n++];
			it->f = f[i];
			quote(it->quote, sizeof(it->quote), line, len);
		}
		if (it->count < DIAG_FAILURE_LOG_LINES)
			it->lines[it->count] = l->lines;
		it->count++;
	}
}

/* Whether F reports something gone wrong: not a success, not a notice. */
static bool is_error(const struct diag_failure *f)
{
	return !(f->flags & DIAG_FAILURE_NOTICE);
}

/*
 * Whether F follows from another failure rather than causing one: a flush,
 * a disconnect, a program's words for a step another line names.
 */
static bool is_consequence(const struct diag_failure *f)
{
	return (f->flags & DIAG_FAILURE_FOLLOWS) ||
	       (f->kind == DIAG_FAILURE_WC_STATUS && f->value == IBV_WC_WR_FLUSH_ERR) ||
	       (f->kind == DIAG_FAILURE_CM_EVENT && (f->value == RDMA_CM_EVENT_DISCONNECTED ||
						     f->value == RDMA_CM_EVENT_TIMEWAIT_EXIT));
}

void diag_failure_log_finish(struct diag_failure_log *l)
{
	struct diag_failure_log_item first;
	long pick = -1;

	/*
	 * Items are in the order of their first lines: the first error that is
	 * no consequence, a message, status, event or kernel line before a bare
	 * errno (which a message around it says more of: nvme's 'Connection
	 * reset by peer' before the kernel's 'Connect rejected').
	 */
	for (size_t i = 0; i < l->n && pick < 0; i++)
		if (is_error(l->items[i].f) && !is_consequence(l->items[i].f) &&
		    l->items[i].f->kind != DIAG_FAILURE_ERRNO)
			pick = (long)i;
	for (size_t i = 0; i < l->n && pick < 0; i++)
		if (is_error(l->items[i].f) && !is_consequence(l->items[i].f))
			pick = (long)i;
	/* Only consequences: the first of them stands for the rest. */
	for (size_t i = 0; i < l->n && pick < 0; i++)
		if (is_error(l->items[i].f))
			pick = (long)i;
	l->cause = pick < 0 ? -1 : 0;
	if (pick <= 0)
		return;
	first = l->items[pick];
	memmove(&l->items[1], &l->items[0], (size_t)pick * sizeof(l->items[0]));
	l->items[0] = first;
}
