/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live QPs of the RDMA devices this namespace sees, as the RDMA netlink's
 * resource dump has them, each with its owner and, where the other end is a
 * QP of this host, that peer.
 */
#ifndef RDMACTL_MODEL_QP_H
#define RDMACTL_MODEL_QP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* enum ib_qp_state, as the kernel numbers it. */
enum model_qp_state {
	MODEL_QPS_RESET, MODEL_QPS_INIT, MODEL_QPS_RTR, MODEL_QPS_RTS, MODEL_QPS_SQD,
	MODEL_QPS_SQE, MODEL_QPS_ERR,
};

struct rdma_qp {
	char dev[RDMA_NAME_MAX];
	uint32_t port;		/* 0 when the QP has none yet */
	uint32_t qpn;
	uint8_t type;		/* enum ib_qp_type: 2 RC, 3 UC, 4 UD, ... */
	uint8_t state;		/* enum model_qp_state */
	bool has_rqpn, has_rq_psn, has_sq_psn;
	uint32_t rqpn, rq_psn, sq_psn;
	uint32_t pid;		/* 0: the kernel's own (comm is then its kernel name) */
	char comm[32];		/* the owner's command, "" when it is gone or unreadable */
	/*
	 * The owner had ended when its /proc/PID was looked for: the kernel's
	 * dump names a user's QP by its PID alone (nldev.c's fill_res_name_pid:
	 * "user ... should read /proc/PID/comm"), so its command is gone with it.
	 */
	bool owner_ended;
	long peer;		/* the QP of this host that is its other end: an index, or -1 */
	uint8_t resend;		/* enum model_qp_resend: what a second look told */
};

/* Whether an RC QP in RTS was seen resending with no answer (diag_qpwatch_mark). */
enum model_qp_resend {
	MODEL_QPR_UNTOLD,	/* not looked at twice: one reading cannot tell */
	MODEL_QPR_NO,
	MODEL_QPR_YES,		/* the one QP of its device that made no progress while it resent */
	MODEL_QPR_MAYBE,	/* one of several such: the counters are the device's */
};

struct model_qps {
	struct rdma_qp *v;
	size_t n;
	/*
	 * V's indices by QPN, then device: what model_qp_find and the peer
	 * finder search, so a thousand QPs are not compared pair by pair.
	 * model_load_qps makes it; NULL (a list built by hand) is searched
	 * one by one.
	 */
	size_t *by_qpn;
};

/*
 * Every QP of SRC's netlink (of device DEV alone when not NULL), in the order
 * the kernel lists them, each owner's command read from ROOT's /proc, each
 * peer found: 0, -ENODEV when DEV is no device, or a netlink error.
 */
int model_load_qps(const struct model_src *src, const char *dev, struct model_qps *q);
void model_qps_free(struct model_qps *q);
/*
 * Each RC and UC QP's other end among Q's QPs (its peer index, else -1).
 * QP numbers are each device's own and the dump says no destination GID: a
 * pair on one device is taken first; across devices a peer is named only
 * when it is the one candidate, never guessed between two.
 */
void model_qp_find_peers(struct model_qps *q);

/* "RC", "UC", "UD", ... ; "RESET" ... "ERR". */
const char *model_qp_type_name(uint8_t type);
const char *model_qp_state_name(uint8_t state);
/*
 * What QS's QP I's state says, in a word for its verdict column: "ok"
 * (RTS), "error", "send-queue-error", "draining", "not-ready" (RESET, INIT,
 * RTR); for an RC QP in RTS seen resending, "resending" or
 * "maybe-resending", and "untold" where it may owe its peer packets and
 * was read once (a fixture, or no counters to compare): one reading cannot
 * tell a QP resending unanswered from an idle one.
 */
const char *model_qp_verdict(const struct model_qps *qs, size_t i);

/* The QP of device DEV numbered QPN among Q's, or NULL. */
const struct rdma_qp *model_qp_find(const struct model_qps *q, const char *dev, uint32_t qpn);
/*
 * Whether QS's QP I, an RC QP in RTS, owes its peer packets: 1 when its
 * peer on this host has taken in less than it sent, 0 when they are caught
 * up (or it is no RC QP in RTS), -1 when it cannot be told (its peer is not
 * on this host, or a PSN is not known): a QP that owes, or may, is one rxe
 * may be resending for.
 */
int model_qp_owes(const struct model_qps *qs, size_t i);

/* Who owns Q, in BUF: "1234 (prog)", "1234" when its command is unknown, "the kernel's ib_core". */
const char *model_qp_owner(const struct rdma_qp *q, char *buf, size_t len);

/*
 * The QP numbered QPN to name: READ as a reading found it (NULL: none
 * did), told by MADE, the QP as the probes saw it made (its owner's pid
 * and command at that moment), where it is the same QP of the same
 * process: READ's command filled in from MADE when its owner was gone
 * before the reading read /proc/PID/comm (a copy in BUF), MADE itself
 * when no reading had the QP. NULL when neither tells.
 */
const struct rdma_qp *model_qp_named(const struct rdma_qp *read, const struct rdma_qp *made,
				     uint32_t qpn, struct rdma_qp *buf);

#endif
