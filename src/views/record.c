// SPDX-License-Identifier: GPL-2.0-or-later
/* record's lines, and the report made of them (record.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "cli/github.h"
#include "cli/junit.h"
#include "cli/out.h"
#include "kernel/errname.h"
#include "model/gid.h"
#include "views/qp.h"
#include "views/record.h"

void view_record_started(struct out *o, const char *time, const struct view_record_start *s)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "record-started");
	out_arr_open(o, "command");
	for (size_t i = 0; s->argv[i]; i++)
		out_str(o, NULL, " %s", s->argv[i]);
	out_arr_close(o);
	out_s64(o, "pid", " pid %" PRId64, s->pid);
	out_str(o, "host", " on %s", s->host);
	out_obj_open(o, "sees");
	out_bool(o, "verbs", NULL, s->verbs);
	out_bool(o, "rdma_cm", NULL, s->rdma_cm);
	out_bool(o, "qps", NULL, s->qps);
	out_obj_close(o);
	out_str(o, "probes", NULL, s->probes);
	if (s->gids) {
		out_arr_open(o, "gids");
		for (size_t d = 0; d < s->gids->n; d++)
			for (size_t k = 0; k < s->gids->devs[d].nports; k++) {
				const struct port *p = &s->gids->devs[d].ports[k];

				for (size_t i = 0; i < p->ngids; i++) {
					char gid[64];

					if (p->gids[i].empty)
						continue;
					model_gid_to_sysfs(p->gids[i].raw, gid);
					out_str(o, NULL, NULL, gid);
				}
			}
		out_arr_close(o);
	} else {
		out_str(o, "gids", NULL, NULL);
	}
	out_str(o, "unseen", s->why_not ? "; not seen: %s" : NULL, s->why_not);
	out_nl(o);
	out_obj_close(o);
}

void view_record_process(struct out *o, const char *time, const char *event, int pid,
			 const char *comm, int ppid, int status)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", event);
	out_s64(o, "pid", " pid %" PRId64, pid);
	out_str(o, "comm", " (%s)", comm);
	if (ppid > 0)
		out_s64(o, "ppid", " from %" PRId64, ppid);
	if (status >= 0) {
		if (WIFSIGNALED(status))
			out_s64(o, "signal", " killed by signal %" PRId64, WTERMSIG(status));
		else
			out_s64(o, "status", " status %" PRId64, WEXITSTATUS(status));
	}
	out_nl(o);
	out_obj_close(o);
}

static void verdict(struct out *o, const struct diag_record_verdict *v)
{
	out_str(o, "cause", ": %s", v->cause);
	out_str(o, "certainty", " (%s", v->sure ? "certain" : "likely");
	out_str(o, "evidence", ": %s)", v->evidence);
	out_str(o, "fix", *v->fix ? "; fix: %s" : NULL, *v->fix ? v->fix : NULL);
}

void view_record_refused(struct out *o, const char *time, int pid, int tid, const char *comm,
			 const struct uverbs_call *c, int err, bool probe,
			 const struct diag_record_verdict *v)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "verb-refused");
	out_s64(o, "pid", " pid %" PRId64, pid);
	out_s64(o, "tid", NULL, tid);
	out_str(o, "comm", " (%s)", comm);
	out_str(o, "verb", " %s", c->verb);
	out_str(o, "call", " (%s)", c->cmd);
	out_str(o, "errno", " %s", errname(err));
	out_s64(o, "error", NULL, err);
	if (c->modify_qp) {
		char gid[64];

		out_obj_open(o, "modify_qp");
		out_u64(o, "attr_mask", NULL, c->attr_mask);
		out_str(o, "qp_state", " to %s", uverbs_qp_state_name(c->qp_state));
		out_u64(o, "dest_qp_num", NULL, c->dest_qp_num);
		out_u64(o, "path_mtu", NULL, c->path_mtu);
		out_bool(o, "is_global", NULL, c->is_global);
		out_u64(o, "sgid_index", NULL, c->sgid_index);
		model_gid_to_sysfs(c->dgid, gid);
		out_str(o, "dgid", NULL, gid);
		out_u64(o, "port_num", NULL, c->port_num);
		out_obj_close(o);
	}
	if (c->reg_mr) {
		out_obj_open(o, "reg_mr");
		out_u64(o, "length", " of %" PRIu64 " bytes", c->mr_length);
		out_u64(o, "access", NULL, c->access);
		out_obj_close(o);
	}
	if (c->create_cq) {
		out_obj_open(o, "create_cq");
		out_u64(o, "cqe", NULL, c->cqe);
		out_obj_close(o);
	}
	if (c->create_qp) {
		out_obj_open(o, "create_qp");
		out_u64(o, "qp_type", NULL, c->qp_type);
		out_u64(o, "max_send_wr", NULL, c->max_send_wr);
		out_u64(o, "max_recv_wr", NULL, c->max_recv_wr);
		out_u64(o, "max_send_sge", NULL, c->max_send_sge);
		out_u64(o, "max_recv_sge", NULL, c->max_recv_sge);
		out_u64(o, "max_inline_data", NULL, c->max_inline);
		out_obj_close(o);
	}
	out_bool(o, "probe", probe ? " (a probe of the library's, which it goes on from)" : NULL,
		 probe);
	if (!probe)
		verdict(o, v);
	out_nl(o);
	out_obj_close(o);
}

void view_record_cm_event(struct out *o, const char *time, int pid, const char *comm,
			  const struct uverbs_cm_event *e, bool failed,
			  const struct diag_record_verdict *v)
{
	const char *name = uverbs_cm_event_name(e->event);

	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "cm-event");
	out_s64(o, "pid", " pid %" PRId64, pid);
	out_str(o, "comm", " (%s)", comm);
	if (name)
		out_str(o, "cm_event", " %s", name);
	else
		out_u64(o, "cm_event", " event %" PRIu64, e->event);
	out_s64(o, "status", " status %" PRId64, e->status);
	out_bool(o, "failed", NULL, failed);
	if (failed)
		verdict(o, v);
	out_nl(o);
	out_obj_close(o);
}

void view_record_qp_error(struct out *o, const char *time, const struct rdma_qp *qp,
			  unsigned int status, const char *name, unsigned int opcode,
			  unsigned int vendor_err, const struct diag_record_verdict *v)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "qp-error");
	out_str(o, "ifname", " %s", qp->dev);
	out_u64(o, "qpn", " qpn %" PRIu64, qp->qpn);
	out_str(o, "type", " %s", model_qp_type_name(qp->type));
	view_qp_owner(o, "owner", " ", qp);
	if (name)
		out_str(o, "status", " %s", name);
	else
		out_u64(o, "status", " status %" PRIu64, status);
	out_u64(o, "wc_status", NULL, status);
	out_u64(o, "opcode", NULL, opcode);
	out_u64(o, "vendor_err", NULL, vendor_err);
	if (*v->cause)
		verdict(o, v);
	out_nl(o);
	out_obj_close(o);
}

void view_record_qp_modified(struct out *o, const char *time, long qpn, const struct rdma_qp *owner,
			     const struct uverbs_call *c)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "qp-modified");
	out_str(o, "ifname", " %s", owner->dev);
	if (qpn >= 0)
		out_u64(o, "qpn", " qpn %" PRIu64, (uint64_t)qpn);
	else
		out_str(o, "qpn", " qpn %s", NULL);
	out_u64(o, "handle", NULL, c->qp_handle);
	view_qp_owner(o, "owner", " ", owner);
	out_str(o, "state", " to %s", (c->attr_mask & UVERBS_QP_STATE) ?
		uverbs_qp_state_name(c->qp_state) : NULL);
	if (c->attr_mask & UVERBS_QP_DEST_QPN)
		out_u64(o, "dest_qpn", ", its peer QP %" PRIu64, c->dest_qp_num);
	else
		out_str(o, "dest_qpn", NULL, NULL);
	if ((c->attr_mask & UVERBS_QP_AV) && c->is_global) {
		char gid[64];

		model_gid_to_sysfs(c->dgid, gid);
		out_str(o, "dgid", " at GID %s", gid);
		out_u64(o, "sgid_index", " from GID index %" PRIu64, c->sgid_index);
	} else {
		out_str(o, "dgid", NULL, NULL);
		out_str(o, "sgid_index", NULL, NULL);
	}
	out_nl(o);
	out_obj_close(o);
}

void view_record_qp_made(struct out *o, const char *time, const struct rdma_qp *qp)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "qp-made");
	out_str(o, "ifname", " %s", qp->dev);
	out_u64(o, "qpn", " qpn %" PRIu64, qp->qpn);
	out_str(o, "type", " %s", model_qp_type_name(qp->type));
	view_qp_owner(o, "owner", " ", qp);
	out_nl(o);
	out_obj_close(o);
}

void view_record_probed(struct out *o, const char *time, const struct record_bpf_rec *b,
			const struct diag_probed *d, const struct rdma_qp *qp)
{
	switch (b->kind) {
	case RECORD_BPF_WC:
		view_record_qp_error(o, time, qp, d->status, d->status_name, d->opcode,
				     d->vendor_err, &d->v);
		break;
	case RECORD_BPF_UVERBS_WRITE:
	case RECORD_BPF_UVERBS_IOCTL:
	case RECORD_BPF_UCMA_WRITE:
		view_record_refused(o, time, (int)b->tgid, (int)b->tid, d->comm, &d->call, b->ret,
				    d->probe, &d->v);
		break;
	case RECORD_BPF_UCMA_EVENT:
		if (d->ev_read)
			view_record_cm_event(o, time, (int)b->tgid, d->comm, &d->ev, d->failed,
					     &d->v);
		break;
	}
}

void view_record_ended(struct out *o, const char *time, int status, bool timed_out,
		       uint64_t lost)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "record-ended");
	if (WIFSIGNALED(status))
		out_s64(o, "signal", " killed by signal %" PRId64, WTERMSIG(status));
	else
		out_s64(o, "status", " status %" PRId64, WEXITSTATUS(status));
	out_bool(o, "timed_out", NULL, timed_out);
	if (timed_out)
		out_text(o, " (its --timeout ran out)");
	out_u64(o, "lost", lost ? "; %" PRIu64 " records lost" : NULL, lost);
	out_nl(o);
	out_obj_close(o);
}

void view_record_packets(struct out *o, const char *time, const struct view_record_packets *p)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "packets");
	out_u64(o, "packets", " %" PRIu64, p->packets);
	out_str(o, "file", " in %s", p->file);
	out_u64(o, "errors", " around %" PRIu64 " errors", p->errors);
	out_u64(o, "devices", " of %" PRIu64 " rxe devices", (uint64_t)p->devices);
	out_u64(o, "dropped", "; %" PRIu64 " dropped by the kernel", p->dropped);
	out_u64(o, "overwritten", ", %" PRIu64 " given up unasked", p->overwritten);
	out_nl(o);
	out_obj_close(o);
}

/* "exited 1", "was killed by signal 9" of wait status S. */
static void how_ended(char *buf, size_t len, int s)
{
	if (WIFSIGNALED(s))
		snprintf(buf, len, "was killed by signal %d", WTERMSIG(s));
	else
		snprintf(buf, len, "exited %d", WEXITSTATUS(s));
}

