// SPDX-License-Identifier: GPL-2.0-or-later
/* system: the RDMA subsystem's settings, as 'rdma system show' gives them. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "ops/op_err.h"
#include "ops/system.h"

/* The modprobe.d directory tests give (RDMACTL_MODPROBE_D), NULL for the system's own. */
static const char *modprobe_test_dir(void)
{
	const char *d = getenv("RDMACTL_MODPROBE_D");

	return d && *d ? d : NULL;
}

/* Where --persist writes: /etc/modprobe.d, or the tests' directory. */
static const char *modprobe_dir(void)
{
	const char *d = modprobe_test_dir();

	return d ? d : "/etc/modprobe.d";
}

int cmd_system_show(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct nldev_sys s;
	struct out *o = ctx->out;
	struct op_err e;
	struct nl *nl;
	int err, boot;

	(void)a;
	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	err = system_get(nl, &s, &e);
	if (err)
		return cmd_fail(&e);
	out_obj_open(o, NULL);
	out_str(o, "netns", "netns %s", nldev_netns_mode_name(s.netns_mode));
	/*
	 * A kernel that does not say (before 5.13) has no copy-on-fork: off, as
	 * rdma says too. In text, rdma's words: on or off.
	 */
	out_bool(o, "copy_on_fork", NULL, s.copy_on_fork > 0);
	out_text(o, " copy-on-fork %s", s.copy_on_fork > 0 ? "on" : "off");
	/* The mode of the next boot: said in text only where it is not today's. */
	boot = system_boot_netns_mode(modprobe_test_dir());
	out_str(o, "netns_boot", NULL, nldev_netns_mode_name(boot));
	if (boot >= 0 && s.netns_mode >= 0 && boot != s.netns_mode)
		out_text(o, " (netns %s from the next boot)", nldev_netns_mode_name(boot));
	out_nl(o);
	out_obj_close(o);
	return 0;
}

int cmd_system_set(struct cmd_ctx *ctx, const struct cli_args *a)
{
	bool persist = cli_flag(a, "persist");
	char had[4096] = "";
	struct op_err e;
	struct nl *nl;
	int mode, err;

	if (strcmp(a->argv[0], "netns"))
		return cli_usage(a, "'%s' is not a setting: 'netns shared' or 'netns exclusive'",
				 a->argv[0]);
	if (strcmp(a->argv[1], "shared") && strcmp(a->argv[1], "exclusive"))
		return cli_usage(a, "netns takes shared or exclusive, not '%s'", a->argv[1]);
	mode = !strcmp(a->argv[1], "shared");
	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	if (persist && system_persist_netns_mode(modprobe_dir(), mode, had, sizeof(had), &e))
		return cmd_fail(&e);
	err = system_set_netns_mode(nl, mode, &e);
	if (err == -EBUSY && persist) {
		pr_note("the running kernel keeps its mode while other network namespaces exist: "
			"%s from the next boot (%s/%s)", a->argv[1], modprobe_dir(),
			SYSTEM_MODPROBE_FILE);
	} else if (err) {
		if (persist)
			system_persist_restore(modprobe_dir(), had, &e);
		return cmd_fail(&e);
	} else if (persist) {
		pr_note("%s from boot too: %s/%s", a->argv[1], modprobe_dir(),
			SYSTEM_MODPROBE_FILE);
	}
	return cmd_system_show(ctx, a);
}
