// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for model.c on the fixture trees captured in the test bed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/gid.h"
#include "model/model.h"

/* tools/run-tests runs from the top of the tree; FIXTURES may say otherwise. */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "bats/fixtures", name);
	return path;
}

static void two_netdevs(void **state)
{
	struct model m;
	const struct port *p;

	(void)state;
	assert_int_equal(model_load(fixture("two-netdevs"), NULL, MODEL_GIDS | MODEL_COUNTERS, &m), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.devs[0].name, "rxe0");
	assert_string_equal(m.devs[1].name, "rxe1");
	assert_string_equal(m.devs[0].driver, "rxe");
	assert_string_equal(m.devs[0].node_type, "ca");
	assert_string_equal(m.devs[0].netdev, "veth0");
	assert_string_equal(m.devs[0].uverbs, "uverbs0");
	assert_string_equal(m.devs[0].fw_ver, "");
	assert_int_equal(m.devs[0].nports, 1);
	p = &m.devs[0].ports[0];
	assert_int_equal(p->num, 1);
	assert_string_equal(ib_port_state_name(p->state), "ACTIVE");
	assert_string_equal(ib_phys_state_name(p->phys_state), "LINK_UP");
	assert_string_equal(p->link_layer, "Ethernet");
	assert_string_equal(p->width, "1X");
	assert_true(p->speed_gbps == 10.0);
	assert_int_equal(p->gid_tbl_len, 1024);
	assert_int_equal(p->pkey_tbl_len, 1);
	/* Occupied slots only: fe80::, two IPv4 and one IPv6 on veth0. */
	assert_int_equal(p->ngids, 4);
	for (size_t i = 0; i < p->ngids; i++) {
		assert_int_equal(p->gids[i].index, i);
		assert_string_equal(p->gids[i].type, "RoCE v2");
		assert_string_equal(p->gids[i].netdev, "veth0");
	}
	assert_true(gid_is_link_local(p->gids[0].raw));
	assert_int_equal(port_ipv4_gid_index(p, "veth0"), 1);
	assert_int_equal(port_ipv4_gid_index(p, NULL), 1);
	assert_int_equal(port_ipv4_gid_index(p, "veth1"), -1);
	assert_true(p->ncounters >= 10);
	model_free(&m);
}

static void all_slots(void **state)
{
	struct model m;
	const struct port *p;

	(void)state;
	assert_int_equal(model_load(fixture("two-netdevs"), "rxe1", MODEL_ALL_GIDS, &m), 0);
	assert_int_equal(m.n, 1);
	p = &m.devs[0].ports[0];
	assert_int_equal(p->ngids, 1024);
	/* Empty slots have no attributes: the kernel refuses them (EINVAL). */
	assert_true(p->gids[1023].empty);
	assert_string_equal(p->gids[1023].type, "");
	assert_int_equal(p->gids[1023].index, 1023);
	assert_false(p->gids[2].empty);
	assert_null(p->counters);
	model_free(&m);
}

static void no_rdma_and_unknown(void **state)
{
	struct model m;

	(void)state;
	assert_int_equal(model_load(fixture("no-rdma"), NULL, MODEL_GIDS, &m), 0);
	assert_int_equal(m.n, 0);
	model_free(&m);
	assert_int_equal(model_load(fixture("no-rdma"), "rxe0", 0, &m), -ENODEV);
	assert_int_equal(model_load(fixture("two-netdevs"), "rxe9", 0, &m), -ENODEV);
	assert_int_equal(model_load("/nonexistent", NULL, 0, &m), 0);
	assert_int_equal(m.n, 0);
}

static void state_names(void **state)
{
	(void)state;
	assert_string_equal(ib_port_state_name(1), "DOWN");
	assert_string_equal(ib_port_state_name(255), "UNKNOWN");
	assert_string_equal(ib_phys_state_name(3), "DISABLED");
	assert_string_equal(ib_phys_state_name(8), "UNKNOWN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_netdevs),
		cmocka_unit_test(all_slots),
		cmocka_unit_test(no_rdma_and_unknown),
		cmocka_unit_test(state_names),
	};

	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
