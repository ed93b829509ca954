// SPDX-License-Identifier: GPL-2.0-or-later
/* Help and the man page's synopses, generated from the command tree. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"

/* The terminal's width (COLUMNS, then the tty), 80 when neither says. */
static int cli_width(FILE *f)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	int w = 0;

	if (cols && *cols)
		w = atoi(cols);
	if (w <= 0 && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0)
		w = ws.ws_col;
	if (w <= 0)
		w = 80;
	return w < 40 ? 40 : w > 200 ? 200 : w;
}

#define NBSP '\1'

/* Joins the words inside brackets with NBSP, so a synopsis wraps between groups only. */
static void hold_groups(char *s)
{
	int depth = 0;

	for (; *s; s++) {
		depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
		if (*s == ' ' && depth > 0)
			*s = NBSP;
	}
}

/*
 * Prints TEXT from column COL on, words wrapped before WIDTH, each new line
 * starting at INDENT; a word longer than a line is never cut. Returns the column.
 */
static int wrap(FILE *f, const char *text, int col, int indent, int width)
{
	while (*text) {
		size_t len = strcspn(text, " \n");

		if (col > indent && col + 1 + (int)len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		} else if (col < indent) {
			fprintf(f, "%*s", indent - col, "");
			col = indent;
		}
		/* NBSP (here '\1') holds a bracketed group together: "[--size BYTES]". */
		for (size_t i = 0; i < len; i++)
			fputc(text[i] == NBSP ? ' ' : text[i], f);
		col += (int)len;
		text += len;
		if (*text == '\n') {
			/* An explicit line break (a blank line between paragraphs). */
			while (*text == '\n') {
				fputc('\n', f);
				text++;
			}
			col = 0;
		}
		while (*text == ' ')
			text++;
	}
	return col;
}

/* One option as a synopsis shows it: "[-s|--stats]", "[--gid-index N]", "[--bench[=WHAT]]". */
static void opt_token(char *buf, size_t len, const struct cli_opt *o, bool brackets)
{
	char letter[8] = "";

	/* A synopsis says "[-s|--stats]"; a list of options "-s, --stats". */
	if (o->letter)
		snprintf(letter, sizeof(letter), brackets ? "-%c|" : "-%c, ", o->letter);
	snprintf(buf, len, "%s%s--%s%s%s%s%s", brackets ? "[" : "", letter, o->name,
		 o->kind == CLI_FLAG ? "" : o->optional ? "[=" : " ",
		 o->kind == CLI_FLAG ? "" : o->meta, o->optional ? "]" : "", brackets ? "]" : "");
}

void cli_each_opt(const struct cli_cmd *c, void (*fn)(const struct cli_opt *o, void *arg),
		  void *arg)
{
	for (int t = 0; t < CLI_OPT_TABLES; t++)
		for (const struct cli_opt *o = c->opts[t]; o && o->name; o++)
			fn(o, arg);
}

struct syn {
	FILE *f;
	int col, indent, width;
};

static void syn_opt(const struct cli_opt *o, void *arg)
{
	struct syn *s = arg;
	char tok[96];

	opt_token(tok, sizeof(tok), o, true);
	hold_groups(tok);
	s->col = wrap(s->f, tok, s->col, s->indent, s->width);
}

void cli_print_synopsis(FILE *f, const char *lead, const char *path, const struct cli_cmd *c,
			int width)
{
	int col = (int)(strlen(lead) + strlen(path));
	/* Continuation lines under the first option, or nearer the margin when narrow. */
	struct syn s = { f, col, col + 1 > width / 2 ? (int)strlen(lead) + 4 : col + 1, width };

	fprintf(f, "%s%s", lead, path);
	cli_each_opt(c, syn_opt, &s);
	if (c->args && *c->args) {
		char args[128];

		snprintf(args, sizeof(args), "%s", c->args);
		hold_groups(args);
		s.col = wrap(f, args, s.col, s.indent, width);
	}
	fputc('\n', f);
}

/* Calls FN for each leaf below C (C itself when it is one), with its path. */
void cli_each_leaf(const struct cli_cmd *c, const char *prefix,
		      void (*fn)(const char *path, const struct cli_cmd *c, void *arg), void *arg)
{
	char path[64];

	snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? " " : "", c->name);
	if (!c->verbs) {
		fn(path, c, arg);
		return;
	}
	for (const struct cli_cmd *v = c->verbs; v->name; v++)
		cli_each_leaf(v, path, fn, arg);
}

