// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What pasted words name: every entry's words sought in one pass (the
 * phrases automaton), then each entry a line may hold checked as its kind
 * is written (a whole word, a phrase, a format's words in order, a number
 * after its keyword).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "diag/failure.h"
#include "diag/phrases.h"

#define WC DIAG_FAILURE_WC_STATUS
#define CM DIAG_FAILURE_CM_EVENT
#define ER DIAG_FAILURE_ERRNO

#define MAX_ENTRIES 1024
#define NUMBERS MAX_ENTRIES	/* the phrase id of the keywords numbers follow */

/*
 * TEXT, lowercased, into BUF of LEN, each run of white space (tabs, two
 * spaces, a newline: a log's columns) one space, as the phrases are written.
 */
static void lower(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; n + 1 < len && text[i]; i++) {
		if (isspace((unsigned char)text[i])) {
			if (n && buf[n - 1] == ' ')
				continue;
			buf[n++] = ' ';
		} else {
			buf[n++] = (char)tolower((unsigned char)text[i]);
		}
	}
	buf[n] = '\0';
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Where WORD first stands as a whole word in HAY; -1 when nowhere or empty. */
static long find_word(const char *hay, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(hay, word); p && n; p = strstr(p + 1, word))
		if ((p == hay || !word_char(p[-1])) && !word_char(p[n]))
			return p - hay;
	return -1;
}

/* Where LOW (lowercased already) first stands in HAY; -1 when nowhere or empty. */
static long find_low(const char *hay, const char *low)
{
	const char *p;

	if (!*low)
		return -1;
	p = strstr(hay, low);
	return p ? p - hay : -1;
}

/*
 * Every entry with its words lowercased, made once (not at every line of a
 * log) for the library words TEXT_OF gives: a status's, event's or errno's
 * name, the name without its prefix, the library's or the C library's words;
 * a kernel log line's words and its other words; a message's format.
 */
struct words {
	char name[128], bare[64], text[160], also[64];
};

static struct {
	const struct diag_failure *all[MAX_ENTRIES];
	struct words w[MAX_ENTRIES];
	size_t n;
	struct diag_phrases *phrases;	/* NULL: every entry is tried at every line */
	const char *(*made_for)(enum diag_failure_kind k, int value);
	bool made;
} cat;

static void entry_words(const struct diag_failure *f, struct words *w,
			const char *(*text_of)(enum diag_failure_kind k, int value))
{
	const char *text = NULL;

	memset(w, 0, sizeof(*w));
	/* A message's: a word the line must hold too; a status's: other words for it. */
	if (f->also && f->kind != DIAG_FAILURE_KERNEL_LOG)
		lower(f->also, w->also, sizeof(w->also));
	if (f->kind == DIAG_FAILURE_MESSAGE) {
		diag_failure_format_anchor(f->name, w->text, sizeof(w->text));
		return;
	}
	lower(f->name, w->name, sizeof(w->name));
	if (f->kind == DIAG_FAILURE_KERNEL_LOG) {
		if (f->also)
			lower(f->also, w->text, sizeof(w->text));
		return;
	}
	/* The name without its prefix: RETRY_EXC_ERR, ADDR_ERROR. */
	if (f->kind == WC || f->kind == CM) {
		const char *b = w->name + (f->kind == WC ? 7 : 14);

		if (strlen(w->name) > (f->kind == WC ? 7u : 14u) && strchr(b, '_'))
			snprintf(w->bare, sizeof(w->bare), "%s", b);
	}
	/* The library's words ("success" alone is too common a word to read as one). */
	if (f->kind != ER && text_of && !(f->kind == WC && f->value == IBV_WC_SUCCESS))
		text = text_of(f->kind, f->value);
	else if (f->kind == ER)
		text = strerror(f->value);
	if (text)
		lower(text, w->text, sizeof(w->text));
}

/* The separators a keyword's number may follow it by ("status 12", "errno=12", "err: -2"). */
#define SEPARATORS " =:#"
#define SEPARATORS_MAX 3
static const char *const number_keys[] = { "errno", "status", "error", "err", "ret", "synd",
					   "syndrome", NULL };

