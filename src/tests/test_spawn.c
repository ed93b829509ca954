// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for kernel/spawn.c: a program's whole output read without a
 * shell, its failure, its absence and an output past the limit told apart;
 * spawn_run's first bytes and exit status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/spawn.h"

static void read_whole(void **state)
{
	/* 300,000 bytes: past the first buffer and a pipe's capacity. */
	const char *const argv[] = { "head", "-c", "300000", "/dev/zero", NULL };
	const char *const words[] = { "printf", "%s|%s", "a b", "$(id)", NULL };
	char *out = NULL;

	(void)state;
	assert_int_equal(spawn_read(argv, 1 << 20, &out), 0);
	assert_non_null(out);
	free(out);
	/* Each argument as it is: no shell splits or expands them. */
	assert_int_equal(spawn_read(words, 1 << 20, &out), 0);
	assert_string_equal(out, "a b|$(id)");
	free(out);
}

static void failures_told_apart(void **state)
{
	const char *const fails[] = { "sh", "-c", "echo partial; echo said >&2; exit 3", NULL };
	const char *const none[] = { "/nonexistent/program", NULL };
	const char *const big[] = { "head", "-c", "300000", "/dev/zero", NULL };
	const char *const one_more[] = { "head", "-c", "100001", "/dev/zero", NULL };
	const char *const at_max[] = { "head", "-c", "100000", "/dev/zero", NULL };
	char *out = (char *)1;

	(void)state;
	assert_int_equal(spawn_read(fails, 1 << 20, &out), -EIO);
	assert_null(out);
	assert_int_equal(spawn_read(none, 1 << 20, &out), -ENOENT);
	assert_null(out);
	assert_int_equal(spawn_read(big, 100000, &out), -EFBIG);
	assert_null(out);
	/* The limit is the caller's, to the byte. */
	assert_int_equal(spawn_read(one_more, 100000, &out), -EFBIG);
	assert_null(out);
	assert_int_equal(spawn_read(at_max, 100000, &out), 0);
	assert_non_null(out);
	free(out);
}

static void run_keeps_both_streams(void **state)
{
	const char *const argv[] = { "sh", "-c", "echo out; echo err >&2; exit 5", NULL };
	struct spawn_out o;

	(void)state;
	assert_int_equal(spawn_run(argv, "test", NULL, &o), 0);
	assert_int_equal(o.status, 5);
	assert_non_null(strstr(o.text, "out\n"));
	assert_non_null(strstr(o.text, "err\n"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_whole),
		cmocka_unit_test(failures_told_apart),
		cmocka_unit_test(run_keeps_both_streams),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("spawn", tests, NULL, NULL);
}
