// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor: what changes, as it happens, until interrupted: devices, ports,
 * netdevs, GIDs, QPs and error counters. Route netlink's link and address
 * notifications wake it at once (the GIDs follow the addresses); the rest
 * is read every MONITOR_TICK_MS (longer with thousands of QPs, whose dump
 * costs), which bounds an event's delay; the counters less often (snap).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/clock.h"
#include "kernel/nl.h"
#include "model/monitor.h"
#include "ops/explain.h"
#include "views/monitor.h"

#define MONITOR_TICK_MS 500
/*
 * A reading costs the kernel's dump of every QP: with thousands of QPs the
 * next reading waits this many times as long as the last one took of the
 * CPU, so that monitor keeps to some 5% of a core however many there are.
 */
#define MONITOR_COST_FACTOR 20

/* This process's CPU time, in ms (the kernel's work for its dumps included). */
static uint64_t cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct emitter {
	struct cmd_ctx *ctx;
	unsigned long left;	/* events still to print; 0: no limit */
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

	if (stop || em->err)
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
		stop = 1;
}

/*
 * A reading into S: the QPs from the netlink (open), the ports from sysfs;
 * their counters too when PREV is NULL, MONITOR_COUNTER_MS have passed since
 * *COUNTED, or a QP was made, moved or destroyed (its cause may be in
 * them), else PREV's carried over: sysfs's dozens of files a port are most
 * of a reading's cost, and nothing changed that they would explain.
 */
static int snap(struct cmd_ctx *ctx, const struct monitor_snap *prev, uint64_t *counted,
		struct monitor_snap *s)
{
	struct model_src src = cmd_model_src(ctx);
	bool counters;
	int err;

	memset(s, 0, sizeof(*s));
	s->ms = mono_ms();
	/*
	 * The QPs first: rxe counts a failure before it moves the QP to ERR,
	 * so counters read after the states are never older than them (a
	 * QP seen in ERR with the RNR counter still 0 was blamed on a local
	 * error in a whole run on 6.1).
	 */
	src.nl = ctx->nl;
	s->qs_ok = !model_load_qps(&src, NULL, &s->qs);
	src.nl = NULL;
	counters = !prev || s->ms - *counted >= MONITOR_COUNTER_MS || monitor_qps_changed(prev, s);
	err = model_load(&src, NULL, (struct model_ask){ .ports = MODEL_PORTS_STATES,
							 .counters = counters,
							 .mtu = MODEL_MTU_LINK }, &s->m);
	if (err) {
		model_qps_free(&s->qs);
		return err;
	}
	if (!counters) {
		err = monitor_carry_counters(prev, s);
		if (err) {
			monitor_snap_free(s);
			return err;
		}
	}
	if (counters)
		*counted = s->ms;
	return 0;
}

static int gids(struct cmd_ctx *ctx, struct model *m)
{
	struct model_src src = cmd_model_src(ctx);

	src.verbs = true;
	return model_load(&src, NULL, (struct model_ask){ .ports = MODEL_PORTS_STATES,
							  .gids = MODEL_GIDS_USED }, m);
}

/* A route netlink socket that the links' and addresses' changes wake; NULL when none can be had. */
static struct nl *route_events(void)
{
	static const unsigned int groups[] = { RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR,
					       RTNLGRP_IPV6_IFADDR };
	struct nl *r;

	if (nl_open(&r, NETLINK_ROUTE))
		return NULL;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (nl_join(r, groups[i])) {
			nl_close(r);
			return NULL;
		}
	return r;
}

int cmd_monitor(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct emitter em = { .ctx = ctx, .left = cli_num(a, "count", 0) };
	struct sigaction sa = { .sa_handler = on_signal };
	struct monitor_snap prev, now;
	struct monitor_memo memo = { 0 };
	struct model g, g2;
	struct op_err e;
	struct nl *route, *rdma;
	uint64_t next, cost, counted = 0;
	int err;

	if (*ctx->sysfs_root)
		return cli_usage(a, "monitor watches the running system: not with --sysfs-root");
	/* The QPs come from the RDMA netlink: without it there is nothing to watch. */
	err = cmd_netlink(ctx, &rdma);
	if (err)
		return err;
	stop = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	err = snap(ctx, NULL, &counted, &prev);
	if (err)
		return cmd_fail((explain_model_load(&e, err, ctx->sysfs_root, NULL), &e));
	if (gids(ctx, &g))
		memset(&g, 0, sizeof(g));
	route = route_events();
	if (!route)
		pr_warn("monitor: no route netlink notifications: GID changes are not followed");
	next = mono_ms() + MONITOR_TICK_MS;
	while (!stop && !em.err) {
		struct pollfd p = { .fd = route ? nl_fd(route) : -1, .events = POLLIN };
		uint64_t t = mono_ms();
		int n = poll(&p, 1, t >= next ? 0 : (int)(next - t));

		if (n < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (stop)
			break;
		if (n > 0 && nl_drain(route) > 0 && !gids(ctx, &g2)) {
			monitor_diff_gids(&g, &g2, emit, &em);
			model_free(&g);
			g = g2;
		}
		if (n <= 0 && mono_ms() < next)
			continue;
		cost = cpu_ms();
		if (snap(ctx, &prev, &counted, &now)) {
			next = mono_ms() + MONITOR_TICK_MS;
			continue;	/* sysfs mid-change: the next reading tells */
		}
		monitor_diff(&prev, &now, &memo, emit, &em);
		cost = cpu_ms() - cost;
		next = mono_ms() + (cost * MONITOR_COST_FACTOR > MONITOR_TICK_MS ?
				    cost * MONITOR_COST_FACTOR : MONITOR_TICK_MS);
		monitor_snap_free(&prev);
		prev = now;
	}
	monitor_snap_free(&prev);
	model_free(&g);
	monitor_memo_free(&memo);
	nl_close(route);
	if (em.err == -EPIPE)
		return 0;	/* the reader went away: a pipe to head, say */
	if (em.err || err) {
		op_err_set(&e, em.err ? em.err : err, NULL, "monitor: cannot go on");
		return cmd_fail(&e);
	}
	return 0;
}
