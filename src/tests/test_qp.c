// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for model/qp.c: peers found where each QP names the other, never
 * guessed; a QP's trouble told from its state, its peer's, its port's counters
 * and, over two readings, whether it made progress.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/qp.h"
#include "diag/qpdiag.h"

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
	struct model_qps q = { .v = v, .n = sizeof(v) / sizeof(v[0]) };

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
	struct model_qps q = { .v = v, .n = sizeof(v) / sizeof(v[0]) };

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
	struct model_qps q = { .v = v, .n = 3 };

	(void)state;
	v[1].has_rqpn = false;	/* UD, or a QP the kernel gave no peer */
	v[2].has_rqpn = false;
	model_qp_find_peers(&q);
	assert_int_equal(v[0].peer, -1);
	assert_int_equal(v[1].peer, -1);
	assert_int_equal(v[2].peer, -1);
}

/* An RC pair on rxe0 (17 sends to 18), A's state SA and B's SB, both PSNs at 100. */
static void pair_of(struct rdma_qp v[2], uint8_t sa, uint8_t sb)
{
	struct model_qps q = { .v = v, .n = 2 };

	v[0] = qp("rxe0", 17, 18);
	v[1] = qp("rxe0", 18, 17);
	v[0].state = sa;
	v[1].state = sb;
	for (int i = 0; i < 2; i++) {
		v[i].port = 1;
		v[i].pid = 40;
		snprintf(v[i].comm, sizeof(v[i].comm), "prog");
		v[i].has_sq_psn = v[i].has_rq_psn = true;
		v[i].sq_psn = v[i].rq_psn = 100;
	}
	model_qp_find_peers(&q);
}

static const struct diag_qp_port active = { .known = true, .active = true, .resent = -1 };

/* One RNR counted on a device, two QPs in ERR whose peers are not: it is one's, not both's. */
static void counter_shared(void **state)
{
	struct rdma_qp v[4];
	struct model_qps q = { .v = v, .n = 4 };
	struct diag_qp_port f = active;
	struct diag_qp d[4];

	(void)state;
	pair_of(v, MODEL_QPS_ERR, MODEL_QPS_RTS);
	pair_of(v + 2, MODEL_QPS_ERR, MODEL_QPS_RTS);
	v[2].qpn = 19, v[2].rqpn = 20, v[3].qpn = 20, v[3].rqpn = 19;
	model_qp_find_peers(&q);
	for (uint64_t counted = 1; counted <= 2; counted++) {
		f.rnr_exceeded = (int64_t)counted;
		for (size_t i = 0; i < 4; i++)
			diag_qp_diagnose(&q, i, NULL, &f, &d[i]);
		diag_qp_apportion(&q, d);
		for (size_t i = 0; i < 4; i += 2) {
			assert_non_null(strstr(d[i].cause, "RNR retries ran out"));
			assert_false(d[i].sure);
			if (counted == 1)
				assert_non_null(strstr(d[i].evidence, "retry_rnr_exceeded_err is 1 on rxe0, "
						       "which counts fewer than the 2 QPs in ERR of rxe0 it "
						       "would explain: it may be another's"));
			else
				assert_null(strstr(d[i].evidence, "another's"));
		}
		/* The receivers, in RTS, rest on no counter. */
		assert_null(d[1].counter);
	}
}

