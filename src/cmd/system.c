// SPDX-License-Identifier: GPL-2.0-or-later
/* system: the RDMA subsystem's settings, as 'rdma system show' gives them. */
#include <errno.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "ops/explain.h"
#include "ops/system.h"

int cmd_system(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct nldev_sys s;
	struct out *o = ctx->out;
	struct op_err e;
	struct nl *nl;
	int err;

	(void)a;
	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	err = sys_get(nl, &s, &e);
	if (err)
		return cmd_fail(&e);
	out_obj_open(o, NULL);
	out_str(o, "netns", "netns %s", sys_netns_mode_name(s.netns_mode));
	/*
	 * A kernel that does not say (before 5.13) has no copy-on-fork: off, as
	 * rdma says too. In text, rdma's words: on or off.
	 */
	out_bool(o, "copy_on_fork", NULL, s.copy_on_fork > 0);
	out_text(o, " copy-on-fork %s", s.copy_on_fork > 0 ? "on" : "off");
	out_nl(o);
	out_obj_close(o);
	return 0;
}
