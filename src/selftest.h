/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs selftest: RC QPs proving SEND, WRITE, READ and atomics byte for byte. */
#ifndef RDMACTL_SELFTEST_H
#define RDMACTL_SELFTEST_H

#include <stdbool.h>
#include <stdint.h>

enum st_stage {
	ST_SETUP,	/* device, PD, MRs, CQs, QPs */
	ST_CONNECT,	/* RESET -> INIT -> RTR -> RTS */
	ST_SEND,	/* SEND with immediate data into a posted receive */
	ST_WRITE,	/* RDMA WRITE */
	ST_READ,	/* RDMA READ */
	ST_CMP_SWAP,	/* atomic compare-and-swap, hit and miss */
	ST_FETCH_ADD,	/* atomic fetch-and-add */
	ST_NSTAGES,
};

enum st_result {
	ST_PASS,
	ST_FAIL,
	ST_SKIPPED,	/* not run: an earlier stage failed, or the device lacks it */
};

struct st_stage_result {
	enum st_result result;
	uint64_t usec;
	uint64_t bytes;
	char detail[256];	/* what went wrong, or why skipped */
	char hint[256];		/* what to look at, when it failed */
};

struct st_opts {
	const char *dev;
	int gid_index;		/* -1: the RoCE v2 GID of an IPv4 address */
	unsigned int timeout_ms;	/* every wait is bounded by this */
	unsigned int size;	/* bytes moved per operation */
};

struct st_report {
	char dev[64];
	int gid_index;
	char gid[46];
	int mtu;		/* active MTU in bytes */
	struct st_stage_result st[ST_NSTAGES];
	bool passed;
};

struct ibv_context;

const char *st_stage_name(enum st_stage s);

/* The monotonic clock every selftest timing and deadline uses, in microseconds. */
uint64_t st_now_us(void);
/* DEV opened through libibverbs; NULL when it lists no such device (or none). */
struct ibv_context *st_open_device(const char *dev);

/* Runs every stage in loopback on one device; fills R. 0 when all passed, else -1. */
int st_loopback(const struct st_opts *o, struct st_report *r);

#endif
