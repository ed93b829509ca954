// SPDX-License-Identifier: GPL-2.0-or-later
/* The grammar's lookup and its one option parser, over the command tree. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"

const struct cli_opt cli_global_opts[] = {
	{ "json", 'j', CLI_FLAG, .help = "JSON output (the stable interface for programs)" },
	{ "pretty", 'p', CLI_FLAG, .help = "indent JSON output" },
	{ "sysfs-root", 0, CLI_STR, "DIR",
	  .help = "read a captured fixture below DIR instead of the running system "
		  "(also RDMACTL_SYSFS_ROOT)", .complete = CLI_C_FILE },
	{ "config", 0, CLI_STR, "FILE",
	  .help = "the persistent-links file (also RDMACTL_CONFIG)", .complete = CLI_C_FILE },
	{ "netns", 'n', CLI_STR, "NETNS",
	  .help = "work in network namespace NETNS, as 'ip -n' does: a name 'ip netns' "
		  "lists, or the PID of a process in it (a container's)", .complete = CLI_C_NETNS },
	{ "debug", 0, CLI_FLAG,
	  .help = "every netlink message sent and received, named and laid out, on "
		  "standard error (for a bug report)" },
	{ "help", 'h', CLI_FLAG, .help = "this help, or the command's" },
	{ "version", 'V', CLI_FLAG, .help = "print the version" },
	{ NULL },
};

static bool matches(const struct cli_cmd *c, const char *word, size_t len)
{
	return strncmp(c->name, word, len) == 0;
}

const struct cli_cmd *cli_lookup(const struct cli_cmd *tab, const char *word, int *nmatch)
{
	const struct cli_cmd *found = NULL;
	size_t len = strlen(word);
	int n = 0;

	*nmatch = 0;
	if (len == 0)
		return NULL;
	for (const struct cli_cmd *c = tab; c->name; c++) {
		if (strcmp(c->name, word) == 0)
			goto exact;
		for (int i = 0; i < 3 && c->aliases[i]; i++)
			if (strcmp(c->aliases[i], word) == 0)
				goto exact;
		continue;
exact:
		*nmatch = 1;
		return c;
	}
	for (const struct cli_cmd *c = tab; c->name; c++) {
		if (matches(c, word, len)) {
			found = c;
			n++;
		}
	}
	*nmatch = n;
	return n == 1 ? found : NULL;
}

void cli_names(char *buf, size_t len, const struct cli_cmd *tab, const char *word)
{
	size_t wlen = strlen(word), n = 0, i = 0;

	*buf = '\0';
	for (const struct cli_cmd *c = tab; c->name; c++)
		n += matches(c, word, wlen);
	for (const struct cli_cmd *c = tab; c->name; c++) {
		if (!matches(c, word, wlen))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i == 0 ? "" : i + 1 == n ? " or " : ", ", c->name);
		i++;
	}
}

int cli_usage(const struct cli_args *a, const char *fmt, ...)
{
	char *what = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (*a->path)
		pr_err("%s: %s; try 'rdmactl help %s'", a->path, what ? what : fmt, a->path);
	else
		pr_err("%s; try 'rdmactl help'", what ? what : fmt);
	free(what);
	return -EUSAGE;
}

/* The options C takes, global ones first (only those when C is NULL), into V; their number. */
static int collect(const struct cli_cmd *c, const struct cli_opt **v)
{
	int n = 0;

	for (int i = -1; i < CLI_OPT_TABLES; i++) {
		const struct cli_opt *t = i < 0 ? cli_global_opts : c ? c->opts[i] : NULL;

		for (const struct cli_opt *o = t; o && o->name; o++)
			if (n < CLI_MAX_OPTS)
				v[n++] = o;
	}
	return n;
}

