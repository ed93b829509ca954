// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for diag/phrases.c: which phrases a text holds, in one pass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "diag/phrases.h"

static struct diag_phrases *set;

static int make(void **state)
{
	static const char *const words[] = { "he", "she", "his", "hers", "to rtr", "status 0",
					     "", NULL };

	(void)state;
	set = diag_phrases_new();
	for (unsigned i = 0; words[i]; i++)
		if (diag_phrases_add(set, words[i], i))
			return -1;
	/* Two ids for one phrase. */
	if (diag_phrases_add(set, "hers", 7))
		return -1;
	return diag_phrases_build(set);
}

static int unmake(void **state)
{
	(void)state;
	diag_phrases_free(set);
	return 0;
}

/* The ids TEXT holds, as a bitmap in one byte. */
static unsigned ids(const char *text)
{
	unsigned char hits[2] = { 0 };

	diag_phrases_scan(set, text, strlen(text), hits);
	return hits[0];
}

static void overlaps_and_suffixes(void **state)
{
	(void)state;
	/* "ushers": she, he (a suffix of she) and hers, each found. */
	assert_int_equal(ids("ushers"), 1u << 0 | 1u << 1 | 1u << 3 | 1u << 7);
	assert_int_equal(ids("this"), 1u << 2);
	assert_int_equal(ids("h e"), 0);
	assert_int_equal(ids(""), 0);
	assert_false(diag_phrases_scan(set, "xyz", 3, (unsigned char[2]){ 0 }));
}

static void text_as_phrases_are_written(void **state)
{
	(void)state;
	/* Any case, a run of white space one space. */
	assert_int_equal(ids("Failed to modify QP To \t  RTR"), 1u << 4);
	assert_int_equal(ids("TORTR"), 0);
	/* A digit stands for any digit. */
	assert_int_equal(ids("status 12"), 1u << 5);
	assert_int_equal(ids("status x"), 0);
	/* Only the bytes given: a phrase past LEN is not seen. */
	{
		unsigned char hits[2] = { 0 };

		assert_false(diag_phrases_scan(set, "ushers", 1, hits));
	}
}

static void refused(void **state)
{
	struct diag_phrases *p = diag_phrases_new();

	(void)state;
	assert_int_equal(diag_phrases_build(p), 0);
	/* Built once; an empty set finds nothing. */
	assert_int_equal(diag_phrases_build(p), -EINVAL);
	assert_false(diag_phrases_scan(p, "he", 2, (unsigned char[1]){ 0 }));
	diag_phrases_free(p);
	diag_phrases_free(NULL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overlaps_and_suffixes),
		cmocka_unit_test(text_as_phrases_are_written),
		cmocka_unit_test(refused),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("phrases", tests, make, unmake);
}