static void error_causes(void **state)
{
	struct rdma_qp v[2];
	struct model_qps q = { .v = v, .n = 2 };
	struct diag_qp_port f = active;
	struct diag_qp d;

	(void)state;
	/* The port down: certain, whatever else. */
	pair_of(v, MODEL_QPS_ERR, MODEL_QPS_RTS);
	f.active = false;
	f.rnr_exceeded = 3;
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_ERROR);
	assert_true(d.sure);
	assert_non_null(strstr(d.cause, "port went down"));
	assert_string_equal(d.evidence, "port 1 of rxe0 is not ACTIVE");

	/* RNR: the peer fine, the RNR counter moved. */
	f = active;
	f.rnr_exceeded = 1;
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_false(d.sure);
	assert_non_null(strstr(d.cause, "RNR retries ran out"));
	assert_string_equal(d.evidence, "its peer QP 18 of 40 (prog) is in RTS; "
			    "retry_rnr_exceeded_err is 1 on rxe0");
	/* ... but not when both ends are in ERR: that is no RNR. */
	pair_of(v, MODEL_QPS_ERR, MODEL_QPS_ERR);
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_non_null(strstr(d.cause, "remote access error"));

	/* Both in ERR, nothing counted: remote access, told by no counter. */
	f = active;
	diag_qp_diagnose(&q, 1, NULL, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_ERROR);
	assert_non_null(strstr(d.cause, "remote access error"));
	assert_string_equal(d.evidence, "its peer QP 17 of 40 (prog) is in ERR; RNR and unanswered "
			    "requests leave the receiver in RTS; rxe counts remote access errors "
			    "nowhere");

	/*
	 * One end in ERR with its peer in RTS still sending it a PSN it never
	 * took: the peer's request failed there, unNAKed (5.10's wrong rkey),
	 * whatever the device's counters say of other QPs.
	 */
	pair_of(v, MODEL_QPS_RTS, MODEL_QPS_ERR);
	v[0].sq_psn = 101;
	f.rnr_exceeded = 1;
	diag_qp_diagnose(&q, 1, NULL, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_ERROR);
	assert_non_null(strstr(d.cause, "a request its peer sent it failed here"));
	assert_string_equal(d.evidence, "its peer QP 17 of 40 (prog) is in RTS; this one still "
			    "expects PSN 100 where the peer sends 101");
	assert_string_equal(d.fix, "hold the rkey, address and length the peer's program sends "
			    "against this QP's MR and its access flags (IBV_ACCESS_REMOTE_WRITE, "
			    "_READ); 'rdmactl capture rxe0 --qp 17' shows the request RESENT and "
			    "nothing back");
	/* ... not when the one in ERR owes its peer too: its own send failed (RNR here). */
	v[1].sq_psn = 101;
	diag_qp_diagnose(&q, 1, NULL, &f, &d);
	assert_non_null(strstr(d.cause, "RNR retries ran out"));
	f = active;

	/* One end in ERR, nothing counted: a local error (the GID's address gone). */
	pair_of(v, MODEL_QPS_ERR, MODEL_QPS_RTS);
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_non_null(strstr(d.cause, "local error"));
	assert_string_equal(d.evidence, "its peer QP 18 of 40 (prog) is in RTS; rxe0 counts no "
			    "RNR, exhausted retries or port down");
	/* ... unless the port went down and came back meanwhile. */
	f.link_downed = 1;
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_non_null(strstr(d.cause, "went down and came back"));

	/* No peer here, retries exhausted; SQE is trouble too. */
	f = active;
	f.retry_exceeded = 2;
	v[0].rqpn = 99;
	v[0].peer = -1;
	v[0].state = MODEL_QPS_SQE;
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_non_null(strstr(d.cause, "transport retries ran out"));
	assert_string_equal(d.evidence, "its peer QP 99 is on no device of this host; "
			    "retry_exceeded_err is 2 on rxe0");

	/* Healthy states are no trouble. */
	pair_of(v, MODEL_QPS_RTS, MODEL_QPS_INIT);
	diag_qp_diagnose(&q, 0, NULL, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
}

