// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA links (device ports and their netdevs): list, create and delete rxe links. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "model/link.h"
#include "model/model.h"
#include "kernel/nl.h"
#include "kernel/sysfs.h"

struct devs {
	struct nldev_dev *v;
	size_t n;
	int err;
};

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct devs *d = data;
	struct nldev_dev dev, *v;

	d->err = nldev_parse_dev(nlh, &dev);
	if (d->err)
		return NL_CB_ERROR;
	v = realloc(d->v, (d->n + 1) * sizeof(*v));
	if (!v) {
		d->err = -ENOMEM;
		return NL_CB_ERROR;
	}
	d->v = v;
	d->v[d->n++] = dev;
	return NL_CB_CONTINUE;
}

struct ports {
	struct link_list *l;
	int err;
};

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ports *p = data;
	struct rdma_link *v;
	struct link_list *l = p->l;

	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v) {
		p->err = -ENOMEM;
		return NL_CB_ERROR;
	}
	l->v = v;
	memset(&l->v[l->n], 0, sizeof(l->v[l->n]));
	p->err = nldev_parse_port(nlh, &l->v[l->n].p);
	if (p->err)
		return NL_CB_ERROR;
	l->n++;
	return NL_CB_CONTINUE;
}

int links_get(struct nl *nl, const char *root, struct link_list *l)
{
	struct devs d = { 0 };
	struct nlmsghdr *nlh;
	int err;

	memset(l, 0, sizeof(*l));
	nlh = nl_request(nl, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	err = nl_talk(nl, nlh, dev_cb, &d);
	if (d.err)
		err = d.err;
	if (err)
		goto out;
	for (size_t i = 0; i < d.n; i++) {
		struct ports p = { .l = l };
		size_t first = l->n;
		char driver[32];

		nlh = nl_request(nl, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
		if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, d.v[i].index)) {
			err = -EMSGSIZE;
			goto out;
		}
		err = nl_talk(nl, nlh, port_cb, &p);
		if (p.err)
			err = p.err;
		/* A device removed since the device dump is simply gone. */
		if (err == -ENODEV || err == -EINVAL) {
			err = 0;
			continue;
		}
		if (err)
			goto out;
		rdma_dev_driver(root, d.v[i].name, driver, sizeof(driver));
		for (size_t j = first; j < l->n; j++) {
			snprintf(l->v[j].driver, sizeof(l->v[j].driver), "%s", driver);
			l->v[j].is_rxe = !strcmp(driver, "rxe");
		}
	}
out:
	free(d.v);
	if (err)
		links_free(l);
	return err;
}

void links_free(struct link_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const struct rdma_link *links_find_dev(const struct link_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].p.dev_name, name))
			return &l->v[i];
	return NULL;
}

const struct rdma_link *links_find_netdev(const struct link_list *l, const char *netdev)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].is_rxe && l->v[i].p.has_netdev && !strcmp(l->v[i].p.netdev, netdev))
			return &l->v[i];
	return NULL;
}

int link_create(struct nl *nl, const char *name, const char *netdev)
{
	/*
	 * No NLM_F_CREATE | NLM_F_EXCL: EXCL shares its bit with NLM_F_MATCH and the
	 * RDMA netlink core takes any NLM_F_DUMP bit for a dump request (EINVAL).
	 */
	struct nlmsghdr *nlh = nl_request(nl, RDMA_NLDEV_CMD_NEWLINK, 0);

	if (!nldev_put_newlink(nlh, NL_BUF_SIZE, name, "rxe", netdev))
		return -EMSGSIZE;
	return nl_talk(nl, nlh, NULL, NULL);
}

int link_delete(struct nl *nl, uint32_t dev_index)
{
	struct nlmsghdr *nlh = nl_request(nl, RDMA_NLDEV_CMD_DELLINK, 0);

	if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, dev_index))
		return -EMSGSIZE;
	return nl_talk(nl, nlh, NULL, NULL);
}

int links_select(const struct link_list *l, const char *name, const char *netdev,
		 const struct rdma_link **targets, size_t *n, const struct rdma_link **bad)
{
	bool found = false;

	for (size_t i = 0; i < l->n; i++) {
		const struct rdma_link *k = &l->v[i];
		bool dup = false;

		if (name && strcmp(k->p.dev_name, name))
			continue;
		if (netdev && !(k->is_rxe && k->p.has_netdev && !strcmp(k->p.netdev, netdev)))
			continue;
		if (!name && !netdev && !k->is_rxe)
			continue;
		found = true;
		if (!k->is_rxe) {
			*bad = k;
			return -EPERM;
		}
		for (size_t j = 0; j < *n; j++)
			dup |= targets[j]->p.dev_index == k->p.dev_index;
		if (!dup)
			targets[(*n)++] = k;
	}
	return found || (!name && !netdev) ? 0 : -ENODEV;
}
