// SPDX-License-Identifier: GPL-2.0-or-later
/* The model's netlink source: devices and ports as the RDMA netlink has them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "model/model.h"
#include "model/sources.h"

void model_netlink_recording(const char *root, char *buf, size_t len)
{
	snprintf(buf, len, "%s/netlink/rdma", root);
}

/* What the callbacks fill: the model's devices, or one device's ports. */
struct fill {
	struct model *m;
	struct rdma_dev *d;
	int err;
};

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fill *g = data;
	struct model *m = g->m;
	struct rdma_dev *v;
	struct nldev_dev dev;

	g->err = nldev_parse_dev(nlh, &dev);
	if (g->err)
		return NL_CB_ERROR;
	v = realloc(m->devs, (m->n + 1) * sizeof(*v));
	if (!v) {
		g->err = -ENOMEM;
		return NL_CB_ERROR;
	}
	m->devs = v;
	memset(&v[m->n], 0, sizeof(v[m->n]));
	v[m->n].index = dev.index;
	snprintf(v[m->n].name, sizeof(v[m->n].name), "%s", dev.name);
	m->n++;
	return NL_CB_CONTINUE;
}

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fill *p = data;
	struct rdma_dev *d = p->d;
	struct nldev_port np;
	struct port *v;

	p->err = nldev_parse_port(nlh, &np);
	if (p->err)
		return NL_CB_ERROR;
	/* A dump for one device answers for that device only. */
	if (np.dev_index != d->index)
		return NL_CB_CONTINUE;
	v = realloc(d->ports, (d->nports + 1) * sizeof(*v));
	if (!v) {
		p->err = -ENOMEM;
		return NL_CB_ERROR;
	}
	d->ports = v;
	v += d->nports++;
	memset(v, 0, sizeof(*v));
	v->num = np.port;
	v->state = np.state;
	v->phys_state = np.phys_state;
	if (np.has_netdev) {
		snprintf(v->netdev, sizeof(v->netdev), "%s", np.netdev);
		v->netdev_index = np.netdev_index;
	}
	return NL_CB_CONTINUE;
}

static int load_ports(const struct model_src *src, struct rdma_dev *d)
{
	struct fill p = { .d = d };
	struct nlmsghdr *nlh = nldev_request(src->nl, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
	int err;

	if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, d->index))
		return -EMSGSIZE;
	err = nl_talk(src->nl, nlh, port_cb, &p);
	if (p.err)
		err = p.err;
	if (err)
		return err;
	model_sysfs_driver(src->root, d->name, d->driver, sizeof(d->driver));
	/* The device's netdev, as sysfs gives it: its first port's. */
	if (d->nports)
		snprintf(d->netdev, sizeof(d->netdev), "%s", d->ports[0].netdev);
	return 0;
}

int model_load_netlink(const struct model_src *src, const char *only, struct model_ask ask,
		       struct model *m)
{
	struct fill g = { .m = m };
	struct nlmsghdr *nlh;
	size_t kept = 0;
	int err;

	memset(m, 0, sizeof(*m));
	if (!src->nl)
		return -EINVAL;
	/* Every device is asked for, whatever ONLY is: a capture answers the same. */
	nlh = nldev_request(src->nl, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	err = nl_talk(src->nl, nlh, dev_cb, &g);
	if (g.err)
		err = g.err;
	for (size_t i = 0; !err && i < m->n; i++) {
		struct rdma_dev *d = &m->devs[i];

		if (only && strcmp(d->name, only)) {
			d->name[0] = '\0';
			continue;
		}
		if (ask.ports == MODEL_PORTS_NONE) {
			model_sysfs_driver(src->root, d->name, d->driver, sizeof(d->driver));
			continue;
		}
		err = load_ports(src, d);
		/* A device removed since the device dump is simply gone. */
		if (err == -ENODEV || err == -EINVAL) {
			free(d->ports);
			d->ports = NULL;
			d->nports = 0;
			d->name[0] = '\0';
			err = 0;
		}
	}
	if (err) {
		model_free(m);
		return err;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->devs[i].name[0])
			m->devs[kept++] = m->devs[i];
	m->n = kept;
	if (only && m->n == 0) {
		model_free(m);
		return -ENODEV;
	}
	return 0;
}