static void resending(void **state)
{
	struct rdma_qp v[2], w[2];
	struct model_qps now = { .v = v, .n = 2 }, before = { .v = w, .n = 2 };
	struct diag_qp_port f = active;
	struct diag_qp d;

	(void)state;
	/* A pair caught up (17's next PSN is what 18 expects): fine, whatever the port resent. */
	pair_of(v, MODEL_QPS_RTS, MODEL_QPS_RTS);
	pair_of(w, MODEL_QPS_RTS, MODEL_QPS_RTS);
	f.resent = 15;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);

	/* 17 owes 18 packets that 18 never takes in: stalled. */
	now.v[0].sq_psn = before.v[0].sq_psn = 103;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_STALLED);
	assert_string_equal(d.evidence, "rxe0 resent 15 times meanwhile; its peer QP 18 of "
			    "40 (prog), in RTS, still expects PSN 100 where it sends 103; rxe0 "
			    "counts no out-of-sequence request, which PSNs that do not match make");
	/* On one device no firewall stands between them: a GID, as rxe counted no NAK ... */
	assert_non_null(strstr(d.cause, "peer on the same device was given another GID"));
	assert_null(strstr(d.fix, "firewall"));
	assert_non_null(strstr(d.fix, "; 'rdmactl capture rxe0 --qp 17' shows its requests "
			       "RESENT and nothing back, no NAK at all"));
	/* ... or PSNs that do not match, where it did. */
	f.out_of_seq = 1;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_non_null(strstr(d.cause, "expects a PSN it does not send"));
	assert_string_equal(d.evidence, "rxe0 resent 15 times meanwhile; its peer QP 18 of "
			    "40 (prog), in RTS, still expects PSN 100 where it sends 103; rxe0 "
			    "counts 1 out-of-sequence request");
	assert_non_null(strstr(d.fix, "give each QP's RTR the sq_psn its peer's RTS has; "));
	assert_non_null(strstr(d.fix, "the one NAK (PSN sequence error) at the first of them"));
	f.out_of_seq = 0;
	/* Between two devices, a firewall or the namespaces; capture on the netdev. */
	snprintf(now.v[1].dev, sizeof(now.v[1].dev), "rxe1");
	snprintf(before.v[1].dev, sizeof(before.v[1].dev), "rxe1");
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_STALLED);
	assert_non_null(strstr(d.cause, "do not reach its peer"));
	assert_non_null(strstr(d.fix, "'rdmactl check --only firewall,netns' in both namespaces; "
			       "'rdmactl capture rxe0 --qp 17' (in its network namespace)"));
	/* A peer in ERR takes nothing in: the sender resends to it for ever. */
	now.v[1].state = MODEL_QPS_ERR;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_STALLED);
	assert_non_null(strstr(d.cause, "is in ERR, where it takes in nothing"));
	assert_string_equal(d.fix, "'rdmactl check' names the peer's cause; the program must time "
			    "out its waits and destroy both QPs (or bring the peer through RESET "
			    "again); 'rdmactl capture rxe0 --qp 17' shows its requests RESENT and "
			    "nothing back");
	/* One not yet ready (INIT) is told to be brought to RTR. */
	now.v[1].state = MODEL_QPS_INIT;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_non_null(strstr(d.cause, "takes in nothing in its state"));
	assert_non_null(strstr(d.fix, "bring its peer QP to RTR"));
	now.v[1].state = MODEL_QPS_RTS;
	snprintf(now.v[1].dev, sizeof(now.v[1].dev), "rxe0");
	snprintf(before.v[1].dev, sizeof(before.v[1].dev), "rxe0");
	/* ... but not when 18 took some in meanwhile (a loaded link losing a few). */
	before.v[1].rq_psn = 90;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
	/* ... nor when the port resent nothing, or there is one reading. */
	before.v[1].rq_psn = 100;
	f.resent = 0;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
	f.resent = 15;
	diag_qp_diagnose(&now, 0, NULL, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);

	/* The peer destroyed: 17 alone, receiving nothing, while the port resends. */
	now.n = before.n = 1;
	now.v[0].peer = before.v[0].peer = -1;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_STALLED);
	assert_non_null(strstr(d.cause, "peer QP is gone"));
	assert_string_equal(d.evidence, "rxe0 resent 15 times meanwhile; its peer QP 18 is on no "
			    "device of this host");
	/* ... but one that received meanwhile has a peer that talks to it. */
	now.v[0].rq_psn = 120;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
	/* ... and a QP made during the interval is not judged. */
	now.v[0].rq_psn = 100;
	before.v[0].qpn = 30;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
	/* PSNs wrap at 24 bits. */
	pair_of(v, MODEL_QPS_RTS, MODEL_QPS_RTS);
	pair_of(w, MODEL_QPS_RTS, MODEL_QPS_RTS);
	now.n = before.n = 2;
	now.v[0].sq_psn = before.v[0].sq_psn = 0x1000000 + 100;
	diag_qp_diagnose(&now, 0, &before, &f, &d);
	assert_int_equal(d.trouble, DIAG_QPT_NONE);
}

static void owes(void **state)
{
	struct rdma_qp v[2];
	struct model_qps q = { .v = v, .n = 2 };

	(void)state;
	pair_of(v, MODEL_QPS_RTS, MODEL_QPS_RTS);
	assert_int_equal(model_qp_owes(&q, 0), 0);
	/* 17 sent past what 18 took in; PSNs wrap at 24 bits. */
	q.v[0].sq_psn = 101;
	assert_int_equal(model_qp_owes(&q, 0), 1);
	q.v[0].sq_psn = 100 + (1u << 24);
	assert_int_equal(model_qp_owes(&q, 0), 0);
	/* A PSN not known, or no peer here: cannot be told. */
	q.v[1].has_rq_psn = false;
	assert_int_equal(model_qp_owes(&q, 0), -1);
	q.v[1].has_rq_psn = true;
	q.v[0].peer = -1;
	assert_int_equal(model_qp_owes(&q, 0), -1);
	/* Only an RC QP in RTS owes anything. */
	q.v[0].state = MODEL_QPS_ERR;
	assert_int_equal(model_qp_owes(&q, 0), 0);
	q.v[0].state = MODEL_QPS_RTS;
	q.v[0].type = 4;
	assert_int_equal(model_qp_owes(&q, 0), 0);
}

