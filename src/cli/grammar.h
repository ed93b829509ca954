/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The grammar: a tree of commands and verbs (iproute2's object/verb tables),
 * each row carrying its handler, options, arguments and help together. One
 * lookup walks it; one parser reads every command's options; help, the man
 * page's synopses and shell completion are generated from it.
 */
#ifndef RDMACTL_GRAMMAR_H
#define RDMACTL_GRAMMAR_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel/errname.h"	/* EUSAGE */

struct cmd_ctx;


enum cli_kind {
	CLI_FLAG,	/* --name */
	CLI_STR,	/* --name VALUE */
	CLI_UINT,	/* --name N, from MIN to MAX */
	CLI_CHOICE,	/* --name WORD, one of CHOICES (a unique prefix is enough) */
};

/* What completes an option's value. */
enum cli_complete {
	CLI_C_NONE,	/* nothing to offer: a number, an address, a free word */
	CLI_C_FILE,	/* a path */
	CLI_C_RDMA,	/* an RDMA device's name */
	CLI_C_NETDEV,	/* a network device's name */
	CLI_C_NETNS,	/* a network namespace's name, as 'ip netns list' gives them */
	CLI_C_WORDS,	/* one of CHOICES (CLI_CHOICE's own, or the words a CLI_STR takes) */
	CLI_C_COMMAND,	/* the first word of each line 'rdmactl FROM' prints */
};

/*
 * A numeric option's default: VALUE when the option WHEN was given, else the
 * next row's; the last row (WHEN NULL) is the default otherwise. Help and
 * the man page say them; cli_value() takes them.
 */
struct cli_default {
	const char *when;
	unsigned long value;
};

struct cli_opt {
	const char *name;	/* the long name, without "--" */
	char letter;		/* the short option, 0 for none */
	enum cli_kind kind;
	const char *meta;	/* the value in synopses: "N", "ADDR" */
	bool optional;		/* --name[=VALUE]: the value may be left out */
	unsigned long min, max;
	const char *const *choices;	/* NULL-terminated */
	const char *help;
	enum cli_complete complete;	/* CLI_CHOICE: CLI_C_WORDS whatever this says */
	const char *from;	/* CLI_C_COMMAND: the command whose lines give the words */
	bool list;		/* the value is a comma-separated list of such words */
	const struct cli_default *defaults;	/* NULL: none in the table */
	const char *unit;	/* what VALUE counts, for help: "s" */
};

#define CLI_MAX_OPTS 32
#define CLI_ANY (-1)	/* max_args: no limit */

struct cli_args;

/* A command's option tables, shared between commands where they mean the same. */
#define CLI_OPT_TABLES 4

struct cli_cmd {
	const char *name;
	/* Other words for it (rxe_cfg's, iproute2's): matched exactly, never listed. */
	const char *aliases[3];
	/* A leaf's handler. Returns 0, or a negative errno / -EUSAGE. */
	int (*fn)(struct cmd_ctx *ctx, const struct cli_args *a);
	/* A node's verbs, ending with a row whose name is NULL. */
	const struct cli_cmd *verbs;
	/* The verb taken when none is given (or the next word is its argument). */
	const char *dflt;
	/* The options (tables ending with a NULL name), shared tables allowed. */
	const struct cli_opt *opts[CLI_OPT_TABLES];
	const char *args;	/* positional arguments in synopses: "[NAME] NETDEV" */
	/* What an ARGS word in capitals that is no name takes ("netns MODE"'s MODE). */
	const char *const *arg_words;
	int min_args, max_args;
	const char *summary;	/* one sentence */
	const char *help;	/* the rest, or NULL */
	bool live_only;		/* the running system only: a fixture is refused */
	unsigned int libs;	/* the libraries it needs for sure, opened before it runs */
	bool hidden;		/* another way in (iproute2's words): not listed */
	/* Its words are a command line to run: options end at the first word. */
	bool command_line;
};

#define CLI_MAX_DEPTH 4

/* What the parser found: the command, its positional words, and its options. */
struct cli_args {
	const struct cli_cmd *cmd;
	char path[64];		/* "link show": for messages */
	const char *words[CLI_MAX_DEPTH];	/* the same, a word each, as the tree spells them */
	int nwords;
	int argc;
	char **argv;
	const struct cli_opt *opt[CLI_MAX_OPTS];
	const char *val[CLI_MAX_OPTS];	/* NULL: not given; "" for a flag or no value */
	unsigned long num[CLI_MAX_OPTS];
	int nopt;
};

/* The options every command takes, before or after its words. */
struct cli_globals {
	bool json, pretty, help, version, debug;
	const char *sysfs_root, *config, *netns;
};

extern const struct cli_opt cli_global_opts[];

/*
 * The row of TAB named WORD (exactly, or an alias), or the only row WORD is a
 * prefix of. NULL otherwise, with *NMATCH the number of rows it is a prefix of
 * (0: unknown, >1: ambiguous).
 */
const struct cli_cmd *cli_lookup(const struct cli_cmd *tab, const char *word, int *nmatch);
/* "a, b or c" into BUF: the names of TAB's rows WORD is a prefix of (all for ""). */
void cli_names(char *buf, size_t len, const struct cli_cmd *tab, const char *word);

/* What cli_parse found besides a command to run. */
enum cli_parsed {
	CLI_RUN = 0,
	CLI_HELP,	/* -h: help for A's words (none: all) */
	CLI_VERSION,	/* -V */
	CLI_EMPTY,	/* no command at all */
};

/*
 * Walks ARGV from the top table ROOT to a leaf, then reads the leaf's options
 * (and the global ones, anywhere) into A and G. ARGV is permuted. Returns an
 * enum cli_parsed, or -EUSAGE after saying what was wrong. It prints nothing
 * else: help is the caller's.
 */
int cli_parse(const struct cli_cmd *root, int argc, char **argv, struct cli_args *a,
	      struct cli_globals *g);

/* A's command takes the option NAME at all. */
bool cli_takes(const struct cli_args *a, const char *name);
/* The option's value when given; cli_flag also for a flag. NAME must be an option of A's. */
bool cli_flag(const struct cli_args *a, const char *name);
const char *cli_str(const struct cli_args *a, const char *name);
unsigned long cli_num(const struct cli_args *a, const char *name, unsigned long dflt);
/* S as a decimal number from MIN to MAX in *OUT: digits only, no sign or space. */
bool cli_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out);
/* The option's number when given, else its table default for the options given. */
unsigned long cli_value(const struct cli_args *a, const char *name);
/* "default 5 s; 30 with --pingpong" of O into BUF ("" when it has none). */
void cli_default_text(const struct cli_opt *o, char *buf, size_t len);