static void list_leaf(const char *path, const struct cli_cmd *c, void *arg)
{
	FILE *f = arg;
	int width = cli_width(f);

	cli_print_synopsis(f, "  ", path, c, width);
	wrap(f, c->summary, 0, 6, width);
	fputc('\n', f);
}

static void print_opts(FILE *f, const struct cli_opt *o, int width)
{
	for (; o && o->name; o++) {
		char tok[96];
		int col;

		/* The help in a column of its own; under the option on a narrow terminal. */
		int hcol = width < 60 ? 8 : 26;

		opt_token(tok, sizeof(tok), o, false);
		fprintf(f, "  %s", tok);
		col = 2 + (int)strlen(tok);
		if (col > hcol - 2) {
			fputc('\n', f);
			col = 0;
		}
		col = wrap(f, o->help, col, hcol, width);
		if (o->defaults) {
			char text[160], paren[176];

			cli_default_text(o, text, sizeof(text));
			snprintf(paren, sizeof(paren), "(%s)", text);
			wrap(f, paren, col, hcol, width);
		}
		fputc('\n', f);
	}
}

void cli_print_usage(FILE *f, const struct cli_cmd *root)
{
	int width = cli_width(f);

	fputs("Usage: rdmactl [OPTIONS] COMMAND [ARGS]\n"
	      "       rdmactl help [COMMAND [VERB]]\n\n", f);
	wrap(f, "Soft-RoCE (rdma_rxe) provisioning and diagnostics.", 0, 0, width);
	fputs("\n\nOptions (before or after the command):\n", f);
	print_opts(f, cli_global_opts, width);
	fputc('\n', f);
	wrap(f, "Commands (a unique prefix of a command or verb is enough):", 0, 0, width);
	fputc('\n', f);
	for (const struct cli_cmd *c = root; c->name; c++)
		if (!c->hidden)
			cli_each_leaf(c, "", list_leaf, f);
	fputc('\n', f);
	wrap(f, "Exit status: 0 success, 1 failure, 2 usage error.", 0, 0, width);
	fputc('\n', f);
}

static void help_leaf(const char *path, const struct cli_cmd *c, void *arg)
{
	FILE *f = arg;
	int width = cli_width(f), col;

	cli_print_synopsis(f, "Usage: rdmactl ", path, c, width);
	fputc('\n', f);
	col = wrap(f, c->summary, 0, 0, width);
	if (c->help)
		wrap(f, c->help, col, 0, width);	/* its own space, or a new line */
	fputc('\n', f);
	if (c->opts[0]) {
		fputs("\nOptions:\n", f);
		for (int t = 0; t < CLI_OPT_TABLES; t++)
			print_opts(f, c->opts[t], width);
	}
}

int cli_print_help(FILE *f, const struct cli_cmd *root, int n, const char *const *path)
{
	const struct cli_cmd *tab = root, *c = NULL;
	char prefix[64] = "";

	for (int i = 0; i < n; i++) {
		int m;

		if (!tab) {
			pr_err("help: %s takes no verb '%s'; try 'rdmactl help %s'", c->name, path[i],
			       c->name);
			return -EUSAGE;
		}
		c = cli_lookup(tab, path[i], &m);
		if (!c && m > 1) {
			char list[256];

			/* As the parser says it: the words it could be. */
			cli_names(list, sizeof(list), tab, path[i]);
			pr_err("help: ambiguous %s '%s': %s", i ? "verb" : "command", path[i], list);
			return -EUSAGE;
		}
		if (!c) {
			pr_err("help: unknown %s '%s'; try 'rdmactl help'", i ? "verb" : "command",
			       path[i]);
			return -EUSAGE;
		}
		if (i + 1 < n)
			snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "%s%s",
				 *prefix ? " " : "", c->name);
		tab = c->verbs;
	}
	if (!c) {
		cli_print_usage(f, root);
		return 0;
	}
	if (c->verbs) {
		char usage[512];
		size_t len = (size_t)snprintf(usage, sizeof(usage), "%s%s%s {", prefix,
					      *prefix ? " " : "", c->name);
		int col;

		for (const struct cli_cmd *v = c->verbs; v->name && len < sizeof(usage); v++)
			len += (size_t)snprintf(usage + len, sizeof(usage) - len, "%s%s",
						v == c->verbs ? "" : "|", v->name);
		if (len < sizeof(usage))
			snprintf(usage + len, sizeof(usage) - len, "} ...");
		/* Wrapped as the rest is, its lines under the command's first word. */
		fputs("Usage: rdmactl ", f);
		wrap(f, usage, (int)strlen("Usage: rdmactl "), (int)strlen("Usage: rdmactl "),
		     cli_width(f));
		fputs("\n\n", f);
		col = wrap(f, c->summary, 0, 0, cli_width(f));

		/* wrap puts the space between words itself, and breaks the line there. */
		if (c->help)
			col = wrap(f, c->help, col, 0, cli_width(f));
		if (c->dflt) {
			char dflt[64];

			snprintf(dflt, sizeof(dflt), "Without a verb: %s.", c->dflt);
			wrap(f, dflt, col, 0, cli_width(f));
		}
		fputs("\n\n", f);
		cli_each_leaf(c, prefix, list_leaf, f);
		return 0;
	}
	cli_each_leaf(c, prefix, help_leaf, f);
	return 0;
}