/*
 * A ConnectX's completion syndrome, as the kernel's mlx5 and UCX print it
 * ("syndrome 0x15"), is a work completion status in its own numbers
 * (rdma-core's mlx5dv.h): a peer with one beside an rxe host logs them.
 */
static const struct {
	int syndrome;
	enum ibv_wc_status status;
} mlx5_syndromes[] = {
	{ MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, IBV_WC_LOC_LEN_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, IBV_WC_LOC_QP_OP_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, IBV_WC_LOC_PROT_ERR },
	{ MLX5_CQE_SYNDROME_WR_FLUSH_ERR, IBV_WC_WR_FLUSH_ERR },
	{ MLX5_CQE_SYNDROME_MW_BIND_ERR, IBV_WC_MW_BIND_ERR },
	{ MLX5_CQE_SYNDROME_BAD_RESP_ERR, IBV_WC_BAD_RESP_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR, IBV_WC_LOC_ACCESS_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, IBV_WC_REM_INV_REQ_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, IBV_WC_REM_ACCESS_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_OP_ERR, IBV_WC_REM_OP_ERR },
	{ MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, IBV_WC_RETRY_EXC_ERR },
	{ MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR, IBV_WC_REM_ABORT_ERR },
};

/* KEY, each SEPARATORS_MAX-long run of separators, then a digit or a minus, as phrases. */
static int key_phrases(struct diag_phrases *p, const char *key)
{
	char ph[32];
	int err = 0;

	for (size_t len = 0; len <= SEPARATORS_MAX && !err; len++) {
		size_t runs = 1;

		for (size_t i = 0; i < len; i++)
			runs *= strlen(SEPARATORS);
		for (size_t r = 0; r < runs && !err; r++) {
			size_t n = (size_t)snprintf(ph, sizeof(ph), "%s", key), x = r;

			for (size_t i = 0; i < len; i++, x /= strlen(SEPARATORS))
				ph[n++] = SEPARATORS[x % strlen(SEPARATORS)];
			/* The text's runs of white space are one space: two never stand together. */
			ph[n] = '\0';
			if (strstr(ph, "  "))
				continue;
			ph[n + 1] = '\0';
			ph[n] = '0';
			err = diag_phrases_add(p, ph, NUMBERS);
			ph[n] = '-';
			if (!err)
				err = diag_phrases_add(p, ph, NUMBERS);
		}
	}
	return err;
}

/* The phrases of every entry, and the keywords numbers follow; NULL when it cannot be made. */
static struct diag_phrases *phrases(void)
{
	struct diag_phrases *p = diag_phrases_new();
	int err = p ? 0 : -ENOMEM;

	for (size_t i = 0; i < cat.n && !err; i++) {
		err = diag_phrases_add(p, cat.w[i].name, (unsigned)i);
		if (!err)
			err = diag_phrases_add(p, cat.w[i].bare, (unsigned)i);
		if (!err)
			err = diag_phrases_add(p, cat.w[i].text, (unsigned)i);
		/* A message's word is a condition, not a sign: "ib_" alone is no compiler's line. */
		if (!err && cat.all[i]->kind != DIAG_FAILURE_MESSAGE)
			err = diag_phrases_add(p, cat.w[i].also, (unsigned)i);
	}
	for (int k = 0; number_keys[k] && !err; k++)
		err = key_phrases(p, number_keys[k]);
	/* "(-104)": a negative errno in parentheses. */
	if (!err)
		err = diag_phrases_add(p, "(-0", NUMBERS);
	if (!err)
		err = diag_phrases_build(p);
	if (err) {
		diag_phrases_free(p);
		return NULL;
	}
	return p;
}

static void make(const char *(*text_of)(enum diag_failure_kind k, int value))
{
	if (cat.made && cat.made_for == text_of)
		return;
	cat.n = diag_failure_all(cat.all, MAX_ENTRIES);
	if (cat.n > MAX_ENTRIES)
		cat.n = MAX_ENTRIES;
	for (size_t i = 0; i < cat.n; i++)
		entry_words(cat.all[i], &cat.w[i], text_of);
	diag_phrases_free(cat.phrases);
	cat.phrases = phrases();
	cat.made = true;
	cat.made_for = text_of;
}

