// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for out.c: one call per field gives plain text and JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "cli/out.h"

struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static struct out *cap_open(struct cap *c, bool json, bool pretty)
{
	struct out *o;

	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	o = out_new(c->f, json, pretty);
	assert_non_null(o);
	return o;
}

static void cap_close(struct cap *c, struct out *o, int want_err)
{
	assert_int_equal(out_finish(o), want_err);
	fclose(c->f);
}

/* The same calls a table command makes: a list of records with a nested list. */
static void emit_links(struct out *o)
{
	out_arr_open(o, NULL);
	for (int i = 0; i < 2; i++) {
		out_obj_open(o, NULL);
		out_str(o, "ifname", "link %s", i ? "rxe1" : "rxe0");
		out_u64(o, "port", "/%" PRIu64, 1);
		out_str(o, "netdev", " netdev %s", i ? NULL : "veth0");
		out_bool(o, "active", " active %s", i == 0);
		out_s64(o, "delta", NULL, -5);	/* JSON only */
		out_text(o, " (plain only)");
		out_arr_open(o, "gids");
		out_obj_close(o);
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(o);
}

static void plain_text(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, false, false);

	(void)state;
	assert_false(out_is_json(o));
	emit_links(o);
	cap_close(&c, o, 0);
	assert_string_equal(c.buf,
			    "link rxe0/1 netdev veth0 active yes (plain only)\n"
			    "link rxe1/1 netdev - active no (plain only)\n");
	free(c.buf);
}

static void json_compact(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, false);

	(void)state;
	assert_true(out_is_json(o));
	emit_links(o);
	cap_close(&c, o, 0);
	assert_string_equal(c.buf,
			    "[{\"ifname\":\"rxe0\",\"port\":1,\"netdev\":\"veth0\",\"active\":true,"
			    "\"delta\":-5,\"gids\":[]},"
			    "{\"ifname\":\"rxe1\",\"port\":1,\"netdev\":null,\"active\":false,"
			    "\"delta\":-5,\"gids\":[]}]\n");
	free(c.buf);
}

static void json_pretty_and_escapes(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, true);

	(void)state;
	out_obj_open(o, NULL);
	out_str(o, "path", "%s", "/dev/infiniband/\"x\"\n");
	out_u64(o, "max", "%" PRIu64, UINT64_MAX);
	out_obj_close(o);
	cap_close(&c, o, 0);
	/* Slashes stay readable; quotes and newlines are escaped; u64 is exact. */
	assert_non_null(strstr(c.buf, "\"path\": \"/dev/infiniband/\\\"x\\\"\\n\""));
	assert_non_null(strstr(c.buf, "18446744073709551615"));
	assert_non_null(strchr(c.buf, '\n'));
	free(c.buf);
}

static void json_scalar_root(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, false);

	(void)state;
	out_str(o, "version", "rdmactl %s\n", "1.0");
	cap_close(&c, o, 0);
	assert_string_equal(c.buf, "\"1.0\"\n");
	free(c.buf);
}

static void json_empty_prints_nothing(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, false);

	(void)state;
	out_text(o, "ignored");
	out_nl(o);
	cap_close(&c, o, 0);
	assert_int_equal(c.len, 0);
	free(c.buf);
}

static void json_two_roots_is_error(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, false);

	(void)state;
	out_obj_open(o, NULL);
	out_obj_close(o);
	out_obj_open(o, NULL);	/* a second document: refused, the first kept */
	out_str(o, "x", NULL, "y");
	out_obj_close(o);
	cap_close(&c, o, -EINVAL);
	assert_string_equal(c.buf, "{}\n");
	free(c.buf);
}

static void json_too_deep_is_error(void **state)
{
	struct cap c;
	struct out *o = cap_open(&c, true, false);

	(void)state;
	for (int i = 0; i < 20; i++)
		out_arr_open(o, NULL);
	for (int i = 0; i < 20; i++)
		out_arr_close(o);
	cap_close(&c, o, -E2BIG);
	free(c.buf);
}

static void write_error_reported(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct out *o;

	(void)state;
	if (!f)
		skip();
	o = out_new(f, false, false);
	out_text(o, "%s", "x");
	/* Named as it is: /dev/full is out of space, not an I/O error. */
	assert_int_equal(out_finish(o), -ENOSPC);
	fclose(f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_text),
		cmocka_unit_test(json_compact),
		cmocka_unit_test(json_pretty_and_escapes),
		cmocka_unit_test(json_scalar_root),
		cmocka_unit_test(json_empty_prints_nothing),
		cmocka_unit_test(json_two_roots_is_error),
		cmocka_unit_test(json_too_deep_is_error),
		cmocka_unit_test(write_error_reported),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("out", tests, NULL, NULL);
}
