// SPDX-License-Identifier: GPL-2.0-or-later
/* Many phrases found in one pass over a text: an Aho-Corasick automaton over folded bytes. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/phrases.h"

#define NONE UINT32_MAX
#define MAX_STATES (1u << 20)

struct phrase {
	char *s;
	unsigned id;
};

/* A phrase's id in a state's chain: the state may end several phrases. */
struct phrase_id {
	unsigned id;
	uint32_t next;
};

struct diag_phrases {
	struct phrase *list;
	size_t n, cap, chars;
	/* Each byte's class: the bytes no phrase has share class 0; a letter's cases one; digits one. */
	unsigned char cls[256], space[256];
	unsigned ncls;
	/* States: the full transition table, the nearest suffix state with phrases, its own. */
	uint32_t *delta, *dict, *first;
	unsigned char *mark;	/* the state ends a phrase, its own or a suffix's */
	struct phrase_id *ids;
	size_t nstates;
};

struct diag_phrases *diag_phrases_new(void)
{
	return calloc(1, sizeof(struct diag_phrases));
}

void diag_phrases_free(struct diag_phrases *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->list[i].s);
	free(p->list);
	free(p->delta);
	free(p->dict);
	free(p->first);
	free(p->mark);
	free(p->ids);
	free(p);
}

int diag_phrases_add(struct diag_phrases *p, const char *phrase, unsigned id)
{
	size_t len = strlen(phrase);

	if (!len)
		return 0;
	if (p->chars + len >= MAX_STATES)
		return -E2BIG;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct phrase *l = realloc(p->list, cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		p->list = l;
		p->cap = cap;
	}
	p->list[p->n].s = strdup(phrase);
	if (!p->list[p->n].s)
		return -ENOMEM;
	p->list[p->n++].id = id;
	p->chars += len;
	return 0;
}

/* The classes of the bytes the phrases hold; a letter's upper case is its lower case's. */
static void classes(struct diag_phrases *p)
{
	memset(p->cls, 0, sizeof(p->cls));
	/* One class for the digits: a phrase's digit stands for any. */
	for (int c = '0'; c <= '9'; c++)
		p->cls[c] = 1;
	p->ncls = 2;
	for (size_t i = 0; i < p->n; i++)
		for (const unsigned char *c = (const unsigned char *)p->list[i].s; *c; c++)
			if (!p->cls[*c])
				p->cls[*c] = (unsigned char)p->ncls++;
	for (int c = 'A'; c <= 'Z'; c++)
		p->cls[c] = p->cls[tolower(c)];
	for (int c = 0; c < 256; c++) {
		p->space[c] = isspace(c) ? 1 : 0;
		if (p->space[c])
			p->cls[c] = p->cls[' '];
	}
}

/* The trie of the phrases in DELTA (0: no child; the root is no one's child). */
static void trie(struct diag_phrases *p)
{
	size_t nids = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint32_t s = 0;

		for (const unsigned char *c = (const unsigned char *)p->list[i].s; *c; c++) {
			uint32_t *next = &p->delta[s * p->ncls + p->cls[*c]];

			if (!*next)
				*next = (uint32_t)p->nstates++;
			s = *next;
		}
		p->ids[nids] = (struct phrase_id){ p->list[i].id, p->first[s] };
		p->first[s] = (uint32_t)nids++;
	}
}

int diag_phrases_build(struct diag_phrases *p)
{
	size_t max = p->chars + 1, head = 0, tail = 0;
	uint32_t *queue, *fail;

	if (p->delta)
		return -EINVAL;
	classes(p);
	p->nstates = 1;
	p->delta = calloc(max * p->ncls, sizeof(*p->delta));
	p->dict = calloc(max, sizeof(*p->dict));
	p->first = malloc(max * sizeof(*p->first));
	p->mark = calloc(max, 1);
	p->ids = malloc((p->n ? p->n : 1) * sizeof(*p->ids));
	queue = malloc(max * sizeof(*queue));
	fail = calloc(max, sizeof(*fail));
	if (!p->delta || !p->dict || !p->first || !p->mark || !p->ids || !queue || !fail) {
		free(queue);
		free(fail);
		return -ENOMEM;
	}
	memset(p->first, 0xff, max * sizeof(*p->first));
	trie(p);
	/* Breadth first: a state's failure is shallower, its row complete before it is used. */
	for (unsigned c = 0; c < p->ncls; c++)
		if (p->delta[c])
			queue[tail++] = p->delta[c];
	while (head < tail) {
		uint32_t u = queue[head++];

		for (unsigned c = 0; c < p->ncls; c++) {
			uint32_t *v = &p->delta[u * p->ncls + c];
			uint32_t f = p->delta[fail[u] * p->ncls + c];

			if (!*v) {
				*v = f;
				continue;
			}
			fail[*v] = f;
			p->dict[*v] = p->first[f] != NONE ? f : p->dict[f];
			p->mark[*v] = p->first[*v] != NONE || p->dict[*v];
			queue[tail++] = *v;
		}
	}
	free(queue);
	free(fail);
	return 0;
}

static void report(const struct diag_phrases *p, uint32_t s, unsigned char *hits)
{
	for (uint32_t t = p->first[s] != NONE ? s : p->dict[s]; t; t = p->dict[t])
		for (uint32_t k = p->first[t]; k != NONE; k = p->ids[k].next)
			hits[p->ids[k].id / 8] |= (unsigned char)(1u << (p->ids[k].id % 8));
}

bool diag_phrases_scan(const struct diag_phrases *p, const char *text, size_t len,
		       unsigned char *hits)
{
	const unsigned char *t = (const unsigned char *)text;
	bool any = false, sp = false;
	uint32_t s = 0;

	if (!p->delta)
		return false;
	for (size_t i = 0; i < len; i++) {
		/* A run of white space is one space, as the phrases are written. */
		if (p->space[t[i]]) {
			if (sp)
				continue;
			sp = true;
		} else {
			sp = false;
		}
		s = p->delta[s * p->ncls + p->cls[t[i]]];
		if (p->mark[s]) {
			report(p, s, hits);
			any = true;
		}
	}
	return any;
}