/* "rdmactl: PATH: WHAT; try 'rdmactl help PATH'" on stderr; returns -EUSAGE. */
int cli_usage(const struct cli_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* FN for each leaf below C (C itself when it is one), with its path after PREFIX. */
void cli_each_leaf(const struct cli_cmd *c, const char *prefix,
		   void (*fn)(const char *path, const struct cli_cmd *c, void *arg), void *arg);
/* FN for each option of C, table by table. */
void cli_each_opt(const struct cli_cmd *c, void (*fn)(const struct cli_opt *o, void *arg),
		  void *arg);

/* help.c and complete.c: all generated from the tree. */
void cli_print_usage(FILE *f, const struct cli_cmd *root);
/* PATH: words naming a command or node ("link", "link show"); -EUSAGE when unknown. */
int cli_print_help(FILE *f, const struct cli_cmd *root, int n, const char *const *path);
/* The scdoc synopsis of every leaf, for the man page; a bash completion script. */
void cli_print_scdoc(FILE *f, const struct cli_cmd *root);
void cli_print_bash(FILE *f, const struct cli_cmd *root, const struct cli_opt *globals);
/* LEAD, then the synopsis of command C at PATH ("link show"), wrapped to WIDTH under it. */
void cli_print_synopsis(FILE *f, const char *lead, const char *path, const struct cli_cmd *c,
			int width);

#endif
