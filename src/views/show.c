// SPDX-License-Identifier: GPL-2.0-or-later
/* The devices, their ports, GID tables and netdevs, as show, gids and netdevs print them (show.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/out.h"
#include "kernel/netdev.h"
#include "model/gid.h"
#include "model/model.h"
#include "views/link.h"
#include "views/show.h"

/* A string field that is absent when empty: JSON null, plain "-". */
static void str_or_none(struct out *o, const char *key, const char *fmt, const char *v)
{
	out_str(o, key, fmt, v && *v ? v : NULL);
}

/* P's counters, "name value" cells in aligned columns, as many as 80 columns hold. */
static void counters(struct out *o, const struct port *p)
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

static void port(struct out *o, const struct port *p, bool stats)
{
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
		counters(o, p);
	out_obj_close(o);
}

void view_show(struct out *o, const struct model *m, bool stats)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < m->n; i++) {
		const struct rdma_dev *d = &m->devs[i];
		char uverbs[64];

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
			port(o, &d->ports[j], stats);
		out_arr_close(o);
		out_obj_close(o);
	}
	out_arr_close(o);
}

/* One slot G of D's port P; true when it is in use. */
static bool gid_row(struct out *o, const struct rdma_dev *d, const struct port *p,
		    const struct gid_slot *g)
{
	char text[GID_STR_LEN], addr[GID_ADDR_LEN];
	/* The number -g needs: first RoCE v2 IPv4 GID of its netdev. */
	bool rec = !g->empty && *g->netdev && model_port_ipv4_gid_index(p, g->netdev) == g->index;

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
	return !g->empty;
}

void view_gids(struct out *o, const struct model *m)
{
	size_t count = 0;

	out_text(o, "%-8s %-4s %-5s %-39s %-26s %-10s %s\n", "DEV", "PORT", "INDEX", "GID",
		 "ADDRESS", "TYPE", "NETDEV");
	out_arr_open(o, NULL);
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->devs[i].nports; j++)
			for (size_t k = 0; k < m->devs[i].ports[j].ngids; k++)
				count += gid_row(o, &m->devs[i], &m->devs[i].ports[j],
						 &m->devs[i].ports[j].gids[k]);
	out_arr_close(o);
	out_text(o, "%zu GID%s in use\n", count, count == 1 ? "" : "s");
}

void view_netdevs(struct out *o, const struct model *m, const struct netdev *nd)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < m->n; i++) {
		const struct rdma_dev *d = &m->devs[i];
		bool known = *nd[i].operstate;

		for (size_t j = 0; j < d->nports; j++) {
			out_obj_open(o, NULL);
			out_str(o, "ifname", "%s", d->name);
			out_u64(o, "port", " port %" PRIu64, d->ports[j].num);
			out_str(o, "netdev", " ==> %s", *d->netdev ? d->netdev : NULL);
			out_str(o, "netdev_state", NULL, nd[i].operstate);
			/* ibdev2netdev's words, Up or Down; JSON has the operstate itself. */
			out_text(o, " (%s)", !known ? "-" : netdev_carries(&nd[i]) ? "Up" : "Down");
			out_nl(o);
			out_obj_close(o);
		}
	}
	out_arr_close(o);
}
