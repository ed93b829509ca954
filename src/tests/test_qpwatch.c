// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for diag/qpwatch.c, the one observer of QPs, on the fixtures
 * captured in the test bed (their sysfs and RDMA netlink): one reading
 * diagnosed, what could be resending counted, the one rule for QPs of a
 * device that stalled together.
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
#include "diag/qpwatch.h"

/* tools/run-tests runs from the top of the tree; FIXTURES may say otherwise. */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "bats/fixtures", name);
	return path;
}

/* The fixture NAME watched as check watches it (MS 0: one reading). */
static int watch(const char *name, unsigned int ms, bool diagnose, struct diag_qpwatch *w)
{
	struct model_src src = { .root = fixture(name) };
	char path[600];
	int err;

	model_netlink_recording(src.root, path, sizeof(path));
	assert_int_equal(nl_open_replay(path, &src.nl), 0);
	err = diag_qpwatch(&src, NULL, ms, diagnose, w);
	nl_close(src.nl);
	return err;
}

static size_t index_of(const struct diag_qpwatch *w, uint32_t qpn)
{
	for (size_t i = 0; i < w->now->qs.n; i++)
		if (w->now->qs.v[i].qpn == qpn && !strcmp(w->now->qs.v[i].dev, "rxe0"))
			return i;
	fail_msg("no QP %u on rxe0", qpn);
	return 0;
}

/* The three QPs qpfail left in ERR are the ones in trouble; read once, no resend is told. */
static void one_reading_diagnosed(void **state)
{
	struct diag_qpwatch w;

	(void)state;
	assert_int_equal(watch("qps-failed", 0, true, &w), 0);
	assert_null(w.before);
	assert_ptr_equal(w.now, &w.r[0]);
	assert_true(w.now->m_ok);
	assert_int_equal(w.now->qs.n, 7);
	assert_non_null(w.diag);
	assert_int_equal(w.diag[index_of(&w, 17)].trouble, DIAG_QPT_ERROR);
	assert_int_equal(w.diag[index_of(&w, 19)].trouble, DIAG_QPT_ERROR);
	assert_int_equal(w.diag[index_of(&w, 20)].trouble, DIAG_QPT_ERROR);
	assert_int_equal(w.diag[index_of(&w, 18)].trouble, DIAG_QPT_NONE);
	assert_int_equal(w.diag[index_of(&w, 21)].trouble, DIAG_QPT_NONE);
	/* The RNR counter the cause of QP 17 rests on, read from the fixture's port. */
	assert_string_equal(w.diag[index_of(&w, 17)].counter, "retry_rnr_exceeded_err");
	diag_qpwatch_mark(&w);
	assert_int_equal(w.now->qs.v[index_of(&w, 21)].resend, MODEL_QPR_UNTOLD);
	assert_int_equal(diag_qpwatch_stalled_on(&w, index_of(&w, 21)), 0);
	diag_qpwatch_free(&w);
	/* Nothing to diagnose asked, one reading: the ports are not read at all. */
	assert_int_equal(watch("qps-failed", 0, false, &w), 0);
	assert_null(w.diag);
	assert_false(w.now->m_ok);
	diag_qpwatch_free(&w);
}

/* Which RC QPs in RTS could be resending: the one with no peer on this host. */
static void could_resend(void **state)
{
	struct diag_qpwatch w;
	size_t rts;

	(void)state;
	assert_int_equal(watch("qps-failed", 0, false, &w), 0);
	assert_int_equal(diag_qpwatch_could_resend(&w.now->qs, 0, &rts), 1);	/* QP 21 */
	assert_int_equal(rts, 2);						/* 18 and 21 */
	assert_int_equal(diag_qpwatch_could_resend(&w.now->qs, 133, &rts), 1);
	assert_int_equal(rts, 1);
	assert_int_equal(diag_qpwatch_could_resend(&w.now->qs, 123, &rts), 0);
	assert_int_equal(rts, 1);
	diag_qpwatch_free(&w);
	/* A pair caught up owes nothing: no second look is taken for it. */
	assert_int_equal(watch("qps", 0, false, &w), 0);
	assert_int_equal(diag_qpwatch_could_resend(&w.now->qs, 0, &rts), 0);
	diag_qpwatch_free(&w);
}

