// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record's lines (cmd/record.h): each record of the probes (a process of
 * the tree made, run anew or ended; a call refused, decoded and
 * diagnosed; an rdma_cm event; a QP's first error completion, when the QP
 * is the command's) and each event of the watch of the command's QPs and
 * the host's devices, written as it comes, an object a line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/out.h"
#include "cmd/record.h"
#include "kernel/errname.h"
#include "kernel/uverbs.h"
#include "views/monitor.h"
#include "views/record.h"

/* The wall clock's time of monotonic NS ("2026-11-27T09:10:11.123Z"); now when 0. */
void record_stamp(uint64_t boot_ns, uint64_t ns, char *t, size_t len)
{
	struct timespec now;
	struct tm tm;
	uint64_t wall;

	clock_gettime(CLOCK_REALTIME, &now);
	wall = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	if (ns)
		wall = boot_ns + ns;
	now.tv_sec = (time_t)(wall / 1000000000ull);
	gmtime_r(&now.tv_sec, &tm);
	strftime(t, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(t + strlen(t), len - strlen(t), ".%03uZ", (unsigned)(wall / 1000000 % 1000));
}

static struct record_proc *proc_of(struct record_run *r, int pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	return NULL;
}

/* PID kept among the tree's processes, with its command when COMM is given. */
struct record_proc *record_proc_seen(struct record_run *r, int pid, const char *comm)
{
	struct record_proc *p = proc_of(r, pid);

	if (!p && r->nprocs < RECORD_PROCS) {
		p = &r->procs[r->nprocs++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
	}
	if (p && comm)
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
	return p;
}

/* One line written: an object of O's, flushed so that a reader (or a crash) has it whole. */
struct out *record_line_begin(struct record_run *r)
{
	struct out *o;

	if (r->err)
		return NULL;
	o = out_new(r->f, true, false);
	if (!o)
		r->err = -ENOMEM;
	return o;
}

void record_line_end(struct record_run *r, struct out *o)
{
	int err = out_finish(o);

	if (!err && fflush(r->f))
		err = -errno;
	if (err && !r->err) {
		r->err = err;
		pr_warn("record: cannot write the record any more (%s: %s): the command goes on",
			errname(err), strerror(-err));
	}
}

/* Whether QP's owner is a process of the tree. */
static bool ours(struct record_run *r, const struct rdma_qp *q)
{
	return q && q->pid && proc_of(r, (int)q->pid);
}

/* Q kept among the command's QPs, for its completions in error to name it by. */
static void qp_known(struct record_run *r, const struct rdma_qp *q)
{
	struct rdma_qp *v;

	/* One the probes saw made has no device yet: the readings give it. */
	for (size_t i = 0; i < r->nqps; i++)
		if (r->qps[i].qpn == q->qpn &&
		    (!strcmp(r->qps[i].dev, q->dev) || !*r->qps[i].dev || !*q->dev)) {
			if (*q->dev || !*r->qps[i].dev)
				r->qps[i] = *q;
			return;
		}
	if (r->nqps == RECORD_QPS) {
		r->qps[r->qp_next] = *q;
		r->qp_next = (r->qp_next + 1) % RECORD_QPS;
		return;
	}
	v = reallocarray(r->qps, r->nqps + 1, sizeof(*v));
	if (!v)
		return;
	r->qps = v;
	r->qps[r->nqps++] = *q;
}

/* B's process, uverbs file and HANDLE's slot. */
static struct record_handle *handle_slot(struct record_run *r, const struct record_bpf_rec *b,
					 uint32_t handle)
{
	return &r->handles[((uint32_t)b->tgid * 31u + b->file * 17u + handle) % RECORD_HANDLES];
}

/* The QP number HANDLE names in B's process and file, as its last qp-made said: -1 when unknown. */
static long handle_qpn(struct record_run *r, const struct record_bpf_rec *b, uint32_t handle)
{
	const struct record_handle *h = handle_slot(r, b, handle);

	return h->pid == (int)b->tgid && h->file == b->file && h->handle == handle ?
		(long)h->qpn : -1;
}

/* The watch's events: the tree's QPs, and the host's devices, ports, GIDs and counters. */
void record_watched(const struct monitor_event *e, void *arg)
{
	struct record_run *r = arg;
	struct out *o;
	char t[40];

	if (e->qp && !ours(r, e->qp))
		return;
	if (e->qp) {
		qp_known(r, e->qp);
		record_capture_qpn(r, e->qp->qpn);
	}
	o = record_line_begin(r);
	if (!o)
		return;
	record_stamp(r->boot_ns, 0, t, sizeof(t));
	view_monitor_event(o, e, t);
	record_line_end(r, o);
	/* A QP of the command's gone to ERR, or resending with no answer: the packets around it. */
	if (e->qp && e->diag && (e->kind == MON_QP_STATE || e->kind == MON_QP_STALLED ||
				 e->kind == MON_QP_CREATED))
		record_capture_mark(r, 0);
}

/*
 * The command's QP numbered QPN, as the readings found it: among those
 * kept, else in the last reading; NULL when neither has it (another
 * program's, or one made and gone between two readings).
 */
static const struct rdma_qp *qp_of(struct record_run *r, uint32_t qpn)
{
	const struct model_qps *now = &r->w.prev.read.qs;

	for (size_t i = 0; i < r->nqps; i++)
		if (r->qps[i].qpn == qpn)
			return &r->qps[i];
	for (size_t i = 0; r->watching && i < now->n; i++)
		if (now->v[i].qpn == qpn && ours(r, &now->v[i])) {
			qp_known(r, &now->v[i]);
			return qp_of(r, qpn);
		}
	return NULL;
}

/*
 * A QP of the tree made (its owner known now, however soon it is gone, and
 * the handle its process names it by after) or modified, as a line.
 */
static void qp_line(struct record_run *r, const struct record_bpf_rec *b)
{
	struct rdma_qp q = { .qpn = b->arg, .type = (uint8_t)b->ret, .pid = b->tgid, .peer = -1 };
	struct uverbs_call c;
	uint32_t handle;
	struct out *o;
	char t[40];

	memcpy(q.comm, b->comm, sizeof(b->comm));
	q.comm[sizeof(b->comm)] = '\0';
	/* Its device, read now: known however soon the QP or the device is gone. */
	if (record_rdev_name(b->rdev, q.dev, sizeof(q.dev)) < 0)
		q.dev[0] = '\0';
	if (b->kind == RECORD_BPF_QP_MADE) {
		qp_known(r, &q);
		record_capture_qpn(r, b->arg);
		if (b->len >= sizeof(handle)) {
			memcpy(&handle, b->req, sizeof(handle));
			*handle_slot(r, b, handle) = (struct record_handle){
				.pid = (int)b->tgid, .file = b->file, .handle = handle,
				.qpn = b->arg };
		}
	} else if (!uverbs_decode(UVERBS_VIA_IOCTL, b->req, b->len, &c) || !c.modify_qp) {
		return;
	} else if (c.attr_mask & UVERBS_QP_DEST_QPN) {
		/* Its peer's packets come to this QP's number; its own go to the peer's. */
		record_capture_qpn(r, c.dest_qp_num);
	}
	o = record_line_begin(r);
	if (!o)
		return;
	record_stamp(r->boot_ns, b->ts_ns, t, sizeof(t));
	if (b->kind == RECORD_BPF_QP_MADE)
		view_record_qp_made(o, t, &q);
	else	/* its owner in Q, its number by the handle */
		view_record_qp_modified(o, t, handle_qpn(r, b, c.qp_handle), &q, &c);
	record_line_end(r, o);
}

/* One record of the probes written as a line (a completion only when its QP is the command's). */
static void probed(struct record_run *r, const struct record_bpf_rec *b)
{
	const struct rdma_qp *q = NULL;
	struct record_proc *p;
	struct diag_probed d;
	struct out *o;
	char t[40];

	if (b->kind == RECORD_BPF_QP_MADE || b->kind == RECORD_BPF_QP_MODIFIED) {
		qp_line(r, b);
		return;
	}
	if (b->kind == RECORD_BPF_WC) {
		q = qp_of(r, b->arg);
		/*
		 * A QP made since the last reading (or known from the probes alone,
		 * with no device yet): read now, once, only then.
		 */
		if ((!q || !*q->dev) && r->watching) {
			monitor_watch_now(&r->w);
			q = qp_of(r, b->arg);
		}
		if (!q)
			return;
	}
	p = b->kind == RECORD_BPF_FORK || b->kind == RECORD_BPF_EXEC ?
		record_proc_seen(r, (int)b->tgid, NULL) : proc_of(r, (int)b->tgid);
	diag_record_probed(b, r->watching ? &r->w.g : NULL, p ? &p->facts : NULL, &d);
	if (b->kind == RECORD_BPF_FORK || b->kind == RECORD_BPF_EXEC)
		record_proc_seen(r, (int)b->tgid, d.comm);
	o = record_line_begin(r);
	if (!o)
		return;
	record_stamp(r->boot_ns, b->ts_ns, t, sizeof(t));
	switch (b->kind) {
	case RECORD_BPF_FORK:
		view_record_process(o, t, "process-started", (int)b->tgid, d.comm, (int)b->arg, -1);
		break;
	case RECORD_BPF_EXEC:
		view_record_process(o, t, "process-exec", (int)b->tgid, d.comm, 0, -1);
		break;
	case RECORD_BPF_EXIT:
		view_record_process(o, t, "process-exited", (int)b->tgid, d.comm, 0, (int)b->arg);
		break;
	default:
		view_record_probed(o, t, b, &d, q);
		break;
	}
	record_line_end(r, o);
	if (b->kind == RECORD_BPF_WC)
		record_capture_mark(r, b->ts_ns);
}

void record_drain(struct record_run *r, struct record *probes)
{
	struct record_bpf_rec b;

	while (probes && record_next(probes, &b) > 0)
		probed(r, &b);
}
