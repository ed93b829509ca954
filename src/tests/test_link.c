// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for link.c: which links del may touch. Hardware never. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/link.h"

/* Two rxe links, a hardware RoCE port and one whose netdev is gone. */
static struct rdma_link v[4];
static const struct link_list l = { v, 4 };

static void fill(struct rdma_link *k, uint32_t idx, const char *name, const char *netdev,
		 const char *driver)
{
	memset(k, 0, sizeof(*k));
	k->p.dev_index = idx;
	snprintf(k->p.dev_name, sizeof(k->p.dev_name), "%s", name);
	k->p.port = 1;
	k->p.has_netdev = netdev != NULL;
	snprintf(k->p.netdev, sizeof(k->p.netdev), "%s", netdev ? netdev : "");
	snprintf(k->driver, sizeof(k->driver), "%s", driver);
	k->is_rxe = !strcmp(driver, "rxe");
}

static int setup(void **state)
{
	(void)state;
	fill(&v[0], 0, "rxe0", "veth0", "rxe");
	fill(&v[1], 1, "mlx5_0", "ens1f0", "mlx5_core");
	fill(&v[2], 2, "rxe1", "veth1", "rxe");
	fill(&v[3], 3, "rxe2", NULL, "rxe");
	return 0;
}

static void by_name(void **state)
{
	const struct rdma_link *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(links_select(&l, "rxe1", NULL, t, &n, &bad), 0);
	assert_int_equal(links_select(&l, "rxe1", NULL, t, &n, &bad), 0);	/* twice: once */
	assert_int_equal(n, 1);
	assert_string_equal(t[0]->p.dev_name, "rxe1");
	assert_int_equal(links_select(&l, "nosuch", NULL, t, &n, &bad), -ENODEV);
	assert_int_equal(n, 1);
}

static void hardware_refused(void **state)
{
	const struct rdma_link *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(links_select(&l, "mlx5_0", NULL, t, &n, &bad), -EPERM);
	assert_non_null(bad);
	assert_string_equal(bad->driver, "mlx5_core");
	assert_int_equal(n, 0);
	/* Nor by its netdev: that netdev carries no rxe device. */
	assert_int_equal(links_select(&l, NULL, "ens1f0", t, &n, &bad), -ENODEV);
	assert_int_equal(n, 0);
}

static void all_is_rxe_only(void **state)
{
	const struct rdma_link *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(links_select(&l, NULL, NULL, t, &n, &bad), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_true(t[i]->is_rxe);
	/* An empty list: nothing to do, not an error. */
	struct link_list none = { NULL, 0 };
	n = 0;
	assert_int_equal(links_select(&none, NULL, NULL, t, &n, &bad), 0);
	assert_int_equal(n, 0);
}

static void by_netdev(void **state)
{
	const struct rdma_link *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(links_select(&l, NULL, "veth0", t, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0]->p.dev_name, "rxe0");
	assert_int_equal(links_select(&l, NULL, "veth9", t, &n, &bad), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(by_name, setup),
		cmocka_unit_test_setup(hardware_refused, setup),
		cmocka_unit_test_setup(all_is_rxe_only, setup),
		cmocka_unit_test_setup(by_netdev, setup),
	};

	return cmocka_run_group_tests_name("link", tests, NULL, NULL);
}
