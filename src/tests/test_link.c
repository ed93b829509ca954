// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the model's rxe selection: which devices del may touch. Hardware never. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/model.h"

/* Two rxe devices, a hardware RoCE device and one whose netdev is gone. */
static struct rdma_dev v[4];
static struct port ports[4];
static const struct model l = { v, 4 };

static void fill(struct rdma_dev *k, uint32_t idx, const char *name, const char *netdev,
		 const char *driver)
{
	struct port *p = &ports[k - v];

	memset(k, 0, sizeof(*k));
	memset(p, 0, sizeof(*p));
	k->index = idx;
	snprintf(k->name, sizeof(k->name), "%s", name);
	p->num = 1;
	snprintf(p->netdev, sizeof(p->netdev), "%s", netdev ? netdev : "");
	k->ports = p;
	k->nports = 1;
	snprintf(k->driver, sizeof(k->driver), "%s", driver);
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
	const struct rdma_dev *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(model_select_rxe(&l, "rxe1", NULL, t, &n, &bad), 0);
	assert_int_equal(model_select_rxe(&l, "rxe1", NULL, t, &n, &bad), 0);	/* twice: once */
	assert_int_equal(n, 1);
	assert_string_equal(t[0]->name, "rxe1");
	assert_int_equal(model_select_rxe(&l, "nosuch", NULL, t, &n, &bad), -ENODEV);
	assert_int_equal(n, 1);
}

static void hardware_refused(void **state)
{
	const struct rdma_dev *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(model_select_rxe(&l, "mlx5_0", NULL, t, &n, &bad), -EPERM);
	assert_non_null(bad);
	assert_string_equal(bad->driver, "mlx5_core");
	assert_int_equal(n, 0);
	/* Nor by its netdev: that netdev carries no rxe device. */
	assert_int_equal(model_select_rxe(&l, NULL, "ens1f0", t, &n, &bad), -ENODEV);
	assert_int_equal(n, 0);
}

static void all_is_rxe_only(void **state)
{
	const struct rdma_dev *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(model_select_rxe(&l, NULL, NULL, t, &n, &bad), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_true(model_dev_is_rxe(t[i]));
	/* An empty list: nothing to do, not an error. */
	struct model none = { NULL, 0 };
	n = 0;
	assert_int_equal(model_select_rxe(&none, NULL, NULL, t, &n, &bad), 0);
	assert_int_equal(n, 0);
}

static void by_netdev(void **state)
{
	const struct rdma_dev *t[4], *bad = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(model_select_rxe(&l, NULL, "veth0", t, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0]->name, "rxe0");
	assert_int_equal(model_select_rxe(&l, NULL, "veth9", t, &n, &bad), -ENODEV);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(by_name, setup),
		cmocka_unit_test_setup(hardware_refused, setup),
		cmocka_unit_test_setup(all_is_rxe_only, setup),
		cmocka_unit_test_setup(by_netdev, setup),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("link", tests, NULL, NULL);
}