static void port_facts(void **state)
{
	struct counter a[] = { { "completer_retry_err", 10 }, { "retry_rnr_exceeded_err", 2 },
			       { "link_downed", 1 } };
	struct counter b[] = { { "completer_retry_err", 25 }, { "retry_rnr_exceeded_err", 2 },
			       { "link_downed", 1 }, { "retry_exceeded_err", 4 },
			       { "out_of_sequence", 3 } };	/* its older kernels' name */
	struct port before = { .num = 1, .state = 4, .counters_known = true, .counters = a,
			       .ncounters = 3 };
	struct port now = { .num = 1, .state = 1, .counters_known = true, .counters = b,
			    .ncounters = 5 };
	struct diag_qp_port f;

	(void)state;
	diag_qp_facts(&now, &before, &f);
	assert_true(f.known);
	assert_false(f.active);
	assert_int_equal(f.rnr_exceeded, 2);
	assert_int_equal(f.retry_exceeded, 4);
	assert_int_equal(f.link_downed, 1);
	assert_int_equal(f.out_of_seq, 3);
	assert_int_equal(f.resent, 15);
	diag_qp_facts(&before, &now, &f);	/* a counter reset between: no rise */
	assert_int_equal(f.resent, 0);
	diag_qp_facts(&now, NULL, &f);
	assert_int_equal(f.resent, -1);
	diag_qp_facts(NULL, NULL, &f);
	assert_false(f.known);
}

static void owner(void **state)
{
	struct rdma_qp q = qp("rxe0", 1, 0);
	char buf[64];

	(void)state;
	assert_string_equal(model_qp_owner(&q, buf, sizeof(buf)), "the kernel's own");
	snprintf(q.comm, sizeof(q.comm), "ib_core");
	assert_string_equal(model_qp_owner(&q, buf, sizeof(buf)), "the kernel's ib_core");
	q.pid = 7;
	assert_string_equal(model_qp_owner(&q, buf, sizeof(buf)), "7 (ib_core)");
	q.comm[0] = '\0';
	assert_string_equal(model_qp_owner(&q, buf, sizeof(buf)), "7");
}

/* A QP in error named from the reading, the probes' sight of it made filling in what it lacks. */
static void named(void **state)
{
	struct rdma_qp read = qp("rxe0", 17, 0), made = { .qpn = 17, .pid = 605, .peer = -1 }, buf;
	const struct rdma_qp *n;
	char who[64];

	(void)state;
	snprintf(made.comm, sizeof(made.comm), "qpfail");
	/* Its owner gone before the reading read its command: the probes' command. */
	read.pid = 605;
	read.owner_ended = true;
	n = model_qp_named(&read, &made, 17, &buf);
	assert_ptr_equal(n, &buf);
	assert_string_equal(n->dev, "rxe0");
	assert_string_equal(model_qp_owner(n, who, sizeof(who)), "605 (qpfail)");
	/* Read whole: the reading's. */
	snprintf(read.comm, sizeof(read.comm), "other");
	assert_ptr_equal(model_qp_named(&read, &made, 17, &buf), &read);
	/* Another process's QP of that number, or another QP of the slot: nothing taken. */
	read.comm[0] = '\0';
	read.pid = 606;
	assert_ptr_equal(model_qp_named(&read, &made, 17, &buf), &read);
	read.pid = 605;
	assert_ptr_equal(model_qp_named(&read, &made, 18, &buf), &read);
	/* The kernel's own QP is named by the reading alone. */
	read.pid = 0;
	assert_ptr_equal(model_qp_named(&read, &made, 17, &buf), &read);
	/* No reading had it: as made, when it is that QP; else nothing. */
	assert_ptr_equal(model_qp_named(NULL, &made, 17, &buf), &made);
	assert_null(model_qp_named(NULL, &made, 18, &buf));
	assert_null(model_qp_named(NULL, NULL, 17, &buf));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peers),
		cmocka_unit_test(across_devices_only_when_one),
		cmocka_unit_test(no_peer_without_one),
		cmocka_unit_test(error_causes),
		cmocka_unit_test(counter_shared),
		cmocka_unit_test(resending),
		cmocka_unit_test(owes),
		cmocka_unit_test(port_facts),
		cmocka_unit_test(owner),
		cmocka_unit_test(named),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("qp", tests, NULL, NULL);
}
