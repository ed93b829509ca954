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
#include "views/system.h"

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
	struct op_err e;
	struct nl *nl;
	int err;

	(void)a;
	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	err = system_get(nl, &s, &e);
	if (err)
		return cmd_fail(&e);
	/* The mode of the next boot, from modprobe.d. */
	view_system(ctx->out, &s, system_boot_netns_mode(modprobe_test_dir()));
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
