// SPDX-License-Identifier: GPL-2.0-or-later
/* What the context gives commands: the netlink socket, the link list, the links file. */
#include <errno.h>
#include <stdio.h>

#include "model/conf.h"
#include "ops/explain.h"
#include "model/link.h"
#include "kernel/nl.h"
#include "cli/rdmactl.h"

int rc_netlink(struct rc_ctx *ctx, struct nl **nlp)
{
	if (!ctx->nl) {
		int err = nl_open(&ctx->nl);

		if (err == -EPROTONOSUPPORT) {
			pr_no_rdma_kernel();
			return err;
		}
		if (err) {
			pr_kerr(err, NULL, "cannot open the RDMA netlink socket");
			return err;
		}
	}
	*nlp = ctx->nl;
	return 0;
}

int rc_links(struct rc_ctx *ctx, struct link_list *l)
{
	struct nl *nl;
	int err = rc_netlink(ctx, &nl);

	if (err)
		return err;
	err = links_get(nl, ctx->sysfs_root, l);
	if (err)
		pr_kerr(err, nl_ext_msg(nl), "cannot list the RDMA devices");
	return err;
}

int rc_conf_load(struct rc_ctx *ctx, struct conf *c)
{
	char msg[512];
	int err = conf_load(ctx->config, c, msg, sizeof(msg));

	if (err && *msg)
		fprintf(stderr, "rdmactl: %s; the file was left as it is\n", msg);
	else if (err)
		pr_kerr(err, NULL, "cannot read %s", ctx->config);
	return err;
}

int rc_rxe_on(struct rc_ctx *ctx, const char *netdev, char *name, size_t len)
{
	struct link_list l;
	const struct rdma_link *k;
	int err = rc_links(ctx, &l);

	if (err)
		return err;
	k = links_find_netdev(&l, netdev);
	if (k)
		snprintf(name, len, "%s", k->p.dev_name);
	else
		fprintf(stderr, "rdmactl: %s carries no rxe device (ENODEV)\n", netdev);
	links_free(&l);
	return k ? 0 : -ENODEV;
}
