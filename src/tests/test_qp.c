// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for model/qp.c: peers found where each QP names the other, never guessed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/qp.h"

static struct rdma_qp qp(const char *dev, uint32_t qpn, uint32_t rqpn)
{
	struct rdma_qp q = { .qpn = qpn, .rqpn = rqpn, .has_rqpn = true, .type = 2, .peer = -1 };

	snprintf(q.dev, sizeof(q.dev), "%s", dev);
	return q;
}

static void peers(void **state)
{
	struct rdma_qp v[] = {
		qp("rxe0", 17, 18), qp("rxe0", 18, 17),	/* a pair on one device */
		qp("rxe1", 17, 18), qp("rxe1", 18, 17),	/* the same numbers on another */
		qp("rxe0", 19, 40),			/* its peer is elsewhere */
	};
	struct model_qps q = { v, sizeof(v) / sizeof(v[0]) };

	(void)state;
	model_qp_find_peers(&q);
	assert_int_equal(v[0].peer, 1);
	assert_int_equal(v[1].peer, 0);
	assert_int_equal(v[2].peer, 3);
	assert_int_equal(v[3].peer, 2);
	assert_int_equal(v[4].peer, -1);
}

static void across_devices_only_when_one(void **state)
{
	struct rdma_qp v[] = {
		qp("rxe0", 17, 17), qp("rxe1", 17, 17),	/* rxe0 to rxe1 across the veth */
		qp("rxe0", 20, 21), qp("rxe1", 21, 20), qp("rxe2", 21, 20),	/* two would do */
	};
	struct model_qps q = { v, sizeof(v) / sizeof(v[0]) };

	(void)state;
	model_qp_find_peers(&q);
	assert_int_equal(v[0].peer, 1);
	assert_int_equal(v[1].peer, 0);
	assert_int_equal(v[2].peer, -1);	/* rxe1's or rxe2's: not guessed */
	assert_int_equal(v[3].peer, 2);
	assert_int_equal(v[4].peer, 2);
}

static void no_peer_without_one(void **state)
{
	struct rdma_qp v[] = { qp("rxe0", 17, 18), qp("rxe0", 18, 17), qp("rxe0", 1, 0) };
	struct model_qps q = { v, 3 };

	(void)state;
	v[1].has_rqpn = false;	/* UD, or a QP the kernel gave no peer */
	v[2].has_rqpn = false;
	model_qp_find_peers(&q);
	assert_int_equal(v[0].peer, -1);
	assert_int_equal(v[1].peer, -1);
	assert_int_equal(v[2].peer, -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peers),
		cmocka_unit_test(across_devices_only_when_one),
		cmocka_unit_test(no_peer_without_one),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("qp", tests, NULL, NULL);
}
