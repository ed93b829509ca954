// SPDX-License-Identifier: GPL-2.0-or-later
/* explain WORDS|NUMBER: what a failing program's status, event, errno or rxe's log line means. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/errname.h"
#include "kernel/safe.h"
#include "diag/failure.h"
#include "views/explain.h"

/* The installed libraries' own words for a status or an event. */
static const char *library_text(enum diag_failure_kind k, int value)
{
	if (k == DIAG_FAILURE_WC_STATUS)
		return ibv_wc_status_str((enum ibv_wc_status)value);
	if (k == DIAG_FAILURE_CM_EVENT)
		return rdma_event_str((enum rdma_cm_event_type)value);
	return NULL;
}

/*
 * What this host shows of N entries: each entry's "tells which" names the
 * checks that tell its causes apart ("rdmactl check --only memlock",
 * "check --gid-index N"); those of the host's own (not --pid's, which need
 * a process, nor --peer's) are run once, here or in the fixture, and each
 * entry is given the verdicts of its own. --gid-index is held at 0, the
 * index the examples and tutorials give. HOST[i] is NULL for an entry that
 * names none.
 */
struct host_run {
	struct check_ctx c;
	bool ran;
	char all[256];		/* every entry's, each once: the run's --only, kept by C */
	char ids[DIAG_FAILURE_LOG_ITEMS][128];	/* each entry's checks */
	struct view_explain_host h[DIAG_FAILURE_LOG_ITEMS];
	const struct view_explain_host *p[DIAG_FAILURE_LOG_ITEMS];
};

/* ID added to the comma-separated LIST (LEN bytes) unless there already or past room: whether it was. */
static bool list_add(char *list, size_t len, const char *id)
{
	size_t at = strlen(list);

	if (checks_listed(*list ? list : "-", id) || at + strlen(id) + 2 > len)
		return false;
	snprintf(list + at, len - at, "%s%s", at ? "," : "", id);
	return true;
}

/* The ids of the host's checks TELL names, comma-separated into BUF: how many. */
static size_t tell_checks(const char *tell, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *p = tell ? strstr(tell, "check --") : NULL; p; p = strstr(p + 1, "check --")) {
		const char *ids = p + strlen("check --");
		size_t k;

		if (!strncmp(ids, "gid-index", 9)) {
			k = 9;
		} else if (!strncmp(ids, "only ", 5)) {
			ids += 5;
			k = strspn(ids, "abcdefghijklmnopqrstuvwxyz-,");
		} else {
			continue;
		}
		while (k && ids[k - 1] == ',')
			k--;
		/* Each id once, known and of the host's, as far as BUF holds. */
		for (size_t i = 0; i < k;) {
			size_t w = strcspn(ids + i, ",");
			char id[32];

			if (w > k - i)
				w = k - i;

			if (w < sizeof(id)) {
				memcpy(id, ids + i, w);
				id[w] = '\0';
				if (!checks_unknown(id) && !checks_misplaced(id, false) &&
				    list_add(buf, len, id))
					n++;
			}
			i += w + (ids[i + w] == ',');
		}
	}
	return n;
}

/* What the checks ID of H found: shown on a failure or warning, cleared on a pass alone. */
static enum diag_failure_standing standing(const char *id, void *arg)
{
	const struct view_explain_host *h = arg;
	enum verdict v = check_verdict_of(h->r, h->n, id);

	return v == V_FAIL || v == V_WARN ? DIAG_FAILURE_SHOWN :
	       v == V_PASS ? DIAG_FAILURE_CLEARED : DIAG_FAILURE_OPEN;
}

static void host_run(struct cmd_ctx *ctx, const struct cli_args *a, struct host_run *r,
		     const struct diag_failure *const *f, size_t n)
{
	struct check_opts o = { .gid_index = -1 };
	bool no_host = cli_flag(a, "no-host");
	char one[128];

	memset(r->p, 0, sizeof(r->p));
	r->all[0] = '\0';
	r->ran = false;
	for (size_t i = 0; i < n && i < DIAG_FAILURE_LOG_ITEMS; i++) {
		char *ids = r->ids[i];

		if (!tell_checks(f[i]->tell, ids, sizeof(r->ids[i])))
			continue;
		snprintf(r->h[i].cmd, sizeof(r->h[i].cmd), "rdmactl check --only %s%s", ids,
			 checks_listed(ids, "gid-index") ? " --gid-index 0" : "");
		r->h[i].why_not = no_host ? "--no-host: the words are from another machine" : NULL;
		r->h[i].n = 0;
		r->h[i].nrank = 0;
		r->p[i] = &r->h[i];
		/* The union of every entry's, each once. */
		snprintf(one, sizeof(one), "%s", ids);
		for (char *id = one, *next; *id; id = next) {
			next = id + strcspn(id, ",");
			if (*next)
				*next++ = '\0';
			list_add(r->all, sizeof(r->all), id);
		}
	}
	if (!*r->all || no_host)
		return;
	o.only = r->all;
	if (checks_listed(r->all, "gid-index"))
		o.gid_index = 0;
	checks_run(&o, &ctx->sys, &r->c);
	r->ran = true;
	for (size_t i = 0; i < n && i < DIAG_FAILURE_LOG_ITEMS; i++) {
		if (!r->p[i])
			continue;
		for (size_t k = 0; k < r->c.nr && r->h[i].n < VIEW_EXPLAIN_HOST_RESULTS; k++)
			if (checks_listed(r->ids[i], r->c.r[k].id))
				r->h[i].r[r->h[i].n++] = &r->c.r[k];
		/* Ranked only where a check a cause rests on gave a verdict here. */
		for (size_t c = 0; c < DIAG_FAILURE_CAUSES && f[i]->causes[c]; c++) {
			if (check_verdict_of(r->h[i].r, r->h[i].n,
					     diag_failure_rests(f[i], c, NULL)) != V_SKIP) {
				r->h[i].nrank = diag_failure_rank(f[i], standing, &r->h[i],
								  r->h[i].rank);
				break;
			}
		}
	}
}

