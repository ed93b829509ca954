// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the grammar: lookup, the one option parser, and help generated from a tree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "selftest/selftest.h"

static int fn(struct cmd_ctx *ctx, const struct cli_args *a)
{
	(void)ctx, (void)a;
	return 0;
}

static const struct cli_opt add_opts[] = {
	{ "persist", 0, CLI_FLAG, .help = "also record it" },
	{ "exist-ok", 0, CLI_FLAG, .help = "fine when there" },
	{ "stats", 's', CLI_FLAG, .help = "counters" },
	{ NULL },
};

static const char *const words[] = { "all", "lat", "bw", NULL };

/* 5 s; 9 with --bench (a flag given with or without its value). */
static const struct cli_default timeouts[] = { { "bench", 9 }, { NULL, 5 } };

static const struct cli_opt num_opts[] = {
	{ "gid-index", 0, CLI_UINT, "N", .max = 65535, .help = "a GID index" },
	{ "timeout", 0, CLI_UINT, "S", .min = 1, .max = 10, .help = "seconds",
	  .defaults = timeouts, .unit = "s" },
	{ "bench", 0, CLI_CHOICE, "WHAT", .optional = true, .choices = words,
	  .help = "a very long help text that goes on and on so that it has to be wrapped "
		  "at least twice on a narrow terminal of forty columns" },
	{ NULL },
};

static const struct cli_cmd link_verbs[] = {
	{ "show", { "list" }, .fn = fn, .args = "[DEV]", .max_args = 1, .summary = "Show." },
	{ "add", .fn = fn, .opts = { add_opts }, .args = "[NAME] NETDEV", .min_args = 1,
	  .max_args = 2, .summary = "Add." },
	{ "del", { "remove" }, .fn = fn, .args = "NAME...", .min_args = 1, .max_args = CLI_ANY,
	  .summary = "Delete." },
	{ NULL },
};

static const struct cli_cmd persist_verbs[] = {
	{ "list", .fn = fn, .summary = "List." },
	{ "add", .fn = fn, .args = "NAME NETDEV", .min_args = 2, .max_args = 2, .summary = "Add." },
	{ NULL },
};

static const struct cli_cmd tab[] = {
	{ "add", .fn = fn, .opts = { add_opts }, .args = "[NAME] NETDEV", .min_args = 1,
	  .max_args = 2, .summary = "Create an rxe link." },
	{ "addr", .fn = fn, .summary = "Addresses." },
	{ "del", { "remove" }, .fn = fn, .args = "NAME...", .min_args = 1, .max_args = CLI_ANY,
	  .summary = "Delete." },
	{ "link", .verbs = link_verbs, .dflt = "show", .summary = "Links." },
	{ "persist", .verbs = persist_verbs, .dflt = "list", .summary = "The file." },
	{ "status", .fn = fn, .opts = { num_opts }, .summary = "Status." },
	{ NULL },
};

static void lookup_cases(void **state)
{
	static const struct {
		const char *word;
		const char *want;	/* NULL: no row */
		int nmatch;
	} cases[] = {
		{ "add", "add", 1 },	/* exact beats the longer "addr" */
		{ "addr", "addr", 1 },
		{ "ad", NULL, 2 },	/* ambiguous */
		{ "a", NULL, 2 },
		{ "d", "del", 1 },	/* unique prefix */
		{ "remove", "del", 1 },	/* an alias, exactly */
		{ "remo", NULL, 0 },	/* aliases take no prefixes */
		{ "stat", "status", 1 },
		{ "statusx", NULL, 0 },	/* longer than any name */
		{ "x", NULL, 0 },
		{ "", NULL, 0 },	/* empty never matches */
		{ "ADD", NULL, 0 },	/* case matters */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = -1;
		const struct cli_cmd *c = cli_lookup(tab, cases[i].word, &n);

		if (cases[i].want) {
			assert_non_null(c);
			assert_string_equal(c->name, cases[i].want);
		} else {
			assert_null(c);
		}
		assert_int_equal(n, cases[i].nmatch);
	}
}

/* Parses the words of LINE (space-separated; at most 15) as argv after "rdmactl". */
static int parse(const char *line, struct cli_args *a, struct cli_globals *g, char *buf)
{
	char *argv[16] = { "rdmactl" };
	int argc = 1, ret;

	strcpy(buf, line);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	memset(g, 0, sizeof(*g));
	fprintf(stderr, "[ parse    ] %s\n", line);
	ret = cli_parse(tab, argc, argv, a, g);
	return ret;
}

