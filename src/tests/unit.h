/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every unit test's main shares: its first argument picks the tests to run. */
#ifndef RDMACTL_TESTS_UNIT_H
#define RDMACTL_TESTS_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* build/tests/test_X PATTERN runs only the tests PATTERN matches ('*' and '?'). */
static inline void unit_filter(int argc, char **argv)
{
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
}

#endif
