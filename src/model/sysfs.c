// SPDX-License-Identifier: GPL-2.0-or-later
/* The model's sysfs source: devices, ports, GID tables, counters, uverbs nodes. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/sysfs.h"
#include "model/gid.h"
#include "model/model.h"
#include "model/sources.h"

#define IB "/sys/class/infiniband"

void model_sysfs_driver(const char *root, const char *name, char *buf, size_t len)
{
	char node_type[32];

	/*
	 * Only rdma_rxe gives its (virtual) device a "parent" attribute: asked
	 * first, as rxe devices are the ones rdmactl is for (one look each).
	 */
	if (sysfs_exists(root, IB "/%s/parent", name)) {
		snprintf(buf, len, "rxe");
		return;
	}
	/* Hardware has a parent device bound to a driver. */
	if (sysfs_link_base(root, buf, len, IB "/%s/device/driver", name) > 0)
		return;
	if (sysfs_read(root, node_type, sizeof(node_type), IB "/%s/node_type", name) > 0 &&
	    !strncmp(node_type, "4:", 2)) {
		snprintf(buf, len, "siw");	/* the software iWARP RNIC */
		return;
	}
	snprintf(buf, len, "unknown");
}

/* Names in DIR, sorted: numerically when NUMERIC (GID indexes, ports). */
struct names {
	char **v;
	size_t n;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_num(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b, NULL, 10);

	return x < y ? -1 : x > y;
}

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

struct listing {
	struct names ns;
	bool numeric;
};

