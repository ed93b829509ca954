// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for conf.c: parse, edit with comments kept, atomic save. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/conf.h"
#include "model/names.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_conf.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/etc/rdmactl/rxe.conf", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *text)
{
	char d[160];
	FILE *f;

	snprintf(d, sizeof(d), "%s/etc/rdmactl", dir);
	mkdir(dir, 0755);
	snprintf(d, sizeof(d), "%s/etc", dir);
	mkdir(d, 0755);
	snprintf(d, sizeof(d), "%s/etc/rdmactl", dir);
	mkdir(d, 0755);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_file(void)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void missing_file_is_empty(void **state)
{
	struct conf c;
	char err[256];

	(void)state;
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(c.n, 0);
	model_conf_free(&c);
}

static void parse_with_comments(void **state)
{
	struct conf c;
	char err[256];

	(void)state;
	write_file("# header\n\nrxe0 eth0   # the first\n\t rxe1\tveth1 \r\n#rxe9 x\n");
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.e[0].name, "rxe0");
	assert_string_equal(c.e[0].netdev, "eth0");
	assert_int_equal(c.e[0].line, 3);
	assert_string_equal(c.e[1].name, "rxe1");
	assert_string_equal(c.e[1].netdev, "veth1");
	assert_int_equal(c.e[1].line, 4);
	assert_null(model_conf_find(&c, "rxe9"));
	model_conf_free(&c);
}

static void malformed_lines_named(void **state)
{
	static const struct {
		const char *text;
		const char *err;
	} cases[] = {
		{ "rxe0\n", ":1: expected 'NAME NETDEV', found one word" },
		{ "# ok\nrxe0 eth0 extra\n", ":2: expected 'NAME NETDEV', found more than two words" },
		{ "rxe0 eth0\nrxe0 eth1\n", ":2: rxe0 is listed twice" },
		{ "rxe0 eth0\nbad", ":2: expected" },	/* no final newline */
		{ "rxe0 eth0\nrxe1 a-netdev-name-too-long\n",
		  ":2: 'a-netdev-name-too-long' is not a valid network device name: longer" },
		{ "rxe%d eth0\n", ":1: 'rxe%d' is not a valid RDMA device name: contains '%'" },
		{ "rxe0 eth0:1\n", ":1: 'eth0:1' is not a valid network device name: contains ':'" },
	};
	struct conf c;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(cases[i].text);
		assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), -EINVAL);
		assert_non_null(strstr(err, path));
		assert_non_null(strstr(err, cases[i].err));
		assert_int_equal(c.n, 0);	/* nothing half-loaded */
	}
}

static void binary_file_refused(void **state)
{
	struct conf c;
	char err[256];
	FILE *f;

	(void)state;
	write_file("");
	f = fopen(path, "w");
	fwrite("rxe0\0eth0\n", 1, 10, f);
	fclose(f);
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), -EINVAL);
	assert_non_null(strstr(err, "NUL"));
}

static void add_and_del_keep_comments(void **state)
{
	struct conf c;
	char err[256];

	(void)state;
	write_file("# keep me\nrxe0 eth0 # and me\n\nrxe1 eth1\n# tail\n");
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(model_conf_add(&c, "rxe2", "eth2"), 0);
	assert_int_equal(model_conf_add(&c, "rxe2", "eth2"), 1);	/* identical: no change */
	assert_int_equal(model_conf_add(&c, "rxe2", "eth9"), -EEXIST);
	assert_int_equal(model_conf_add(&c, "rxe3", "eth2"), -EBUSY);	/* eth2 has rxe2 */
	assert_int_equal(model_conf_del(&c, "eth1"), 1);		/* by netdev */
	assert_int_equal(model_conf_del(&c, "nosuch"), 0);
	assert_int_equal(model_conf_save(&c, path, NULL), 0);
	model_conf_free(&c);
	assert_string_equal(read_file(), "# keep me\nrxe0 eth0 # and me\n\n# tail\nrxe2 eth2\n");

	/* Line numbers follow the edits. */
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(model_conf_find(&c, "rxe2")->line, 5);
	assert_int_equal(model_conf_del(&c, "rxe0"), 1);
	assert_int_equal(model_conf_find(&c, "rxe2")->line, 4);
	model_conf_free(&c);
}