/*
 * F's peer, when it has one: which QP, whose, where (its host and record),
 * and which end went first: its own failure or its process's end, before
 * or after F.
 */
static void peer(struct out *o, const struct model_record_failure *f)
{
	const struct model_record_peer *p = &f->peer;
	char how[96] = "";

	if (!f->paired) {
		out_str(o, "peer", NULL, NULL);
		return;
	}
	if (*p->ended)
		how_ended(how, sizeof(how), p->end_status);
	out_obj_open(o, "peer");
	out_u64(o, "qpn", "      peer: QP %" PRIu64, (uint64_t)p->qpn);
	out_s64(o, "pid", " of pid %" PRId64, p->pid);
	out_str(o, "comm", " (%s)", *p->comm ? p->comm : NULL);
	out_str(o, "host", " on %s", *p->rec->host ? p->rec->host : NULL);
	out_str(o, "file", " in %s", p->rec->path);
	out_bool(o, "first", NULL, p->first);
	if (p->by_end)
		out_text(o, ": its process %s first, at %s", how, p->ended);
	else if (p->failed)
		out_text(o, ": it failed %s, at %s: %s", p->first ? "first" : "after this one",
			 p->failed->time, p->failed->what);
	else
		out_text(o, ": no failure of it in its record");
	out_str(o, "failed_at", NULL, p->failed ? p->failed->time : NULL);
	out_str(o, "failed", NULL, p->failed ? p->failed->what : NULL);
	out_str(o, "ended_at", NULL, *p->ended ? p->ended : NULL);
	out_str(o, "ended", NULL, *p->ended ? how : NULL);
	out_nl(o);
	out_obj_close(o);
}

