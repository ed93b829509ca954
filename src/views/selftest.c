// SPDX-License-Identifier: GPL-2.0-or-later
/* A selftest's report: stages, bench figures, the transports matrix, the ping-pong (plain, JSON, JUnit). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/junit.h"
#include "cli/out.h"
#include "kernel/errname.h"
#include "selftest/selftest.h"
#include "views/selftest.h"

/* A selftest failure's errno by name under "errno" (JSON only): null when none says it. */
static void view_selftest_errno(struct out *o, const struct st_fault *f)
{
	out_str(o, "errno", NULL, f->err ? errname(f->err) : NULL);
}

static void stage_stats(struct out *o, enum st_stage st, const struct st_stats *t)
{
	out_obj_open(o, "stats");
	out_u64(o, "iters", "  %" PRIu64, t->iters);
	out_u64(o, "size", " x %" PRIu64 " bytes:", t->size);
	if (st == ST_BW_WRITE) {
		out_dbl(o, "mib_s", " %.2f MiB/s", t->mib_s);
		out_dbl(o, "gb_s", " = %.2f Gb/s", t->gb_s);
	} else {
		out_dbl(o, "t_min_us", " t_min %.2f", t->t_min);
		out_dbl(o, "t_typical_us", " t_typical %.2f", t->t_typical);
		out_dbl(o, "t_p99_us", " 99%% %.2f", t->t_p99);
		out_dbl(o, "t_avg_us", " t_avg %.2f", t->t_avg);
		out_dbl(o, "t_max_us", " t_max %.2f usec", t->t_max);
	}
	out_obj_close(o);
}

