// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for gid.c: sysfs GID text and the addresses GIDs stand for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <strings.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/gid.h"

static void parse_and_format(void **state)
{
	static const struct {
		const char *text;
		const char *addr;	/* NULL: refused */
		bool v4, ll, zero;
	} cases[] = {
		{ "fe80:0000:0000:0000:0cf6:deff:feec:286f", "fe80::cf6:deff:feec:286f", false, true, false },
		{ "0000:0000:0000:0000:0000:ffff:0a0b:0bfb", "10.11.11.251", true, false, false },
		{ "2001:0db8:0011:0000:0000:0000:0000:0001", "2001:db8:11::1", false, false, false },
		{ "0000:0000:0000:0000:0000:0000:0000:0000", "::", false, false, true },
		{ "FE80:0000:0000:0000:0000:0000:0000:0001", "fe80::1", false, true, false },
		{ "febf:0000:0000:0000:0000:0000:0000:0001", "febf::1", false, true, false },
		{ "fec0:0000:0000:0000:0000:0000:0000:0001", "fec0::1", false, false, false },
		{ "fe80::1", NULL, false, false, false },					/* not sysfs form */
		{ "fe80:0000:0000:0000:0cf6:deff:feec:286", NULL, false, false, false },	/* short */
		{ "fe80:0000:0000:0000:0cf6:deff:feec:286f0", NULL, false, false, false },	/* long */
		{ "fe80-0000:0000:0000:0cf6:deff:feec:286f", NULL, false, false, false },	/* separator */
		{ "ge80:0000:0000:0000:0cf6:deff:feec:286f", NULL, false, false, false },	/* not hex */
		{ "", NULL, false, false, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t g[16];
		char back[GID_STR_LEN], addr[GID_ADDR_LEN];
		int err = model_gid_parse(cases[i].text, g);

		if (!cases[i].addr) {
			assert_int_equal(err, -EINVAL);
			continue;
		}
		assert_int_equal(err, 0);
		model_gid_to_sysfs(g, back);
		assert_true(strcasecmp(back, cases[i].text) == 0);
		model_gid_addr(g, addr, sizeof(addr));
		assert_string_equal(addr, cases[i].addr);
		assert_int_equal(model_gid_is_v4mapped(g), cases[i].v4);
		assert_int_equal(model_gid_is_link_local(g), cases[i].ll);
		assert_int_equal(model_gid_is_zero(g), cases[i].zero);
	}
}

static void wire_form(void **state)
{
	uint8_t g[16];
	char back[GID_STR_LEN];

	(void)state;
	assert_int_equal(model_gid_parse_hex("00000000000000000000ffff0a0b0bfb", g), 0);
	model_gid_to_sysfs(g, back);
	assert_string_equal(back, "0000:0000:0000:0000:0000:ffff:0a0b:0bfb");
	assert_int_equal(model_gid_parse_hex("FE800000000000000000000000000001", g), 0);
	assert_true(model_gid_is_link_local(g));
	assert_int_equal(model_gid_parse_hex("00000000000000000000ffff0a0b0bfg", g), -EINVAL);
	assert_int_equal(model_gid_parse_hex("0000000000000000000", g), -EINVAL);	/* short: NUL */
	assert_int_equal(model_gid_hex_digit('f'), 15);
	assert_int_equal(model_gid_hex_digit('G'), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_format),
		cmocka_unit_test(wire_form),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("gid", tests, NULL, NULL);
}
