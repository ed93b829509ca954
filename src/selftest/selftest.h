/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs selftest: RC QPs proving SEND, WRITE, READ and atomics byte for byte. */
#ifndef RDMACTL_SELFTEST_H
#define RDMACTL_SELFTEST_H

#include <stdbool.h>
#include <stdint.h>

#include "model/gid.h"
#include "selftest/common.h"
#include "selftest/fault.h"

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

#define ST_BENCH_LAT 0x1	/* SEND and WRITE latency */
#define ST_BENCH_BW 0x2		/* WRITE bandwidth */

struct st_opts {
	struct st_common common;
	/* --bench: what to measure instead of proving (0: prove) */
	unsigned int bench;
	unsigned int lat_size, lat_iters, bw_size, bw_iters, depth;
	/* two hosts */
	const char *bind;	/* the server's address, NULL for all */
	bool once;		/* the server ends after one client */
	bool cm;		/* connect through librdmacm */
};

struct st_report {
	struct st_head head;
	struct st_stage_result st[ST_NSTAGES];
	bool passed;
	/* A server's session with a --transport client: its report instead of the stages. */
	const struct xp_report *transports;
};

struct xp_report;

const char *st_stage_name(enum st_stage s);

/* Runs every stage in loopback on one device; fills R. 0 when all passed, else -1. */
/*
 * O's defaults for DEV: the RoCE v2 IPv4 GID, 5 s waits, 12411 bytes (larger
 * than the largest RoCE MTU, an odd length), and perftest's bench sizes.
 */
void st_opts_init(struct st_opts *o, const char *dev);
int st_loopback(const struct st_opts *o, struct st_report *r);
/* The client of a two-host selftest: connects to O->host and runs every stage. */
int st_client(const struct st_opts *o, struct st_report *r);

/*
 * The server: serves clients one at a time, calling SESSION with each one's
 * report, until a signal (or after one client with O->once). A client that
 * fails or misbehaves is reported and the server goes on. 0, or -1 when it
 * could not start (R says why) or its one client failed.
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

#endif
