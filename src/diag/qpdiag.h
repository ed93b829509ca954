/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A live QP's trouble told from its state, its peer's on this host and its
 * port's counters, over one reading or two: the likeliest cause, what it
 * rests on and the fix, as check's qps and monitor say it.
 */
#ifndef RDMACTL_DIAG_QPDIAG_H
#define RDMACTL_DIAG_QPDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/qp.h"

/* What a QP's port shows that tells its trouble apart, from one or two readings. */
struct diag_qp_port {
	bool known;		/* the port was read; else the rest is 0 */
	bool active;		/* its state is ACTIVE */
	uint64_t rnr_exceeded;	/* retry_rnr_exceeded_err */
	uint64_t retry_exceeded;	/* retry_exceeded_err */
	uint64_t link_downed;
	uint64_t out_of_seq;	/* out_of_seq_request: PSN sequence error NAKs sent */
	int64_t resent;		/* completer_retry_err's rise between two readings; -1: one reading */
};

/* QP Q's port in M, or NULL when M (NULL: not read) has not its device or port. */
const struct port *diag_qp_port(const struct model *m, const struct rdma_qp *q);
/* NOW's facts, and BEFORE's (NULL: one reading) for the rise of completer_retry_err. */
void diag_qp_facts(const struct port *now, const struct port *before,
			 struct diag_qp_port *f);
/*
 * The same, worked out once a pair of ports: M keeps the last pair asked
 * for, and a dump brings a port's QPs together (zero M before the first).
 */
struct diag_qp_memo {
	bool set;
	const struct port *now, *before;
	struct diag_qp_port f;
};
const struct diag_qp_port *diag_qp_facts_memo(struct diag_qp_memo *m,
						     const struct port *now,
						     const struct port *before);

enum diag_qp_trouble {
	DIAG_QPT_NONE,
	DIAG_QPT_ERROR,	/* in ERR or SQE */
	DIAG_QPT_STALLED,	/* an RC QP in RTS resending with no answer */
};

/* A QP's trouble: its most likely cause, what that rests on, and the fix. */
struct diag_qp {
	enum diag_qp_trouble trouble;
	bool sure;		/* the evidence leaves no other cause */
	const char *cause;
	char evidence[320];
	char fix[400];
	/* The device counter the cause rests on, and its value (0: none). */
	const char *counter;
	uint64_t counted;
};

/*
 * A device counter explains as many QPs as it counts: where more of one
 * device's QPs in DIAG[] (of QS, one a QP) rest on a counter than its value,
 * each is told that the counter may be another's.
 */
void diag_qp_apportion(const struct model_qps *qs, struct diag_qp *diag);


/*
 * Diagnoses NOW's QP I from its state, its peer's on this host, its port's
 * facts PORT and, when BEFORE (a reading of the QPs before PORT->resent's
 * interval) is given, whether it and its peer moved meanwhile. Counters are
 * the device's, not the QP's: where several QPs share a port, what they
 * show is the likeliest cause, never a certain one.
 */
void diag_qp_diagnose(const struct model_qps *now, size_t i, const struct model_qps *before,
		       const struct diag_qp_port *port, struct diag_qp *d);

#endif
