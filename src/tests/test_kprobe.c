// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of kernel/kprobe.c where no probe can be had: a function the
 * kernel does not have, or a caller without the rights, is refused with
 * the errno the monitor tells apart, and nothing is left open.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel/kprobe.h"

/* The lowest descriptor free: a descriptor left open moves it. */
static int lowest_free(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	close(fd);
	return fd;
}

static void no_such_function(void **state)
{
	static const char *const f[] = { "rdmactl_no_such_function_here" };
	struct kprobe_bell *b = (struct kprobe_bell *)1;
	int before = lowest_free(), err;

	(void)state;
	err = kprobe_bell_open(&b, "rdmactl_no_such_module", f, 1);
	/* Root: the function is not there; a user: no rights; a kernel without kprobes. */
	assert_true(err == -ENOENT || err == -EACCES || err == -ENODEV);
	assert_null(b);
	assert_int_equal(lowest_free(), before);
}

static void nothing_asked(void **state)
{
	struct kprobe_bell *b;

	(void)state;
	assert_int_equal(kprobe_bell_open(&b, NULL, NULL, 0), -EINVAL);
	assert_null(b);
	/* The calls a monitor makes with no bell are harmless. */
	assert_int_equal(kprobe_bell_fd(NULL), -1);
	assert_false(kprobe_bell_drain(NULL));
	assert_false(kprobe_bell_stale(NULL));
	kprobe_bell_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_such_function),
		cmocka_unit_test(nothing_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