static int set_value(struct cli_args *a, int i, const char *val)
{
	const struct cli_opt *o = a->opt[i];

	a->val[i] = val ? val : "";
	if (!val)
		return (a->num[i] = ULONG_MAX, 0);
	/* An empty path, name or address is never what was meant: no default stands in. */
	if (!*val)
		return cli_usage(a, "--%s takes %s, not an empty word", o->name,
				 o->meta ? o->meta : "a value");
	if (o->kind == CLI_UINT) {
		if (!cli_uint(val, o->min, o->max, &a->num[i]))
			return cli_usage(a, "--%s takes a number from %lu to %lu, not '%s'", o->name,
					 o->min, o->max, val);
	} else if (o->kind == CLI_CHOICE) {
		size_t len = strlen(val), n = 0;

		for (size_t k = 0; len && o->choices[k]; k++) {
			if (!strcmp(o->choices[k], val)) {
				n = 1;
				a->num[i] = k;
				break;
			}
			if (!strncmp(o->choices[k], val, len)) {
				n++;
				a->num[i] = k;
			}
		}
		if (n != 1) {
			char list[128] = "";

			for (size_t k = 0; o->choices[k]; k++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 k ? (o->choices[k + 1] ? ", " : " or ") : "", o->choices[k]);
			return cli_usage(a, "--%s takes %s, not '%s'", o->name, list, val);
		}
		/* The word resolved, never the one typed: a handler comparing cli_str()
		 * with a choice must see "github" for "g", or it would take and ignore it. */
		a->val[i] = o->choices[a->num[i]];
	}
	return 0;
}

/* Why getopt refused the word at IDX: unknown, ambiguous, or missing its value. */
static int refuse(struct cli_args *a, char **argv, int idx, int code, int shortopt,
		  const struct cli_opt **v, int n)
{
	const char *word = idx > 0 ? argv[idx] : "";

	if (code == ':')
		return cli_usage(a, "%s needs a value", word);
	if (shortopt)
		return cli_usage(a, "unknown option '-%c'", (unsigned char)shortopt < 0x20 ? '?' :
				 shortopt);
	if (!strncmp(word, "--", 2)) {
		const char *name = word + 2;
		size_t len = strcspn(name, "=");
		int m = 0;

		for (int i = 0; i < n; i++)
			m += !strncmp(v[i]->name, name, len);
		if (m > 1) {
			char list[256] = "";

			for (int i = 0; i < n; i++)
				if (!strncmp(v[i]->name, name, len))
					snprintf(list + strlen(list), sizeof(list) - strlen(list),
						 "%s--%s", *list ? ", " : "", v[i]->name);
			return cli_usage(a, "ambiguous option '%s': %s", word, list);
		}
		if (m == 1 && strchr(name, '='))
			return cli_usage(a, "'%s': that option takes no value", word);
	}
	return cli_usage(a, "unknown option '%s'", word);
}

/*
 * Reads the options of A->cmd (the global ones only when it is NULL, stopping
 * at the first word then) from ARGV, whose ARGV[0] getopt skips. Returns the
 * index of the first word that is not an option, or -EUSAGE (said).
 */
/* The most negative numbers one command line's words may hold. */
#define CLI_MAX_NEG 16

/* The negative numbers NEG (their digits, as getopt was shown them) whole again in ARGV. */
static void give_back(int argc, char **argv, char *const *neg, size_t nneg)
{
	for (int k = 1; k < argc; k++)
		for (size_t j = 0; j < nneg; j++)
			if (argv[k] == neg[j])
				argv[k]--;
}

