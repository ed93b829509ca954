/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside selftest --transport (selftest.h): RC, UC, UD, SRQ and memory windows
 * proven byte for byte, beside what the device claims. End A acts; end B is
 * acted upon, in this process (loopback) or in a server's (two hosts). B's
 * part of every operation is xp_peer_open() and xp_peer_step(), whichever: A
 * reaches it through a function call or through the exchange's XOPEN and
 * XSTEP (wire.h).
 *
 * rows.c   the report: a row an operation, and the run's verdict
 * ends.c   the device and the ends (QP, CQ, buffer) A and B are made of
 * peer.c   end B: what it is asked, here or in a server
 * ops.c    how A reaches B, and A's operations (send, write, read, atomics)
 * runs.c   each transport's run, the loopback and the client
 * serve.c  the server's part: end B for a client's --transport
 */
#ifndef RDMACTL_SELFTEST_XPORT_INTERNAL_H
#define RDMACTL_SELFTEST_XPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "selftest/session.h"
#include "selftest/verbs.h"
#include "selftest/wire.h"
#include "selftest/selftest.h"

#define INLINE_WANT 64
#define SRQ_QPS WIRE_XQPS	/* ibv_srq_pingpong's default, 16 */
#define SRQ_SLOTS 32u
#define SRQ_LIMIT 8u
#define SLOT 1024
#define DEPTH 64
#define SRQ_STAGE 10		/* QP i of the SRQ sends pattern SRQ_STAGE + i */
#define NONE_MS 1000		/* a UD delivery comes within this, or not at all */

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | VB_ACCESS_REMOTE)

/* What end B is asked (struct wire_xstep's op). */
enum xb_op {
	XB_PREPARE = 1,		/* poison the buffer; with XB_POST, a receive of LEN (+GRH) */
	XB_FILL,		/* STAGE's pattern over LEN bytes: what A reads */
	XB_SET_WORD,		/* the buffer's first word := VALUE */
	XB_CHECK_RECV,		/* a receive of LEN bytes, STAGE's pattern (XB_IMM: with it) */
	XB_CHECK_WRITE,		/* LEN bytes of STAGE's pattern written (XB_IMM: announced) */
	XB_CHECK_WORD,		/* the first word is VALUE */
	XB_CHECK_NONE,		/* no receive completes within VALUE ms */
	XB_CHECK_UNTOUCHED,	/* the buffer still holds the poison */
	XB_SRQ_CHECK,		/* VALUE receives through the SRQ, QP i's STAGE + i, reposted */
	XB_SRQ_ARM,		/* the SRQ's limit at VALUE */
	XB_SRQ_LIMIT,		/* VALUE receives, then the limit event */
	XB_MW_BIND,		/* a window of type VALUE over the buffer: its rkey answered */
	XB_MW_INVALIDATE,	/* the window invalidated */
	XB_ASYNC,		/* fails when an asynchronous event no step caused came */
	XB_CLOSE,		/* the end freed */
};

#define XB_POST 0x1
#define XB_IMM 0x2
#define XB_ANNOUNCED 0x4	/* the completion was announced on the channel first */

/* One end: a QP, its CQ and its registered buffer. */
struct xp_qp {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	size_t len;
	uint32_t psn;
};

struct xp_run;

/* End B: the QPs a transport's XOPEN made, and what they know of A. */
struct xp_peer {
	struct xp_run *x;		/* B's device: A's own in loopback */
	bool open;
	enum xp_transport t;
	unsigned int nqp;
	struct xp_qp q[SRQ_QPS];	/* q[0] holds the buffer A reaches; SRQ's all receive */
	struct ibv_cq *cq;	/* SRQ: the one CQ of its QPs */
	struct ibv_srq *srq;
	struct xp_qp slots;	/* SRQ: the receive buffers */
	struct ibv_mw *mw;
	int mw_type;
	uint32_t mw_rkey;
	union ibv_gid peer_gid;
	uint32_t peer_qpn;
	bool refused;		/* the last failure was the device saying no (not supported) */
	struct xp_row *w;	/* the server's row for this end */
};

struct xp_run {
	const struct st_opts *o;
	struct st_report *r;
	/* The device, PD and channel (--events; a server's made when a client asks) */
	struct st_session ss;
	struct ibv_ah *ah;	/* UD: towards B */
	unsigned int wait_ms;	/* what wait_wc() waits: --timeout, or less */
	unsigned int completions;
	bool srq_limit_seen;
	struct ibv_srq *srq;	/* whose limit event is expected */
	/* How A reaches B: in this process, or over the side channel. */
	struct xp_peer *lb;
	int fd;
	bool broken;		/* the exchange failed: no step after it is tried */
};

struct sendspec {
	enum ibv_wr_opcode op;
	uint32_t len;
	bool inl;
	uint64_t raddr;		/* WRITE, READ: B's buffer */
	uint32_t rkey;
};

#define B(x, op, stage, flags, len, value, f) xp_b_do(x, op, stage, flags, len, value, NULL, f)