void view_record_report(struct out *o, const struct model_record *r)
{
	char ended[96] = "has no end in the record (record was killed, or is still running)";
	size_t shown = 0;

	if (r->ended)
		how_ended(ended, sizeof(ended), r->status);
	out_obj_open(o, NULL);
	out_str(o, "file", "%s: ", r->path);
	out_str(o, "command", "%s ", r->command);
	out_text(o, "%s", ended);
	out_bool(o, "ended", NULL, r->ended);
	if (r->ended) {
		if (WIFSIGNALED(r->status))
			out_s64(o, "signal", NULL, WTERMSIG(r->status));
		else
			out_s64(o, "status", NULL, WEXITSTATUS(r->status));
	}
	out_bool(o, "timed_out", NULL, r->timed_out);
	if (r->timed_out)
		out_text(o, " (its --timeout ran out)");
	out_u64(o, "lost", r->lost ? "; %" PRIu64 " records lost" : NULL, r->lost);
	out_u64(o, "unreadable_lines", r->bad ? "; %" PRIu64 " lines unreadable" : NULL, r->bad);
	out_nl(o);
	out_str(o, "unseen", *r->unseen ? "  not seen: %s\n" : NULL, *r->unseen ? r->unseen : NULL);
	out_arr_open(o, "failures");
	for (size_t i = 0; i < r->n; i++) {
		const struct model_record_failure *f = &r->f[i];

		if (f->follows && !out_is_json(o))
			continue;
		shown++;
		out_obj_open(o, NULL);
		out_str(o, "time", "FAIL  %s  ", f->time);
		if (f->pid >= 0)
			out_s64(o, "pid", "pid %" PRId64, f->pid);
		else
			out_str(o, "pid", NULL, NULL);
		out_str(o, "comm", " (%s)", *f->comm ? f->comm : NULL);
		out_str(o, "what", ": %s\n", f->what);
		out_str(o, "cause", "      cause: %s\n", f->cause);
		out_str(o, "certainty", "      (%s", f->sure ? "certain" : "likely");
		out_str(o, "evidence", ": %s)\n", f->evidence);
		out_str(o, "fix", *f->fix ? "      fix: %s\n" : NULL, *f->fix ? f->fix : NULL);
		out_bool(o, "follows", NULL, f->follows);
		peer(o, f);
		out_obj_close(o);
	}
	out_arr_close(o);
	if (!shown && !out_is_json(o))
		out_text(o, "nothing failed that record could see\n");
	if (*r->pcap) {
		out_obj_open(o, "packets");
		out_u64(o, "count", "packets: %" PRIu64, (uint64_t)r->packets);
		out_str(o, "file", " of its QPs and their peers around the errors in %s", r->pcap);
		out_text(o, " ('rdmactl capture --read FILE --qp QPN' shows a QP's; tshark reads it)\n");
		out_obj_close(o);
	} else {
		out_str(o, "packets", NULL, NULL);
	}
	out_obj_close(o);
}

