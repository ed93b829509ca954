/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The selftest's one public header: what every mode (the stages in loopback
 * or between two hosts, through rdma_cm or rping's protocol, the transports
 * matrix, the ping-pong of rdma-core's examples) is told, in one struct
 * st_opts, and what it reports, in one struct st_report; and how each runs.
 */
#ifndef RDMACTL_SELFTEST_H
#define RDMACTL_SELFTEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/gid.h"

/* What went wrong: the one result type of a stage, a row, a step, a run. */

#define ST_TEXT_LEN 240		/* each text with its NUL; also its length on the wire */

struct st_fault {
	bool failed;
	int err;		/* the errno behind it (positive), 0 when there is none */
	char detail[ST_TEXT_LEN];
	char hint[ST_TEXT_LEN];	/* "" when there is nothing more to say */
};

/*
 * The one failure helper (fault.c): marks F failed with DETAIL (a format)
 * and HINT (or NULL), unless it failed already (the first failure is the one
 * to report). Returns -1, for `return st_fault(...)`.
 */
int st_fault(struct st_fault *f, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int st_vfault(struct st_fault *f, const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The same for a failure an errno says: ERR (negative or positive) kept in F. */
int st_fault_err(struct st_fault *f, int err, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* What every mode is told. */

/* Which device, GID and peer; how long to wait; how many bytes. */
struct st_common {
	const char *dev;
	int gid_index;		/* -1: the RoCE v2 GID of an IPv4 address */
	unsigned int timeout_ms;	/* every wait is bounded by this */
	unsigned int size;	/* bytes moved per operation */
	const char *host;	/* two hosts: the server, for a client */
	unsigned int port;	/* two hosts: the TCP port of the exchange */
	bool events;		/* completions through a completion channel */
};

#define ST_BENCH_LAT 0x1	/* SEND and WRITE latency */
#define ST_BENCH_BW 0x2		/* WRITE bandwidth */

/* --transport: each transport the verbs examples use, and memory windows. */
enum xp_transport { XP_RC, XP_UC, XP_UD, XP_SRQ, XP_XRC, XP_MW, XP_NTRANSPORTS };

#define XP_ALL ((1u << XP_NTRANSPORTS) - 1)

/* --pingpong: which rdma-core example, ibv_rc_, ibv_uc_, ibv_ud_ or ibv_srq_pingpong. */
enum pp_kind { PP_RC, PP_UC, PP_UD, PP_SRQ };

/* ibv_srq_pingpong's exchange always carries this many QPs, the unused ones zero. */
#define PP_MAX_QP 256

struct st_opts {
	struct st_common common;
	/* The stages' --bench: what to measure instead of proving (0: prove). */
	unsigned int bench;
	unsigned int lat_size, lat_iters, bw_size, bw_iters, depth;
	/* Two hosts. */
	const char *bind;	/* the server's address, NULL for all */
	bool once;		/* the server ends after one client */
	bool cm;		/* connect through librdmacm */
	/* --transport: 1 << enum xp_transport; size is RC/UC's, UD's up to the path MTU. */
	unsigned int transports;
	/* --pingpong: port 18515 as ibv_rc_pingpong; size 4096, ud 2048; events: -e. */
	struct {
		enum pp_kind kind;
		unsigned int num_qp;	/* srq: 16 as the example; 1 otherwise */
		bool server;
		unsigned int iters;	/* 1000 */
		unsigned int rx_depth;	/* 500 */
		int mtu;		/* enum ibv_mtu: IBV_MTU_1024 */
	} pp;
};

/*
 * O's defaults for DEV: the RoCE v2 IPv4 GID, 5 s waits, 12411 bytes (larger
 * than the largest RoCE MTU, an odd length), and perftest's bench sizes.
 */
void st_opts_init(struct st_opts *o, const char *dev);

/* What every mode reports. */

/* Where a report's run happened: the device, its GID and path MTU, the peer. */
struct st_head {
	char dev[64];
	int gid_index;		/* -1 until one is known */
	char gid[GID_ADDR_LEN];
	int mtu;		/* path MTU in bytes */
	char peer[80];		/* two hosts: the other end */
	char remote_gid[GID_ADDR_LEN];
};

enum st_mode {
	ST_MODE_STAGES,		/* the stages: st[] */
	ST_MODE_TRANSPORTS,	/* --transport: rows[] and async[] */
	ST_MODE_PINGPONG,	/* --pingpong: pp */
};

enum st_stage {
	ST_SETUP,	/* device, PD, MRs, CQs, QPs */
	ST_CONNECT,	/* RESET -> INIT -> RTR -> RTS, or rdma_cm's connect */
	ST_SEND,	/* SEND with immediate data into a posted receive */
	ST_WRITE,	/* RDMA WRITE */
	ST_READ,	/* RDMA READ */
	ST_CMP_SWAP,	/* atomic compare-and-swap, hit and miss */
	ST_FETCH_ADD,	/* atomic fetch-and-add */
	ST_LAT_SEND,	/* --bench: SEND ping-pong latency */
	ST_LAT_WRITE,	/* --bench: RDMA WRITE ping-pong latency */
	ST_BW_WRITE,	/* --bench: RDMA WRITE bandwidth, pipelined */
	ST_NSTAGES,
};

enum st_result {
	ST_PASS,
	ST_FAIL,
	ST_SKIPPED,	/* not run: an earlier stage failed, or the device lacks it */
};

/* What --bench measured in a stage. Latencies are half round trips, in usec. */
struct st_stats {
	unsigned int iters, size;
	double t_min, t_typical, t_p99, t_avg, t_max;
	double mib_s, gb_s;	/* bandwidth: MiB/s (2^20 bytes), Gb/s (10^9 bits) */
};

struct st_stage_result {
	bool ran;		/* part of this run (the bench stages only with --bench) */
	enum st_result result;
	uint64_t usec;
	uint64_t bytes;
	struct st_fault f;	/* what went wrong, or (not failed) why skipped */
	struct st_stats stats;
};

/* What the device says of a feature. */
enum xp_claim {
	XP_IMPLIED,	/* every verbs device of this transport has it: no flag to ask */
	XP_CLAIMED,	/* a capability or attribute says yes */
	XP_NOT_CLAIMED,	/* the device says no */
};

enum xp_result {
	XP_PASS,	/* done and verified */
	XP_FAIL,	/* claimed (or implied) and it failed: a finding */
	XP_UNSUPPORTED,	/* the device says no, and the verb agrees */
	XP_NOT_RUN,	/* an earlier step of the transport failed */
};

struct xp_row {
	enum xp_transport t;
	const char *op;		/* "send", "write_imm", "srq_limit", ... */
	enum xp_claim claim;
	char claim_text[64];	/* what said so: "atomic_cap GLOB", "max_srq 0" */
	enum xp_result result;
	uint64_t usec;
	uint64_t bytes;
	struct st_fault f;	/* failure, or what the refusal/claim was */
};

#define XP_MAXROWS 48
#define XP_MAXASYNC 8

struct st_report {
	struct st_head head;
	enum st_mode mode;
	bool passed;		/* every stage or row passed, nothing unexpected arrived */
	/* What failed outside any stage or row: a transports run's device, the ping-pong. */
	struct st_fault f;
	/* ST_MODE_STAGES */
	struct st_stage_result st[ST_NSTAGES];
	/* ST_MODE_TRANSPORTS: the capability matrix, a row an operation */
	char kernel[65];		/* uname -r */
	bool events;
	struct xp_row rows[XP_MAXROWS];
	unsigned int nrows;
	char async[XP_MAXASYNC][80];	/* asynchronous events no step expected */
	unsigned int nasync;
	/* ST_MODE_PINGPONG */
	struct {
		uint32_t remote_qpn;
		uint64_t usec;
		uint64_t bytes;
		unsigned int iters;
		unsigned int cq_events;	/* with events: how many the channel gave */
	} pp;
};

const char *st_stage_name(enum st_stage s);
/* The words --transport takes: each transport's name, then "all"; NULL-terminated. */
extern const char *const xp_transport_words[XP_NTRANSPORTS + 2];
/* T's name; XP_NTRANSPORTS is the device's own rows ("device"). */
const char *xp_transport_name(enum xp_transport t);
/* "rc,ud,srq" or "all" into a mask: 0, or -1 naming the bad word in BAD. */
int xp_parse(const char *list, unsigned int *mask, char *bad, size_t badlen);
const char *xp_claim_name(enum xp_claim c);
const char *xp_result_name(enum xp_result r);
const char *pp_kind_name(enum pp_kind k);

/*
 * How each mode runs: each fills R, its mode's part and the head, and
 * returns 0 when all passed, else -1.
 */

/* The stages in loopback on one device. */
int st_loopback(const struct st_opts *o, struct st_report *r);
/* The client of a two-host selftest: connects to O->common.host and runs every stage. */
int st_client(const struct st_opts *o, struct st_report *r);
/*
 * The server: serves clients one at a time, stages or transports as each
 * asks, calling SESSION with each one's report, until a signal (or after one
 * client with O->once). A client that fails or misbehaves is reported and the
 * server goes on. 0, or -1 when it could not start (R says why) or its one
 * client failed.
 */
int st_server(const struct st_opts *o, struct st_report *r,
	      void (*session)(void *arg, const struct st_report *r), void *arg);

/* rping's least -S: the text of the largest ping ("rdma-ping-2147483647: "). */
#define RPING_MIN_SIZE 26

/* --cm: loopback through rdma_cm; and rping's client and server (rdmacm-utils). */
int st_cm_loopback(const struct st_opts *o, struct st_report *r);
int st_cm_client(const struct st_opts *o, struct st_report *r);
int st_cm_server(const struct st_opts *o, struct st_report *r,
		 void (*session)(void *arg, const struct st_report *r), void *arg);

/* --transport: the transports O selects in loopback on one device. */
int xp_loopback(const struct st_opts *o, struct st_report *r);
/* The same between two hosts: A here, B in O->common.host's 'selftest server'. */
int xp_client(const struct st_opts *o, struct st_report *r);

/* --pingpong: one side of rdma-core's example, O->pp.server or the client. */
int st_pingpong(const struct st_opts *o, struct st_report *r);

#endif
