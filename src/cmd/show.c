// SPDX-License-Identifier: GPL-2.0-or-later
/* show, gids, netdevs: devices, ports and GID tables (sysfs; libibverbs for MTUs, GID tables). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ops/explain.h"
#include "model/gid.h"
#include "model/model.h"
#include "model/names.h"
#include "cli/out.h"
#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "views/link.h"
#include "kernel/netdev.h"
#include "kernel/sysfs.h"
#include "kernel/verbs.h"

/* Loads the model for DEV (NULL: all), explaining a failure. */
static int load(struct cmd_ctx *ctx, const struct cli_args *a, struct model_ask ask,
		struct model *m)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct model_src src;
	struct op_err e;
	int err;

	if (dev && (err = cmd_check_name(a, "device name", dev, true)))
		return err;
	if (!sysfs_exists(ctx->sys.root, "/sys/class/infiniband"))
		return cmd_fail((explain_no_class(&e, ctx->sys.root), &e));
	src = cmd_model_src(ctx);
	err = model_load(&src, dev, ask, m);
	if (err)
		return cmd_fail((explain_model_load(&e, err, ctx->sys.root, dev), &e));
	if (m->n == 0)
		pr_err("no RDMA devices ('rdmactl add NAME NETDEV' creates an rxe link)");
	return 0;
}

/* A string field that is absent when empty: JSON null, plain "-". */
static void str_or_none(struct out *o, const char *key, const char *fmt, const char *v)
{
	out_str(o, key, fmt, v && *v ? v : NULL);
}

/* P's counters, "name value" cells in aligned columns, as many as 80 columns hold. */
static void show_counters(struct out *o, const struct port *p)
{
	int nw = 1, vw = 1, per;

	for (size_t i = 0; i < p->ncounters; i++) {
		char v[24];
		int n = snprintf(v, sizeof(v), "%" PRIu64, p->counters[i].value);

		if ((int)strlen(p->counters[i].name) > nw)
			nw = (int)strlen(p->counters[i].name);
		if (n > vw)
			vw = n;
	}
	per = (80 - 8 + 3) / (nw + 1 + vw + 3);
	if (per < 1)
		per = 1;
	out_obj_open(o, "counters");
	for (size_t i = 0; i < p->ncounters; i++) {
		/* The name padded, the number right-aligned; no space ends a line. */
		out_text(o, "%s%-*s ", i % (size_t)per ? "   " : i ? "\n        " : "        ", nw,
			 p->counters[i].name);
		out_text(o, "%*s", vw - snprintf(NULL, 0, "%" PRIu64, p->counters[i].value), "");
		out_u64(o, p->counters[i].name, "%" PRIu64, p->counters[i].value);
	}
	if (p->ncounters)
		out_nl(o);
	out_obj_close(o);
}

static void show_port(struct cmd_ctx *ctx, const struct port *p, bool stats)
{
	struct out *o = ctx->out;

	out_obj_open(o, NULL);
	out_u64(o, "port", "    port %" PRIu64 ":", p->num);
	view_link_port_state(o, p);
	str_or_none(o, "link_layer", " link_layer %s", p->link_layer);
	out_nl(o);
	out_text(o, "        ");
	view_link_mtu(o, "max_mtu", "max_mtu ", p->max_mtu);
	view_link_mtu(o, "active_mtu", " active_mtu ", p->active_mtu);
	str_or_none(o, "rate", " rate %s", p->rate);
	/* JSON gets the parts; plain text has them in RATE already. */
	if (p->speed_gbps > 0)
		out_u64(o, "speed_mbps", NULL, (uint64_t)(p->speed_gbps * 1000 + 0.5));
	else
		out_str(o, "speed_mbps", NULL, NULL);
	out_str(o, "width", NULL, *p->width ? p->width : NULL);
	out_u64(o, "gid_tbl_len", " gid_tbl_len %" PRIu64, p->gid_tbl_len);
	out_u64(o, "pkey_tbl_len", " pkey_tbl_len %" PRIu64, p->pkey_tbl_len);
	out_nl(o);
	if (stats)
		show_counters(o, p);
	out_obj_close(o);
}