static int list_one(void *arg, const char *name)
{
	struct listing *l = arg;
	struct names *ns = &l->ns;
	char **v = ns->v;

	if (name[0] == '.' || (l->numeric && !isdigit((unsigned char)name[0])))
		return 0;
	/* Room doubles at each power of two: 1024 GIDs are 11 reallocs, not 1024. */
	if (!(ns->n & (ns->n - 1)))
		v = realloc(ns->v, (ns->n ? 2 * ns->n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ns->v = v;
	if (!(v[ns->n] = strdup(name)))
		return -ENOMEM;
	ns->n++;
	return 0;
}

static int list_dir(const char *root, const char *dir, bool numeric, struct names *ns)
{
	struct listing l = { .numeric = numeric };
	int err = sysfs_list(root, dir, list_one, &l);

	*ns = l.ns;
	if (err) {
		names_free(ns);
		return err;
	}
	if (ns->n)
		qsort(ns->v, ns->n, sizeof(*ns->v), numeric ? cmp_num : cmp_str);
	return 0;
}

/* NAME alone, when IB has it: -ENOENT when not (what list_dir would not list). */
static int names_one(const char *root, const char *name, struct names *ns)
{
	struct listing l = { .numeric = false };
	int err;

	*ns = l.ns;
	if (name[0] == '\0' || name[0] == '.' || !sysfs_exists(root, IB "/%s", name))
		return -ENOENT;
	err = list_one(&l, name);
	*ns = l.ns;
	if (err)
		names_free(ns);
	return err;
}

static uint8_t read_state(const char *root, const char *dev, uint32_t port, const char *attr)
{
	char buf[64];

	if (sysfs_read(root, buf, sizeof(buf), IB "/%s/ports/%u/%s", dev, port, attr) <= 0)
		return 0;
	return model_parse_state(buf);
}

static int load_gids(const struct model_src *src, const char *dev, struct port *p,
		     enum model_gids gids)
{
	const char *root = src->root;
	char dir[256], buf[64];
	struct names ns;
	int err, gfd = -1, tfd = -1, nfd = -1;

	/* One call for the table through libibverbs, when it may: 1024 reads fewer. */
	if (src->verbs && gids == MODEL_GIDS_USED && model_load_verbs_gids(dev, p) == 0)
		return 0;
	p->gids_known = gids != MODEL_GIDS_NONE;
	snprintf(dir, sizeof(dir), IB "/%s/ports/%u/gids", dev, p->num);
	err = list_dir(root, dir, true, &ns);
	if (err)
		return err == -ENOENT ? 0 : err;
	p->gid_tbl_len = (uint32_t)ns.n;
	if (gids == MODEL_GIDS_NONE)
		goto out;
	p->gids = calloc(ns.n ? ns.n : 1, sizeof(*p->gids));
	if (!p->gids) {
		err = -ENOMEM;
		goto out;
	}
	/* rxe has 1024 slots a port: each is read by its name in an open directory. */
	gfd = sysfs_open_dir(root, "%s", dir);
	if (gfd < 0)
		goto out;	/* gone meanwhile: no GIDs to show */
	/* The attributes do not exist on kernels before 4.9: no type, no netdev. */
	tfd = sysfs_open_dir(root, IB "/%s/ports/%u/gid_attrs/types", dev, p->num);
	nfd = sysfs_open_dir(root, IB "/%s/ports/%u/gid_attrs/ndevs", dev, p->num);
	for (size_t i = 0; i < ns.n; i++) {
		struct gid_slot *g = &p->gids[p->ngids];

		g->index = (uint32_t)strtoul(ns.v[i], NULL, 10);
		if (sysfs_read_at(gfd, ns.v[i], buf, sizeof(buf)) < 0 || model_gid_parse(buf, g->raw) < 0)
			continue;	/* gone, or not a GID: nothing to show */
		g->empty = model_gid_is_zero(g->raw);
		if (g->empty && gids != MODEL_GIDS_ALL)
			continue;
		/* The attributes fail with EINVAL for an empty slot: no type then. */
		if (tfd < 0 || sysfs_read_at(tfd, ns.v[i], g->type, sizeof(g->type)) < 0)
			g->type[0] = '\0';
		if (nfd < 0 || sysfs_read_at(nfd, ns.v[i], g->netdev, sizeof(g->netdev)) < 0)
			g->netdev[0] = '\0';
		p->ngids++;
	}
out:
	if (gfd >= 0)
		close(gfd);
	if (tfd >= 0)
		close(tfd);
	if (nfd >= 0)
		close(nfd);
	names_free(&ns);
	return err;
}

static int load_counters(const char *root, const char *dev, struct port *p)
{
	char dir[256], buf[64];
	struct names ns;
	int err;

	p->counters_known = true;
	snprintf(dir, sizeof(dir), IB "/%s/ports/%u/hw_counters", dev, p->num);
	err = list_dir(root, dir, false, &ns);
	if (err)
		return err == -ENOENT ? 0 : err;
	p->counters = calloc(ns.n ? ns.n : 1, sizeof(*p->counters));
	if (!p->counters) {
		names_free(&ns);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ns.n; i++) {
		struct counter *c = &p->counters[p->ncounters];

		if (sysfs_read(root, buf, sizeof(buf), "%s/%s", dir, ns.v[i]) <= 0)
			continue;
		p->ncounters += model_parse_counter(ns.v[i], buf, c);
	}
	names_free(&ns);
	return 0;
}

static int load_port(const struct model_src *src, const struct rdma_dev *d, struct port *p,
		     struct model_ask ask)
{
	const char *root = src->root, *dev = d->name;
	char dir[256];
	struct names pk;
	int err;

	p->state = read_state(root, dev, p->num, "state");
	p->phys_state = read_state(root, dev, p->num, "phys_state");
	/* rxe's one port is on its parent; another's netdev is its GID 0's. */
	if (model_dev_is_rxe(d))
		snprintf(p->netdev, sizeof(p->netdev), "%s", d->netdev);
	else if (sysfs_read(root, p->netdev, sizeof(p->netdev),
			    IB "/%s/ports/%u/gid_attrs/ndevs/0", dev, p->num) <= 0)
		p->netdev[0] = '\0';
	if (ask.ports == MODEL_PORTS_STATES)
		return model_sysfs_port_tables(src, d, p, ask);
	if (sysfs_read(root, p->link_layer, sizeof(p->link_layer), IB "/%s/ports/%u/link_layer", dev,
		       p->num) < 0)
		p->link_layer[0] = '\0';
	if (sysfs_read(root, p->rate, sizeof(p->rate), IB "/%s/ports/%u/rate", dev, p->num) < 0)
		p->rate[0] = '\0';
	model_parse_rate(p);
	snprintf(dir, sizeof(dir), IB "/%s/ports/%u/pkeys", dev, p->num);
	if (list_dir(root, dir, true, &pk) == 0) {
		p->pkey_tbl_len = (uint32_t)pk.n;
		names_free(&pk);
	}
	/* The GID table's length, even when its slots are not asked for. */
	err = load_gids(src, dev, p, ask.gids);
	if (!err && ask.counters)
		err = load_counters(root, dev, p);
	return err;
}

int model_sysfs_port_tables(const struct model_src *src, const struct rdma_dev *d,
			    struct port *p, struct model_ask ask)
{
	int err = 0;

	if (ask.gids != MODEL_GIDS_NONE)
		err = load_gids(src, d->name, p, ask.gids);
	if (!err && ask.counters)
		err = load_counters(src->root, d->name, p);
	return err;
}

/* Each device's uverbs node: one pass over infiniband_verbs for the whole model. */
static void find_uverbs(const char *root, struct model *m)
{
	struct names ns;
	char ibdev[RDMA_NAME_MAX];

	if (list_dir(root, "/sys/class/infiniband_verbs", false, &ns))
		return;
	for (size_t i = 0; i < ns.n; i++) {
		if (strncmp(ns.v[i], "uverbs", 6) || strlen(ns.v[i]) >= sizeof(m->devs->uverbs) ||
		    sysfs_read(root, ibdev, sizeof(ibdev), "/sys/class/infiniband_verbs/%s/ibdev",
			       ns.v[i]) <= 0)
			continue;
		for (size_t k = 0; k < m->n; k++)
			if (!strcmp(ibdev, m->devs[k].name))
				strcpy(m->devs[k].uverbs, ns.v[i]);
	}
	names_free(&ns);
}

static int load_dev(const struct model_src *src, const char *name, struct model_ask ask,
		    struct rdma_dev *d)
{
	const char *root = src->root;
	char dir[256];
	struct names ports;
	int err;

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->index = MODEL_NO_INDEX;
	if (ask.ports != MODEL_PORTS_STATES) {
		char buf[64];

		if (sysfs_read(root, buf, sizeof(buf), IB "/%s/node_type", name) > 0)
			model_parse_node_type(buf, d);
		sysfs_read(root, d->node_guid, sizeof(d->node_guid), IB "/%s/node_guid", name);
		sysfs_read(root, d->sys_image_guid, sizeof(d->sys_image_guid),
			   IB "/%s/sys_image_guid", name);
		if (sysfs_read(root, d->fw_ver, sizeof(d->fw_ver), IB "/%s/fw_ver", name) < 0)
			d->fw_ver[0] = '\0';
	}
	/* Only rdma_rxe has "parent" (model_sysfs_driver): one read says both. */
	if (sysfs_read(root, d->netdev, sizeof(d->netdev), IB "/%s/parent", name) > 0) {
		snprintf(d->driver, sizeof(d->driver), "rxe");
	} else {
		model_sysfs_driver(root, name, d->driver, sizeof(d->driver));
		if (sysfs_read(root, d->netdev, sizeof(d->netdev),
			       IB "/%s/ports/1/gid_attrs/ndevs/0", name) <= 0)
			d->netdev[0] = '\0';
	}
	if (ask.ports == MODEL_PORTS_NONE)
		return 0;
	snprintf(dir, sizeof(dir), IB "/%s/ports", name);
	err = list_dir(root, dir, true, &ports);
	if (err)
		return err == -ENOENT ? 0 : err;
	d->ports = calloc(ports.n ? ports.n : 1, sizeof(*d->ports));
	if (!d->ports) {
		names_free(&ports);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ports.n && !err; i++) {
		d->ports[i].num = (uint32_t)strtoul(ports.v[i], NULL, 10);
		d->nports++;
		err = load_port(src, d, &d->ports[i], ask);
	}
	names_free(&ports);
	return err;
}

int model_load_sysfs(const struct model_src *src, const char *only, struct model_ask ask,
		     struct model *m)
{
	const char *root = src->root;
	struct names ns;
	int err;

	memset(m, 0, sizeof(*m));
	/* One device: its own directory, not a listing of all of them. */
	if (only && strchr(only, '/'))
		return -ENODEV;
	err = only ? names_one(root, only, &ns) : list_dir(root, IB, false, &ns);
	if (err == -ENOENT)
		return only ? -ENODEV : 0;	/* no RDMA at all, or no such device */
	if (err)
		return err;
	m->devs = calloc(ns.n ? ns.n : 1, sizeof(*m->devs));
	if (!m->devs) {
		names_free(&ns);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ns.n && !err; i++) {
		if (only && strcmp(ns.v[i], only))
			continue;
		err = load_dev(src, ns.v[i], ask, &m->devs[m->n]);
		m->n++;
		/* A device removed while it was read is simply not there. */
		if (err == -ENOENT && !sysfs_exists(root, IB "/%s", ns.v[i])) {
			model_dev_free(&m->devs[--m->n]);
			memset(&m->devs[m->n], 0, sizeof(m->devs[m->n]));
			err = 0;
		}
	}
	names_free(&ns);
	if (!err && ask.ports != MODEL_PORTS_STATES)
		find_uverbs(root, m);
	if (!err && only && m->n == 0)
		err = -ENODEV;
	if (err)
		model_free(m);
	return err;
}

int model_load_new_rxe(const char *root, const char *name, const char *netdev,
		       struct model *m)
{
	struct rdma_dev *d;
	struct port *p;

	memset(m, 0, sizeof(*m));
	m->devs = d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	m->n = 1;
	d->ports = p = calloc(1, sizeof(*p));
	if (!p) {
		model_free(m);
		return -ENOMEM;
	}
	d->nports = 1;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->index = MODEL_NO_INDEX;
	snprintf(d->driver, sizeof(d->driver), "rxe");
	snprintf(d->netdev, sizeof(d->netdev), "%s", netdev);
	/* rdma_rxe makes one port, port 1, on its parent netdev. */
	p->num = 1;
	snprintf(p->netdev, sizeof(p->netdev), "%s", netdev);
	p->state = read_state(root, name, p->num, "state");
	p->phys_state = read_state(root, name, p->num, "phys_state");
	/* No state (0 is none of the port states) where the device is gone. */
	if (!p->state && !sysfs_exists(root, IB "/%s", name)) {
		model_free(m);
		return -ENODEV;
	}
	/* What a link line prints: the MTUs follow from the netdev's. */
	model_load_links(&(struct model_src){ .root = root }, m,
			 (struct model_ask){ .ports = MODEL_PORTS_STATES, .mtu = MODEL_MTU_LINK });
	return 0;
}
