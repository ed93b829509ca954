// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for names.c: RDMA and netdev names as the kernel takes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/names.h"

static void rdma_names(void **state)
{
	static const struct {
		const char *name;
		const char *why;	/* NULL: valid; else a word the reason contains */
	} cases[] = {
		{ "rxe0", NULL },
		{ "my-rxe_1.a", NULL },
		{ "", "empty" },
		{ "rxe%d", "'%'" },
		{ "a/b", "'/'" },
		{ "a b", "white space" },
		{ "a\tb", "white space" },
		{ "a\nb", "white space" },
		{ "a\x01", "control" },
		{ ".", "not names" },
		{ "..", "not names" },
		/* 63 characters is the most; 64 is one too many. */
		{ "123456789012345678901234567890123456789012345678901234567890123", NULL },
		{ "1234567890123456789012345678901234567890123456789012345678901234", "63" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = model_names_rdma_invalid(cases[i].name);

		if (!cases[i].why) {
			assert_null(why);
		} else {
			assert_non_null(why);
			assert_non_null(strstr(why, cases[i].why));
		}
	}
}

static void netdev_names(void **state)
{
	static const struct {
		const char *name;
		const char *why;
	} cases[] = {
		{ "eth0", NULL },
		{ "veth0.5", NULL },
		{ "enp0s31f6", NULL },
		{ "123456789012345", NULL },	/* 15: the most */
		{ "1234567890123456", "15" },
		{ "", "empty" },
		{ "eth0:1", "alias" },
		{ "a/b", "'/'" },
		{ "a b", "white space" },
		{ "e%d", "'%'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = model_names_netdev_invalid(cases[i].name);

		if (!cases[i].why) {
			assert_null(why);
		} else {
			assert_non_null(why);
			assert_non_null(strstr(why, cases[i].why));
		}
	}
}

/* The answers systemd-escape gives for the same names. */
static void unit_names(void **state)
{
	static const struct {
		const char *name, *escaped;
	} cases[] = {
		{ "ens4", "ens4" },
		{ "veth-a", "veth\\x2da" },
		{ "br.100", "br.100" },
		{ ".x", "\\x2ex" },
		{ "a@b", "a\\x40b" },
		{ "wl\xc3\xa4n", "wl\\xc3\\xa4n" },
	};
	char buf[64], small[4];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(model_names_unit_escape(buf, sizeof(buf), cases[i].name),
				 strlen(cases[i].escaped));
		assert_string_equal(buf, cases[i].escaped);
	}
	/* Cut short like snprintf: the length it needs, a terminated prefix. */
	assert_int_equal(model_names_unit_escape(small, sizeof(small), "veth-a"), 9);
	assert_string_equal(small, "vet");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rdma_names),
		cmocka_unit_test(netdev_names),
		cmocka_unit_test(unit_names),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
