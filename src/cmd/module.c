// SPDX-License-Identifier: GPL-2.0-or-later
/* module status, install, remove: rdma_rxe for kernels that lack it. Parse, call, print through views/module.c. */
#include <errno.h>
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
#include "ops/op_err.h"
#include "ops/module.h"
#include "views/module.h"

/* The netlink, for the running kernel only: another kernel's module is never loaded here. */
static int netlink_for(struct cmd_ctx *ctx, const char *kver, struct nl **nl)
{
	*nl = NULL;
	if (kver && strcmp(kver, release_name("")))
		return 0;
	return cmd_netlink(ctx, nl);
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
		return cmd_fail((op_err_kbuild_facts(&e, err, cli_str(a, "kernel")), &e));
	view_module_status(ctx->out, &k);
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
	view_module_install(ctx->out, &r);
	return 0;
}

int cmd_module_remove(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct module_remove_req r = { .kver = cli_str(a, "kernel"), .wait = cli_flag(a, "wait") };
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
	view_module_remove(ctx->out, &r);
	return 0;
}