static void parse_cases(void **state)
{
	static const struct {
		const char *line;
		int ret;
		const char *path;	/* the command found */
		int argc;		/* its positional words */
		bool json;
	} cases[] = {
		{ "add veth0", 0, "add", 1, false },
		{ "add --persist rxe0 veth0", 0, "add", 2, false },
		{ "add rxe0 veth0 --persist", 0, "add", 2, false },	/* options after words */
		{ "add rxe0 veth0 -j", 0, "add", 2, true },	/* global options too */
		{ "-j add veth0", 0, "add", 1, true },
		{ "add --pers --exist veth0", 0, "add", 1, false },	/* unique prefixes */
		{ "add --p veth0", -EUSAGE, "add", 0, false },	/* --persist or --pretty */
		{ "add", -EUSAGE, "add", 0, false },	/* too few */
		{ "add a b c", -EUSAGE, "add", 3, false },	/* too many */
		{ "add --nosuch veth0", -EUSAGE, "add", 0, false },
		{ "add --e veth0", 0, "add", 1, false },	/* only --exist-ok */
		{ "link", 0, "link show", 0, false },	/* the default verb */
		{ "link rxe0", 0, "link show", 1, false },	/* which takes the word */
		{ "link -j", 0, "link show", 0, true },
		{ "link s rxe0", 0, "link show", 1, false },
		{ "link list", 0, "link show", 0, false },	/* an alias */
		{ "link remove rxe0", 0, "link del", 1, false },
		{ "persist", 0, "persist list", 0, false },
		{ "persist l", 0, "persist list", 0, false },
		{ "persist bogus", -EUSAGE, "persist", 0, false },	/* list takes no words */
		{ "persist a x y", 0, "persist add", 2, false },
		{ "s", 0, "status", 0, false },
		{ "a", -EUSAGE, "", 0, false },	/* ambiguous */
		{ "nosuch", -EUSAGE, "", 0, false },
		{ "status --timeout 10", 0, "status", 0, false },
		{ "status --timeout 11", -EUSAGE, "status", 0, false },
		{ "status --timeout 0", -EUSAGE, "status", 0, false },
		{ "status --timeout -1", -EUSAGE, "status", 0, false },
		{ "status --timeout 1x", -EUSAGE, "status", 0, false },
		{ "status --gid-index 65535", 0, "status", 0, false },
		{ "status --gid-index 65536", -EUSAGE, "status", 0, false },
		{ "status --bench", 0, "status", 0, false },
		{ "status --bench=l", 0, "status", 0, false },
		{ "status --bench=x", -EUSAGE, "status", 0, false },
		{ "status --timeout", -EUSAGE, "status", 0, false },	/* no value */
		{ "status extra", -EUSAGE, "status", 0, false },
	};
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_args a;
		struct cli_globals g;
		int ret = parse(cases[i].line, &a, &g, buf);

		if (ret != cases[i].ret)
			fail_msg("'%s': %d, expected %d", cases[i].line, ret, cases[i].ret);
		if (ret == 0) {
			assert_string_equal(a.path, cases[i].path);
			assert_int_equal(a.argc, cases[i].argc);
			assert_int_equal(g.json, cases[i].json);
		}
	}
}

static void parse_values(void **state)
{
	struct cli_args a;
	struct cli_globals g;
	char buf[256];

	(void)state;
	assert_int_equal(parse("status --timeout 7 --bench=bw", &a, &g, buf), 0);
	assert_int_equal(cli_num(&a, "timeout", 5), 7);
	assert_int_equal(cli_num(&a, "bench", 0), 2);
	assert_string_equal(cli_str(&a, "bench"), "bw");
	/* A unique prefix reads as the word it stands for, to every caller. */
	assert_int_equal(parse("status --bench=l", &a, &g, buf), 0);
	assert_string_equal(cli_str(&a, "bench"), "lat");
	assert_int_equal(cli_num(&a, "bench", 0), 1);
	assert_int_equal(cli_num(&a, "gid-index", 42), 42);	/* not given: the default */
	assert_int_equal(parse("status --bench", &a, &g, buf), 0);
	assert_non_null(cli_str(&a, "bench"));
	assert_int_equal(cli_num(&a, "bench", 0), 0);	/* no value: the default */
	/* The table's defaults: the first whose option was given, else the last. */
	assert_int_equal(cli_value(&a, "timeout"), 9);
	assert_int_equal(parse("status", &a, &g, buf), 0);
	assert_int_equal(cli_value(&a, "timeout"), 5);
	assert_int_equal(parse("status --bench=lat --timeout 3", &a, &g, buf), 0);
	assert_int_equal(cli_value(&a, "timeout"), 3);	/* given: never a default */
	cli_default_text(&num_opts[1], buf, sizeof(buf));
	assert_string_equal(buf, "default 5 s; 9 with --bench");
	cli_default_text(&num_opts[0], buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(parse("add --persist veth0", &a, &g, buf), 0);
	assert_true(cli_flag(&a, "persist"));
	assert_false(cli_flag(&a, "exist-ok"));
	assert_true(cli_takes(&a, "persist"));
	assert_false(cli_takes(&a, "bench"));
	assert_int_equal(parse("--sysfs-root /x add --config /y veth0", &a, &g, buf), 0);
	assert_string_equal(g.sysfs_root, "/x");
	assert_string_equal(g.config, "/y");
}

static char *capture(void (*print)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f);
	fclose(f);
	return buf;
}