/* The entry of KIND and VALUE, or NULL. */
static const struct diag_failure *entry(enum diag_failure_kind kind, int value)
{
	for (size_t i = 0; i < cat.n; i++)
		if (cat.all[i]->kind == kind && cat.all[i]->value == value)
			return cat.all[i];
	return NULL;
}

/*
 * The number after a keyword at P ("status 12", "error -110", "errno=12";
 * a syndrome's in hex, "syndrome 0x15"), *NUM.
 */
static bool number_after(const char *p, bool hex, long *num)
{
	size_t sep = strspn(p, SEPARATORS);
	char *end;

	/* More separators than the phrases allow: no number of the keyword's. */
	if (sep > SEPARATORS_MAX)
		return false;
	p += sep;
	if (hex ? strncmp(p, "0x", 2) || !isxdigit((unsigned char)p[2]) :
		  !isdigit((unsigned char)*p) && !(*p == '-' && isdigit((unsigned char)p[1])))
		return false;
	errno = 0;
	*num = strtol(p, &end, hex ? 16 : 10);
	/* No status or errno is past int: such a number is none (and -LONG_MIN never made). */
	return !word_char(*end) && !errno && *num >= -INT_MAX && *num <= INT_MAX;
}

/* The work completion status a ConnectX syndrome stands for; NULL for none. */
static const struct diag_failure *syndrome(long num)
{
	for (size_t i = 0; i < sizeof(mlx5_syndromes) / sizeof(mlx5_syndromes[0]); i++)
		if (mlx5_syndromes[i].syndrome == num)
			return entry(WC, (int)mlx5_syndromes[i].status);
	return NULL;
}

struct hit {
	long at;
	const struct diag_failure *f;
};

static void add(struct hit *h, size_t *n, size_t max, long at, const struct diag_failure *f)
{
	if (!f || at < 0)
		return;
	for (size_t i = 0; i < *n; i++) {
		if (h[i].f == f) {
			if (at < h[i].at)
				h[i].at = at;
			return;
		}
	}
	if (*n < max)
		h[(*n)++] = (struct hit){ at, f };
}

#define NUMBER_CHARS " \t\n\r\v\f=:#-0123456789"

/*
 * The numbers the text gives with their keywords: statuses, and errnos
 * (negative or errno N). Beside an rdma_cm event, or in a message that
 * prints a status of its own (nvme's "Connect rejected: status %d",
 * DIAG_FAILURE_OWN_STATUS), a
 * positive number is that status (a reject reason: 8, 28), not a work
 * completion's.
 */
static void numbers(const char *t, struct hit *h, size_t *n, size_t max)
{
	const char *const *keys = number_keys;
	bool event = false;
	long num;

	for (size_t i = 0; i < *n; i++)
		event |= h[i].f->kind == CM ||
			 (h[i].f->flags & DIAG_FAILURE_OWN_STATUS);
	/*
	 * Numbers alone are work completion statuses, as programs print them,
	 * and negative ones errnos: each of them ("12 -110").
	 */
	if (!t[strspn(t, NUMBER_CHARS)])
		for (const char *p = t; *p; p += strcspn(p, " "), p += strspn(p, " "))
			if (number_after(p, false, &num))
				add(h, n, max, p - t, num < 0 ? entry(ER, (int)-num) : entry(WC, (int)num));
	for (const char *p = t; *p; p++) {
		/* "(-104)": a negative errno in parentheses, as the kernel's NVMe and NFS print one. */
		if (p[0] == '(' && p[1] == '-' && isdigit((unsigned char)p[2]) &&
		    number_after(p + 1, false, &num) && p[1 + strspn(p + 1, "-0123456789")] == ')')
			add(h, n, max, p - t, entry(ER, (int)-num));
		if (p > t && word_char(p[-1]))
			continue;
		for (int k = 0; keys[k]; k++) {
			size_t len = strlen(keys[k]);
			bool hex = !strncmp(keys[k], "synd", 4);

			if (strncmp(p, keys[k], len) || word_char(p[len]) ||
			    !number_after(p + len, hex, &num))
				continue;
			/*
			 * "vendor err 129", "vendor syndrome 0x81": the driver's own
			 * code, not a status.
			 */
			if (p - t >= 7 && !strncmp(p - 7, "vendor ", 7))
				break;
			if (hex)
				add(h, n, max, p - t, syndrome(num));
			else if (!strcmp(keys[k], "errno") || num < 0)
				add(h, n, max, p - t, entry(ER, (int)labs(num)));
			else if (strcmp(keys[k], "err") && strcmp(keys[k], "ret") && !event)
				add(h, n, max, p - t, entry(WC, (int)num));
			break;
		}
	}
}

