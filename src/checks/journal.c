// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal check: what failed in programs earlier, as rdmactl monitor
 * --journal wrote it to the systemd journal (each failure's line whole in
 * RDMACTL_JSON, read as report reads a record: model/record.h), since
 * --since (default an hour ago). Each process's cause is said with its
 * time, command and pid, what it rests on and its fix; the failures that
 * followed it are counted, not repeated. Where no monitor has journaled,
 * the check skips saying so: the host's past is not known, which is not a
 * pass.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checks/checks.h"
#include "diag/record.h"
#include "kernel/journal.h"
#include "model/record.h"

/* At most this many failures are read, and this many processes named. */
#define FAILURES_MAX 10000
#define NAMED_MAX 8
/* A line of monitor's is far shorter. */
#define LINE_MAX_LEN 8192

#define DEFAULT_SINCE_S 3600

/* USEC of the wall clock as "2026-12-03T09:10:11Z". */
static const char *stamp(uint64_t usec, char *buf, size_t len)
{
	time_t t = (time_t)(usec / 1000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* When monitor --journal last started, into *USEC: 1, 0 when it never has, or -errno. */
static int last_start(struct journal *j, uint64_t *usec)
{
	int err = journal_match(j, "MESSAGE_ID", JOURNAL_ID_STARTED);

	if (!err)
		err = journal_seek_end(j);
	if (!err)
		err = journal_prev(j);
	if (err > 0)
		*usec = journal_time(j);
	return err;
}

/* The failures from SINCE on into R (each line whole): how many, or -errno. */
static long failures(struct journal *j, uint64_t since, struct model_record *r)
{
	char *line = malloc(LINE_MAX_LEN);
	long n = 0;
	int err;

	if (!line)
		return -ENOMEM;
	journal_match(j, NULL, NULL);
	err = journal_match(j, "MESSAGE_ID", JOURNAL_ID_FAILURE);
	if (!err)
		err = journal_seek(j, since);
	while (!err && n < FAILURES_MAX && (err = journal_next(j)) > 0) {
		err = 0;
		/* Sought past the last entry, the next is the last: as journalctl, held to SINCE. */
		if (journal_time(j) < since ||
		    journal_get(j, "RDMACTL_JSON", line, LINE_MAX_LEN))
			continue;
		n += model_record_line(r, line);
	}
	free(line);
	model_record_done(r);
	diag_record_flushes(r);
	return err < 0 ? err : n;
}

/* F, a process's cause, said as a warning. */
static void named(struct check_ctx *c, const struct model_record *r,
		  const struct model_record_failure *f)
{
	char who[96], fix[512], why[960], more[48];
	size_t after = 0;

	for (size_t i = 0; i < r->n; i++)
		after += r->f[i].follows && model_record_same_process(&r->f[i], f);
	if (f->pid >= 0)
		snprintf(who, sizeof(who), "%s (pid %ld)", *f->comm ? f->comm : "a process",
			 f->pid);
	else
		snprintf(who, sizeof(who), "a process no reading named");
	if (*f->fix)
		snprintf(fix, sizeof(fix), "%s", f->fix);
	else
		snprintf(fix, sizeof(fix), "journalctl -o verbose MESSAGE_ID=%s RDMACTL_PID=%ld",
			 JOURNAL_ID_FAILURE, f->pid);
	if (*f->cause)
		snprintf(why, sizeof(why), ": %s (%s: %s)", f->cause, f->sure ? "certain" : "likely",
			 f->evidence);
	else
		*why = '\0';
	if (after)
		snprintf(more, sizeof(more), "; %zu failure%s of it followed", after,
			 after == 1 ? "" : "s");
	else
		*more = '\0';
	check_report(c, V_WARN, fix, "at %s, %s: %s%s%s", f->time, who, f->what, why, more);
}

void check_journal(struct check_ctx *c)
{
	uint64_t since = c->o.since_us, started = 0;
	struct model_record r;
	char why[JOURNAL_WHY_MAX], t0[40];
	struct journal *j;
	size_t said = 0, causes = 0;
	long n;
	int err;

	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "a fixture tree has no journal");
		return;
	}
	if (!since)
		since = ((uint64_t)time(NULL) - DEFAULT_SINCE_S) * 1000000ull;
	err = journal_open(&j, why);
	if (err) {
		/* A skip has no fix to paste: what would make it run is said in its words. */
		check_report(c, V_SKIP, NULL, "the systemd journal cannot be read (%s): programs' "
			     "past errors are not known here%s", why, err == -ENOPKG ?
			     " (libsystemd0 is not installed)" : "");
		return;
	}
	err = last_start(j, &started);
	if (err <= 0) {
		journal_close(j);
		/* journald shows the system's journal only to root and its groups: none is not "none". */
		if (geteuid())
			check_report(c, V_SKIP, NULL, "no rdmactl monitor --journal entry is readable "
				     "by this user: the system's journal is shown to root and the "
				     "systemd-journal and adm groups only, so programs' past errors are "
				     "not known here (run check as root)");
		else
			check_report(c, V_SKIP, NULL, "no rdmactl monitor --journal has written to "
				     "this host's journal%s: programs' past errors are not known here "
				     "('systemctl enable --now rdmactl-monitor.service' keeps them "
				     "from now on)", err < 0 ? " (the journal could not be searched)" :
				     "");
		return;
	}
	memset(&r, 0, sizeof(r));
	r.pid = -1;
	n = failures(j, since, &r);
	journal_close(j);
	if (n < 0) {
		model_record_free(&r);
		check_report(c, V_SKIP, NULL, "the journal could not be read: %s", strerror((int)-n));
		return;
	}
	for (size_t i = 0; i < r.n; i++) {
		if (r.f[i].follows)
			continue;
		causes++;
		if (said++ < NAMED_MAX)
			named(c, &r, &r.f[i]);
	}
	if (said > NAMED_MAX) {
		char fix[128];

		snprintf(fix, sizeof(fix), "journalctl MESSAGE_ID=%s --since @%" PRIu64,
			 JOURNAL_ID_FAILURE, since / 1000000);
		check_report(c, V_WARN, fix, "and %zu more processes failed since %s",
			     said - NAMED_MAX, stamp(since, t0, sizeof(t0)));
	}
	if (!causes) {
		char t1[40];

		check_report(c, V_PASS, NULL, "no program's RDMA call was refused nor QP in error "
			     "since %s, as rdmactl monitor --journal saw it (its last start: %s)",
			     stamp(since, t0, sizeof(t0)), stamp(started, t1, sizeof(t1)));
	}
	model_record_free(&r);
}
