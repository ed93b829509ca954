// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * start and stop: rxe_cfg's boot-time workflow. Parse, call the operations,
 * print. start --watch stays, for where no systemd makes the links of a
 * netdev that comes later (a container, a pod on every node).
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "views/check.h"
#include "views/service.h"
#include "kernel/errname.h"
#include "kernel/nl.h"
#include "kernel/runloop.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "ops/service.h"
#include "ops/persist.h"
#include "ops/link.h"

/* start and stop take netdevs: each checked before anything is touched. */
static int check_netdevs(const struct cli_args *a)
{
	int err = 0;

	for (int i = 0; !err && i < a->argc; i++)
		err = cmd_valid_name(a, "netdev", a->argv[i], false);
	return err;
}

/*
 * start --watch reads the file again this often when nothing wakes it: a
 * link deleted by hand, an edit of the file (a ConfigMap's update).
 */
#define WATCH_TICK_MS 10000

/* A link of the file as start --watch last found it; MINE when this run made it. */
struct watched {
	char *name, *netdev;
	enum start_state state;
	bool mine;
};

struct watch {
	struct watched *w;
	size_t n;
	bool bad;		/* the file was malformed at the last reading: said once */
};

/* X's record, made (as START_ABSENT, nothing said yet) when it is new; NULL: out of memory. */
static struct watched *watched_of(struct watch *w, const struct conf_entry *x, bool *fresh)
{
	struct watched *grown;