static void stages(struct out *o, const struct st_report *r)
{
	static const char *const res[] = { "pass", "FAIL", "skip" };

	out_obj_open(o, NULL);
	/* Unknown ("-": rdma_cm's route has not named it yet) is null. */
	out_str(o, "ifname", "%s:", strcmp(r->head.dev, "-") ? r->head.dev : NULL);
	if (r->head.gid_index >= 0) {
		out_s64(o, "gid_index", " GID %" PRId64, r->head.gid_index);
		out_str(o, "gid", " %s", r->head.gid);
		out_s64(o, "mtu", ", MTU %" PRId64, r->head.mtu);
	}
	out_nl(o);
	if (*r->head.peer) {
		out_str(o, "peer", "  peer %s", r->head.peer);
		out_str(o, "remote_gid", *r->head.remote_gid ? ", GID %s" : NULL,
			*r->head.remote_gid ? r->head.remote_gid : NULL);
		out_nl(o);
	}
	out_arr_open(o, "stages");
	for (int i = 0; i < ST_NSTAGES; i++) {
		const struct st_stage_result *x = &r->st[i];

		if (!x->ran)
			continue;
		out_obj_open(o, NULL);
		out_str(o, "stage", "  %-10s", st_stage_name((enum st_stage)i));
		out_text(o, " %-4s", res[x->result]);
		out_str(o, "result", NULL, x->result == ST_PASS ? "pass" :
			x->result == ST_FAIL ? "fail" : "skip");
		if (x->result != ST_SKIPPED)
			out_u64(o, "usec", " %9" PRIu64 " us", x->usec);
		if (x->result == ST_PASS && x->stats.iters)
			stage_stats(o, (enum st_stage)i, &x->stats);
		else if (x->result == ST_PASS && x->bytes)
			out_u64(o, "bytes", "  %" PRIu64 " bytes verified", x->bytes);
		if (x->result != ST_PASS)
			out_str(o, "detail", "  %s", x->f.detail);
		out_nl(o);
		if (x->result == ST_FAIL && *x->f.hint)
			out_str(o, "hint", "             hint: %s\n", x->f.hint);
		if (x->result == ST_FAIL)
			view_selftest_errno(o, &x->f);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_bool(o, "passed", NULL, r->passed);
	out_text(o, "%s: selftest %s\n", r->head.dev, r->passed ? "passed" : "FAILED");
	out_obj_close(o);
}

static void transports(struct out *o, const struct st_report *r)
{
	unsigned int n[4] = { 0 };

	out_obj_open(o, NULL);
	/* Unknown ("-": rdma_cm's route has not named it yet) is null. */
	out_str(o, "ifname", "%s:", strcmp(r->head.dev, "-") ? r->head.dev : NULL);
	out_str(o, "kernel", " transports on %s", r->kernel);
	if (r->head.gid_index >= 0) {
		out_s64(o, "gid_index", ", GID %" PRId64, r->head.gid_index);
		out_str(o, "gid", " %s", r->head.gid);
		out_s64(o, "mtu", ", MTU %" PRId64, r->head.mtu);
	}
	out_bool(o, "events", NULL, r->events);
	out_text(o, ", completions %s\n", r->events ? "through a channel" : "polled");
	if (*r->head.peer) {
		out_str(o, "peer", "  peer %s", r->head.peer);
		out_str(o, "remote_gid", *r->head.remote_gid ? ", GID %s" : NULL,
			*r->head.remote_gid ? r->head.remote_gid : NULL);
		out_nl(o);
	}
	if (r->f.failed) {
		out_str(o, "detail", "  FAIL  %s\n", r->f.detail);
		out_str(o, "hint", *r->f.hint ? "  hint: %s\n" : NULL,
			*r->f.hint ? r->f.hint : NULL);
		view_selftest_errno(o, &r->f);
	}
	if (r->nrows)
		out_text(o, "  %-9s %-10s %-8s %-13s %9s  %s\n", "TRANSPORT", "OP", "CLAIMED",
			 "RESULT", "TIME", "DETAIL");
	out_arr_open(o, "matrix");
	for (unsigned int i = 0; i < r->nrows; i++) {
		const struct xp_row *w = &r->rows[i];

		n[w->result]++;
		out_obj_open(o, NULL);
		out_str(o, "transport", "  %-9s", xp_transport_name(w->t));
		out_str(o, "op", " %-10s", w->op);
		out_str(o, "claimed", " %-8s", xp_claim_name(w->claim));
		out_str(o, "claim", NULL, *w->claim_text ? w->claim_text : NULL);
		/* FAIL stands out in the table; JSON says "fail", as the contract does. */
		out_text(o, " %-13s", w->result == XP_FAIL ? "FAIL" : xp_result_name(w->result));
		out_str(o, "result", NULL, xp_result_name(w->result));
		if (w->result == XP_PASS || w->result == XP_FAIL)
			out_u64(o, "usec", " %6" PRIu64 " us", w->usec);
		else
			out_text(o, " %9s", "");
		if (w->bytes)
			out_u64(o, "bytes", "  %" PRIu64 " bytes verified", w->bytes);
		if (*w->f.detail)
			out_str(o, "detail", w->bytes ? "; %s" : "  %s", w->f.detail);
		out_nl(o);
		if (w->result == XP_FAIL && *w->f.hint)
			out_str(o, "hint", "            hint: %s\n", w->f.hint);
		if (w->result == XP_FAIL)
			view_selftest_errno(o, &w->f);
		if (w->result == XP_FAIL && w->claim != XP_NOT_CLAIMED)
			out_text(o, "            finding: the device %s %s %s, and it failed on %s\n",
				 w->claim == XP_CLAIMED ? "claims" : "implies",
				 xp_transport_name(w->t), w->op, r->kernel);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_arr_open(o, "async_events");
	for (unsigned int i = 0; i < r->nasync; i++)
		out_str(o, NULL, NULL, r->async[i]);
	out_arr_close(o);
	out_bool(o, "passed", NULL, r->passed);
	out_text(o, "%s: transports %s (%u pass, %u fail, %u not supported, %u not run)\n", r->head.dev,
		 r->passed ? "passed" : "FAILED", n[XP_PASS], n[XP_FAIL], n[XP_UNSUPPORTED],
		 n[XP_NOT_RUN]);
	out_obj_close(o);
}

/* --pingpong: the run O asked for, and how it went. */
static void pingpong(struct out *out, const struct st_opts *o, const struct st_report *r)
{
	out_obj_open(out, NULL);
	out_str(out, "ifname", "%s:", o->common.dev);
	out_str(out, "role", " pingpong %s", o->pp.server ? "server" : "client");
	out_str(out, "transport", " (%s", pp_kind_name(o->pp.kind));
	out_u64(out, "qps", o->pp.num_qp > 1 ? ", %" PRIu64 " QPs" : NULL, o->pp.num_qp);
	out_bool(out, "events", NULL, o->common.events);
	out_text(out, "%s)", o->common.events ? ", events" : "");
	if (!o->pp.server)
		out_str(out, "peer", " of %s", o->common.host);
	out_u64(out, "port", " port %" PRIu64, o->common.port);
	if (o->common.gid_index >= 0)
		out_s64(out, "gid_index", ", GID %" PRId64, o->common.gid_index);
	else
		out_str(out, "gid_index", ", GID %s", NULL);	/* unknown: null */
	out_str(out, "gid", " %s", *r->head.gid ? r->head.gid : NULL);
	out_nl(out);
	if (r->passed) {
		out_str(out, "remote_gid", "  remote GID %s", r->head.remote_gid);
		out_u64(out, "remote_qpn", ", QPN 0x%06" PRIx64, r->pp.remote_qpn);
		out_nl(out);
		out_u64(out, "bytes", "  %" PRIu64 " bytes", r->pp.bytes);
		out_u64(out, "usec", " in %" PRIu64 " us", r->pp.usec);
		out_u64(out, "iters", ", %" PRIu64 " iterations", r->pp.iters);
		out_text(out, " = %.2f usec/iter, data checked",
			 r->pp.iters ? (double)r->pp.usec / r->pp.iters : 0);
		out_u64(out, "cq_events", o->common.events ? ", %" PRIu64 " CQ events" : NULL,
			r->pp.cq_events);
		out_nl(out);
	} else {
		out_str(out, "detail", "  FAIL  %s\n", r->f.detail);
		out_str(out, "hint", *r->f.hint ? "  hint: %s\n" : NULL, *r->f.hint ? r->f.hint : NULL);
		view_selftest_errno(out, &r->f);
	}
	out_bool(out, "passed", NULL, r->passed);
	out_text(out, "%s: pingpong %s\n", o->common.dev, r->passed ? "passed" : "FAILED");
	out_obj_close(out);
}

void view_selftest(struct out *o, const struct st_opts *opts, const struct st_report *r)
{
	if (r->mode == ST_MODE_TRANSPORTS)
		transports(o, r);
	else if (r->mode == ST_MODE_PINGPONG)
		pingpong(o, opts, r);
	else
		stages(o, r);
}

void view_selftest_begin(struct out *o)
{
	out_arr_open(o, NULL);
}

void view_selftest_end(struct out *o)
{
	out_arr_close(o);
}

void view_selftest_alone(struct out *o, const struct st_opts *opts, const struct st_report *r)
{
	view_selftest_begin(o);
	view_selftest(o, opts, r);
	view_selftest_end(o);
}

/* One test case of a JUnit report, with the room for its words. */
struct jcase {
	char cls[96], name[64];
	char text[2 * ST_TEXT_LEN + 16];
};

/* K's words for fault F: its detail, and its hint on a line of its own. */
static const char *fault_text(struct jcase *k, const struct st_fault *f)
{
	snprintf(k->text, sizeof(k->text), "%s%s%s", f->detail, *f->hint ? "\nhint: " : "",
		 f->hint);
	return k->text;
}

/* C and K's case: classname rdmactl.selftest.DEV[.SUB], NAME, and RESULT with F's words. */
static void jcase_set(struct junit_case *c, struct jcase *k, const char *dev, const char *sub,
		      const char *name, enum junit_result result, const struct st_fault *f)
{
	snprintf(k->cls, sizeof(k->cls), "rdmactl.selftest.%s%s%s", dev, sub ? "." : "",
		 sub ? sub : "");
	snprintf(k->name, sizeof(k->name), "%s", name);
	*c = (struct junit_case){ .classname = k->cls, .name = k->name, .result = result };
	if (result != JUNIT_PASS && f) {
		c->message = f->detail;
		c->text = fault_text(k, f);
	}
}

/* R's cases into C and K from their start: one a stage, a row, or the ping-pong. */
static size_t jcases(const struct st_opts *o, const struct st_report *r, struct junit_case *c,
		     struct jcase *k)
{
	static const enum junit_result st[] = { JUNIT_PASS, JUNIT_FAIL, JUNIT_SKIP };
	static const enum junit_result xp[] = { JUNIT_PASS, JUNIT_FAIL, JUNIT_SKIP, JUNIT_SKIP };
	size_t n = 0;

	if (r->mode == ST_MODE_PINGPONG) {
		char name[32];

		snprintf(name, sizeof(name), "pingpong %s", pp_kind_name(o->pp.kind));
		jcase_set(c, k, o->common.dev, NULL, name, r->passed ? JUNIT_PASS : JUNIT_FAIL,
			  &r->f);
		return 1;
	}
	if (r->mode == ST_MODE_STAGES) {
		for (int i = 0; i < ST_NSTAGES; i++)
			if (r->st[i].ran)
				jcase_set(&c[n], &k[n], r->head.dev, NULL,
					  st_stage_name((enum st_stage)i), st[r->st[i].result],
					  &r->st[i].f), n++;
		return n;
	}
	if (r->f.failed)	/* the device, before any row */
		jcase_set(&c[n], &k[n], r->head.dev, NULL, "device", JUNIT_FAIL, &r->f), n++;
	for (unsigned int i = 0; i < r->nrows; i++, n++)
		jcase_set(&c[n], &k[n], r->head.dev, xp_transport_name(r->rows[i].t),
			  r->rows[i].op, xp[r->rows[i].result], &r->rows[i].f);
	return n;
}

int view_selftest_junit(FILE *f, const struct st_opts *o, const struct st_report *const *r,
			size_t n)
{
	size_t per = ST_NSTAGES + XP_MAXROWS + 1;
	struct junit_case *c = calloc(n * per + 1, sizeof(*c));
	struct jcase *k = calloc(n * per + 1, sizeof(*k));
	int err = -ENOMEM;

	if (c && k) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			m += jcases(o, r[i], c + m, k + m);
		err = junit_write(f, "rdmactl selftest", c, m);
	}
	free(c);
	free(k);
	return err;
}