static int parse_opts(struct cli_args *a, struct cli_globals *g, int argc, char **argv)
{
	struct option lo[CLI_MAX_OPTS + 1] = { 0 };
	const struct cli_opt *v[CLI_MAX_OPTS];
	char shorts[2 * CLI_MAX_OPTS + 3];
	char *neg[CLI_MAX_NEG] = { NULL };
	size_t nneg = 0;
	int n = collect(a->cmd, v), opt;

	/* "+": before the command, options end at its word; after it, they mix with words. */
	snprintf(shorts, sizeof(shorts), "%s", a->cmd && !a->cmd->command_line ? ":" : "+:");
	for (int i = 0; i < n; i++) {
		lo[i].name = v[i]->name;
		lo[i].has_arg = v[i]->kind == CLI_FLAG ? no_argument :
				v[i]->optional ? optional_argument : required_argument;
		lo[i].val = 256 + i;
		if (v[i]->letter) {
			size_t l = strlen(shorts);

			shorts[l] = v[i]->letter;
			shorts[l + 1] = lo[i].has_arg == required_argument ? ':' : '\0';
			shorts[l + 2] = '\0';
		}
		a->opt[i] = v[i];
		a->val[i] = NULL;
	}
	a->nopt = n;
	/*
	 * A negative number is a word, not options: explain -110 is errno 110,
	 * as a program printed it, never -1 -1 -0. getopt is shown its digits
	 * (no option is a digit) and the word is given back whole, as an
	 * option's value too (--gid-index -1 is refused as -1).
	 */
	for (int k = 1; a->cmd && a->cmd->max_args != 0 && !a->cmd->command_line && k < argc &&
			nneg < CLI_MAX_NEG; k++) {
		if (!strcmp(argv[k], "--"))
			break;
		if (argv[k][0] == '-' && argv[k][1] && strspn(argv[k] + 1, "0123456789") ==
		    strlen(argv[k] + 1))
			neg[nneg++] = ++argv[k];
	}
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		int i = -1;

		for (size_t k = 0; optarg && k < nneg; k++)
			if (optarg == neg[k])
				optarg--;

		if (opt >= 256)
			i = opt - 256;
		for (int k = 0; i < 0 && k < n; k++)
			if (opt == v[k]->letter)
				i = k;
		if (i < 0) {
			give_back(argc, argv, neg, nneg);
			/* A long option's error sets optopt to its val (256 + i), no letter. */
			return refuse(a, argv, optind - 1, opt,
				      opt == '?' && optopt < 256 ? optopt : 0, v, n);
		}
		if (set_value(a, i, optarg)) {
			give_back(argc, argv, neg, nneg);
			return -EUSAGE;
		}
	}
	g->json |= cli_flag(a, "json");
	g->pretty |= cli_flag(a, "pretty");
	g->help |= cli_flag(a, "help");
	g->version |= cli_flag(a, "version");
	g->debug |= cli_flag(a, "debug");
	if (cli_str(a, "sysfs-root"))
		g->sysfs_root = cli_str(a, "sysfs-root");
	if (cli_str(a, "config"))
		g->config = cli_str(a, "config");
	if (cli_str(a, "netns"))
		g->netns = cli_str(a, "netns");
	give_back(argc, argv, neg, nneg);
	return optind;
}

static bool is_help(const char *w)
{
	return !strcmp(w, "-h") || !strcmp(w, "--help");
}

int cli_parse(const struct cli_cmd *root, int argc, char **argv, struct cli_args *a,
	      struct cli_globals *g)
{
	const struct cli_cmd *tab = root, *c = NULL;
	int i, n;

