// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * env: what each RDMA stack needs to find an rxe link and its GID index, from
 * the link as it is: the link picked and vetted here, printed by views/env.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "model/gid.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "views/env.h"

/* D's first ACTIVE port with a RoCE v2 GID of the family, into L; false when none. */
static bool usable(const struct rdma_dev *d, bool ipv6, struct view_env *l)
{
	for (size_t j = 0; j < d->nports; j++) {
		const struct port *p = &d->ports[j];
		const char *nd = *d->netdev ? d->netdev : NULL;
		const struct gid_slot *g = model_port_roce_gid(p, nd, ipv6);

		if (p->state == 4 && g) {
			*l = (struct view_env){ d, p, g, ipv6 };
			return true;
		}
	}
	return false;
}

int cmd_env_pick(const struct model *m, const char *root, const char *dev, bool ipv6,
		 struct view_env *l, struct op_err *e)
{
	const char *family = ipv6 ? "IPv6" : "IPv4";
	char names[256] = "";
	size_t n = 0;

	if (dev) {
		const struct rdma_dev *d = model_find(m, dev);

		if (!d)
			return op_err_set(e, -ENODEV, NULL, "there is no RDMA device named %s "
					  "('rdmactl link' lists them)", dev);
		/* The settings below are rxe's (its CQ size, UCX's UD check): not another driver's. */
		if (!model_dev_is_rxe(d))
			return op_err_set(e, -EINVAL, NULL, "%s is not an rxe device: rdmactl env gives "
					  "the settings rxe needs; for another driver, its own", dev);
		if (!usable(d, ipv6, l))
			return op_err_set(e, -EADDRNOTAVAIL, NULL, "%s has no ACTIVE port with a RoCE v2 "
					  "GID of an %s address: give its netdev an address and set it up "
					  "('rdmactl check --dev %s' says what is wrong)", dev, family, dev);
		return 0;
	}
	for (size_t i = 0; i < m->n; i++) {
		struct view_env x = { 0 };

		if (!model_dev_is_rxe(&m->devs[i]) || !usable(&m->devs[i], ipv6, &x))
			continue;
		if (n++ == 0)
			*l = x;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 n > 1 ? ", " : "", m->devs[i].name);
	}
	if (n == 0)
		return op_err_no_devices(e, root, "no rxe device has an ACTIVE port with a RoCE v2 "
					  "GID of an %s address ('rdmactl up NETDEV' makes one)", family);
	if (n > 1)	/* the argument is wanted: a usage error (pick's caller says it) */
		return op_err_set(e, -EUSAGE, NULL, "%zu rxe devices could serve (%s): name one, as "
				  "'rdmactl env DEV'", n, names);
	return 0;
}

int cmd_env(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	const char *format = cli_str(a, "format") ? cli_str(a, "format") : "sh";
	bool ipv6 = cli_str(a, "family") && !strcmp(cli_str(a, "family"), "ipv6");
	struct out *o = ctx->out;
	struct view_env l = { 0 };
	struct model m;
	struct op_err e;
	int err;

	if (dev && cmd_valid_name(a, "device name", dev, true))
		return -EUSAGE;
	/* -j is the format then: a --format beside it would be taken and not honoured. */
	if (out_is_json(o) && cli_str(a, "format"))
		return cli_usage(a, "-j prints JSON: --format %s is for text, leave one out", format);
	err = model_sys_load(&ctx->sys, NULL, (struct model_ask){ .gids = MODEL_GIDS_USED }, -1, &m);
	if (err)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, NULL), &e));
	err = cmd_env_pick(&m, ctx->sys.root, dev, ipv6, &l, &e);
	if (err) {
		model_free(&m);
		return err == -EUSAGE ? cli_usage(a, "%s", e.what) : cmd_fail(&e);
	}
	/*
	 * GitHub's environment file takes NAME=VALUE lines: a name holding a
	 * newline would add a variable of its own, and its bytes are written
	 * as they are. A name beyond printable ASCII is refused there.
	 */
	if (!out_is_json(o) && !strcmp(format, "github") &&
	    (!out_is_plain(l.dev->name) || !out_is_plain(l.gid->netdev))) {
		op_err_set(&e, -EINVAL, NULL, "--format github: the name of %s or of its netdev %s "
			   "holds a byte outside printable ASCII, which GitHub's environment file "
			   "would take as it is (a newline starts a variable of its own): rename "
			   "it, or use the sh format, which escapes it", l.dev->name, l.gid->netdev);
		model_free(&m);
		return cmd_fail(&e);
	}
	if (model_gid_is_link_local(l.gid->raw))
		pr_note("%s has no global IPv6 address: its link-local GID is the one, and it "
			"reaches peers on %s's link only", l.gid->netdev, l.gid->netdev);
	view_env(o, &l, !out_is_json(o) && !strcmp(format, "github"));
	model_free(&m);
	return 0;
}