static void host_done(struct host_run *r)
{
	if (r->ran)
		check_ctx_free(&r->c);
	r->ran = false;
}

/*
 * The log on FD a line at a time into L, in a buffer of fixed size: a line
 * longer than it is matched by its first part. 0, or the read's errno.
 */
static int read_log(int fd, struct diag_failure_log *l)
{
	static char buf[64 << 10];
	size_t have = 0;
	bool skipping = false;	/* the rest of a line already counted */

	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - have);
		char *start = buf, *nl;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		have += (size_t)r;
		while ((nl = memchr(start, '\n', (size_t)(buf + have - start)))) {
			if (!skipping)
				diag_failure_log_line(l, start, (size_t)(nl - start), library_text);
			skipping = false;
			start = nl + 1;
		}
		have = (size_t)(buf + have - start);
		memmove(buf, start, have);
		if (have == sizeof(buf)) {
			if (!skipping)
				diag_failure_log_line(l, buf, have, library_text);
			skipping = true;
			have = 0;
		}
	}
	if (have && !skipping)
		diag_failure_log_line(l, buf, have, library_text);
	return 0;
}

/* explain --file PATH, or - (standard input): the whole log. */
static int explain_log(struct cmd_ctx *ctx, const struct cli_args *a, const char *path)
{
	static struct diag_failure_log l;
	static struct host_run host;
	const struct diag_failure *f[DIAG_FAILURE_LOG_ITEMS] = { NULL };
	bool in = !strcmp(path, "-");
	mode_t type = 0;
	int fd = in ? STDIN_FILENO : safe_open_at(AT_FDCWD, path, &type), err;

	if (fd == -ENOTREG)
		return cli_usage(a, "--file %s is %s, not a log file: give a regular file, or the "
				 "log on standard input (-)", path, safe_type_name(type));
	if (fd < 0) {
		pr_err("explain: cannot open %s (%s: %s)", path, errname(fd), strerror(-fd));
		return -EAGAIN;
	}
	diag_failure_log_init(&l);
	err = read_log(fd, &l);
	if (!in)
		close(fd);
	if (err) {
		pr_err("explain: cannot read %s (%s: %s)", in ? "standard input" : path,
		       errname(err), strerror(-err));
		return -EAGAIN;
	}
	diag_failure_log_finish(&l);
	for (size_t i = 0; i < l.n; i++)
		f[i] = l.items[i].f;
	host_run(ctx, a, &host, f, l.n);
	view_explain_log(ctx->out, in ? "-" : path, &l, library_text, host.p);
	host_done(&host);
	/* Nothing known is the answer, not a usage error: a CI step can tell. */
	return l.known ? 0 : -EAGAIN;
}

int cmd_explain(struct cmd_ctx *ctx, const struct cli_args *a)
{
	static struct host_run host;
	const struct diag_failure *f[16];
	const char *file = cli_str(a, "file");
	char text[1024] = "";
	size_t n, len = 0;

	if (cli_flag(a, "list")) {
		const struct diag_failure *all[512];
		size_t total = diag_failure_all(all, sizeof(all) / sizeof(all[0]));

		if (file || a->argc)
			return cli_usage(a, "--list lists every entry: give it alone");
		view_explain(ctx->out, all, total < 512 ? total : 512, library_text, NULL);
		return 0;
	}
	if (file && a->argc)
		return cli_usage(a, "--file reads a whole log: give it or the words, not both");
	if (file)
		return explain_log(ctx, a, file);
	if (a->argc == 1 && !strcmp(a->argv[0], "-"))
		return explain_log(ctx, a, "-");
	if (!a->argc)
		return cli_usage(a, "give the words to explain, or a whole log: --file LOG, or - "
				 "for standard input");

	for (int i = 0; i < a->argc; i++) {
		int w = snprintf(text + len, sizeof(text) - len, "%s%s", i ? " " : "", a->argv[i]);

		if (w < 0 || (size_t)w >= sizeof(text) - len)
			return cli_usage(a, "the words to explain are longer than %zu bytes: give the "
					 "line with the status or error alone", sizeof(text) - 1);
		len += (size_t)w;
	}
	n = diag_failure_match(text, library_text, f, sizeof(f) / sizeof(f[0]));
	if (!n)
		return cli_usage(a, "nothing rdmactl knows is in '%s': give a work completion "
				 "status (12, IBV_WC_RETRY_EXC_ERR, 'transport retry counter "
				 "exceeded'), an rdma_cm event (RDMA_CM_EVENT_ADDR_ERROR), an errno "
				 "(ENOMEM, 'errno 12', 'error -110') or a line rdma_rxe logged "
				 "('moved to error state')", text);
	host_run(ctx, a, &host, f, n);
	view_explain(ctx->out, f, n, library_text, host.p);
	host_done(&host);
	return 0;
}