void view_record_reports_begin(struct out *o)
{
	out_arr_open(o, NULL);
}

void view_record_reports_end(struct out *o)
{
	out_arr_close(o);
}

/* "cause: ...\nevidence: ...\nfix: ..." of F: free it; NULL without memory. */
static char *said(const struct model_record_failure *f)
{
	char *t;

	if (asprintf(&t, "pid %ld (%s): %s\ncause: %s\n%s: %s%s%s", f->pid, f->comm, f->what,
		     f->cause, f->sure ? "certain" : "likely", f->evidence, *f->fix ? "\nfix: " : "",
		     f->fix) < 0)
		return NULL;
	return t;
}

int view_record_junit(FILE *f, const struct model_record *r, size_t n)
{
	size_t max = 0, k = 0;
	struct junit_case *c;
	char (*cls)[96];
	int err = 0;

	for (size_t i = 0; i < n; i++)
		max += r[i].n + 1;
	c = calloc(max ? max : 1, sizeof(*c));
	cls = calloc(max ? max : 1, sizeof(*cls));
	if (!c || !cls)
		err = -ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		size_t first = k;

		for (size_t j = 0; !err && j < r[i].n; j++) {
			const struct model_record_failure *x = &r[i].f[j];

			if (x->follows)
				continue;
			snprintf(cls[k], sizeof(cls[k]), "rdmactl.record.%s", *x->comm ? x->comm : "?");
			c[k] = (struct junit_case){ .classname = cls[k], .name = x->what,
						    .result = JUNIT_FAIL, .message = x->cause,
						    .text = said(x) };
			if (!c[k++].text)
				err = -ENOMEM;
		}
		if (k == first) {
			snprintf(cls[k], sizeof(cls[k]), "rdmactl.record");
			c[k++] = (struct junit_case){ .classname = cls[first], .name = *r[i].command ?
						      r[i].command : r[i].path,
						      .result = JUNIT_PASS };
		}
	}
	if (!err)
		err = junit_write(f, "rdmactl report", c, k);
	for (size_t i = 0; c && i < k; i++)
		free((char *)c[i].text);
	free(c);
	free(cls);
	return err;
}

void view_record_annotations(FILE *f, const struct model_record *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct model_record_failure *x = &r->f[i];
		char title[96], *cause = NULL, *fix = NULL;
		const char *lines[3] = { x->what };
		size_t n = 1;

		if (x->follows)
			continue;
		snprintf(title, sizeof(title), "rdmactl record: %s", *x->comm ? x->comm : "?");
		if (asprintf(&cause, "cause: %s (%s: %s)", x->cause, x->sure ? "certain" : "likely",
			     x->evidence) >= 0)
			lines[n++] = cause;
		else
			cause = NULL;
		if (*x->fix && asprintf(&fix, "fix: %s", x->fix) >= 0)
			lines[n++] = fix;
		else
			fix = NULL;
		github_annotation(f, "error", title, lines, n);
		free(cause);
		free(fix);
	}
	fflush(f);
}
