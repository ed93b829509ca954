// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ci-setup [NETDEV] [--install-deps] [--dotenv FILE]: RDMA made ready on the
 * machine a CI job runs on, each way tried said: rdma_rxe for the running
 * kernel (its own, the distribution's package, or a build from its source
 * with DKMS: module install's ladder), then up's proven link, then the
 * link's variables written where the CI system reads them: GitHub Actions'
 * $GITHUB_ENV, $GITHUB_OUTPUT and step summary, GitLab's dotenv file.
 * Where the machine cannot, the reason, and the bed that can.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/github.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/errname.h"
#include "kernel/safe.h"
#include "model/gid.h"
#include "ops/link.h"
#include "ops/module.h"
#include "ops/op_err.h"
#include "views/ci.h"
#include "views/env.h"

/* What the machine cannot do itself, the bed can: said after a failure. */
#define CI_BED "a job whose runner cannot have rdma_rxe runs its command in the bed: " \
	"'rxe-vm run --kernel 6.1 -- CMD' (package rdmactl-testbed)"

/* The CI system the step runs under, from the variables its runner sets. */
enum ci_system { CI_NONE, CI_GITHUB, CI_GITLAB };

struct setup {
	struct cmd_ctx *ctx;
	enum ci_system ci;
	struct view_ci c;
	char netdev[IF_NAMESIZE + 1];
	char addr[GID_ADDR_LEN];
	struct model m;
	bool loaded;
	struct view_env l;
};

static struct view_ci_step *step(struct setup *s, const char *name)
{
	struct view_ci_step *t = &s->c.steps[s->c.nsteps++];

	t->step = name;
	t->ok = false;
	*t->how = '\0';
	return t;
}

/*
 * E's words into T's how, a step's failure said there once: its first line
 * and errno, then its other lines (what to do) and THEN, joined by "; ".
 */
static void failed(struct view_ci_step *t, const struct op_err *e, const char *then)
{
	size_t first = strcspn(e->what, "\n"), n;

	n = (size_t)snprintf(t->how, sizeof(t->how), "%.*s (%s)", (int)first, e->what,
			     errname(e->err));
	for (const char *l = e->what + first; *l && n < sizeof(t->how);) {
		size_t len = strcspn(++l, "\n");

		n += (size_t)snprintf(t->how + n, sizeof(t->how) - n, "; %.*s", (int)len, l);
		l += len;
	}
	if (then && n < sizeof(t->how))
		snprintf(t->how + n, sizeof(t->how) - n, "; %s", then);
}

/* rdma_rxe for the running kernel, as module install finds or gives it. */
static int driver(struct setup *s, bool install_deps)
{
	struct view_ci_step *t = step(s, "driver");
	struct module_install_req r = { .install_deps = install_deps };
	struct nl *nl = NULL;
	struct op_err e;
	int err = model_sys_rdma(&s->ctx->sys, &nl);

	/* No RDMA core in the kernel: its words name the bed already. */
	if (err) {
		op_err_netlink_open(&e, err, s->ctx->sys.root);
		failed(t, &e, NULL);
		return err;
	}
	err = module_install(nl, &r, &e);
	if (err) {
		failed(t, &e, CI_BED);
		return err;
	}
	t->ok = true;
	if (r.unchanged)
		snprintf(t->how, sizeof(t->how), "%s (kernel %s)", r.unchanged, r.k.kver);
	else if (*r.package)
		snprintf(t->how, sizeof(t->how), "the distribution's package %s, installed, for "
			 "kernel %s", r.package, r.k.kver);
	else
		snprintf(t->how, sizeof(t->how), "rdma_rxe %s built from kernel %s's own source "
			 "and installed with DKMS in %.1f s", r.version, r.k.kver,
			 (double)r.build_ms / 1000);
	return 0;
}

/* up's proven link on the netdev. */
static int link(struct setup *s)
{
	struct view_ci_step *t = step(s, "link");
	struct link_add_req r = { .exist_ok = true, .netdev = s->netdev };
	const char *at;
	struct op_err e;
	int err = cmd_up_steps(s->ctx, &r, &at);

	if (err) {
		snprintf(t->how, sizeof(t->how), "'rdmactl up %s' stopped at its %s step: its "
			 "output above says why", s->netdev, at);
		return err;
	}
	err = model_sys_load(&s->ctx->sys, NULL, (struct model_ask){ .gids = MODEL_GIDS_USED },
			     -1, &s->m);
	if (err) {
		op_err_model_load(&e, err, s->ctx->sys.root, NULL);
		failed(t, &e, NULL);
		return err;
	}
	s->loaded = true;
	err = cmd_env_pick(&s->m, s->ctx->sys.root, r.made, false, &s->l, &e);
	if (err) {
		failed(t, &e, NULL);
		return err;
	}
	t->ok = true;
	model_gid_addr(s->l.gid->raw, s->addr, sizeof(s->addr));
	snprintf(t->how, sizeof(t->how), "%s on %s: started, added, checked and its loopback "
		 "selftest passed", s->l.dev->name, s->netdev);
	s->c.ready = true;
	s->c.dev = s->l.dev->name;
	s->c.netdev = s->l.gid->netdev;
	s->c.address = s->addr;
	s->c.gid_index = s->l.gid->index;
	return 0;
}

/* What VIEW writes into a string: NULL without memory. */
static char *text_of(struct setup *s, void (*view)(struct setup *s, FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	view(s, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void env_lines(struct setup *s, FILE *f)
{
	struct out *o = out_new(f, false, false);

	if (o) {
		view_env(o, &s->l, true);
		out_finish(o);
	}
}

static void outputs(struct setup *s, FILE *f)
{
	view_ci_outputs(f, &s->c);
}

static void summary(struct setup *s, FILE *f)
{
	view_ci_summary(f, &s->c);
}

/*
 * VIEW's text added to the file the variable VAR names (GitHub's), or made
 * PATH (GitLab's dotenv, when VAR is NULL); the file kept in the report.
 */
static int put(struct setup *s, const char *var, const char *path,
	       void (*view)(struct setup *s, FILE *f), struct op_err *e)
{
	const char *where = var ? getenv(var) : path;
	char *text;
	struct safe_path sp;
	int err;

	if (!where || !*where)
		return op_err_set(e, -ENOENT, NULL, "$%s is not set: is this a GitHub Actions step?",
				  var);
	text = text_of(s, view);
	if (!text)
		return op_err_set(e, -ENOMEM, NULL, "no memory for %s", where);
	err = var ? safe_append(where, text, strlen(text), &sp) :
		    safe_write(where, text, strlen(text), 0644, &sp);
	free(text);
	if (err == -ENOTREG)
		return op_err_not_regular(e, "write", where, &sp, var ?
					  "the runner makes it a regular file: leave it one" :
					  "name a new file or a regular one (--dotenv FILE)");
	if (err)
		return op_err_set(e, err, NULL, "cannot write %s", where);
	if (s->c.nwrote < VIEW_CI_WROTE)
		s->c.wrote[s->c.nwrote++] = var ? var : where;
	return 0;
}

/* The link's variables where the CI system reads them. */
static int env(struct setup *s, const char *dotenv)
{
	struct view_ci_step *t = step(s, "env");
	struct op_err e;
	int err = 0;

	/* NAME=VALUE files take a name's bytes as they are: a newline would start a variable. */
	if (s->ci != CI_NONE && (!out_is_plain(s->l.dev->name) ||
				 !out_is_plain(s->l.gid->netdev))) {
		op_err_set(&e, -EINVAL, NULL, "the name of %s or of its netdev holds a byte outside "
			   "printable ASCII, which the CI system's variable files take as it is",
			   s->l.dev->name);
		failed(t, &e, "rename it");
		return -EINVAL;
	}
	if (s->ci == CI_GITHUB) {
		err = put(s, "GITHUB_ENV", NULL, env_lines, &e);
		if (!err)
			err = put(s, "GITHUB_OUTPUT", NULL, outputs, &e);
	} else if (s->ci == CI_GITLAB) {
		err = put(s, NULL, dotenv, env_lines, &e);
	}
	if (err) {
		failed(t, &e, NULL);
		return err;
	}
	t->ok = true;
	if (s->ci == CI_NONE)
		snprintf(t->how, sizeof(t->how), "no CI system known here: eval \"$(rdmactl env)\" "
			 "sets the variables in a shell");
	else if (s->ci == CI_GITHUB)
		snprintf(t->how, sizeof(t->how), "the stacks' variables in $GITHUB_ENV for the steps "
			 "after this one; device, netdev, gid_index and address in $GITHUB_OUTPUT");
	else
		snprintf(t->how, sizeof(t->how), "the stacks' variables in %s: keep it as the job's "
			 "artifacts:reports:dotenv", dotenv);
	return 0;
}

int cmd_ci_setup(struct cmd_ctx *ctx, const struct cli_args *a)
{
	static const char *const names[] = { [CI_NONE] = NULL, [CI_GITHUB] = "github",
					      [CI_GITLAB] = "gitlab" };
	const char *dotenv = cli_str(a, "dotenv") ? cli_str(a, "dotenv") : "rdmactl.env";
	const char *gitlab = getenv("GITLAB_CI");
	int junit = cmd_junit_asked(ctx, a);
	struct setup *s;
	struct op_err e;
	int err;

	if (junit < 0)
		return junit;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ctx->report_on_stdout = junit;
	s->ctx = ctx;
	s->ci = github_actions() ? CI_GITHUB : gitlab && !strcmp(gitlab, "true") ? CI_GITLAB :
		CI_NONE;
	s->c.ci = names[s->ci];
	/* Everything is checked before anything is loaded. */
	err = cmd_up_netdev(a, a->argc ? a->argv[0] : NULL, s->netdev);
	if (!err)
		err = driver(s, cli_flag(a, "install-deps"));
	if (!err)
		err = link(s);
	if (!err)
		err = env(s, dotenv);
	if (s->c.nsteps) {
		if (junit) {
			/* The XML on stdout; the words, as text, on stderr beside up's steps. */
			struct out *o = out_new(stderr, false, false);
			int jerr = cmd_junit_written("ci-setup", view_ci_junit(stdout, &s->c));

			if (o) {
				view_ci_setup(o, &s->c);
				out_finish(o);
			}
			if (!err)
				err = jerr;
		} else {
			view_ci_setup(ctx->out, &s->c);
		}
		/*
		 * What was tried and how it ended, first on the run's page, failed
		 * or not; a summary that cannot be written fails the step too.
		 */
		if (s->ci == CI_GITHUB && getenv("GITHUB_STEP_SUMMARY")) {
			int serr = put(s, "GITHUB_STEP_SUMMARY", NULL, summary, &e);

			if (serr)
				cmd_fail(&e);
			if (!err)
				err = serr;
		}
	}
	if (s->loaded)
		model_free(&s->m);
	free(s);
	return err;
}
