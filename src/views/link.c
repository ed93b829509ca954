// SPDX-License-Identifier: GPL-2.0-or-later
/* One rxe link's rows, and the port facts every command shows the same way (plain and JSON). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/out.h"
#include "model/model.h"
#include "views/link.h"

void view_link_port_state(struct out *o, const struct port *p)
{
	out_str(o, "state", " state %s", model_port_state_name(p->state));
	out_str(o, "physical_state", " physical_state %s", model_phys_state_name(p->phys_state));
}

void view_link_mtu(struct out *o, const char *key, const char *label, int bytes)
{
	char fmt[48];

	/* Unknown (no netdev, no uverbs node, a fixture of another driver): not 0. */
	if (bytes > 0) {
		snprintf(fmt, sizeof(fmt), "%s%%" PRIu64, label ? label : "");
		out_u64(o, key, label ? fmt : NULL, (uint64_t)bytes);
	} else {
		snprintf(fmt, sizeof(fmt), "%s%%s", label ? label : "");
		out_str(o, key, label ? fmt : NULL, NULL);
	}
}

static void link_port(struct out *o, const struct rdma_dev *d, const struct port *p)
{
	out_obj_open(o, NULL);
	out_str(o, "ifname", "%s", d->name);
	out_u64(o, "port", "/%" PRIu64, p->num);
	view_link_port_state(o, p);
	out_str(o, "netdev", " netdev %s", *p->netdev ? p->netdev : NULL);
	view_link_mtu(o, "netdev_mtu", " netdev_mtu ", p->netdev_mtu);
	view_link_mtu(o, "active_mtu", " active_mtu ", p->active_mtu);
	view_link_mtu(o, "max_mtu", NULL, p->max_mtu);
	out_nl(o);
	out_obj_close(o);
}

void view_link(struct out *o, const struct rdma_dev *d)
{
	for (size_t i = 0; i < d->nports; i++)
		link_port(o, d, &d->ports[i]);
}

void view_links(struct out *o, const struct model *m, const char *dev)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < m->n; i++)
		if (model_dev_is_rxe(&m->devs[i]) && (!dev || !strcmp(m->devs[i].name, dev)))
			view_link(o, &m->devs[i]);
	out_arr_close(o);
}

void view_link_deleted_begin(struct out *o)
{
	out_arr_open(o, NULL);
}

void view_link_deleted(struct out *o, const char *name)
{
	out_str(o, NULL, NULL, name);
}

void view_link_deleted_end(struct out *o)
{
	out_arr_close(o);
}

void view_link_moved(struct out *o, const char *dev, const char *spec)
{
	out_obj_open(o, NULL);
	out_str(o, "ifname", "%s moved to network namespace", dev);
	out_str(o, "netns", " %s", spec);
	out_nl(o);
	out_obj_close(o);
}
