// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the model knows of a port's link besides sysfs's infiniband tree: its
 * netdev's MTU and operstate and the RoCE MTUs, the netdev as check looks at
 * it, and the GID table
 * libibverbs gives in one call. One home for each, so every view prints the
 * same answer for one fact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>

#include "kernel/netdev.h"
#include "kernel/sysfs.h"
#include "kernel/verbs.h"
#include "model/model.h"

void model_rxe_port_mtu(unsigned int netdev_mtu, int *active, int *max)
{
	unsigned int room = netdev_mtu > ROCE_HEADERS ? netdev_mtu - ROCE_HEADERS : 0;

	*active = 256;
	while (*active < 4096 && room >= (unsigned int)*active * 2)
		*active *= 2;
	*max = 4096;
}

/* Where the list left it empty: rxe's parent, another's GID 0's netdev. */
static void fill_netdev(const struct model_src *src, const struct rdma_dev *d, struct port *p)
{
	if (*p->netdev)
		return;
	if (model_dev_is_rxe(d))
		snprintf(p->netdev, sizeof(p->netdev), "%s", d->netdev);
	else if (sysfs_read(src->root, p->netdev, sizeof(p->netdev),
			    "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/0", d->name, p->num) <= 0)
		p->netdev[0] = '\0';
}

/* The netdev as check looks at it, its operstate with the rest: each file read once. */
static void load_port_netdev(const struct model_src *src, struct port *p)
{
	struct netdev nd;

	p->netdev_known = true;
	p->netdev_exists = *p->netdev && netdev_get_link(src->root, p->netdev, &nd) == 0;
	if (!p->netdev_exists)
		return;
	p->netdev_type = nd.type;
	p->netdev_flags = nd.flags;
	p->carrier = nd.carrier;
	memcpy(p->operstate, nd.operstate, sizeof(p->operstate));
}

static void load_port_mtu(const struct model_src *src, const struct rdma_dev *d, struct port *p,
			  enum model_mtu how)
{
	bool from_device = !model_dev_is_rxe(d) || how == MODEL_MTU_DEVICE;
	unsigned int mtu;

	p->netdev_mtu = p->active_mtu = p->max_mtu = -1;
	p->mtu_source = MTU_UNKNOWN;
	if (*p->netdev && netdev_mtu(src->root, p->netdev, &mtu) == 0)
		p->netdev_mtu = (int)mtu;
	if (!*p->operstate && p->netdev_mtu > 0)
		netdev_operstate(src->root, p->netdev, p->operstate, sizeof(p->operstate));
	/*
	 * rxe's follow from its netdev's (no device to open for them, and a
	 * fixture answers the same); any other's from libibverbs, live only.
	 */
	if (from_device && src->verbs &&
	    verbs_port_mtu(d->name, p->num, &p->active_mtu, &p->max_mtu) == 0) {
		p->mtu_source = MTU_DEVICE;
	} else if (!from_device && p->netdev_mtu > 0) {
		p->mtu_source = MTU_DERIVED;
		model_rxe_port_mtu((unsigned int)p->netdev_mtu, &p->active_mtu, &p->max_mtu);
	} else {
		p->active_mtu = p->max_mtu = -1;	/* verbs may have written one */
	}
}

void model_load_links(const struct model_src *src, struct model *m, struct model_ask ask)
{
	if (ask.mtu == MODEL_MTU_NONE && !ask.netdev)
		return;
	for (size_t i = 0; i < m->n; i++) {
		for (size_t k = 0; k < m->devs[i].nports; k++) {
			struct port *p = &m->devs[i].ports[k];

			fill_netdev(src, &m->devs[i], p);
			if (ask.netdev)
				load_port_netdev(src, p);
			if (ask.mtu != MODEL_MTU_NONE)
				load_port_mtu(src, &m->devs[i], p, ask.mtu);
		}
	}
}

int model_load_verbs_gids(const char *dev, struct port *p)
{
	struct verbs_gid *v;
	unsigned int last_ifindex = 0;
	char last_name[IF_NAMESIZE] = "";
	size_t n;
	int err;

	err = verbs_gids(dev, p->num, &v, &n, &p->gid_tbl_len);
	if (err)
		return err;
	p->gids = calloc(n ? n : 1, sizeof(*p->gids));
	if (!p->gids) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct gid_slot *g = &p->gids[i];

		g->index = v[i].index;
		memcpy(g->raw, v[i].raw, 16);
		/* sysfs's words for the types, as the rest of rdmactl shows them. */
		snprintf(g->type, sizeof(g->type), "%s", v[i].roce_v2 ? "RoCE v2" : "IB/RoCE v1");
		/* The GIDs of a port mostly share a netdev: one name lookup for them. */
		if (v[i].ifindex && v[i].ifindex != last_ifindex &&
		    if_indextoname(v[i].ifindex, last_name))
			last_ifindex = v[i].ifindex;
		snprintf(g->netdev, sizeof(g->netdev), "%s",
			 v[i].ifindex && v[i].ifindex == last_ifindex ? last_name : "");
	}
	p->ngids = n;
	p->gids_known = true;
	free(v);
	return 0;
}
