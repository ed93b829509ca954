// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for names.c: RDMA and netdev names as the kernel takes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

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
		const char *why = rdma_name_invalid(cases[i].name);

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
		const char *why = netdev_name_invalid(cases[i].name);

		if (!cases[i].why) {
			assert_null(why);
		} else {
			assert_non_null(why);
			assert_non_null(strstr(why, cases[i].why));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rdma_names),
		cmocka_unit_test(netdev_names),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