static void usage(FILE *f)
{
	cli_print_usage(f, tab);
}

static void status_help(FILE *f)
{
	const char *path[] = { "stat" };

	assert_int_equal(cli_print_help(f, tab, 1, path), 0);
}

static void bash(FILE *f)
{
	cli_print_bash(f, tab, cli_global_opts);
}

static void help_generated(void **state)
{
	char *s;

	(void)state;
	setenv("COLUMNS", "40", 1);
	s = capture(usage);
	/* Every leaf, with its path; nothing cut; no line past 40 columns. */
	assert_non_null(strstr(s, "  add [--persist] [--exist-ok]"));
	assert_non_null(strstr(s, "  link show [DEV]\n"));
	assert_non_null(strstr(s, "  link del NAME...\n"));
	assert_non_null(strstr(s, "  persist add NAME NETDEV\n"));
	assert_non_null(strstr(s, "[--bench[=WHAT]]"));
	assert_null(strstr(s, "remove"));	/* aliases are not listed */
	for (char *line = s; *line;) {
		size_t len = strcspn(line, "\n");

		if (len > 40)
			fail_msg("longer than 40 columns: '%.*s'", (int)len, line);
		line += len + (line[len] == '\n');
	}
	free(s);
	s = capture(status_help);
	assert_non_null(strstr(s, "Usage: rdmactl status [--gid-index N]\n                   [--timeout S]"));
	assert_non_null(strstr(s, "  --bench[=WHAT]\n        a very long help text"));
	assert_non_null(strstr(s, " columns\n"));	/* the last word, whole */
	free(s);
	unsetenv("COLUMNS");

	s = capture(bash);
	assert_non_null(strstr(s, "\"link show\") opts="));
	/* Aliases are offered (and stand for their verb), though never listed in help. */
	assert_non_null(strstr(s, "\"link\") words='show list add del remove' "
			       "names='show show add del del' dflt='show'"));
	/* --bench[=WHAT] takes no next word: its values are offered after '=' alone. */
	assert_non_null(strstr(s, "|--bench\") _rdmactl_words"));
	/* (That it never takes the next word, bats/offline/10-cli.bats holds.) */
	assert_non_null(strstr(s, "complete -F _rdmactl rdmactl"));
	free(s);
}

/* --transport's list: names, "all", and the word that is wrong. */
static void transport_lists(void **state)
{
	unsigned int m;
	char bad[32];

	(void)state;
	assert_int_equal(xp_parse("rc,ud,srq", &m, bad, sizeof(bad)), 0);
	assert_int_equal(m, 1u << XP_RC | 1u << XP_UD | 1u << XP_SRQ);
	assert_int_equal(xp_parse("all", &m, bad, sizeof(bad)), 0);
	assert_int_equal(m, XP_ALL);
	assert_int_equal(xp_parse("uc,all", &m, bad, sizeof(bad)), 0);
	assert_int_equal(m, XP_ALL);
	assert_int_equal(xp_parse("rc,rdm", &m, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "rdm");
	assert_int_equal(xp_parse(",", &m, bad, sizeof(bad)), -1);
	assert_string_equal(bad, ",");
	/* "device" names the matrix's own rows, not a transport to choose. */
	assert_int_equal(xp_parse("device", &m, bad, sizeof(bad)), -1);
	assert_string_equal(xp_transport_name(XP_MW), "mw");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_cases),
		cmocka_unit_test(parse_cases),
		cmocka_unit_test(parse_values),
		cmocka_unit_test(help_generated),
		cmocka_unit_test(transport_lists),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
