// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for model/sys.c, the one handle a run reads the system
 * through, on a fixture captured in the test bed: its RDMA netlink opened
 * once, the netlink's device list read once and forgotten on asking, held
 * to the `rdma link` the bed captured beside it; its route netlink, live.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/nl.h"
#include "kernel/rtnl.h"
#include "model/sys.h"

/* tools/run-tests runs from the top of the tree; FIXTURES may say otherwise. */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "bats/fixtures", name);
	return path;
}

/* Whether the fixture's `rdma -j link` names a link DEV/1 on NETDEV. */
static bool oracle_has(const char *dev, const char *netdev)
{
	char path[600], want[200], buf[8192];
	char *at, *end;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/oracle/rdma-link.json", fixture("two-netdevs"));
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "\"ifname\":\"%s\",\"port\":1,", dev);
	at = strstr(buf, want);
	if (!at || !(end = strchr(at, '}')))
		return false;
	*end = '\0';	/* that link's object alone */
	snprintf(want, sizeof(want), "\"netdev\":\"%s\"", netdev);
	return strstr(at, want) != NULL;
}

static void fixture_is_not_live(void **state)
{
	struct model_sys s;

	(void)state;
	model_sys_init(&s, fixture("two-netdevs"));
	assert_false(model_sys_live(&s));
	assert_false(model_sys_src(&s).verbs);
	model_sys_close(&s);
	model_sys_init(&s, NULL);
	assert_true(model_sys_live(&s));
	assert_true(model_sys_src(&s).verbs);
	model_sys_close(&s);
}

static void rdma_opened_once(void **state)
{
	struct model_sys s;
	struct nl *a = NULL, *b = NULL;

	(void)state;
	model_sys_init(&s, fixture("two-netdevs"));
	assert_null(model_sys_src(&s).nl);
	assert_int_equal(model_sys_rdma(&s, &a), 0);
	assert_non_null(a);
	assert_int_equal(model_sys_rdma(&s, &b), 0);
	assert_ptr_equal(a, b);
	assert_ptr_equal(model_sys_src(&s).nl, a);
	/* A fixture has one namespace: any process's is the run's own. */
	assert_int_equal(model_sys_rdma_of(&s, 1, &b), 0);
	assert_ptr_equal(a, b);
	model_sys_close(&s);
}

static void no_recording_said(void **state)
{
	struct model_sys s;
	struct nl *nl = NULL;
	int err;

	(void)state;
	model_sys_init(&s, "/nonexistent");
	assert_int_equal(model_sys_rdma(&s, &nl), -ENOENT);
	assert_null(model_sys_devices_of(&s, 0, &err));
	assert_int_equal(err, -ENOENT);
	model_sys_close(&s);
}

static void devices_read_once(void **state)
{
	struct model_sys s;
	const struct model *m, *again;
	int err = 1;
	size_t n;

	(void)state;
	model_sys_init(&s, fixture("two-netdevs"));
	m = model_sys_devices_of(&s, 0, &err);
	assert_non_null(m);
	assert_int_equal(err, 0);
	assert_true(m->n > 0);
	for (size_t i = 0; i < m->n; i++) {
		assert_int_not_equal(m->devs[i].index, MODEL_NO_INDEX);
		assert_true(m->devs[i].nports > 0);
		assert_true(oracle_has(m->devs[i].name, m->devs[i].ports[0].netdev));
	}
	again = model_sys_devices_of(&s, 0, &err);
	assert_ptr_equal(m, again);
	n = m->n;
	/* Forgotten, read anew: the same devices. */
	model_sys_forget(&s);
	assert_false(s.devs[0].done);
	again = model_sys_devices_of(&s, 0, &err);
	assert_non_null(again);
	assert_true(s.devs[0].done);
	assert_int_equal(again->n, n);
	model_sys_close(&s);
}

/*
 * The route netlink: none on a fixture, which records no route; live, one
 * socket kept, which answers each request. Where the loopback is down (a
 * fresh namespace) the kernel answers 127.0.0.1 with ENETUNREACH: an answer
 * all the same.
 */
static void route_opened_once(void **state)
{
	struct model_sys s;
	struct nl *a = NULL, *b = NULL;
	char dev[IF_NAMESIZE];

	(void)state;
	model_sys_init(&s, fixture("two-netdevs"));
	assert_int_equal(model_sys_route(&s, &a), -EOPNOTSUPP);
	assert_null(a);
	model_sys_close(&s);
	model_sys_init(&s, NULL);
	assert_int_equal(model_sys_route(&s, &a), 0);
	assert_non_null(a);
	for (int i = 0; i < 2; i++) {
		int err = rtnl_route_dev(a, "127.0.0.1", dev);

		if (err != -ENETUNREACH) {
			assert_int_equal(err, 0);
			assert_string_equal(dev, "lo");
		}
		assert_int_equal(model_sys_route(&s, &b), 0);
		assert_ptr_equal(a, b);
	}
	assert_int_equal(rtnl_route_dev(a, "not an address", dev), -EINVAL);
	model_sys_close(&s);
	assert_null(s.route);
}

/*
 * model_sys_load: a netlink list through the handle's own socket; a sysfs
 * list of a fixture as sysfs has it, nothing merged (a fixture has one
 * namespace).
 */
static void load_through_the_handle(void **state)
{
	struct model_sys s;
	struct model nl = { 0 }, fs = { 0 };

	(void)state;
	model_sys_init(&s, fixture("two-netdevs"));
	assert_int_equal(model_sys_load(&s, NULL, (struct model_ask){ .source = MODEL_NETLINK },
					-1, &nl), 0);
	assert_non_null(s.rdma);
	assert_int_equal(model_sys_load(&s, NULL, (struct model_ask){ .source = MODEL_SYSFS }, 0,
					&fs), 0);
	assert_true(nl.n > 0);
	assert_int_equal(fs.n, nl.n);
	for (size_t i = 0; i < fs.n; i++) {
		assert_non_null(model_find(&nl, fs.devs[i].name));
		assert_false(fs.devs[i].here_known);
		assert_int_equal(fs.devs[i].index, MODEL_NO_INDEX);
	}
	model_free(&nl);
	model_free(&fs);
	assert_int_equal(model_sys_load(&s, "nosuchdev", (struct model_ask){ 0 }, 0, &fs),
			 -ENODEV);
	model_sys_close(&s);
}

/*
 * Live: each device sysfs lists has the netlink's facts merged when asked;
 * a host with none asks no netlink (which would load ib_core for it).
 */
static void live_merge(void **state)
{
	struct model_sys s;
	struct model m = { 0 };

	(void)state;
	model_sys_init(&s, NULL);
	assert_int_equal(model_sys_load(&s, NULL, (struct model_ask){ .ports = MODEL_PORTS_STATES },
					0, &m), 0);
	if (m.n == 0)
		assert_null(s.rdma);
	for (size_t i = 0; i < m.n; i++)
		if (m.devs[i].here_known && m.devs[i].here)
			assert_int_not_equal(m.devs[i].index, MODEL_NO_INDEX);
	model_free(&m);
	model_sys_close(&s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_is_not_live),
		cmocka_unit_test(rdma_opened_once),
		cmocka_unit_test(no_recording_said),
		cmocka_unit_test(devices_read_once),
		cmocka_unit_test(route_opened_once),
		cmocka_unit_test(load_through_the_handle),
		cmocka_unit_test(live_merge),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("sys", tests, NULL, NULL);
}
