// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record -- CMD: CMD run as it is (its streams, terminal, environment; its
 * exit status passed through, the signals sent to record forwarded), and
 * what its processes' RDMA did written as it happens, a JSON object a
 * line: each verbs or rdma_cm call of theirs the kernel refused and each
 * rdma_cm event, from an eBPF program on the kernel's handlers
 * (kernel/record.h); their QPs made, moved, failed and destroyed and the
 * host's devices, ports, GIDs and counters, from monitor's watch
 * (diag/monitor_watch.h). At its end, the report of that file on stderr,
 * as report FILE reads it later, anywhere (cmd/report.c).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "cmd/record.h"
#include "diag/monitor_watch.h"
#include "diag/record.h"
#include "kernel/clock.h"
#include "kernel/errname.h"
#include "kernel/record.h"
#include "kernel/safe.h"
#include "kernel/spawn.h"
#include "kernel/uverbs.h"
#include "model/record.h"
#include "ops/module.h"
#include "ops/op_err.h"
#include "views/monitor.h"
#include "views/record.h"

#define RECORD_DEFAULT_FILE "rdmactl-record.jsonl"
/* After --timeout's SIGTERM, this long before SIGKILL. */
#define RECORD_KILL_MS 2000
/*
 * record's own niceness, once the command is forked with its own: record
 * watches, the command works. Where the two contend for the CPUs (the two
 * busy-polling ends of a ping-pong on two), record's readings (a QP dump at
 * each of the command's QPs' changes) wait for the command, not the other
 * way round; its probes' records wait in their ring meanwhile.
 */
#define RECORD_NICE 10

static const char *const record_modules[] = { "ib_uverbs", "rdma_ucm", "rdma_rxe" };

struct record *record_arm(enum record_scope scope, struct record_sees *sees, char *unseen,
			  size_t len)
{
	char why[RECORD_WHY_MAX];
	struct record *probes;
	int err;

	/* The modules whose handlers the probes take, loaded as rdma-core loads them at boot. */
	module_load_missing(record_modules, sizeof(record_modules) / sizeof(record_modules[0]));
	err = record_open(&probes, scope, sees, why);
	if (err) {
		snprintf(unseen, len, "refused verbs, rdma_cm events%s (%s: %s)",
			 scope == RECORD_TREE ? " and the process tree" : ", QPs' error completions",
			 errname(err), why);
		return NULL;
	}
	if (!sees->uverbs)
		snprintf(unseen, len, "refused verbs (ib_uverbs is not loaded)");
	if (!sees->ucma)
		snprintf(unseen + strlen(unseen), len - strlen(unseen), "%srdma_cm's calls and "
			 "events (rdma_ucm is not loaded)", *unseen ? "; " : "");
	if (!sees->wc)
		snprintf(unseen + strlen(unseen), len - strlen(unseen), "%sQPs' error completions "
			 "(rdma_rxe is not loaded)", *unseen ? "; " : "");
	return probes;
}

/* Every process of the tree sent SIG. */
static void signal_tree(const struct record_run *r, int sig)
{
	for (size_t i = 0; i < r->nprocs; i++)
		kill(r->procs[i].pid, sig);
}

struct waited {
	bool done, timed_out;
	int status;
};

