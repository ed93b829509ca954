// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for cli.c: exact and prefix command lookup, generated help. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/grammar.h"

static int fn(struct rc_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	return 0;
}

static const struct rc_cmd tab[] = {
	{ "add", fn, "NAME NETDEV", "Create an rxe link.\nMore text." },
	{ "addr", fn, "", "Addresses." },
	{ "del", fn, "NAME", "Delete." },
	{ "status", fn, "", "Status." },
	{ NULL, NULL, NULL, NULL },
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
		{ "stat", "status", 1 },
		{ "statusx", NULL, 0 },	/* longer than any name */
		{ "x", NULL, 0 },
		{ "", NULL, 0 },	/* empty never matches */
		{ "ADD", NULL, 0 },	/* case matters */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = -1;
		const struct rc_cmd *c = cli_lookup(tab, cases[i].word, &n);

		if (cases[i].want) {
			assert_non_null(c);
			assert_string_equal(c->name, cases[i].want);
		} else {
			assert_null(c);
		}
		assert_int_equal(n, cases[i].nmatch);
	}
}

static char *capture(void (*print)(FILE *, const char *), const char *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, arg);
	fclose(f);
	return buf;
}

static void print_matches(FILE *f, const char *word)
{
	cli_print_matches(f, tab, word);
}

static void print_all(FILE *f, const char *unused)
{
	(void)unused;
	cli_print_commands(f, tab);
}

static void print_add(FILE *f, const char *prog)
{
	cli_print_command(f, prog, &tab[0]);
}

static void matches_listed(void **state)
{
	char *s = capture(print_matches, "ad");

	(void)state;
	assert_string_equal(s, "add, addr");
	free(s);
}

static void help_from_table(void **state)
{
	char *s = capture(print_all, NULL);

	(void)state;
	/* One line per row, first help line only, every row present. */
	assert_non_null(strstr(s, "  add NAME NETDEV"));
	assert_non_null(strstr(s, "Create an rxe link.\n"));
	assert_null(strstr(s, "More text."));
	assert_non_null(strstr(s, "  status"));
	free(s);

	s = capture(print_add, "rdmactl");
	assert_string_equal(s, "Usage: rdmactl add NAME NETDEV\n\nCreate an rxe link.\nMore text.\n");
	free(s);
}

static void numbers(void **state)
{
	static const struct {
		const char *s;
		int ret;
		unsigned long v;
	} cases[] = {
		{ "0", 0, 0 },		/* the minimum */
		{ "65535", 0, 65535 },	/* the maximum */
		{ "65536", -EUSAGE, 0 },	/* one past */
		{ "", -EUSAGE, 0 },	/* empty */
		{ "-1", -EUSAGE, 0 },	/* strtoul would wrap it */
		{ " 1", -EUSAGE, 0 },	/* strtoul would skip the space */
		{ "+1", -EUSAGE, 0 },
		{ "1x", -EUSAGE, 0 },	/* trailing junk */
		{ "0x10", -EUSAGE, 0 },	/* decimal only */
		{ "99999999999999999999999", -EUSAGE, 0 },	/* ERANGE */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long v = 12345;

		assert_int_equal(cli_uint("cmd", "--opt", cases[i].s, 0, 65535, &v), cases[i].ret);
		if (!cases[i].ret)
			assert_int_equal(v, cases[i].v);
	}
	unsigned long v;
	assert_int_equal(cli_uint("cmd", "--opt", "0", 1, 10, &v), -EUSAGE);	/* below min */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_cases),
		cmocka_unit_test(matches_listed),
		cmocka_unit_test(help_from_table),
		cmocka_unit_test(numbers),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
