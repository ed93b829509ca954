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

struct sys_reply {
	struct nldev_sys s;
	int err;
};

static int sys_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sys_reply *r = data;

	r->err = nldev_parse_sys(nlh, &r->s);
	return r->err ? NL_CB_ERROR : NL_CB_CONTINUE;
}

/* "shared" or "exclusive"; NULL when the kernel did not say. */
static const char *netns_mode_name(int mode)
{
	return mode < 0 ? NULL : mode ? "shared" : "exclusive";
}

int cmd_system(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct sys_reply r = { .s = { -1, -1 } };
	struct out *o = ctx->out;
	struct op_err e;
	struct nl *nl;
	int err;

	(void)a;
	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	err = nl_talk(nl, nl_request(nl, RDMA_NLDEV_CMD_SYS_GET, 0), sys_cb, &r);
	if (!err)
		err = r.err;
	if (err)
		return cmd_fail((op_err_set(&e, err, nl_ext_msg(nl), "cannot read the RDMA "
					    "subsystem's settings (RDMA_NLDEV_CMD_SYS_GET)"), &e));
	out_obj_open(o, NULL);
	out_str(o, "netns", "netns %s", netns_mode_name(r.s.netns_mode));
	/*
	 * A kernel that does not say (before 5.13) has no copy-on-fork: off, as
	 * rdma says too. In text, rdma's words: on or off.
	 */
	out_bool(o, "copy_on_fork", NULL, r.s.copy_on_fork > 0);
	out_text(o, " copy-on-fork %s", r.s.copy_on_fork > 0 ? "on" : "off");
	out_nl(o);
	out_obj_close(o);
	return 0;
}