/* A new row of the report (a spare one past XP_MAXROWS), its clock started. */
struct xp_row *xp_row_add(struct xp_run *x, enum xp_transport t, const char *op, enum xp_claim c,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The row's time, bytes and (ERR) failure. */
void xp_row_done(struct xp_row *w, int err, uint64_t bytes);
/* What a row that did not fail says it saw. */
void xp_note(struct xp_row *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A row for something the device refuses: not supported, with its answer. */
void xp_row_unsupported(struct xp_row *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A row not run, saying WHY. */
void xp_row_not_run(struct xp_run *x, enum xp_transport t, const char *op, enum xp_claim c,
		    const char *why);
/* A row refused by the device (not claimed): not supported, with what F said. */
void xp_row_refused(struct xp_row *w, struct st_fault *f);
/* R empty for O's device, its kernel named. */
void xp_report_init(struct st_report *r, const struct st_opts *o);
/* R passed when nothing failed and nothing unexpected arrived: 0, else -1. */
int xp_report_done(struct st_report *r);
/* Asynchronous events: the SRQ limit when armed; anything else is a finding. */
void xp_drain_async(struct xp_run *x);
/* One completion of OP on CQ within wait_ms, polled or through the channel (--events). */
int xp_wait_wc(struct xp_run *x, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc,
	       struct st_fault *f);
/* Q's QP, CQ, memory and buffer freed. */
void xq_free(struct xp_qp *q);
/* A CQ of this device, armed when completions come through the channel. */
struct ibv_cq *xp_make_cq(struct xp_run *x, struct st_fault *f);
/*
 * An end of TYPE with LEN bytes of buffer (plus room for a GRH), receives from
 * SRQ when given, completions on CQ when given (else its own); *INLINE_MAX
 * what the QP took of INLINE_WANT bytes inline.
 */
int xq_make(struct xp_run *x, struct xp_qp *q, enum ibv_qp_type type, struct ibv_srq *srq,
	    size_t len, int access, struct ibv_cq *cq, uint32_t *inline_max,
	    struct st_fault *f);
/* The QP type of transport T. */
enum ibv_qp_type xp_qp_type(enum xp_transport t);
/* RESET -> INIT -> RTR -> RTS, Q towards QP number DEST at DGID. */
int xq_connect(struct xp_run *x, struct xp_qp *q, enum ibv_qp_type type, uint32_t dest,
	       uint32_t dest_psn, const uint8_t dgid[16], struct st_fault *f);
/* A receive of LEN bytes at BUF (Q's memory), on Q's QP or SRQ. */
int xq_post_recv(struct xp_qp *q, char *buf, uint32_t len, uint64_t id, struct ibv_srq *srq,
		 struct st_fault *f);
/* The immediate data, where the opcode carries it. */
int xp_check_imm(const struct ibv_wc *wc, struct st_fault *f);
/* The path MTU, in bytes. */
uint32_t xp_mtu_bytes(const struct xp_run *x);
/* UC gives no acknowledgement: the sender's completion may come before the data lands. */
int xp_await_pattern(struct xp_run *x, unsigned int stage, const char *buf, uint32_t len,
		     struct st_fault *f);
/* UD: an address handle towards B's GID. */
int xp_make_ah(struct xp_run *x, const uint8_t gid[16], struct st_fault *f);
/* Opens the device, checks the port, picks the GID: everything A and B share. */
int xp_setup(struct xp_run *x);
void xp_release(struct xp_run *x);
void xp_peer_close(struct xp_peer *b);
/* B's end of O's transport, connected to A's QPs; E what A may reach of it. */
int xp_peer_open(struct xp_peer *b, const struct wire_xopen *o, struct wire_xends *e,
	    struct st_fault *f);
/* One step of B: 0 with F's detail saying what was seen, or -1 with F said. */
int xp_peer_step(struct xp_peer *b, const struct wire_xstep *s, uint32_t *value,
		 struct st_fault *f);
/* B's part of an operation: 0, or -1 with F said; *VALUE what it answered. */
int xp_b_do(struct xp_run *x, enum xb_op op, unsigned int stage, unsigned int flags,
	    uint32_t len, uint64_t value, uint32_t *answer, struct st_fault *f);
int xp_post(struct xp_run *x, struct xp_qp *a, const struct sendspec *s, uint32_t dest_qpn,
	    struct st_fault *f);
/* A SEND (or with immediate, or inline) from A to B: B's buffer holds it exactly. */
int xp_op_send(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e,
	       const struct sendspec *s, unsigned int stage, struct st_fault *f);
/* An RDMA WRITE (or with immediate) from A into B's buffer (through S->rkey when set). */
int xp_op_write(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, struct sendspec *s,
		unsigned int stage, struct st_fault *f);
/* RDMA READ of B's buffer into A's. */
int xp_op_read(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, uint32_t len,
	       unsigned int stage, struct st_fault *f);
/* Compare-and-swap (a hit) and fetch-and-add on the first word of B's buffer. */
int xp_op_atomic(struct xp_run *x, struct xp_qp *a, const struct wire_xends *e, bool cas,
		 struct st_fault *f);
/*
 * Asks B for its end of T (NQP QPs of LEN bytes) towards A's QPs, and connects
 * A's; *B_MADE once B has an end to close.
 */
int xp_open_ends(struct xp_run *x, enum xp_transport t, struct xp_qp *a, unsigned int nqp,
		 uint32_t len, struct wire_xends *e, bool *b_made, struct st_fault *f);
/* A's ends freed, and B's when it was made. */
void xp_close_ends(struct xp_run *x, struct xp_qp *a, unsigned int nqp, bool b_made);
/* A's end of T and B's, connected: LEN bytes of buffer each. */
int xp_make_pair(struct xp_run *x, enum xp_transport t, struct xp_qp *a, uint32_t len,
		 uint32_t *inline_max, struct wire_xends *e, bool *b_made, struct st_fault *f);

#endif
