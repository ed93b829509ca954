// SPDX-License-Identifier: GPL-2.0-or-later
/* The RDMA subsystem's settings and devices' namespaces (RDMA netlink). */
#include <errno.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "ops/explain.h"
#include "ops/system.h"

struct sys_reply {
	struct nldev_sys *s;
	int err;
};

static int sys_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sys_reply *r = data;

	r->err = nldev_parse_sys(nlh, r->s);
	return r->err ? NL_CB_ERROR : NL_CB_CONTINUE;
}

int sys_get(struct nl *nl, struct nldev_sys *s, struct op_err *e)
{
	struct sys_reply r = { .s = s };
	int err;

	*s = (struct nldev_sys){ -1, -1 };
	err = nl_talk(nl, nl_request(nl, RDMA_NLDEV_CMD_SYS_GET, 0), sys_cb, &r);
	if (!err)
		err = r.err;
	if (err)
		return op_err_set(e, err, nl_ext_msg(nl), "cannot read the RDMA subsystem's settings "
				  "(RDMA_NLDEV_CMD_SYS_GET)");
	return 0;
}

const char *sys_netns_mode_name(int mode)
{
	return mode < 0 ? NULL : mode ? "shared" : "exclusive";
}