/*
 * A second look: the fixture's netlink answers the same dump again, and its
 * ports' counters are the same, so QP 21, which could have been resending,
 * is told not to be; the QPs in ERR stay diagnosed as they were.
 */
static void second_reading_told(void **state)
{
	struct diag_qpwatch w;

	(void)state;
	assert_int_equal(watch("qps-failed", 1, false, &w), 0);
	assert_ptr_equal(w.before, &w.r[0]);
	assert_ptr_equal(w.now, &w.r[1]);
	assert_int_equal(w.now->qs.n, 7);
	assert_true(w.before->m_ok && w.now->m_ok);
	/* Two readings: diagnosed although no diagnosis was asked, as what tells a resend. */
	assert_non_null(w.diag);
	assert_int_equal(w.diag[index_of(&w, 17)].trouble, DIAG_QPT_ERROR);
	assert_int_equal(w.diag[index_of(&w, 21)].trouble, DIAG_QPT_NONE);
	diag_qpwatch_mark(&w);
	assert_int_equal(w.now->qs.v[index_of(&w, 21)].resend, MODEL_QPR_NO);
	assert_int_equal(w.now->qs.v[index_of(&w, 18)].resend, MODEL_QPR_NO);
	assert_string_equal(model_qp_verdict(&w.now->qs, index_of(&w, 21)), "ok");
	diag_qpwatch_free(&w);
}

static struct rdma_qp rc(const char *dev, uint32_t qpn, uint8_t state)
{
	struct rdma_qp q = { .qpn = qpn, .type = 2, .state = state, .peer = -1 };

	snprintf(q.dev, sizeof(q.dev), "%s", dev);
	return q;
}

/* The one stall rule: alone on its device a stall is told, with others it may be theirs. */
static void stalled_together(void **state)
{
	struct rdma_qp v[] = { rc("rxe0", 17, MODEL_QPS_RTS), rc("rxe0", 18, MODEL_QPS_RTS),
			       rc("rxe1", 17, MODEL_QPS_RTS), rc("rxe1", 19, MODEL_QPS_RTS),
			       rc("rxe1", 20, MODEL_QPS_ERR) };
	struct diag_qp diag[5] = { { .trouble = DIAG_QPT_STALLED },
					{ .trouble = DIAG_QPT_STALLED },
					{ .trouble = DIAG_QPT_STALLED },
					{ .trouble = DIAG_QPT_NONE },
					{ .trouble = DIAG_QPT_ERROR } };
	struct diag_qpwatch w = { .diag = diag };

	(void)state;
	w.r[1].qs.v = v;
	w.r[1].qs.n = 5;
	w.now = &w.r[1];
	/* One reading: nothing is marked, whatever the diagnosis. */
	diag_qpwatch_mark(&w);
	assert_int_equal(v[0].resend, MODEL_QPR_UNTOLD);
	w.before = &w.r[0];
	assert_int_equal(diag_qpwatch_stalled_on(&w, 0), 2);
	assert_int_equal(diag_qpwatch_stalled_on(&w, 2), 1);
	diag_qpwatch_mark(&w);
	assert_int_equal(v[0].resend, MODEL_QPR_MAYBE);
	assert_int_equal(v[1].resend, MODEL_QPR_MAYBE);
	assert_int_equal(v[2].resend, MODEL_QPR_YES);
	assert_int_equal(v[3].resend, MODEL_QPR_NO);
	assert_int_equal(v[4].resend, MODEL_QPR_UNTOLD);	/* not in RTS: not looked at */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_reading_diagnosed),
		cmocka_unit_test(could_resend),
		cmocka_unit_test(second_reading_told),
		cmocka_unit_test(stalled_together),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("qpwatch", tests, NULL, NULL);
}
