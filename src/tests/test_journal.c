// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for cli/journal.c and cli/timespec.c: an event's line as the
 * journal's fields (names from the JSON members' paths, the owner's as the
 * event's own, values escaped, the message without its time; what is no
 * object refused), and --since's times as journalctl's grammar has them,
 * the edges refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "cli/journal.h"
#include "cli/timespec.h"

/* FIELD's value in E, or NULL. */
static const char *field(const struct out_journal *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->f[i].name, name))
			return e->f[i].value;
	return NULL;
}

static void fields_of_a_line(void **state)
{
	struct out_journal e;
	const char *json = "{\"time\":\"2026-12-03T03:14:48.569Z\",\"event\":\"qp-error\","
			   "\"ifname\":\"rxe0\",\"qpn\":17,\"owner\":{\"pid\":333,"
			   "\"comm\":\"p\\u001b[2J\\nx\"},\"modify_qp\":{\"is_global\":false},"
			   "\"command\":[\"a\",\"b\"],\"fix\":null,\"cause\":\"a \\\\ b\"}";

	(void)state;
	assert_int_equal(out_journal_make(&e, json, "2026-12-03T03:14:48.569Z qp-error rxe0\n"),
			 0);
	assert_string_equal(field(&e, "MESSAGE"), "qp-error rxe0");
	assert_string_equal(field(&e, "RDMACTL_JSON"), json);
	assert_string_equal(field(&e, "RDMACTL_EVENT"), "qp-error");
	assert_string_equal(field(&e, "RDMACTL_QPN"), "17");
	/* The owner's members stand as the event's; nested objects by their path. */
	assert_string_equal(field(&e, "RDMACTL_PID"), "333");
	assert_string_equal(field(&e, "RDMACTL_COMM"), "p\\x1b[2J\\x0ax");
	assert_string_equal(field(&e, "RDMACTL_MODIFY_QP_IS_GLOBAL"), "false");
	assert_string_equal(field(&e, "RDMACTL_CAUSE"), "a \\\\ b");
	/* null is unknown, not a value; arrays are the JSON line's alone. */
	assert_null(field(&e, "RDMACTL_FIX"));
	assert_null(field(&e, "RDMACTL_COMMAND"));
	assert_true(out_journal_add(&e, "PRIORITY", "4"));
	assert_string_equal(field(&e, "PRIORITY"), "4");
	out_journal_free(&e);
	assert_int_equal(e.n, 0);
	/* No object: refused, nothing kept. */
	assert_int_equal(out_journal_make(&e, "[1,2]", "x"), -EINVAL);
	assert_int_equal(out_journal_make(&e, "{\"cut", "x"), -EINVAL);
	assert_int_equal(e.n, 0);
}

static void many_members_are_cut_not_overrun(void **state)
{
	char json[8192] = "{";
	struct out_journal e;

	(void)state;
	for (int i = 0; i < 100; i++)
		snprintf(json + strlen(json), sizeof(json) - strlen(json), "%s\"k%d\":%d",
			 i ? "," : "", i, i);
	strcat(json, "}");
	assert_int_equal(out_journal_make(&e, json, "t x"), 0);
	assert_int_equal(e.n, OUT_JOURNAL_MAX);
	assert_false(out_journal_add(&e, "PRIORITY", "4"));
	out_journal_free(&e);
}

static void since_times(void **state)
{
	/* 2026-12-03T10:00:00Z */
	const time_t now = 1796292000;
	uint64_t us;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(cli_time("now", now, &us), 0);
	assert_true(us == (uint64_t)now * 1000000);
	assert_int_equal(cli_time("-2h", now, &us), 0);
	assert_true(us == (uint64_t)(now - 7200) * 1000000);
	assert_int_equal(cli_time("1h 30min ago", now, &us), 0);
	assert_true(us == (uint64_t)(now - 5400) * 1000000);
	assert_int_equal(cli_time("-1d2h", now, &us), 0);
	assert_true(us == (uint64_t)(now - 93600) * 1000000);
	assert_int_equal(cli_time("today", now, &us), 0);
	assert_true(us == (uint64_t)(now - 36000) * 1000000);
	assert_int_equal(cli_time("yesterday", now, &us), 0);
	assert_true(us == (uint64_t)(now - 36000 - 86400) * 1000000);
	assert_int_equal(cli_time("2026-12-03 09:10", now, &us), 0);
	assert_true(us == (uint64_t)(now - 3000) * 1000000);
	assert_int_equal(cli_time("2026-12-03T09:10:11Z", now, &us), 0);
	assert_true(us == (uint64_t)(now - 2989) * 1000000);
	assert_int_equal(cli_time("2026-12-03 09:10:11 UTC", now, &us), 0);
	assert_true(us == (uint64_t)(now - 2989) * 1000000);
	assert_int_equal(cli_time("2026-12-03", now, &us), 0);
	assert_true(us == (uint64_t)(now - 36000) * 1000000);
	assert_int_equal(cli_time("09:30", now, &us), 0);
	assert_true(us == (uint64_t)(now - 1800) * 1000000);
	assert_int_equal(cli_time("@1796288400", now, &us), 0);
	assert_true(us == 1796288400ull * 1000000);
	/* The edges: empty, no unit, an unknown unit, trailing words, too long, malformed dates. */
	static const char *const bad[] = {
		"", "-", "-2", "2 ago", "-2 fortnights", "-2h x", "ago", "@", "@12x",
		"2026-13-03", "2026-12-03 25:00", "tomorrow", "-999999999999999999999h",
		"2026-12-03 09:10:11 UTC and more text that makes it longer than sixty-four bytes",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cli_time(bad[i], now, &us), -EINVAL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_of_a_line),
		cmocka_unit_test(many_members_are_cut_not_overrun),
		cmocka_unit_test(since_times),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
