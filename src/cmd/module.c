// SPDX-License-Identifier: GPL-2.0-or-later
/* module status, install, remove: rdma_rxe for kernels that lack it. Parse, call, print. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "model/names.h"
#include "kernel/kbuild.h"
#include "kernel/release.h"
#include "kernel/spawn.h"
#include "ops/explain.h"
#include "ops/module.h"

/* The netlink, for the running kernel only: another kernel's module is never loaded here. */
static int netlink_for(struct cmd_ctx *ctx, const char *kver, struct nl **nl)
{
	*nl = NULL;
	if (kver && strcmp(kver, release_name("")))
		return 0;
	return cmd_netlink(ctx, nl);
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static void view_kbuild(struct out *o, const struct kbuild *k)
{
	out_str(o, "kernel", "kernel %s", k->kver);
	out_str(o, "kernel_version", *k->kernel_pkgver ? " (Debian %s)" : NULL,
		or_null(k->kernel_pkgver));
	out_bool(o, "running", k->running ? ", running" : ", not running", k->running);
	out_nl(o);
	out_obj_open(o, "rdma_rxe");
	out_str(o, "origin", "rdma_rxe %s", kbuild_origin_name(k->origin));
	out_str(o, "path", *k->module_path ? " %s" : NULL, or_null(k->module_path));
	out_str(o, "dkms_version", *k->dkms_version ? ", DKMS version %s" : NULL,
		or_null(k->dkms_version));
	if (k->running) {
		out_bool(o, "loaded", k->loaded ? ", loaded" : ", not loaded", k->loaded);
		out_str(o, "taint", *k->taint ? ", taints the kernel %s" : NULL, or_null(k->taint));
	} else {
		out_str(o, "loaded", NULL, NULL);
		out_str(o, "taint", NULL, NULL);
	}
	out_nl(o);
	out_obj_close(o);
	out_str(o, "headers", "headers %s", or_null(k->headers));
	out_str(o, "upstream_version", *k->upstream ? " (Linux %s)" : NULL, or_null(k->upstream));
	if (!*k->headers)
		out_text(o, " (apt-get install linux-headers-%s)", k->kver);
	out_nl(o);
	out_str(o, "source", "source %s", or_null(k->source));
	out_str(o, "source_version", *k->source_pkgver ? " (%s)" : NULL, or_null(k->source_pkgver));
	if (!*k->source)
		out_text(o, " (apt-get install linux-source-%s)", k->series);
	out_nl(o);
	if (k->running) {
		out_bool(o, "sig_enforce", k->sig_enforce ? "module signatures enforced" :
			 "module signatures not enforced", k->sig_enforce);
		out_str(o, "lockdown", *k->lockdown ? " (lockdown %s)" : NULL, or_null(k->lockdown));
		out_nl(o);
	} else {
		out_str(o, "sig_enforce", NULL, NULL);
		out_str(o, "lockdown", NULL, NULL);
	}
}

/* --kernel, when given, as a kernel release: '../../etc' or 'a b' is no kernel. */
static int check_kernel_opt(const struct cli_args *a)
{
	const char *kver = cli_str(a, "kernel");
	const char *why = kver ? model_names_kernel_release_invalid(kver) : NULL;

	return why ? cli_usage(a, "--kernel '%s': %s", kver, why) : 0;
}

int cmd_module_status(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct kbuild k;
	struct op_err e;
	int err = check_kernel_opt(a);

	if (err)
		return err;
	err = kbuild_facts(cli_str(a, "kernel"), &k);
	if (err)
		return cmd_fail((explain_kbuild_facts(&e, err, cli_str(a, "kernel")), &e));
	out_obj_open(ctx->out, NULL);
	view_kbuild(ctx->out, &k);
	out_obj_close(ctx->out);
	return 0;
}

/* A long step on a terminal: "rdmactl: LABEL... N s", cleared when it ends. */
static void progress_line(void *arg, const char *label, unsigned int seconds, bool done)
{
	(void)arg;
	if (done)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\rrdmactl: %s... %u s", label, seconds);
	fflush(stderr);
}

int cmd_module_install(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const struct spawn_progress tty = { progress_line, NULL };
	struct module_install_req r = { .kver = cli_str(a, "kernel"), .source = cli_str(a, "source"),
				     .progress = isatty(STDERR_FILENO) ? &tty : NULL,
				     .force = cli_flag(a, "force"),
				     .install_deps = cli_flag(a, "install-deps") };
	struct out *o = ctx->out;
	struct nl *nl = NULL;
	struct op_err e;
	int err = check_kernel_opt(a);

	if (!err)
		err = netlink_for(ctx, r.kver, &nl);
	if (err)
		return err;
	err = module_install(nl, &r, &e);
	if (err)
		return cmd_fail(&e);
	if (r.version_forced)
		pr_warn("built from a source of another version than kernel %s: unsupported",
			r.k.kver);
	out_obj_open(o, NULL);
	out_str(o, "kernel", NULL, r.k.kver);
	out_str(o, "result", NULL, r.unchanged && r.loaded ? "loaded" : r.unchanged ? "unchanged" :
		*r.package ? "package" : "built");
	if (r.unchanged && r.loaded)
		out_str(o, "detail", "%s, not loaded: loading it (--force builds it again)\n",
			r.unchanged);
	else if (r.unchanged)
		out_str(o, "detail", "%s: nothing to do (--force builds anyway)\n", r.unchanged);
	else if (*r.package)
		out_str(o, "package", "installed %s\n", r.package);
	else
		out_text(o, "rdma_rxe %s built for %s and installed with DKMS in %.1f s\n",
			 r.version, r.k.kver, (double)r.build_ms / 1000);
	out_str(o, "version", NULL, or_null(r.version));
	out_u64(o, "build_ms", NULL, r.build_ms);
	out_bool(o, "loaded", r.loaded ? "rdma_rxe loaded" : NULL, r.loaded);
	out_bool(o, "proved", r.proved ? "; a link on lo was made and deleted\n" :
		 r.loaded ? "\n" : NULL, r.proved);
	out_obj_close(o);
	return 0;
}

int cmd_module_remove(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct module_remove_req r = { .kver = cli_str(a, "kernel"), .wait = cli_flag(a, "wait") };
	struct out *o = ctx->out;
	struct nl *nl = NULL;
	struct op_err e;
	int err = check_kernel_opt(a);

	if (!err)
		err = netlink_for(ctx, r.kver, &nl);
	if (err)
		return err;
	err = module_remove(nl, &r, &e);
	if (err)
		return cmd_fail(&e);
	out_obj_open(o, NULL);
	out_str(o, "kernel", NULL, r.k.kver);
	out_str(o, "result", NULL, r.unchanged ? "unchanged" : "removed");
	if (r.unchanged)
		out_str(o, "detail", "%s: nothing to do\n", r.unchanged);
	else
		out_str(o, "version", "rdma_rxe %s removed from DKMS and /usr/src\n",
			r.k.dkms_version);
	out_bool(o, "unloaded", r.unloaded ? "rdma_rxe unloaded\n" : NULL, r.unloaded);
	out_obj_close(o);
	return 0;
}
