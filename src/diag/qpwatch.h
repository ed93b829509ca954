/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one observer of live QPs: the QPs read with their ports' states and
 * counters, read again a while later when one could be resending
 * unanswered, and each QP diagnosed from the two readings, with one rule
 * for QPs of one device that stalled together. qp and check's qps and
 * process-qps are its callers; monitor reads and diagnoses through it on a
 * schedule of its own.
 */
#ifndef RDMACTL_DIAG_QPWATCH_H
#define RDMACTL_DIAG_QPWATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "model/qp.h"
#include "diag/qpdiag.h"

/*
 * How long the second look waits, in rxe's retry timeouts at 14 (67 ms),
 * the rdma-core examples' and rping's: some four for qp's listing, some
 * fifteen for a check's verdict.
 */
#define DIAG_QPWATCH_GLANCE_MS 300
#define DIAG_QPWATCH_CHECK_MS 1000

/* One reading: the QPs, then their ports' states and counters. */
struct diag_qpread {
	struct model_qps qs;
	struct model m;
	bool m_ok;		/* the ports were read */
};

/*
 * A reading in its two steps, for an observer with a schedule of its own
 * (monitor): first the QPs of SRC (DEV's, or every device's; SRC as
 * model_load_qps takes it) into R, emptied...
 */
int diag_qpwatch_read_qps(const struct model_src *src, const char *dev, struct diag_qpread *r);
/*
 * ...then, from sysfs, the ports' states, their counters when COUNTERS, and
 * their netdevs' MTUs and operstates when MTU. The QPs go first: rxe counts
 * a failure before it moves the QP to ERR, so counters read after the
 * states are never older than them. 0 with R->m_ok, or the error.
 */
int diag_qpwatch_read_ports(const struct model_src *src, const char *dev, bool counters, bool mtu,
		      struct diag_qpread *r);
void diag_qpwatch_read_free(struct diag_qpread *r);
/*
 * Each QP of NOW diagnosed against BEFORE (NULL when there is none), the
 * stall rule applied (diag_qp_apportion): an array of one a QP of NOW, to
 * free; NULL when out of memory.
 */
struct diag_qp *diag_qpwatch_diagnose(const struct diag_qpread *now,
				     const struct diag_qpread *before);

struct diag_qpwatch {
	struct diag_qpread r[2];
	struct diag_qpread *now;	/* the last reading */
	struct diag_qpread *before;	/* the first, when a second was taken; else NULL */
	struct diag_qp *diag;	/* one per QP of NOW, when diagnosed; else NULL */
};

/*
 * Reads SRC's QPs (DEV's, or every device's; SRC as model_load_qps takes
 * it); when MS is not 0 and one of them could be resending unanswered,
 * reads them again MS later. Diagnoses each QP when DIAGNOSE, or when two
 * readings were taken (then always, as what tells a resend). The ports are
 * read only where a diagnosis needs them. 0, or the first reading's error
 * (W then holds nothing); a second reading that fails leaves the first.
 */
int diag_qpwatch(const struct model_src *src, const char *dev, unsigned int ms, bool diagnose,
		  struct diag_qpwatch *w);
void diag_qpwatch_free(struct diag_qpwatch *w);

/*
 * Of the RC QPs in RTS in QS that PID owns (0: any), how many (*RTS) and
 * how many could be resending (returned): one with no peer on this host, or
 * one that sent its peer here more than the peer took in.
 */
size_t diag_qpwatch_could_resend(const struct model_qps *qs, int pid, size_t *rts);

/*
 * The one rule for stalls: how many of W's QPs on the device of QP I were
 * found resending unanswered. rxe counts resends per device, so where it is
 * more than one, each may be another's.
 */
size_t diag_qpwatch_stalled_on(const struct diag_qpwatch *w, size_t i);

/*
 * Each RC QP in RTS of W's last reading told as resending (MODEL_QPR_YES,
 * or MODEL_QPR_MAYBE where others of its device stalled with it) or not,
 * when two readings were taken; else left untold.
 */
void diag_qpwatch_mark(struct diag_qpwatch *w);

#endif
