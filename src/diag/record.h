/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a verbs or rdma_cm call the kernel refused, or an rdma_cm event,
 * tells of its cause: from the request's own attributes (the verb, the
 * state asked, the address vector, the length registered), the host's GID
 * tables when the call came, and the process's locked-memory limit. Each
 * verdict says what it rests on; where the request tells nothing more,
 * the errno's causes as the failure catalogue has them, likely, not sure.
 */
#ifndef RDMACTL_DIAG_RECORD_H
#define RDMACTL_DIAG_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/record.bpf.h"
#include "kernel/uverbs.h"
#include "model/model.h"
#include "model/record.h"

struct diag_record_verdict {
	bool sure;		/* it rests on the request and the host, not on the errno alone */
	char cause[320];
	char evidence[320];
	char fix[256];
};

/* What record knew of the process when the call came. */
struct diag_record_proc {
	bool memlock_known;
	uint64_t memlock_soft;	/* bytes; UINT64_MAX: unlimited */
	bool caps_known, cap_ipc_lock;
};

/*
 * The cause of C, refused with the negative errno ERR, held to M's GID
 * tables as they were (NULL: not read) and what P says of the process.
 */
void diag_record_refused(const struct uverbs_call *c, int err, const struct model *m,
			 const struct diag_record_proc *p, struct diag_record_verdict *v);
/*
 * A QP's first completion in error, STATUS (enum ibv_wc_status): its name
 * into *NAME ("IBV_WC_RNR_RETRY_EXC_ERR"), and its causes as the failure
 * catalogue has them, likely, into V. A flush (IBV_WC_WR_FLUSH_ERR) is said
 * to follow another failure. False for a status the catalogue has not.
 */
bool diag_record_wc(unsigned int status, const char **name, struct diag_record_verdict *v);

/*
 * Whether C refused with ERR is one of the probes libibverbs makes and goes
 * on from (measured: every run of a stock ibv_rc_pingpong that passes, on
 * 6.1 and 7.3): no failure of the program's.
 */
bool diag_record_probe(const struct uverbs_call *c, int err);
/* Whether E is a failure (an error event, or a status that is one); its cause into V then. */
bool diag_record_cm_event(const struct uverbs_cm_event *e, struct diag_record_verdict *v);

/* One record of the probes (kernel/record.h) read: decoded, and a failure's cause. */
struct diag_probed {
	uint32_t kind;		/* RECORD_BPF_* */
	char comm[17];
	struct uverbs_call call;	/* a call refused */
	bool probe;		/* ... one of libibverbs' own probes: no failure */
	struct uverbs_cm_event ev;	/* an rdma_cm event */
	bool ev_read;		/* ... read whole */
	/* a completion in error: its status (by name: NULL when unnamed), opcode, vendor_err */
	unsigned int status, opcode, vendor_err;
	const char *status_name;
	bool failed;		/* a call that is no probe, a failed event, a completion */
	struct diag_record_verdict v;	/* its cause, when failed */
};

/*
 * B read into D, a failure's cause held to M's GID tables (NULL: not read)
 * and P's facts of the process, which a refused call's own (its locked-memory
 * limit and capabilities as the kernel judged it) update first (P may be NULL).
 */
void diag_record_probed(const struct record_bpf_rec *b, const struct model *m,
			struct diag_record_proc *p, struct diag_probed *d);

/*
 * R's flushes read again with what the record saw of the host (report and
 * check, record.h's model): a QP's first completion in error that is a
 * flush, with no failure of its process before it, at the moment its
 * device's port or netdev went down, a GID of it was removed, or it was
 * removed (the record's change lines, 10 s before to 2 s after, the watch
 * stamping a change when it reads it): that change is its cause, likely,
 * and its process's other flushes follow it. Each process's cause is then
 * chosen anew (model_record_done).
 */
void diag_record_flushes(struct model_record *r);

#endif