	*fresh = false;
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->w[i].name, x->name) && !strcmp(w->w[i].netdev, x->netdev))
			return &w->w[i];
	grown = realloc(w->w, (w->n + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	w->w = grown;
	grown = &w->w[w->n];
	*grown = (struct watched){ strdup(x->name), strdup(x->netdev), START_ABSENT, false };
	if (!grown->name || !grown->netdev) {
		free(grown->name);
		free(grown->netdev);
		return NULL;
	}
	*fresh = true;
	w->n++;
	return grown;
}

/* O's record finished and flushed: a log's reader sees it at once. */
static int watch_flush(struct out *o)
{
	int err = out_finish(o);

	if (!err && fflush(stdout))
		err = -errno;
	return err;
}

/* One line (a JSON record) of W's changes. */
static int watch_print(struct cmd_ctx *ctx, struct watched **ch, size_t n, const char *word)
{
	struct out *o;

	if (!n)
		return 0;
	o = out_new(stdout, ctx->json, false);
	if (!o)
		return -ENOMEM;
	view_service_links_begin(o);
	for (size_t i = 0; i < n; i++)
		view_service_link(o, ch[i]->name, ch[i]->netdev,
				  word ? word : view_start_state(ch[i]->state));
	view_service_links_end(o);
	return watch_flush(o);
}

/*
 * The file read again and each of its links that does not run made, as
 * start does; what changed since the last pass is printed, a failure
 * explained when it is new. W remembers the links this run made.
 */
static int watch_pass(struct cmd_ctx *ctx, const struct cli_args *a, struct watch *w,
		      const struct conf *given, const enum start_state *given_state, bool *changed)
{
	struct conf c = { 0 };
	enum start_state *st = NULL;
	struct watched **ch = NULL;
	struct op_err e;
	struct nl *nl;
	size_t nch = 0;
	bool failed_anew = false, first = given != NULL;
	int err;

	if (!given) {
		err = persist_load(ctx->config, &c, &e);
		if (err) {
			if (!w->bad)
				cmd_fail(&e);
			w->bad = true;
			return 0;	/* the links made stay; the next edit may mend it */
		}
		w->bad = false;
		persist_only_netdevs(&c, a->argv, a->argc);
		st = calloc(c.n + 1, sizeof(*st));
		if (!st) {
			model_conf_free(&c);
			return -ENOMEM;
		}
		/* The handle's socket, which start opened before the watch began. */
		err = model_sys_rdma(&ctx->sys, &nl);
		if (err) {
			free(st);
			model_conf_free(&c);
			return err;
		}
		persist_start(nl, ctx->config, &c, st, &e);	/* each link's fate in ST */
		given = &c;
		given_state = st;
	}
	ch = calloc(given->n + 1, sizeof(*ch));
	for (size_t i = 0; ch && i < given->n; i++) {
		bool fresh;
		struct watched *x = watched_of(w, &given->e[i], &fresh);

		if (!x) {
			free(ch);
			ch = NULL;
			break;
		}
		if (given_state[i] == START_ADDED)
			x->mine = true;
		if (!fresh && x->state == given_state[i] && given_state[i] != START_ADDED)
			continue;
		failed_anew |= given_state[i] == START_FAILED;
		x->state = given_state[i];
		if (!first)
			ch[nch++] = x;	/* the first pass's links were printed by start */
	}
	err = ch ? watch_print(ctx, ch, nch, NULL) : -ENOMEM;
	*changed = nch > 0;
	if (failed_anew && st)
		cmd_fail(&e);
	free(ch);
	free(st);
	model_conf_free(&c);
	return err;
}

/* start --watch --check: check's verdicts on the host, as check prints them. */
static int watch_check(struct cmd_ctx *ctx)
{
	struct check_opts co = { .gid_index = -1 };
	struct out *o = out_new(stdout, ctx->json, false);
	struct check_ctx c;
	size_t count[4];

	if (!o)
		return -ENOMEM;
	checks_run(&co, &ctx->sys, &c);
	view_check(o, &c, count);
	check_ctx_free(&c);
	return watch_flush(o);
}

/*
 * At the end of start --watch: the links this run made that still run
 * deleted, or with --keep left, and said unless UNREAD (no one reads the
 * output any more). Its failures are said; -EPIPE is not one.
 */
static int watch_end(struct cmd_ctx *ctx, const struct cli_args *a, struct watch *w, bool unread)
{
	bool keep = cli_flag(a, "keep");
	struct watched **ch = calloc(w->n + 1, sizeof(*ch));
	struct model m = { 0 };
	size_t nch = 0;
	struct op_err e;
	struct nl *nl = NULL;
	int err, ret, bad = 0;

	if (!ch) {
		pr_err_cause("start --watch: cannot end", errname(ENOMEM), strerror(ENOMEM), NULL);
		return -ENOMEM;
	}
	ret = cmd_netlink(ctx, &nl);	/* said */
	if (!ret)
		ret = cmd_devices(ctx, &m);
	for (size_t i = 0; !ret && i < w->n; i++) {
		const struct rdma_dev *d;

		if (!w->w[i].mine)
			continue;
		/* Only the link it made: one of that name on that netdev still. */
		d = model_rxe_on(&m, w->w[i].netdev);
		if (!d || strcmp(d->name, w->w[i].name))
			continue;
		if (!keep && link_del(nl, d, &e)) {
			bad = cmd_fail(&e);
			continue;
		}
		ch[nch++] = &w->w[i];
	}
	err = unread ? 0 : watch_print(ctx, ch, nch, keep ? "kept" : "deleted");
	if (err && err != -EPIPE) {
		pr_err_cause("start --watch: cannot end", errname(-err), strerror(-err), NULL);
		ret = ret ? ret : err;
	}
	model_free(&m);
	free(ch);
	return ret ? ret : bad;
}

/*
 * start --watch: the start sequence printed at once, then a pass whenever a
 * netdev comes, goes or changes (route netlink's link group) and every
 * WATCH_TICK_MS, until SIGTERM or SIGINT, or until its output cannot be
 * written (the reader gone: EPIPE, no SIGPIPE); with --check, check's
 * verdicts after the first pass and after each that changed a link. However
 * the watch ends, its links are then dealt with (watch_end). 0, or the
 * first failure, said.
 */
static int start_watch(struct cmd_ctx *ctx, const struct cli_args *a, struct service_result *r)
{
	bool check = cli_flag(a, "check"), changed;
	struct runloop l;
	struct watch w = { 0 };
	struct nl *route = NULL;
	bool warned = false;
	struct out *o;
	int err, end;

	/* Held off but while it waits: a signal never falls between a test and the wait. */
	runloop_begin(&l, true);
	out_stream_begin();
	o = out_new(stdout, ctx->json, false);
	err = o ? 0 : -ENOMEM;
	if (o) {
		view_service_start(o, r);
		err = watch_flush(o);
	}
	if (!err)
		err = watch_pass(ctx, a, &w, &r->conf, r->state, &changed);
	if (!err && check)
		err = watch_check(ctx);
	if (!err && (nl_open(&route, NETLINK_ROUTE) || nl_join(route, RTNLGRP_LINK))) {
		nl_close(route);
		route = NULL;
	}
	while (!err && !runloop_asked()) {
		struct pollfd p = { .fd = route ? nl_fd(route) : -1, .events = POLLIN };
		int n;

		if (!route && !warned)
			pr_warn("start --watch: no route netlink notifications: a netdev that "
				"comes is seen within %d s", WATCH_TICK_MS / 1000);
		warned |= !route;
		n = runloop_wait(&l, &p, 1, WATCH_TICK_MS);
		if (n < 0 && n != -EINTR)
			err = n;
		if (n < 0 || runloop_asked())
			continue;
		if (n > 0 && nl_drain(route) < 0) {
			nl_close(route);
			route = NULL;
			continue;	/* warned at the top, read at once */
		}
		err = watch_pass(ctx, a, &w, NULL, NULL, &changed);
		if (!err && changed && check)
			err = watch_check(ctx);
	}
	nl_close(route);
	/* The reader gone ends the watch as a signal does; another failure is said. */
	if (err && err != -EPIPE)
		pr_err_cause("start --watch: cannot go on", errname(-err), strerror(-err), NULL);
	/* Its links dealt with whole: a second signal meanwhile is taken, not obeyed. */
	end = watch_end(ctx, a, &w, out_reader_gone(err));
	runloop_end(&l);
	for (size_t i = 0; i < w.n; i++) {
		free(w.w[i].name);
		free(w.w[i].netdev);
	}
	free(w.w);
	return err && err != -EPIPE ? err : end;
}

int cmd_start(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct service_result r;
	struct op_err e;
	int err = check_netdevs(a);

	if (err)
		return err;
	if ((cli_flag(a, "keep") || cli_flag(a, "check")) && !cli_flag(a, "watch"))
		return cli_usage(a, "--%s goes with --watch ('rdmactl check' checks at once)",
				 cli_flag(a, "keep") ? "keep" : "check");
	err = service_start(&ctx->sys, ctx->config, a->argv, a->argc, &r, &e);
	if (cli_flag(a, "watch") && r.links_done) {
		/* A link that failed is said, and tried again at every pass. */
		if (err)
			cmd_fail(&e);
		err = start_watch(ctx, a, &r);
		service_result_free(&r);
		return err;
	}
	view_service_start(ctx->out, &r);
	if (err)
		cmd_fail(&e);
	service_result_free(&r);
	return err;
}

int cmd_stop(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const struct rdma_dev **rxe = NULL;
	struct model m = { 0 };
	enum kmod_state after = KMOD_AVAILABLE;
	bool unload;
	char **mine = calloc(a->argc + 1, sizeof(*mine));
	size_t n = 0, nmine = 0;
	struct op_err e;
	struct nl *nl;
	int err = 0, ret = 0;

	err = check_netdevs(a);
	if (err || !mine) {
		free(mine);
		return err ? err : -ENOMEM;
	}
	err = cmd_netlink(ctx, &nl);
	if (!err)
		err = cmd_devices(ctx, &m);
	if (err) {
		free(mine);
		return err;
	}
	/* Netdevs named: their links only (a netdev without one has nothing to stop). */
	for (int i = 0; i < a->argc; i++)
		if (model_rxe_on(&m, a->argv[i]))
			mine[nmine++] = a->argv[i];
	if (!a->argc || nmine)
		err = link_pick(nl, &m, mine, nmine, true, cli_flag(a, "wait"), &rxe, &n, &e);
	if (err) {
		cmd_fail(&e);
		goto out;
	}
	view_stop_begin(ctx->out);
	for (size_t i = 0; i < n; i++) {
		if (link_del(nl, rxe[i], &e)) {
			ret = cmd_fail(&e);
			continue;
		}
		view_stop_deleted(ctx->out, rxe[i]->name);
	}
	/*
	 * rdma_rxe goes when nothing holds it; a busy module stays, and that is
	 * fine. Stopping some netdevs' links leaves it for the others.
	 */
	unload = !ret && !a->argc;
	err = unload ? service_unload_module("rdma_rxe", &after, &e) : 0;
	view_stop_end(ctx->out, unload, err, after);
	if (err && err != -EBUSY)
		ret = cmd_fail(&e);
	err = ret;
out:
	free(mine);
	free(rxe);
	model_free(&m);
	return err;
}
