/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one run of record keeps (cmd/record.c runs the command and the
 * loop), and how its lines are written from what it sees
 * (cmd/record_lines.c): the probes' records and the watch's events.
 */
#ifndef RDMACTL_CMD_RECORD_H
#define RDMACTL_CMD_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag/monitor_watch.h"
#include "diag/record.h"
#include "kernel/record.h"
#include "kernel/safe.h"
#include "kernel/spawn.h"
#include "model/qp.h"

struct cmd_ctx;
struct pollfd;
struct record_capture;

/* The rxe devices --capture reads: a descriptor each. */
#define RECORD_CAPTURE_FDS 4

/* The processes whose facts are kept: a command that makes more is followed all the same. */
#define RECORD_PROCS 1024
/*
 * The command's QPs kept after the readings lost them (gone, or made and
 * gone between two), for a late completion in error to name: the oldest
 * give way beyond this many, so that record's memory does not grow with
 * the QPs a command makes (a live QP is in the last reading anyway).
 */
#define RECORD_QPS 4096
/* The handles the tree's processes name their QPs by in later calls, to their numbers. */
#define RECORD_HANDLES 1024

struct record_handle {
	int pid;		/* 0: the slot is free */
	uint32_t file;		/* the uverbs file's number (record.bpf.h): a handle is its file's */
	uint32_t handle, qpn;
};

/* What record knows of a process of the tree. */
struct record_proc {
	int pid;
	char comm[16];
	struct diag_record_proc facts;
};

struct record_run {
	struct cmd_ctx *ctx;
	FILE *f;
	int err;		/* the first write that failed: the record stops, CMD goes on */
	struct monitor_watch w;
	bool watching;
	struct record_proc procs[RECORD_PROCS];
	size_t nprocs;
	struct rdma_qp *qps;	/* the command's QPs the readings found, as they last found them */
	size_t nqps, qp_next;	/* ... and, RECORD_QPS of them kept, the slot the next takes */
	/* By pid and handle, the last QP made with it: the kernel gives a freed handle again. */
	struct record_handle handles[RECORD_HANDLES];
	struct record *probes;	/* NULL: what they would see is said in UNSEEN */
	struct record_sees sees;
	char unseen[320];
	struct safe_path sp;	/* the file's */
	struct spawn_child child;
	int sfd;		/* the signals record is sent */
	sigset_t orig;		/* the signal mask before, CMD's */
	uint64_t boot_ns;	/* the monotonic clock's zero on the wall clock */
	struct record_capture *cap;	/* --capture's, or NULL */
};

/*
 * The probes armed for SCOPE (ib_uverbs, rdma_ucm and rdma_rxe loaded first
 * where they are not), SEES what they see; what they cannot see said into
 * UNSEEN (LEN bytes, "" when nothing). NULL when none could be armed.
 */
struct record *record_arm(enum record_scope scope, struct record_sees *sees, char *unseen,
			  size_t len);
/* PID kept among the tree's processes, with its command when COMM is given. */
struct record_proc *record_proc_seen(struct record_run *r, int pid, const char *comm);
/* One line begun (NULL once writing failed: the record stops, CMD goes on), and ended. */
struct out *record_line_begin(struct record_run *r);
void record_line_end(struct record_run *r, struct out *o);
/*
 * The wall clock's time ("2026-11-27T09:10:11.123Z") of monotonic NS, whose
 * zero was BOOT_NS on the wall clock; now when NS is 0.
 */
void record_stamp(uint64_t boot_ns, uint64_t ns, char *t, size_t len);
/* The watch's events written: the tree's QPs, and the host's devices, ports, GIDs, counters. */
void record_watched(const struct monitor_event *e, void *arg);
/* Each record the probes have now, written as a line. */
void record_drain(struct record_run *r, struct record *probes);

/*
 * --capture (cmd/record_capture.c): the packets of the rxe devices there
 * are begun, to go beside RECORD (its name, .pcap for .jsonl) around each
 * error; a device that cannot be captured said, and the record goes on. 0,
 * or -ENOMEM, or -ENOPKG (libpcap cannot be loaded), said.
 */
int record_capture_begin(struct record_run *r, const char *record);
/* Its descriptors into P, -1 where none. */
void record_capture_fds(const struct record_run *r, struct pollfd p[RECORD_CAPTURE_FDS]);
/* The packets there are now, taken. */
void record_capture_read(struct record_run *r);
/* QPN's packets kept from now on: a QP of the command's, or its peer. */
void record_capture_qpn(struct record_run *r, uint32_t qpn);
/* An error at monotonic MONO_NS (0: now): the packets around it written. */
void record_capture_mark(struct record_run *r, uint64_t mono_ns);
/* The capture ended, and when SAY, said in a "packets" line. */
void record_capture_end(struct record_run *r, bool say);

#endif
