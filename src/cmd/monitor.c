// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor: what changes, as it happens, until interrupted: devices, ports,
 * netdevs, GIDs, QPs and error counters, as its watch finds them
 * (diag/monitor_watch.h), a line or a JSON object each.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
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
	/* The QPs come from the RDMA netlink: without it there is nothing to watch. */
	err = cmd_netlink(ctx, &rdma);
	if (err)
		return err;
	src.nl = rdma;
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
