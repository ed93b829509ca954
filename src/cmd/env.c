// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * env: what each RDMA stack needs to find an rxe link and its GID index, from
 * the link as it is: shell assignments, a CI environment file, or JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "model/gid.h"
#include "model/model.h"
#include "ops/explain.h"

/* A CQ's most entries on rxe (rxe_param.h; ibv_devinfo -v's max_cqe), the same on every kernel. */
#define RXE_MAX_CQE 32767

/* The link env describes. */
struct env_link {
	const struct rdma_dev *dev;
	const struct port *port;
	const struct gid_slot *gid;
};

/* D's first ACTIVE port with a RoCE v2 GID of the family, into L; false when none. */
static bool usable(const struct rdma_dev *d, bool ipv6, struct env_link *l)
{
	for (size_t j = 0; j < d->nports; j++) {
		const struct port *p = &d->ports[j];
		const char *nd = *d->netdev ? d->netdev : NULL;
		const struct gid_slot *g = model_port_roce_gid(p, nd, ipv6);

		if (p->state == 4 && g) {
			*l = (struct env_link){ d, p, g };
			return true;
		}
	}
	return false;
}

/* The link: DEV's, or the one rxe device that has one. */
static int pick(const struct model *m, const char *root, const char *dev, bool ipv6,
		struct env_link *l, struct op_err *e)
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
		struct env_link x = { 0 };

		if (!model_dev_is_rxe(&m->devs[i]) || !usable(&m->devs[i], ipv6, &x))
			continue;
		if (n++ == 0)
			*l = x;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 n > 1 ? ", " : "", m->devs[i].name);
	}
	if (n == 0)
		return explain_no_devices(e, root, "no rxe device has an ACTIVE port with a RoCE v2 "
					  "GID of an %s address ('rdmactl up NETDEV' makes one)", family);
	if (n > 1)	/* the argument is wanted: a usage error (pick's caller says it) */
		return op_err_set(e, -EUSAGE, NULL, "%zu rxe devices could serve (%s): name one, as "
				  "'rdmactl env DEV'", n, names);
	return 0;
}

/* One variable: NAME=VALUE as the format wants it (JSON: a member of "env"). */
static void var(struct out *o, const char *format, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void var(struct out *o, const char *format, const char *name, const char *fmt, ...)
{
	char value[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	if (out_is_json(o))
		out_str(o, name, NULL, value);
	else if (!strcmp(format, "github"))
		out_text(o, "%s=%s\n", name, value);	/* printable ASCII: cmd_env saw to it */
	else
		out_sh_export(o, name, value);
}

int cmd_env(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	const char *format = cli_str(a, "format") ? cli_str(a, "format") : "sh";
	bool ipv6 = cli_str(a, "family") && !strcmp(cli_str(a, "family"), "ipv6");
	const struct model_src src = cmd_model_src(ctx);
	char gid[GID_STR_LEN], addr[GID_ADDR_LEN];
	struct out *o = ctx->out;
	struct env_link l = { 0 };
	struct model m;
	struct op_err e;
	int err;

	if (dev && cmd_check_name(a, "device name", dev, true))
		return -EUSAGE;
	/* -j is the format then: a --format beside it would be taken and not honoured. */
	if (out_is_json(o) && cli_str(a, "format"))
		return cli_usage(a, "-j prints JSON: --format %s is for text, leave one out", format);
	err = model_load(&src, NULL, (struct model_ask){ .gids = MODEL_GIDS_USED }, &m);
	if (err)
		return cmd_fail((explain_model_load(&e, err, ctx->sys.root, NULL), &e));
	err = pick(&m, ctx->sys.root, dev, ipv6, &l, &e);
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
	model_gid_to_sysfs(l.gid->raw, gid);
	model_gid_addr(l.gid->raw, addr, sizeof(addr));
	out_obj_open(o, NULL);
	if (out_is_json(o)) {
		out_str(o, "ifname", NULL, l.dev->name);
		out_u64(o, "port", NULL, l.port->num);
		out_str(o, "netdev", NULL, l.gid->netdev);
		out_str(o, "family", NULL, ipv6 ? "ipv6" : "ipv4");
		out_str(o, "address", NULL, addr);
		out_u64(o, "gid_index", NULL, l.gid->index);
		out_str(o, "gid", NULL, gid);
		out_obj_open(o, "env");
	} else if (strcmp(format, "github")) {
		/* The names escaped: a newline in one would end the comment. */
		out_str(o, NULL, "# rdmactl env: %s", l.dev->name);
		out_text(o, " port %u on ", l.port->num);
		out_str(o, NULL, "%s", l.gid->netdev);
		out_text(o, ", %s, GID index %u\n", addr, l.gid->index);
	}
	var(o, format, "RDMA_DEVICE", "%s", l.dev->name);
	var(o, format, "RDMA_PORT", "%u", l.port->num);
	var(o, format, "RDMA_NETDEV", "%s", l.gid->netdev);
	var(o, format, "RDMA_ADDRESS", "%s", addr);
	var(o, format, "RDMA_GID_INDEX", "%u", l.gid->index);
	var(o, format, "RDMA_GID", "%s", gid);
	/* The verbs examples (ibv_*_pingpong) and perftest, as arguments. */
	var(o, format, "RDMA_EXAMPLE_ARGS", "-d %s -i %u -g %u", l.dev->name, l.port->num,
	    l.gid->index);
	var(o, format, "RDMA_PERFTEST_ARGS", "-d %s -i %u -x %u", l.dev->name, l.port->num,
	    l.gid->index);
	var(o, format, "UCX_NET_DEVICES", "%s:%u", l.dev->name, l.port->num);
	var(o, format, "UCX_IB_GID_INDEX", "%u", l.gid->index);
	/*
	 * The verbs transports (self: a process to itself). Left to choose, UCX
	 * joins processes of one host by shared memory, and rxe carries nothing.
	 */
	var(o, format, "UCX_TLS", "self,rc_verbs,ud_verbs");
	/*
	 * UCX's UD transport (and RC's connection set-up, which goes over UD)
	 * drops every packet whose receive header's destination GID is not one
	 * of its own, and it reads rxe's RoCE v2 packets as not: without this,
	 * ucp_ep_create fails "Destination is unreachable" or the ends wait
	 * forever (docs/stacks.md, every kernel of the bed).
	 */
	var(o, format, "UCX_UD_ETH_DGID_CHECK", "n");
	/* NCCL: '=' asks for this name exactly, not every name it begins. */
	var(o, format, "NCCL_IB_HCA", "=%s:%u", l.dev->name, l.port->num);
	var(o, format, "NCCL_IB_GID_INDEX", "%u", l.gid->index);
	var(o, format, "NCCL_SOCKET_IFNAME", "=%s", l.gid->netdev);
	var(o, format, "FI_VERBS_DEVICE_NAME", "%s", l.dev->name);
	var(o, format, "FI_VERBS_IFACE", "%s", l.gid->netdev);
	var(o, format, "FI_VERBS_GID_IDX", "%u", l.gid->index);
	/*
	 * ofi_rxm sizes its verbs CQ as (128 + 128) entries per peer of the
	 * universe, 256 peers unless told: 65536, and rxe's CQs hold 32767
	 * (max_cqe on every kernel), so fi_enable fails EINVAL. The most
	 * peers that fit.
	 */
	var(o, format, "FI_UNIVERSE_SIZE", "%u", RXE_MAX_CQE / 256);
	var(o, format, "OMPI_MCA_pml", "ucx");
	if (out_is_json(o))
		out_obj_close(o);
	out_obj_close(o);
	model_free(&m);
	return 0;
}