static void new_file_gets_header(void **state)
{
	char etc[160];
	struct conf c;
	char err[256];
	struct stat st;

	(void)state;
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(model_conf_add(&c, "rxe0", "ens4"), 0);
	/* No directory is made (persist_lock makes the default file's own). */
	assert_int_equal(model_conf_save(&c, path, NULL), -ENOENT);	/* etc/ missing */
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	assert_int_equal(mkdir(etc, 0755), 0);
	assert_int_equal(model_conf_save(&c, path, NULL), -ENOENT);	/* etc/rdmactl missing */
	snprintf(etc, sizeof(etc), "%s/etc/rdmactl", dir);
	assert_int_equal(mkdir(etc, 0755), 0);
	assert_int_equal(model_conf_save(&c, path, NULL), 0);
	model_conf_free(&c);
	assert_non_null(strstr(read_file(), "# rdmactl persistent rxe links"));
	assert_non_null(strstr(read_file(), "\nrxe0 ens4\n"));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
}

static void save_keeps_mode_and_leaves_no_temp(void **state)
{
	struct conf c;
	char err[256], cmd[256];

	(void)state;
	write_file("rxe0 eth0\n");
	chmod(path, 0600);
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(model_conf_add(&c, "rxe1", "eth1"), 0);
	assert_int_equal(model_conf_save(&c, path, NULL), 0);
	model_conf_free(&c);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(cmd, sizeof(cmd), "ls '%s/etc/rdmactl' | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);
}

/* A write that fails half-way (here RLIMIT_FSIZE, as a full disk would): old file kept. */
static void save_failure_leaves_old_file(void **state)
{
	struct rlimit old, small = { 16, 16 };
	struct conf c;
	char err[256], cmd[256];
	int ret;

	(void)state;
	write_file("rxe0 eth0\n");
	assert_int_equal(model_conf_load(path, &c, err, sizeof(err), NULL), 0);
	assert_int_equal(model_conf_add(&c, "rxe-with-a-long-name", "eth1"), 0);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);
	ret = model_conf_save(&c, path, NULL);
	setrlimit(RLIMIT_FSIZE, &old);
	model_conf_free(&c);
	assert_int_equal(ret, -EFBIG);
	assert_string_equal(read_file(), "rxe0 eth0\n");
	snprintf(cmd, sizeof(cmd), "ls '%s/etc/rdmactl' | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);	/* the temporary file is gone */
}

/*
 * Every name the checks let through is written and read back as it was: the
 * file's grammar and the names agree. Names drawn from every printable ASCII
 * byte (a fixed seed: a failure reproduces), lengths from 1 to the maximum.
 */
static void names_round_trip(void **state)
{
	unsigned int seed = 12345, kept = 0;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		char name[64], netdev[16], err[256];
		size_t nlen = 1 + rand_r(&seed) % 63, dlen = 1 + rand_r(&seed) % 15;
		struct conf c = { 0 }, back;
		size_t len;
		char *text;

		for (size_t i = 0; i < nlen; i++)
			name[i] = (char)(0x21 + rand_r(&seed) % 94);
		for (size_t i = 0; i < dlen; i++)
			netdev[i] = (char)(0x21 + rand_r(&seed) % 94);
		name[nlen] = netdev[dlen] = '\0';
		if (model_names_rdma_invalid(name) || model_names_conf_field_invalid(name) ||
		    model_names_netdev_invalid(netdev) || model_names_conf_field_invalid(netdev))
			continue;	/* refused at add time: never written */
		kept++;
		assert_int_equal(model_conf_add(&c, name, netdev), 0);
		text = model_conf_format(&c, &len);
		assert_non_null(text);
		assert_int_equal(model_conf_parse(text, len, "gen", &back, err, sizeof(err)), 0);
		assert_int_equal(back.n, 1);
		assert_string_equal(back.e[0].name, name);
		assert_string_equal(back.e[0].netdev, netdev);
		free(text);
		model_conf_free(&back);
		model_conf_free(&c);
	}
	assert_true(kept > 300);	/* enough names were written to mean something (~25%) */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(missing_file_is_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(parse_with_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_lines_named, setup, teardown),
		cmocka_unit_test_setup_teardown(binary_file_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(add_and_del_keep_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(new_file_gets_header, setup, teardown),
		cmocka_unit_test_setup_teardown(save_keeps_mode_and_leaves_no_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(save_failure_leaves_old_file, setup, teardown),
		cmocka_unit_test(names_round_trip),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("conf", tests, NULL, NULL);
}
