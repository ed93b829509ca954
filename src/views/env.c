// SPDX-License-Identifier: GPL-2.0-or-later
/* env's settings for each RDMA stack, as variables of the format asked for (env.h). */
#include <stdarg.h>
#include <stdio.h>

#include "cli/out.h"
#include "model/gid.h"
#include "views/env.h"

/* A CQ's most entries on rxe (rxe_param.h; ibv_devinfo -v's max_cqe), the same on every kernel. */
#define RXE_MAX_CQE 32767

/* One variable: NAME=VALUE as the format wants it (JSON: a member of "env"). */
static void var(struct out *o, bool github, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void var(struct out *o, bool github, const char *name, const char *fmt, ...)
{
	char value[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	if (out_is_json(o))
		out_str(o, name, NULL, value);
	else if (github)
		out_text(o, "%s=%s\n", name, value);	/* printable ASCII: the caller saw to it */
	else
		out_sh_export(o, name, value);
}

/* The link itself: JSON's members, or the comment above the shell's assignments. */
static void head(struct out *o, const struct view_env *e, bool github, const char *gid,
		 const char *addr)
{
	if (out_is_json(o)) {
		out_str(o, "ifname", NULL, e->dev->name);
		out_u64(o, "port", NULL, e->port->num);
		out_str(o, "netdev", NULL, e->gid->netdev);
		out_str(o, "family", NULL, e->ipv6 ? "ipv6" : "ipv4");
		out_str(o, "address", NULL, addr);
		out_u64(o, "gid_index", NULL, e->gid->index);
		out_str(o, "gid", NULL, gid);
		out_obj_open(o, "env");
	} else if (!github) {
		/* The names escaped: a newline in one would end the comment. */
		out_str(o, NULL, "# rdmactl env: %s", e->dev->name);
		out_text(o, " port %u on ", e->port->num);
		out_str(o, NULL, "%s", e->gid->netdev);
		out_text(o, ", %s, GID index %u\n", addr, e->gid->index);
	}
}

/* What the verbs examples, perftest and UCX read. */
static void verbs_and_ucx(struct out *o, const struct view_env *e, bool gh, const char *gid,
			  const char *addr)
{
	const char *dev = e->dev->name;
	unsigned int port = e->port->num, index = e->gid->index;

	var(o, gh, "RDMA_DEVICE", "%s", dev);
	var(o, gh, "RDMA_PORT", "%u", port);
	var(o, gh, "RDMA_NETDEV", "%s", e->gid->netdev);
	var(o, gh, "RDMA_ADDRESS", "%s", addr);
	var(o, gh, "RDMA_GID_INDEX", "%u", index);
	var(o, gh, "RDMA_GID", "%s", gid);
	/* The verbs examples (ibv_*_pingpong) and perftest, as arguments. */
	var(o, gh, "RDMA_EXAMPLE_ARGS", "-d %s -i %u -g %u", dev, port, index);
	var(o, gh, "RDMA_PERFTEST_ARGS", "-d %s -i %u -x %u", dev, port, index);
	var(o, gh, "UCX_NET_DEVICES", "%s:%u", dev, port);
	var(o, gh, "UCX_IB_GID_INDEX", "%u", index);
	/*
	 * The verbs transports (self: a process to itself). Left to choose, UCX
	 * joins processes of one host by shared memory, and rxe carries nothing.
	 */
	var(o, gh, "UCX_TLS", "self,rc_verbs,ud_verbs");
	/*
	 * UCX's UD transport (and RC's connection set-up, which goes over UD)
	 * drops every packet whose receive header's destination GID is not one
	 * of its own, and it reads rxe's RoCE v2 packets as not: without this,
	 * ucp_ep_create fails "Destination is unreachable" or the ends wait
	 * forever (docs/stacks.md, every kernel of the bed).
	 */
	var(o, gh, "UCX_UD_ETH_DGID_CHECK", "n");
}

/* What NCCL, libfabric and Open MPI read. */
static void nccl_fi_ompi(struct out *o, const struct view_env *e, bool gh)
{
	/* NCCL: '=' asks for this name exactly, not every name it begins. */
	var(o, gh, "NCCL_IB_HCA", "=%s:%u", e->dev->name, e->port->num);
	var(o, gh, "NCCL_IB_GID_INDEX", "%u", e->gid->index);
	var(o, gh, "NCCL_SOCKET_IFNAME", "=%s", e->gid->netdev);
	var(o, gh, "FI_VERBS_DEVICE_NAME", "%s", e->dev->name);
	var(o, gh, "FI_VERBS_IFACE", "%s", e->gid->netdev);
	var(o, gh, "FI_VERBS_GID_IDX", "%u", e->gid->index);
	/*
	 * ofi_rxm sizes its verbs CQ as (128 + 128) entries per peer of the
	 * universe, 256 peers unless told: 65536, and rxe's CQs hold 32767
	 * (max_cqe on every kernel), so fi_enable fails EINVAL. The most
	 * peers that fit.
	 */
	var(o, gh, "FI_UNIVERSE_SIZE", "%u", RXE_MAX_CQE / 256);
	var(o, gh, "OMPI_MCA_pml", "ucx");
}

void view_env(struct out *o, const struct view_env *e, bool github)
{
	char gid[GID_STR_LEN], addr[GID_ADDR_LEN];

	model_gid_to_sysfs(e->gid->raw, gid);
	model_gid_addr(e->gid->raw, addr, sizeof(addr));
	out_obj_open(o, NULL);
	head(o, e, github, gid, addr);
	verbs_and_ucx(o, e, github, gid, addr);
	nccl_fi_ompi(o, e, github);
	if (out_is_json(o))
		out_obj_close(o);
	out_obj_close(o);
}
