// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for sysfs.c: reads below a root, trailing newlines, links, errors, what is no file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/safe.h"
#include "kernel/sysfs.h"

static char root[64];

/* ROOT/REL (one static buffer: use it before the next call). */
static const char *path_of(const char *rel)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return path;
}

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_sysfs.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/infiniband/rxe0/ports/1 "
		 "%s/sys/bus/drv && ln -s ../../bus/drv %s/sys/class/infiniband/rxe0/driver",
		 root, root, root);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void read_strips_newline(void **state)
{
	char buf[64];

	(void)state;
	put("/sys/class/infiniband/rxe0/node_type", "1: CA\n");
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/class/infiniband/%s/node_type",
				    "rxe0"), 5);
	assert_string_equal(buf, "1: CA");
	put("/sys/class/infiniband/rxe0/fw_ver", "\n");	/* rxe's empty firmware */
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/class/infiniband/rxe0/fw_ver"), 0);
	assert_string_equal(buf, "");
}

static void read_errors(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/nosuch"), -ENOENT);
	put("/sys/class/infiniband/rxe0/node_guid", "2093:c9ff:fef3:2783\n");
	/* Too long for the buffer: an error, never a silently cut value. */
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/class/infiniband/rxe0/node_guid"),
			 -EFBIG);
	/* And what is left in the buffer is a string, empty (fuzz_sysfs found it unterminated). */
	assert_string_equal(buf, "");
	assert_int_equal(sysfs_read(root, buf, 0, "/sys/class/infiniband/rxe0/node_guid"), -EINVAL);
	/* A directory, a FIFO: not regular files, refused at once (a FIFO is never waited on). */
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/class/infiniband"), -ENOTREG);
	assert_int_equal(mkfifo(path_of("/sys/class/infiniband/rxe0/fifo"), 0600), 0);
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/sys/class/infiniband/rxe0/fifo"),
			 -ENOTREG);
}

static void tree_check(void **state)
{
	char bad[256];
	mode_t type = 0;

	(void)state;
	put("/sys/class/infiniband/rxe0/node_type", "1: CA\n");
	assert_int_equal(sysfs_tree_check(root, bad, sizeof(bad), &type), 0);
	assert_int_equal(mkfifo(path_of("/sys/class/infiniband/rxe0/ports/1/state"), 0600), 0);
	assert_int_equal(sysfs_tree_check(root, bad, sizeof(bad), &type), -ENOTREG);
	assert_string_equal(bad, path_of("/sys/class/infiniband/rxe0/ports/1/state"));
	assert_int_equal(type, S_IFIFO);
}

static void exists_and_links(void **state)
{
	char buf[16];

	(void)state;
	assert_true(sysfs_exists(root, "/sys/class/infiniband/%s", "rxe0"));
	assert_false(sysfs_exists(root, "/sys/class/infiniband/%s", "rxe1"));
	assert_int_equal(sysfs_link_base(root, buf, sizeof(buf), "/sys/class/infiniband/rxe0/driver"), 3);
	assert_string_equal(buf, "drv");
	assert_int_equal(sysfs_link_base(root, buf, 3, "/sys/class/infiniband/rxe0/driver"), -EFBIG);
	assert_int_equal(sysfs_link_base(root, buf, sizeof(buf), "/sys/class/infiniband/rxe0/ports"),
			 -EINVAL);	/* not a link */
}

static void path_too_long(void **state)
{
	char buf[16], *big = malloc(5000);

	(void)state;
	memset(big, 'a', 4999);
	big[4999] = '\0';
	assert_int_equal(sysfs_read(root, buf, sizeof(buf), "/%s", big), -ENAMETOOLONG);
	assert_false(sysfs_exists(root, "/%s", big));
	free(big);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(read_strips_newline, setup, teardown),
		cmocka_unit_test_setup_teardown(read_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(exists_and_links, setup, teardown),
		cmocka_unit_test_setup_teardown(path_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(tree_check, setup, teardown),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("sysfs", tests, NULL, NULL);
}
