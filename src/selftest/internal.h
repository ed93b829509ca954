/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the selftest: what its loopback, two-host, rdma_cm and bench parts share. */
#ifndef RDMACTL_SELFTEST_INT_H
#define RDMACTL_SELFTEST_INT_H

#include <infiniband/verbs.h>

#include "selftest/selftest.h"
#include "selftest/session.h"
#include "selftest/verbs.h"
#include "selftest/wire.h"

/* The longest a server spends on one client, whatever it asks: 10 minutes. */
#define ST_MAX_RUN_MS (10 * 60 * 1000)
/* --bench sends up to this many bytes inline, as perftest does for small messages. */
#define ST_INLINE 220
/* Each QP's receive queue: --bench keeps it filled in batches of half of it. */
#define ST_RQ_DEPTH 32

/* The other end, as its hello (or, in loopback, the other struct st_end) says. */
struct st_remote {
	uint32_t qpn, psn;
	uint16_t lid;
	enum ibv_mtu mtu;
	union ibv_gid gid;
	uint64_t addr, atom_addr;
	uint32_t rkey, atom_rkey, len;
};

/* One end of an RC connection: everything it owns, and what it knows of its peer. */
struct st_end {
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;	/* the data buffer: the only memory a peer may touch */
	struct ibv_mr *amr;	/* the 8-byte atomic target */
	char *alloc;
	char *buf;
	uint64_t *atom;
	uint32_t len;		/* of buf */
	uint32_t psn;
	unsigned int sq_depth;
	struct st_remote rem;
};

struct st_run;

/* How A's stages reach the end they act upon: the same process, or a socket. */
struct st_peer {
	int (*step)(struct st_run *s, const struct wire_step *step, struct st_fault *res);
};

struct st_run {
	const struct st_opts *o;
	struct st_report *r;
	struct st_session ss;	/* the device (the GID at r->head.gid_index is ours), the PD */
	struct st_end a, b;	/* A acts; B is acted upon (in this process in loopback) */
	const struct st_peer *peer;
	int fd;			/* two hosts: the side channel */
	enum st_stage cur;
};

/* Marks the running stage failed (st_fault into its result, timed). */
int st_fail(struct st_run *s, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, with what F (a peer's step, a measurement) said, its errno kept. */
int st_fail_as(struct st_run *s, const struct st_fault *f);
/* st_fail for a failure an errno says: ERR (negative or positive) kept. */
int st_fail_err(struct st_run *s, int err, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void st_begin(struct st_run *s, enum st_stage stage);
int st_done(struct st_run *s, uint64_t bytes);
/* STAGE's pattern over BUF, and the poison a buffer holds before it is written. */
void st_fill(char *buf, size_t len, unsigned int stage);
void st_poison(char *buf, size_t len);
/* LEN bytes (at least), page-aligned as perftest's and the examples' buffers: free() them. */
void *st_page_alloc(size_t len);
/* -1 with F said when BUF is not STAGE's pattern. */
int st_check_pattern(unsigned int stage, const char *what, const char *buf, size_t len,
		     struct st_fault *f);
/* Fills in R's stages as skipped, the device and GID index unknown. */
void st_report_init(struct st_report *r, const char *dev, unsigned int bench);

/*
 * The session (re)opened on the device the report's head names, or on CTX,
 * rdma_cm's context for it: the port checked, the GID picked, the PD ready
 * for ends; else the running stage fails with why.
 */
int st_setup_device(struct st_run *s, struct ibv_context *ctx);
/* An end with LEN bytes of buffer; without QP when NOQP (rdma_cm makes it). */
int st_make_end(struct st_run *s, struct st_end *e, uint32_t len, bool noqp);
void st_free_end(struct st_end *e);
struct ibv_qp_init_attr st_qp_attr(const struct st_run *s, struct st_end *e);
/* What a peer needs to know of E: a hello. */
void st_hello(const struct st_run *s, const struct st_end *e, struct wire_hello *h);
void st_remote_from_hello(struct st_remote *rem, const struct wire_hello *h);
/* RESET -> INIT -> RTR -> RTS towards E's remote. */
int st_connect_qp(struct st_run *s, struct st_end *e);

/* The buffer each end needs for the run O asks for. */
uint32_t st_buffer_len(const struct st_opts *o);
/* Loopback: B in this process; each end learns of the other from its hello. */
extern const struct st_peer st_loopback_peer;
void st_pair_ends(struct st_run *s);

/* The acted-upon end's part of a step: prepare or check. Fills RES. */
void st_b_step(struct st_run *s, struct st_end *b, const struct wire_step *step,
	       struct st_fault *res);
/* Runs the stages A drives (correctness or bench) through s->peer. */
int st_run_stages(struct st_run *s);
void st_release(struct st_run *s);

/* One completion of OP on CQ within the timeout, successful: else the stage fails. */
int st_wait_wc(struct st_run *s, struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc);

/*
 * The server's part for a --transport client whose first message, FIRST
 * (header and body), is an XOPEN: end B of each transport it asks for, until
 * its goodbye (xport/serve.c). R is the server's side of it: a row a
 * transport served.
 */
int xp_serve(const struct st_opts *o, int fd, const uint8_t *first, const char *peer,
	     struct st_report *r);

/* --bench: A's side of each measurement, and B's answering side. */
int st_bench_lat(struct st_run *s, enum st_stage stage, bool loopback);
int st_bench_bw(struct st_run *s);
void st_bench_serve(struct st_run *s, struct st_end *b, const struct wire_step *step,
		    struct st_fault *res);
void st_bench_prepare(struct st_end *b, const struct wire_step *step, struct st_fault *res);

#endif