/* scdoc markup: *bold* for what is typed as is, _underlined_ for what is replaced. */
static void scdoc_words(FILE *f, const char *s)
{
	while (*s) {
		if (isupper((unsigned char)*s)) {
			size_t len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

			fprintf(f, "_%.*s_", (int)len, s);
			s += len;
		} else if (*s == '-' || islower((unsigned char)*s)) {
			size_t len = strspn(s, "-abcdefghijklmnopqrstuvwxyz0123456789");

			fprintf(f, "*%.*s*", (int)len, s);
			s += len;
		} else {
			fputc(*s++, f);
		}
	}
}

static void scdoc_opt(const struct cli_opt *o, void *arg)
{
	char tok[96];

	opt_token(tok, sizeof(tok), o, true);
	fputc(' ', arg);
	scdoc_words(arg, tok);
}

static void scdoc_leaf(const char *path, const struct cli_cmd *c, void *arg)
{
	FILE *f = arg;

	fprintf(f, "%s\t*%s*", path, path);
	cli_each_opt(c, scdoc_opt, f);
	if (c->args && *c->args) {
		fputc(' ', f);
		scdoc_words(f, c->args);
	}
	fputc('\n', f);
}

/* The defaults of a command's options (its verbs' for a node), each option once. */
struct scdoc_defaults {
	FILE *f;		/* NULL: count them only */
	const struct cli_opt *seen[CLI_MAX_OPTS];
	int n;
};

static void scdoc_default(const struct cli_opt *o, void *arg)
{
	struct scdoc_defaults *d = arg;
	const struct cli_default *x, *last;

	if (!o->defaults)
		return;
	for (int i = 0; i < d->n; i++)
		if (d->seen[i] == o)
			return;
	if (d->n < CLI_MAX_OPTS)
		d->seen[d->n++] = o;
	if (!d->f)
		return;
	for (last = o->defaults; last->when; last++)
		;
	fprintf(d->f, "%s*--%s* %lu%s%s", d->n > 1 ? "; " : "\tDefaults: ", o->name, last->value,
		o->unit ? " " : "", o->unit ? o->unit : "");
	for (x = o->defaults; x->when; x++)
		fprintf(d->f, "%s%lu with *--%s*%s", x == o->defaults ? " (" : ", ", x->value,
			x->when, x + 1 == last ? ")" : "");
}

static void scdoc_defaults_leaf(const char *path, const struct cli_cmd *c, void *arg)
{
	(void)path;
	cli_each_opt(c, scdoc_default, arg);
}

void cli_print_scdoc(FILE *f, const struct cli_cmd *root)
{
	for (const struct cli_cmd *c = root; c->name; c++)
		if (!c->hidden)
			cli_each_leaf(c, "", scdoc_leaf, f);
	/* "NAME defaults": each command whose options have defaults in the table. */
	for (const struct cli_cmd *c = root; c->name; c++) {
		struct scdoc_defaults count = { .f = NULL }, d = { .f = f };

		if (c->hidden)
			continue;
		cli_each_leaf(c, "", scdoc_defaults_leaf, &count);
		if (!count.n)
			continue;
		fprintf(f, "%s defaults\t", c->name);
		cli_each_leaf(c, "", scdoc_defaults_leaf, &d);
		fputs(".\n", f);
	}
}
