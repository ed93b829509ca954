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
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "diag/monitor_watch.h"
#include "diag/record.h"
#include "kernel/clock.h"
#include "kernel/errname.h"
#include "kernel/proc.h"
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
/* The processes whose facts are kept: a command that makes more is followed all the same. */
#define RECORD_PROCS 1024

/* CAP_IPC_LOCK's bit in a capability set (linux/capability.h). */
#define CAP_IPC_LOCK_BIT 14

/* What record knows of a process of the tree. */
struct proc {
	int pid;
	char comm[16];
	struct diag_record_proc facts;
};

struct rec_run {
	struct cmd_ctx *ctx;
	FILE *f;
	int err;		/* the first write that failed: the record stops, CMD goes on */
	struct monitor_watch w;
	bool watching;
	struct proc procs[RECORD_PROCS];
	size_t nprocs;
	struct record *probes;	/* NULL: what they would see is said in UNSEEN */
	struct record_sees sees;
	char unseen[320];
	struct safe_path sp;	/* the file's */
	struct spawn_child child;
	int sfd;		/* the signals record is sent */
	sigset_t orig;		/* the signal mask before, CMD's */
	uint64_t boot_ns;	/* the monotonic clock's zero on the wall clock */
};

/* The wall clock's time of monotonic NS ("2026-11-27T09:10:11.123Z"); now when 0. */
static void stamp(const struct rec_run *r, uint64_t ns, char *t, size_t len)
{
	struct timespec now;
	struct tm tm;
	uint64_t wall;

	clock_gettime(CLOCK_REALTIME, &now);
	wall = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	if (ns)
		wall = r->boot_ns + ns;
	now.tv_sec = (time_t)(wall / 1000000000ull);
	gmtime_r(&now.tv_sec, &tm);
	strftime(t, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(t + strlen(t), len - strlen(t), ".%03uZ", (unsigned)(wall / 1000000 % 1000));
}

static struct proc *proc_of(struct rec_run *r, int pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	return NULL;
}

/* PID kept among the tree's processes, with its command when COMM is given. */
static struct proc *proc_seen(struct rec_run *r, int pid, const char *comm)
{
	struct proc *p = proc_of(r, pid);

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
static struct out *line_begin(struct rec_run *r)
{
	struct out *o;

	if (r->err)
		return NULL;
	o = out_new(r->f, true, false);
	if (!o)
		r->err = -ENOMEM;
	return o;
}

static void line_end(struct rec_run *r, struct out *o)
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
static bool ours(struct rec_run *r, const struct rdma_qp *q)
{
	return q && q->pid && proc_of(r, (int)q->pid);
}

/* The watch's events: the tree's QPs, and the host's devices, ports, GIDs and counters. */
static void watched(const struct monitor_event *e, void *arg)
{
	struct rec_run *r = arg;
	struct out *o;
	char t[40];

	if (e->qp && !ours(r, e->qp))
		return;
	o = line_begin(r);
	if (!o)
		return;
	stamp(r, 0, t, sizeof(t));
	view_monitor_event(o, e, t);
	line_end(r, o);
}

/* One record of the probes written as a line. */
static void probed(struct rec_run *r, const struct record_bpf_rec *b)
{
	char t[40], comm[17];
	struct diag_record_verdict v;
	struct uverbs_call c;
	struct uverbs_cm_event ev;
	struct proc *p;
	struct out *o;
	bool failed;

	memcpy(comm, b->comm, 16);
	comm[16] = '\0';
	if (b->kind == RECORD_BPF_FORK || b->kind == RECORD_BPF_EXEC)
		p = proc_seen(r, (int)b->tgid, comm);
	else
		p = proc_of(r, (int)b->tgid);
	o = line_begin(r);
	if (!o)
		return;
	stamp(r, b->ts_ns, t, sizeof(t));
	switch (b->kind) {
	case RECORD_BPF_FORK:
		view_record_process(o, t, "process-started", (int)b->tgid, comm, (int)b->arg, -1);
		break;
	case RECORD_BPF_EXEC:
		view_record_process(o, t, "process-exec", (int)b->tgid, comm, 0, -1);
		break;
	case RECORD_BPF_EXIT:
		view_record_process(o, t, "process-exited", (int)b->tgid, comm, 0, (int)b->arg);
		break;
	case RECORD_BPF_UVERBS_WRITE:
	case RECORD_BPF_UVERBS_IOCTL:
	case RECORD_BPF_UCMA_WRITE:
		uverbs_decode(b->kind == RECORD_BPF_UVERBS_WRITE ? UVERBS_VIA_WRITE :
			      b->kind == RECORD_BPF_UVERBS_IOCTL ? UVERBS_VIA_IOCTL : UVERBS_VIA_UCMA,
			      b->req, b->len, &c);
		if (!c.verb) {
			c.verb = "a call";
			snprintf(c.cmd, sizeof(c.cmd), "unread");
		}
		/* The process as the kernel judged the call: its limit and capabilities then. */
		if (p) {
			p->facts.memlock_known = true;
			p->facts.memlock_soft = b->memlock;
			p->facts.caps_known = true;
			p->facts.cap_ipc_lock = b->userns == PROC_USER_INIT_INO &&
						(b->cap_eff >> CAP_IPC_LOCK_BIT & 1);
		}
		diag_record_refused(&c, b->ret, r->watching ? &r->w.g : NULL, p ? &p->facts : NULL,
				    &v);
		view_record_refused(o, t, (int)b->tgid, (int)b->tid, comm, &c, b->ret,
				    diag_record_probe(&c, b->ret), &v);
		break;
	case RECORD_BPF_UCMA_EVENT:
		if (!uverbs_cm_event(b->req, b->len, &ev))
			break;
		failed = diag_record_cm_event(&ev, &v);
		view_record_cm_event(o, t, (int)b->tgid, comm, &ev, failed, &v);
		break;
	}
	line_end(r, o);
}

static void drain(struct rec_run *r, struct record *probes)
{
	struct record_bpf_rec b;

	while (probes && record_next(probes, &b) > 0)
		probed(r, &b);
}

static const char *const record_modules[] = { "ib_uverbs", "rdma_ucm" };

/* The probes armed, SEES what they see; what they cannot said into UNSEEN. */
static struct record *arm(struct record_sees *sees, char *unseen, size_t len)
{
	char why[RECORD_WHY_MAX];
	struct record *probes;
	int err;

	/* The modules whose handlers the probes take, loaded as rdma-core loads them at boot. */
	module_load_missing(record_modules, sizeof(record_modules) / sizeof(record_modules[0]));
	err = record_open(&probes, sees, why);
	if (err) {
		snprintf(unseen, len, "refused verbs, rdma_cm events and the process tree "
			 "(%s: %s)", errname(err), why);
		return NULL;
	}
	if (!sees->uverbs)
		snprintf(unseen, len, "refused verbs (ib_uverbs is not loaded)");
	if (!sees->ucma)
		snprintf(unseen + strlen(unseen), len - strlen(unseen), "%srdma_cm's calls and "
			 "events (rdma_ucm is not loaded)", *unseen ? "; " : "");
	return probes;
}

/* Every process of the tree sent SIG. */
static void signal_tree(const struct rec_run *r, int sig)
{
	for (size_t i = 0; i < r->nprocs; i++)
		kill(r->procs[i].pid, sig);
}

struct waited {
	bool done, timed_out;
	int status;
};

/* CMD run and recorded into R until it ends (or TIMEOUT_S, 0: none, ends it). */
static void run(struct rec_run *r, struct record *probes, pid_t pid, int sfd,
		unsigned long timeout_s, struct waited *w)
{
	uint64_t deadline = timeout_s ? mono_ms() + timeout_s * 1000 : 0, kill_at = 0;

	while (!w->done) {
		struct pollfd p[MONITOR_WATCH_FDS + 2];
		int wait = r->watching ? monitor_watch_fds(&r->w, p) : 1000, n;
		uint64_t now = mono_ms();

		if (!r->watching)
			for (int i = 0; i < MONITOR_WATCH_FDS; i++)
				p[i] = (struct pollfd){ .fd = -1 };
		p[MONITOR_WATCH_FDS] = (struct pollfd){ .fd = probes ? record_fd(probes) : -1,
							.events = POLLIN };
		p[MONITOR_WATCH_FDS + 1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		if (deadline && !w->timed_out)
			wait = now >= deadline ? 0 : (int)(deadline - now) < wait ?
				(int)(deadline - now) : wait;
		if (kill_at)
			wait = now >= kill_at ? 0 : (int)(kill_at - now) < wait ?
				(int)(kill_at - now) : wait;
		n = poll(p, MONITOR_WATCH_FDS + 2, wait);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && p[MONITOR_WATCH_FDS].revents)
			drain(r, probes);
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
static int file_begin(struct rec_run *r, const char *path)
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
static void watch_begin(struct rec_run *r)
{
	struct model_src src;
	struct nl *rdma;

	r->probes = arm(&r->sees, r->unseen, sizeof(r->unseen));
	if (!model_sys_rdma(&r->ctx->sys, &rdma)) {
		src = cmd_model_src(r->ctx);
		src.nl = rdma;
		r->watching = !monitor_watch_start(&r->w, &src, watched, r);
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
static int child_begin(struct rec_run *r, char *const argv[], int *status)
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
	proc_seen(r, r->child.pid, NULL);
	return 0;
}

/* The first line, before any of the probes' (their ring is read only once it is written). */
static void say_started(struct rec_run *r, char *const argv[])
{
	struct out *o = line_begin(r);
	char t[40];

	if (!o)
		return;
	stamp(r, 0, t, sizeof(t));
	view_record_started(o, t, argv, r->child.pid, r->sees.uverbs, r->sees.ucma, r->watching,
			    *r->unseen ? r->unseen : NULL);
	line_end(r, o);
}

/* The last of it: the probes' records, the QPs its end destroyed, and how it ended. */
static void say_ended(struct rec_run *r, const struct waited *w)
{
	struct out *o;
	char t[40];

	drain(r, r->probes);
	if (r->watching)
		monitor_watch_now(&r->w);
	o = line_begin(r);
	if (!o)
		return;
	stamp(r, 0, t, sizeof(t));
	view_record_ended(o, t, w->status, w->timed_out,
			  r->probes ? record_dropped(r->probes) : 0);
	line_end(r, o);
}

static void rec_end(struct rec_run *r)
{
	if (r->sfd >= 0)
		close(r->sfd);
	sigprocmask(SIG_SETMASK, &r->orig, NULL);
	record_close(r->probes);
	if (r->watching)
		monitor_watch_stop(&r->w);
	if (r->f)
		fclose(r->f);
	free(r);
}

int cmd_record(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *path = cli_str(a, "output") ? cli_str(a, "output") : RECORD_DEFAULT_FILE;
	struct waited w = { 0 };
	struct rec_run *r;
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