/* CMD run and recorded into R until it ends (or TIMEOUT_S, 0: none, ends it). */
static void run(struct record_run *r, struct record *probes, pid_t pid, int sfd,
		unsigned long timeout_s, struct waited *w)
{
	uint64_t deadline = timeout_s ? mono_ms() + timeout_s * 1000 : 0, kill_at = 0;

	while (!w->done) {
		struct pollfd p[MONITOR_WATCH_FDS + 2 + RECORD_CAPTURE_FDS];
		int wait = r->watching ? monitor_watch_fds(&r->w, p) : 1000, n;
		uint64_t now = mono_ms();

		if (!r->watching)
			for (int i = 0; i < MONITOR_WATCH_FDS; i++)
				p[i] = (struct pollfd){ .fd = -1 };
		p[MONITOR_WATCH_FDS] = (struct pollfd){ .fd = probes ? record_fd(probes) : -1,
							.events = POLLIN };
		p[MONITOR_WATCH_FDS + 1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		record_capture_fds(r, p + MONITOR_WATCH_FDS + 2);
		if (deadline && !w->timed_out)
			wait = now >= deadline ? 0 : (int)(deadline - now) < wait ?
				(int)(deadline - now) : wait;
		if (kill_at)
			wait = now >= kill_at ? 0 : (int)(kill_at - now) < wait ?
				(int)(kill_at - now) : wait;
		n = poll(p, MONITOR_WATCH_FDS + 2 + RECORD_CAPTURE_FDS, wait);
		if (n < 0 && errno != EINTR)
			break;
		/* The packets first: an error's line written next asks for those before it. */
		record_capture_read(r);
		if (n > 0 && p[MONITOR_WATCH_FDS].revents)
			record_drain(r, probes);
		if (n > 0 && p[MONITOR_WATCH_FDS + 1].revents && !w->done)
			w->done = spawn_child_signalled(&r->child, sfd, &w->status);
		if (r->watching)
			monitor_watch_step(&r->w, n > 0 ? p : NULL);
		now = mono_ms();
		if (deadline && !w->timed_out && now >= deadline) {
			/* What its QPs were doing, read before they are ended with it. */
			w->timed_out = true;
			if (r->watching)
				monitor_watch_now(&r->w);
			record_capture_mark(r, 0);
			kill(pid, SIGTERM);
			signal_tree(r, SIGTERM);
			kill_at = now + RECORD_KILL_MS;
		} else if (kill_at && now >= kill_at && !w->done) {
			kill(pid, SIGKILL);
			signal_tree(r, SIGKILL);
			kill_at = 0;
		}
	}
}

/* R's file, PATH, made anew: 0, or a negative errno said. */
static int file_begin(struct record_run *r, const char *path)
{
	struct op_err e;
	int fd = safe_create(path, 0644, &r->sp);

	if (fd == -ENOTREG)
		return cmd_fail((op_err_not_regular(&e, "write", path, &r->sp,
						     "name a new file or a regular one (-o FILE)"),
				 &e));
	if (fd < 0)
		return cmd_fail((op_err_set(&e, fd, NULL, "cannot write %s (-o FILE)", path), &e));
	r->f = fdopen(fd, "w");
	if (!r->f) {
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

/* The probes and the watch begun, what neither can see said into R->unseen. */
static void watch_begin(struct record_run *r)
{
	struct model_src src;
	struct nl *rdma;

	r->probes = record_arm(RECORD_TREE, &r->sees, r->unseen, sizeof(r->unseen));
	if (!model_sys_rdma(&r->ctx->sys, &rdma)) {
		src = cmd_model_src(r->ctx);
		src.nl = rdma;
		r->watching = !monitor_watch_start(&r->w, &src, record_watched, r);
	}
	if (!r->watching)
		snprintf(r->unseen + strlen(r->unseen), sizeof(r->unseen) - strlen(r->unseen),
			 "%sQPs, devices and counters (no RDMA netlink)", *r->unseen ? "; " : "");
	if (*r->unseen)
		pr_warn("record: not seen: %s", r->unseen);
}

/*
 * ARGV started, followed and let run, the signals record is sent held for
 * R->sfd: 0, or a negative errno, said, with the exit status CMD's failed
 * exec would have had in *STATUS.
 */
static int child_begin(struct record_run *r, char *const argv[], int *status)
{
	sigset_t mask;
	struct op_err e;
	int err;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGQUIT);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &r->orig);
	r->sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	err = r->sfd < 0 ? -errno : spawn_child_start(argv, &r->orig, &r->child);
	if (!err && r->probes)
		err = record_follow(r->probes, r->child.pid);
	if (err) {
		if (r->child.pid > 0) {
			kill(r->child.pid, SIGKILL);
			waitpid(r->child.pid, NULL, 0);
		}
		return cmd_fail((op_err_set(&e, err, NULL, "record: cannot start %s", argv[0]), &e));
	}
	err = spawn_child_go(&r->child);
	if (err) {
		/* Nothing ran: no record of it is left. */
		waitpid(r->child.pid, NULL, 0);
		unlink(r->sp.target);
		*status = err == -ENOENT ? 127 : 126;
		return cmd_fail((op_err_set(&e, err, NULL, "record: cannot run %s", argv[0]), &e));
	}
	record_proc_seen(r, r->child.pid, NULL);
	/* Linux's niceness is the thread's: this one's alone, the command's as it was. */
	if (setpriority(PRIO_PROCESS, 0, RECORD_NICE) < 0)
		pr_note("record: its own niceness unchanged (%s): it may slow the command "
			"where the two contend for the CPUs", errname(-errno));
	return 0;
}

/* The first line, before any of the probes' (their ring is read only once it is written). */
static void say_started(struct record_run *r, char *const argv[])
{
	struct out *o = record_line_begin(r);
	struct utsname u;
	char t[40];

	if (!o)
		return;
	record_stamp(r->boot_ns, 0, t, sizeof(t));
	if (uname(&u) < 0)
		snprintf(u.nodename, sizeof(u.nodename), "%s", "");
	view_record_started(o, t, &(struct view_record_start){
		.argv = argv, .pid = r->child.pid, .verbs = r->sees.uverbs, .rdma_cm = r->sees.ucma,
		.probes = !r->probes ? NULL : r->sees.trampolines ? "trampolines" : "kprobes",
		.qps = r->watching, .why_not = *r->unseen ? r->unseen : NULL, .host = u.nodename,
		.gids = r->watching ? &r->w.g : NULL });
	record_line_end(r, o);
}

/* The last of it: the probes' records, the QPs its end destroyed, and how it ended. */
static void say_ended(struct record_run *r, const struct waited *w)
{
	struct out *o;
	char t[40];

	record_drain(r, r->probes);
	if (r->watching)
		monitor_watch_now(&r->w);
	record_capture_end(r, true);
	o = record_line_begin(r);
	if (!o)
		return;
	record_stamp(r->boot_ns, 0, t, sizeof(t));
	view_record_ended(o, t, w->status, w->timed_out,
			  r->probes ? record_dropped(r->probes) : 0);
	record_line_end(r, o);
}

static void rec_end(struct record_run *r)
{
	if (r->sfd >= 0)
		close(r->sfd);
	sigprocmask(SIG_SETMASK, &r->orig, NULL);
	record_capture_end(r, false);
	record_close(r->probes);
	if (r->watching)
		monitor_watch_stop(&r->w);
	if (r->f)
		fclose(r->f);
	free(r->qps);
	free(r);
}

int cmd_record(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *path = cli_str(a, "output") ? cli_str(a, "output") : RECORD_DEFAULT_FILE;
	struct waited w = { 0 };
	struct record_run *r;
	struct out *o;
	int err, status = -1;

	if (!model_sys_live(&ctx->sys))
		return cli_usage(a, "record runs a command on the running system: not with "
				 "--sysfs-root");
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ctx = ctx;
	r->sfd = -1;
	r->child.pid = -1;
	sigprocmask(SIG_SETMASK, NULL, &r->orig);
	r->boot_ns = mono_epoch_us() * 1000;
	err = file_begin(r, path);
	if (err) {
		rec_end(r);
		return err;
	}
	watch_begin(r);
	err = cli_flag(a, "capture") ? record_capture_begin(r, path) : 0;
	if (err)	/* nothing ran: no record of it is left */
		unlink(r->sp.target);
	else
		err = child_begin(r, a->argv, &status);
	if (err) {
		rec_end(r);
		ctx->pass_status = status;
		return status >= 0 ? 0 : err;
	}
	say_started(r, a->argv);
	run(r, r->probes, r->child.pid, r->sfd, cli_num(a, "timeout", 0), &w);
	say_ended(r, &w);
	rec_end(r);
	/* As timeout(1) says its command was ended; else the command's own. */
	ctx->pass_status = w.timed_out ? 124 : WIFSIGNALED(w.status) ?
			   128 + WTERMSIG(w.status) : WEXITSTATUS(w.status);
	/* The report, after CMD's own output: what failed, from the file as report reads it. */
	o = out_new(stderr, false, false);
	if (o) {
		cmd_report_file(path, o);
		out_finish(o);
	}
	return 0;
}
