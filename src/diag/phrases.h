/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Many phrases found in one pass over a text (Aho-Corasick's automaton):
 * which of them a log line holds, at a cost that does not grow with their
 * number, so a whole log is read at the speed of reading it. The text is
 * seen as the phrases are written: ASCII lowercased, each run of white
 * space one space; a digit of a phrase stands for any digit (the text
 * checked after it tells which), so "status 0" finds every status number.
 */
#ifndef RDMACTL_DIAG_PHRASES_H
#define RDMACTL_DIAG_PHRASES_H

#include <stdbool.h>
#include <stddef.h>

struct diag_phrases;

/* An empty set; NULL when out of memory. */
struct diag_phrases *diag_phrases_new(void);
void diag_phrases_free(struct diag_phrases *p);

/*
 * PHRASE (lowercase, single spaces; an empty one is passed over) standing
 * for ID (below the bits of the bitmap scan is given). 0, or -ENOMEM, or
 * -E2BIG past the automaton's size. Only before diag_phrases_build.
 */
int diag_phrases_add(struct diag_phrases *p, const char *phrase, unsigned id);
/* The automaton made from the phrases added: 0, -ENOMEM, or -EINVAL made already. */
int diag_phrases_build(struct diag_phrases *p);

/*
 * The ids of the phrases in TEXT's LEN bytes set in HITS (a bitmap of
 * unsigned char, bit ID % 8 of byte ID / 8; bits set already are kept):
 * whether any phrase stands there.
 */
bool diag_phrases_scan(const struct diag_phrases *p, const char *text, size_t len,
		       unsigned char *hits);

#endif
