// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor --journal (cmd/monitor.h): each failure of a program (a verbs or
 * rdma_cm call the kernel refused, an rdma_cm event in error, a QP's first
 * completion in error, a QP moved to error or resending with no answer)
 * and each change of the host's (devices, ports, netdevs, GIDs, error
 * counters) an entry of the systemd journal: its line as monitor -j and
 * record write it, MESSAGE its plain text, and the object's members as
 * fields of their own (cli/journal.h), so that journalctl finds them by
 * RDMACTL_PID=, RDMACTL_QPN=, RDMACTL_CAUSE=, and check reads them later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/journal.h"
#include "cli/out.h"
#include "cmd/monitor.h"
#include "cmd/record.h"
#include "diag/record.h"
#include "kernel/clock.h"
#include "model/qp.h"
#include "views/monitor.h"
#include "views/record.h"

/* PRIORITY=: syslog's warning for a failure, notice for a counter, info for the rest. */
#define PRIO_FAILURE "4"
#define PRIO_COUNTER "5"
#define PRIO_INFO "6"

typedef void (*render_fn)(struct out *o, const void *arg, const char *time);

/* What RENDER writes, as JSON (JSON) or plain text, into *TEXT (the caller frees it). */
static int rendered(render_fn render, const void *arg, const char *time, bool json, char **text)
{
	size_t len = 0;
	FILE *m = open_memstream(text, &len);
	struct out *o;
	int err;

	*text = NULL;
	if (!m)
		return -ENOMEM;
	o = out_new(m, json, false);
	if (!o) {
		fclose(m);
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	render(o, arg, time);
	err = out_finish(o);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (err) {
		free(*text);
		*text = NULL;
		return err;
	}
	(*text)[strcspn(*text, "\n")] = '\0';
	return 0;
}

/* One entry: RENDER's line, of kind ID (kernel/journal.h), at PRIORITY. */
static void send_entry(struct monitor_journal *j, const char *id, const char *priority,
		       render_fn render, const void *arg, const char *time)
{
	struct out_journal e;
	char *json = NULL, *plain = NULL;
	int err;

	if (j->err)
		return;
	err = rendered(render, arg, time, true, &json);
	if (!err)
		err = rendered(render, arg, time, false, &plain);
	if (!err)
		err = out_journal_make(&e, json, plain);
	if (!err) {
		out_journal_add(&e, "MESSAGE_ID", id);
		out_journal_add(&e, "PRIORITY", priority);
		out_journal_add(&e, "SYSLOG_IDENTIFIER", JOURNAL_IDENT);
		err = journal_send(e.f, e.n, j->why);
		out_journal_free(&e);
		if (!err)
			j->sent++;
	} else {
		snprintf(j->why, sizeof(j->why), "cannot make the entry: %s", strerror(-err));
	}
	free(json);
	free(plain);
	if (err)
		j->err = err;
}

static void render_started(struct out *o, const void *arg, const char *time)
{
	const struct monitor_journal *j = arg;

	view_monitor_started(o, time, j->sees.uverbs, j->sees.ucma, j->sees.wc, j->w != NULL,
			     *j->unseen ? j->unseen : NULL);
}

int monitor_journal_begin(struct monitor_journal *j, struct monitor_watch *w)
{
	char t[40];

	memset(j, 0, sizeof(*j));
	j->w = w;
	j->boot_ns = mono_epoch_us() * 1000;
	j->probes = record_arm(RECORD_HOST, &j->sees, j->unseen, sizeof(j->unseen));
	if (*j->unseen)
		pr_warn("monitor: not seen: %s", j->unseen);
	record_stamp(j->boot_ns, 0, t, sizeof(t));
	send_entry(j, JOURNAL_ID_STARTED, PRIO_INFO, render_started, j, t);
	return j->err;
}

void monitor_journal_rearm(struct monitor_journal *j)
{
	char unseen[sizeof(j->unseen)], t[40];

	if (!j->rearm)
		return;
	j->rearm = false;
	monitor_journal_drain(j);
	record_close(j->probes);
	j->probes = record_arm(RECORD_HOST, &j->sees, unseen, sizeof(unseen));
	/* What it cannot see now said when it differs from what it said. */
	if (strcmp(unseen, j->unseen) && *unseen)
		pr_warn("monitor: not seen: %s", unseen);
	memcpy(j->unseen, unseen, sizeof(unseen));
	/* What it sees from now on, as at its start. */
	record_stamp(j->boot_ns, 0, t, sizeof(t));
	send_entry(j, JOURNAL_ID_STARTED, PRIO_INFO, render_started, j, t);
}

int monitor_journal_fd(const struct monitor_journal *j)
{
	return j->probes ? record_fd(j->probes) : -1;
}

static void render_event(struct out *o, const void *arg, const char *time)
{
	view_monitor_event(o, arg, time);
}

void monitor_journal_event(const struct monitor_event *e, void *arg)
{
	struct monitor_journal *j = arg;
	const char *id = JOURNAL_ID_CHANGE, *prio = PRIO_INFO;
	char t[40];

	switch (e->kind) {
	case MON_QP_CREATED:
	case MON_QP_STATE:
		/* A QP's life is no news; its move to error is. */
		if (!e->diag)
			return;
		/* fall through */
	case MON_QP_STALLED:
		id = JOURNAL_ID_FAILURE;
		prio = PRIO_FAILURE;
		break;
	case MON_QP_DESTROYED:
		return;
	case MON_COUNTER:
		prio = PRIO_COUNTER;
		break;
	default:
		break;
	}
	record_stamp(j->boot_ns, 0, t, sizeof(t));
	send_entry(j, id, prio, render_event, e, t);
	/*
	 * rdma_rxe loaded again (its kprobe went with it) or for the first
	 * time: the probes armed anew, what the old ones had read first.
	 */
	if (e->kind == MON_DEVICE_ADDED)
		j->rearm = true;
}

struct probed {
	const struct record_bpf_rec *b;
	const struct diag_probed *d;
	const struct rdma_qp *qp;
};

static void render_probed(struct out *o, const void *arg, const char *time)
{
	const struct probed *p = arg;

	view_record_probed(o, time, p->b, p->d, p->qp);
}

/* The QP numbered QPN in the watch's last reading, or NULL. */
static const struct rdma_qp *qp_of(const struct monitor_journal *j, uint32_t qpn)
{
	const struct model_qps *now = &j->w->prev.read.qs;

	for (size_t i = 0; i < now->n; i++)
		if (now->v[i].qpn == qpn)
			return &now->v[i];
	return NULL;
}

/* One record of the probes: an entry when it tells of a failure. */
static void probed(struct monitor_journal *j, const struct record_bpf_rec *b)
{
	struct rdma_qp unknown = { .qpn = b->arg, .type = 0xff }, named, *made;
	struct diag_probed d;
	struct probed p = { b, &d, NULL };
	char t[40];

	made = &j->made[b->arg % MONITOR_JOURNAL_MADE];
	if (b->kind == RECORD_BPF_QP_MADE) {
		*made = (struct rdma_qp){ .qpn = b->arg, .type = (uint8_t)b->ret, .pid = b->tgid,
					  .peer = -1 };
		memcpy(made->comm, b->comm, sizeof(b->comm));
		made->comm[sizeof(b->comm)] = '\0';
		if (record_rdev_name(b->rdev, made->dev, sizeof(made->dev)) < 0)
			made->dev[0] = '\0';
		return;
	}
	diag_record_probed(b, &j->w->g, NULL, &d);
	if (!d.failed)
		return;
	if (b->kind == RECORD_BPF_WC) {
		p.qp = qp_of(j, b->arg);
		/* A QP made since the last reading: read now, once, only then. */
		if (!p.qp) {
			monitor_watch_now(j->w);
			p.qp = qp_of(j, b->arg);
		}
		/*
		 * Made and gone between two readings, or its owner gone before
		 * the reading read its command (a program that exits on its
		 * first error): the owner as the probes saw it made.
		 */
		p.qp = model_qp_named(p.qp, made, b->arg, &named);
		if (!p.qp)
			p.qp = &unknown;
	}
	record_stamp(j->boot_ns, b->ts_ns, t, sizeof(t));
	send_entry(j, JOURNAL_ID_FAILURE, PRIO_FAILURE, render_probed, &p, t);
}

void monitor_journal_drain(struct monitor_journal *j)
{
	struct record_bpf_rec b;

	while (j->probes && !j->err && record_next(j->probes, &b) > 0)
		probed(j, &b);
}

void monitor_journal_end(struct monitor_journal *j)
{
	monitor_journal_drain(j);
	record_close(j->probes);
	j->probes = NULL;
}
