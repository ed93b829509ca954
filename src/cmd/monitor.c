// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor: what changes, as it happens, until interrupted: devices, ports,
 * netdevs, GIDs, QPs and error counters, as its watch finds them
 * (diag/monitor_watch.h), a line or a JSON object each; with --journal,
 * those and every process's refused calls and failed QPs as entries of the
 * systemd journal instead (cmd/monitor_journal.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "cmd/monitor.h"
#include "kernel/clock.h"
#include "kernel/nl.h"
#include "kernel/runloop.h"
#include "diag/monitor_watch.h"
#include "ops/op_err.h"
#include "views/monitor.h"

struct emitter {
	struct cmd_ctx *ctx;
	unsigned long left;	/* events still to print; 0: no limit */
	bool done;		/* --count's events printed */
	int err;
};

static void emit(const struct monitor_event *e, void *arg)
{
	struct emitter *em = arg;
	struct timespec now;
	struct tm tm;
	char t[40];
	struct out *o;
	int err;

	if (runloop_asked() || em->done || em->err)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(t + strlen(t), sizeof(t) - strlen(t), ".%03ldZ", now.tv_nsec / 1000000);
	o = out_new(stdout, em->ctx->json, false);
	if (!o) {
		em->err = -ENOMEM;
		return;
	}
	view_monitor_event(o, e, t);
	err = out_finish(o);
	if (!err && fflush(stdout))
		err = -errno;
	if (err)
		em->err = err;
	if (em->left && !--em->left)
		em->done = true;
}

/* monitor --journal's loop: until asked to stop, or the journal refuses an entry. */
static int journal(struct cmd_ctx *ctx, struct model_src *src)
{
	struct monitor_journal *j = calloc(1, sizeof(*j));
	struct monitor_watch w;
	struct runloop l;
	struct op_err e;
	int err;

	if (!j)
		return -ENOMEM;
	runloop_begin(&l, true);
	err = monitor_watch_start(&w, src, monitor_journal_event, j);
	if (err) {
		runloop_end(&l);
		free(j);
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, NULL), &e));
	}
	if (!monitor_watch_routes(&w))
		pr_warn("monitor: no route netlink notifications: GID changes are not followed");
	err = monitor_journal_begin(j, &w);
	while (!err && !j->err && !runloop_asked()) {
		struct pollfd p[MONITOR_WATCH_FDS + 1];
		int wait = monitor_watch_fds(&w, p), n;

		p[MONITOR_WATCH_FDS] = (struct pollfd){ .fd = monitor_journal_fd(j),
							.events = POLLIN };
		n = runloop_wait(&l, p, MONITOR_WATCH_FDS + 1, wait);
		if (n < 0 && n != -EINTR) {
			err = n;
			break;
		}
		if (runloop_asked())
			break;
		if (n > 0 && p[MONITOR_WATCH_FDS].revents)
			monitor_journal_drain(j);
		monitor_watch_step(&w, n > 0 ? p : NULL);
		monitor_journal_rearm(j);
	}
	monitor_journal_end(j);
	runloop_end(&l);
	monitor_watch_stop(&w);
	if (j->err) {
		op_err_set(&e, j->err, NULL, "monitor: cannot write to the journal: %s", j->why);
		free(j);
		return cmd_fail(&e);
	}
	free(j);
	if (err) {
		op_err_set(&e, err, NULL, "monitor: cannot go on");
		return cmd_fail(&e);
	}
	return 0;
}

int cmd_monitor(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct emitter em = { .ctx = ctx, .left = cli_num(a, "count", 0) };
	struct model_src src = cmd_model_src(ctx);
	struct monitor_watch w;
	struct runloop l;
	struct op_err e;
	struct nl *rdma;
	int err;

	if (!model_sys_live(&ctx->sys))
		return cli_usage(a, "monitor watches the running system: not with --sysfs-root");
	if (cli_flag(a, "journal") && cli_flag(a, "count"))
		return cli_usage(a, "--journal writes until stopped: not with --count");
	/* The QPs come from the RDMA netlink: without it there is nothing to watch. */
	err = cmd_netlink(ctx, &rdma);
	if (err)
		return err;
	src.nl = rdma;
	if (cli_flag(a, "journal"))
		return journal(ctx, &src);
	runloop_begin(&l, true);
	out_stream_begin();	/* a reader that goes (a pipe to head) ends it, quietly */
	err = monitor_watch_start(&w, &src, emit, &em);
	if (err) {
		runloop_end(&l);
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, NULL), &e));
	}
	if (!monitor_watch_routes(&w))
		pr_warn("monitor: no route netlink notifications: GID changes are not followed");
	while (!runloop_asked() && !em.done && !em.err) {
		struct pollfd p[MONITOR_WATCH_FDS];
		int n = runloop_wait(&l, p, MONITOR_WATCH_FDS, monitor_watch_fds(&w, p));

		if (n < 0 && n != -EINTR) {
			err = n;
			break;
		}
		if (runloop_asked())
			break;
		monitor_watch_step(&w, n > 0 ? p : NULL);
	}
	runloop_end(&l);
	monitor_watch_stop(&w);
	if (out_reader_gone(em.err))
		return 0;
	if (em.err || err) {
		op_err_set(&e, em.err ? em.err : err, NULL, "monitor: cannot go on");
		return cmd_fail(&e);
	}
	return 0;
}