	memset(a, 0, sizeof(*a));
	i = parse_opts(a, g, argc, argv);
	if (i < 0)
		return i;
	/* With words, -h and -V are about them: an unknown one is refused as always. */
	if (i >= argc)
		return g->help ? CLI_HELP : g->version ? CLI_VERSION : CLI_EMPTY;
	for (;;) {
		const char *w = i < argc ? argv[i] : NULL;
		const struct cli_cmd *next = NULL, *dflt = NULL;

		if (c && ((w && is_help(w)) || (!w && g->help)))
			return CLI_HELP;	/* help for the words so far, a node's included */
		if (w && *w != '-')
			next = cli_lookup(tab, w, &n);
		else
			n = 0;
		if (c && c->dflt)
			dflt = cli_lookup(tab, c->dflt, &(int){ 0 });
		if (next) {
			i++;
		} else if (dflt && (n == 0 && (!w || *w == '-' || dflt->max_args != 0))) {
			next = dflt;
		} else {
			char list[256];

			cli_names(list, sizeof(list), tab, n > 1 ? w : "");
			if (!c && n > 1)
				pr_err("ambiguous command '%s': %s", w, list);
			else if (!c)
				pr_err("unknown command '%s'; try 'rdmactl help'", w);
			else
				return cli_usage(a, "%s word '%s' (%s)", n > 1 ? "ambiguous" : "unknown",
						 w, list);
			return -EUSAGE;
		}
		c = next;
		if (a->nwords < CLI_MAX_DEPTH)
			a->words[a->nwords++] = c->name;
		if (a->nwords == 1)
			snprintf(a->path, sizeof(a->path), "%s", c->name);
		else
			snprintf(a->path + strlen(a->path), sizeof(a->path) - strlen(a->path), " %s",
				 c->name);
		if (!c->verbs)
			break;
		tab = c->verbs;
	}
	a->cmd = c;
	/* ARGV[i - 1] stands in for getopt's program name. */
	n = parse_opts(a, g, argc - i + 1, argv + i - 1);
	if (n < 0)
		return n;
	a->argc = argc - i + 1 - n;
	a->argv = argv + i - 1 + n;
	for (int k = 0; k < a->argc; k++)
		if (!*a->argv[k])
			return cli_usage(a, "argument %d is an empty word: expected %s", k + 1,
					 c->args ? c->args : "none");
	if (g->help || g->version)
		return g->help ? CLI_HELP : CLI_VERSION;
	if (a->argc < c->min_args)
		return cli_usage(a, "expected %s", c->args);
	if (c->max_args != CLI_ANY && a->argc > c->max_args) {
		return cli_usage(a, "unexpected '%s'%s%s", a->argv[c->max_args],
				 c->max_args ? ": expected " : "", c->max_args ? c->args : "");
	}
	return 0;
}

static int find(const struct cli_args *a, const char *name)
{
	for (int i = 0; i < a->nopt; i++)
		if (!strcmp(a->opt[i]->name, name))
			return i;
	/* A handler asked for an option its row does not list: a bug, caught by any test. */
	fprintf(stderr, "rdmactl: internal error: %s has no option --%s\n", a->path, name);
	abort();
}

bool cli_takes(const struct cli_args *a, const char *name)
{
	for (int i = 0; i < a->nopt; i++)
		if (!strcmp(a->opt[i]->name, name))
			return true;
	return false;
}

bool cli_flag(const struct cli_args *a, const char *name)
{
	return a->val[find(a, name)] != NULL;
}

const char *cli_str(const struct cli_args *a, const char *name)
{
	return a->val[find(a, name)];
}

unsigned long cli_value(const struct cli_args *a, const char *name)
{
	const struct cli_opt *o = a->opt[find(a, name)];
	const struct cli_default *d = o->defaults;

	if (!d) {	/* a row without defaults asked for one: a bug, caught by any test */
		fprintf(stderr, "rdmactl: internal error: --%s has no default\n", name);
		abort();
	}
	for (; d->when && !(cli_takes(a, d->when) && cli_flag(a, d->when)); d++)
		;
	return cli_num(a, name, d->value);
}

void cli_default_text(const struct cli_opt *o, char *buf, size_t len)
{
	const struct cli_default *d = o->defaults, *last;
	size_t n;

	*buf = '\0';
	if (!d)
		return;
	for (last = d; last->when; last++)
		;
	n = (size_t)snprintf(buf, len, "default %lu%s%s", last->value, o->unit ? " " : "",
			     o->unit ? o->unit : "");
	for (; d->when && n < len; d++)
		n += (size_t)snprintf(buf + n, len - n, "; %lu with --%s", d->value, d->when);
}

bool cli_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	/* strtoul takes "-1" as ULONG_MAX and skips leading space: refuse both. */
	return !errno && !*end && end != s && *s >= '0' && *s <= '9' && *out >= min && *out <= max;
}

unsigned long cli_num(const struct cli_args *a, const char *name, unsigned long dflt)
{
	int i = find(a, name);

	return a->val[i] && a->num[i] != ULONG_MAX ? a->num[i] : dflt;
}