/* Where entry I's words stand in T (lowercased), into H. */
static void seek(size_t i, const char *t, struct hit *h, size_t *n, size_t max)
{
	const struct diag_failure *f = cat.all[i];
	const struct words *w = &cat.w[i];

	switch (f->kind) {
	case DIAG_FAILURE_MESSAGE:
		if (!*w->also || strstr(t, w->also))
			add(h, n, max, diag_failure_format_at(t, f->name), f);
		break;
	case DIAG_FAILURE_KERNEL_LOG:
		add(h, n, max, find_low(t, w->name), f);
		add(h, n, max, find_low(t, w->text), f);
		break;
	default:
		add(h, n, max, find_word(t, w->name), f);
		if (*w->bare)
			add(h, n, max, find_word(t, w->bare), f);
		add(h, n, max, find_low(t, w->text), f);
		add(h, n, max, find_low(t, w->also), f);
	}
}

/* The errnos after a perror() of a stale errno (DIAG_FAILURE_PERROR) on the line, dropped. */
static void stale_errnos(struct hit *h, size_t *n)
{
	long from = -1;
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		if (h[i].f->flags & DIAG_FAILURE_PERROR && (from < 0 || h[i].at < from))
			from = h[i].at;
	if (from < 0)
		return;
	for (size_t i = 0; i < *n; i++)
		if (h[i].f->kind != ER || h[i].at < from)
			h[k++] = h[i];
	*n = k;
}

size_t diag_failure_match_n(const char *text, size_t len,
			     const char *(*text_of)(enum diag_failure_kind k, int value),
			     const struct diag_failure **out, size_t max)
{
	unsigned char hits[MAX_ENTRIES / 8 + 1] = { 0 };
	struct hit h[16];
	size_t n = 0, cap = max < 16 ? max : 16, end = 0;
	char t[1024], copy[1024];
	bool alone, all;

	make(text_of);
	all = !cat.phrases;
	/* Numbers alone ("12", "-110"), to the end or a NUL. */
	while (end < len && text[end] && strchr(NUMBER_CHARS, text[end]))
		end++;
	alone = end == len || !text[end];
	/* Most lines of a log hold nothing known: said by one pass, with nothing copied. */
	if (!all && !diag_phrases_scan(cat.phrases, text, len, hits) && !alone)
		return 0;
	/* A NUL ends the text matched: binary data is passed over. */
	end = len < sizeof(copy) - 1 ? len : sizeof(copy) - 1;
	memcpy(copy, text, end);
	copy[end] = '\0';
	text = copy;
	lower(text, t, sizeof(t));
	for (size_t i = 0; i < cat.n; i++)
		if (all || hits[i / 8] & (1u << (i % 8)))
			seek(i, t, h, &n, cap);
	if (all || alone || hits[NUMBERS / 8] & (1u << (NUMBERS % 8)))
		numbers(t, h, &n, cap);
	stale_errnos(h, &n);
	/* In the order the text has them. */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && h[k].at < h[k - 1].at; k--) {
			struct hit x = h[k];

			h[k] = h[k - 1];
			h[k - 1] = x;
		}
	for (size_t i = 0; i < n; i++)
		out[i] = h[i].f;
	return n;
}

size_t diag_failure_match(const char *text,
			   const char *(*text_of)(enum diag_failure_kind k, int value),
			   const struct diag_failure **out, size_t max)
{
	return diag_failure_match_n(text, strlen(text), text_of, out, max);
}