int cmd_show(struct cmd_ctx *ctx, const struct cli_args *a)
{
	bool stats = cli_flag(a, "stats");
	struct model m;
	int err;

	err = load(ctx, a, (struct model_ask){ .mtu = MODEL_MTU_LINK, .counters = stats }, &m);
	if (err)
		return err;
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < m.n; i++) {
		const struct rdma_dev *d = &m.devs[i];
		char uverbs[64];
		struct out *o = ctx->out;

		snprintf(uverbs, sizeof(uverbs), "/dev/infiniband/%s", d->uverbs);
		out_obj_open(o, NULL);
		out_str(o, "ifname", "%s:", d->name);
		str_or_none(o, "node_type", " node_type %s", d->node_type);
		str_or_none(o, "node_guid", " node_guid %s", d->node_guid);
		str_or_none(o, "sys_image_guid", " sys_image_guid %s", d->sys_image_guid);
		out_nl(o);
		str_or_none(o, "fw_ver", "    fw %s", d->fw_ver);
		out_str(o, "driver", " driver %s", d->driver);
		str_or_none(o, "netdev", " netdev %s", d->netdev);
		out_str(o, "uverbs", " uverbs %s", *d->uverbs ? uverbs : NULL);
		out_nl(o);
		out_arr_open(o, "ports");
		for (size_t j = 0; j < d->nports; j++)
			show_port(ctx, &d->ports[j], stats);
		out_arr_close(o);
		out_obj_close(o);
	}
	out_arr_close(ctx->out);
	model_free(&m);
	return 0;
}

int cmd_gids(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct model m;
	size_t count = 0;
	int err;

	err = load(ctx, a,
		   (struct model_ask){ .gids = cli_flag(a, "all") ? MODEL_GIDS_ALL : MODEL_GIDS_USED },
		   &m);
	if (err)
		return err;
	out_text(ctx->out, "%-8s %-4s %-5s %-39s %-26s %-10s %s\n", "DEV", "PORT", "INDEX", "GID",
		 "ADDRESS", "TYPE", "NETDEV");
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < m.n; i++) {
		const struct rdma_dev *d = &m.devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			const struct port *p = &d->ports[j];

			for (size_t k = 0; k < p->ngids; k++) {
				const struct gid_slot *g = &p->gids[k];
				char text[GID_STR_LEN], addr[GID_ADDR_LEN];
				/* The number -g needs: first RoCE v2 IPv4 GID of its netdev. */
				bool rec = !g->empty && *g->netdev &&
					   model_port_ipv4_gid_index(p, g->netdev) == g->index;
				struct out *o = ctx->out;

				model_gid_to_sysfs(g->raw, text);
				model_gid_addr(g->raw, addr, sizeof(addr));
				out_obj_open(o, NULL);
				out_str(o, "ifname", "%-8s", d->name);
				out_u64(o, "port", " %-4" PRIu64, p->num);
				out_u64(o, "index", " %-5" PRIu64, g->index);
				out_str(o, "gid", " %s", text);
				out_str(o, "address", " %-26s", g->empty ? NULL : addr);
				out_str(o, "type", " %-10s", *g->type ? g->type : NULL);
				out_str(o, "netdev", " %s", *g->netdev ? g->netdev : NULL);
				out_bool(o, "recommended", NULL, rec);
				if (rec)
					out_text(o, "  * use -g %u for RoCE v2 over IPv4", g->index);
				out_nl(o);
				out_obj_close(o);
				if (!g->empty)
					count++;
			}
		}
	}
	out_arr_close(ctx->out);
	out_text(ctx->out, "%zu GID%s in use\n", count, count == 1 ? "" : "s");
	model_free(&m);
	return 0;
}

int cmd_netdevs(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct model m;
	int err;

	err = load(ctx, a, (struct model_ask){ .ports = MODEL_PORTS_STATES }, &m);
	if (err)
		return err;
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < m.n; i++) {
		const struct rdma_dev *d = &m.devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			struct netdev nd = { 0 };
			struct out *o = ctx->out;
			bool known = *d->netdev && netdev_get_link(ctx->sys.root, d->netdev, &nd) == 0 &&
				     *nd.operstate;

			out_obj_open(o, NULL);
			out_str(o, "ifname", "%s", d->name);
			out_u64(o, "port", " port %" PRIu64, d->ports[j].num);
			out_str(o, "netdev", " ==> %s", *d->netdev ? d->netdev : NULL);
			out_str(o, "netdev_state", NULL, nd.operstate);
			/* ibdev2netdev's words, Up or Down; JSON has the operstate itself. */
			out_text(o, " (%s)", !known ? "-" : netdev_carries(&nd) ? "Up" : "Down");
			out_nl(o);
			out_obj_close(o);
		}
	}
	out_arr_close(ctx->out);
	model_free(&m);
	return 0;
}
