/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record's lines (a JSON object each, docs/json.md) and the report made of
 * them, by record at its end and by report later: plain for people, JSON.
 */
#ifndef RDMACTL_VIEWS_RECORD_H
#define RDMACTL_VIEWS_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag/record.h"
#include "kernel/uverbs.h"
#include "model/qp.h"
#include "model/record.h"

struct out;

/* What the first line says. */
struct view_record_start {
	char *const *argv;	/* the command */
	int pid;		/* its process */
	bool verbs, rdma_cm, qps;	/* what record sees */
	const char *probes;	/* "trampolines", "kprobes", or NULL: none armed */
	const char *why_not;	/* what not, or NULL */
	const char *host;	/* the host's name (uname's nodename) */
	const struct model *gids;	/* the host's GIDs when it began, NULL: unread */
};

/*
 * The first line: the command, its process, what record sees; the host and
 * its GIDs, by which report names a QP's peer in another host's record.
 */
void view_record_started(struct out *o, const char *time, const struct view_record_start *s);
/* What --capture kept, at the end. */
struct view_record_packets {
	const char *file;	/* the pcap file's name beside the record; NULL: none written */
	uint64_t packets, errors, dropped, overwritten;
	size_t devices;		/* the rxe devices captured */
};

/* The "packets" line: how many of the command's QPs' packets went where, around how many errors. */
void view_record_packets(struct out *o, const char *time, const struct view_record_packets *p);
/* A process of the tree: "process-started" (PPID), "process-exec", "process-exited" (STATUS). */
void view_record_process(struct out *o, const char *time, const char *event, int pid,
			 const char *comm, int ppid, int status);
/* A call the kernel refused, decoded as C, with ERR its errno and V its cause (none: a PROBE). */
void view_record_refused(struct out *o, const char *time, int pid, int tid, const char *comm,
			 const struct uverbs_call *c, int err, bool probe,
			 const struct diag_record_verdict *v);
/* An rdma_cm event given to PID; V its cause when FAILED. */
void view_record_cm_event(struct out *o, const char *time, int pid, const char *comm,
			  const struct uverbs_cm_event *e, bool failed,
			  const struct diag_record_verdict *v);
/*
 * A QP of the command's first completion in error: QP (its device, number,
 * type, owner, as the readings had it), its STATUS by NAME (NULL: a number
 * the catalogue has not), OPCODE and VENDOR_ERR, V its likely cause.
 */
void view_record_qp_error(struct out *o, const char *time, const struct rdma_qp *qp,
			  unsigned int status, const char *name, unsigned int opcode,
			  unsigned int vendor_err, const struct diag_record_verdict *v);
/* A QP of the tree made, as the probes saw it: QP's number, type and owner (no device yet). */
void view_record_qp_made(struct out *o, const char *time, const struct rdma_qp *qp);
/*
 * A QP of the command modified: QPN (-1: made before its handle was seen),
 * the state asked, and at RTR the peer its connect gave (its QP number, the
 * GID it is at, and the source GID index): what pairs it with its peer.
 */
void view_record_qp_modified(struct out *o, const char *time, long qpn, const struct rdma_qp *owner,
			     const struct uverbs_call *c);
/*
 * A call refused, an rdma_cm event or a QP's first completion in error, as
 * D reads probe record B: by the three above (a completion's QP is QP).
 */
void view_record_probed(struct out *o, const char *time, const struct record_bpf_rec *b,
			const struct diag_probed *d, const struct rdma_qp *qp);
/* The last line: the command's wait status, whether --timeout ended it, records lost. */
void view_record_ended(struct out *o, const char *time, int status, bool timed_out,
		       uint64_t lost);
/* Around the reports of several files: JSON's array of them. */
void view_record_reports_begin(struct out *o);
void view_record_reports_end(struct out *o);
/* A record read back (model/record.h): what failed, each with its cause; or that nothing did. */
void view_record_report(struct out *o, const struct model_record *r);
/*
 * The failures of the N records R (not those that follow an earlier one of
 * their process) as JUnit XML on F: a <testcase> each, classname
 * rdmactl.record.COMMAND, its what the name, its cause, evidence and fix
 * the failure's text; a passing one for a record where nothing failed.
 * 0, or the write's negative errno.
 */
int view_record_junit(FILE *f, const struct model_record *r, size_t n);
/* R's failures (the first of each process) as GitHub Actions' ::error annotations on F. */
void view_record_annotations(FILE *f, const struct model_record *r);

#endif
