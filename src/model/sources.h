/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the model: the sources model_load (load.c) picks from. Each fills a
 * struct model; where one lacks a fact it reads it as the other does, one
 * fact alone (the netlink dump has no driver: model_sysfs_driver), and the
 * ports' MTUs and netdevs are every source's one pass (model_load_links,
 * port.c). None calls the loader.
 */
#ifndef RDMACTL_MODEL_SOURCES_H
#define RDMACTL_MODEL_SOURCES_H

#include "model/model.h"

/* model.c: one device's ports, GIDs and counters freed (model_free's part). */
void model_dev_free(struct rdma_dev *d);
/* sysfs.c: the devices and ports as sysfs has them, and the tables ASK names. */
int model_load_sysfs(const struct model_src *src, const char *only, struct model_ask ask,
		     struct model *m);
/* sysfs.c: P's GID table and counters as ASK names them, whichever list had D and P. */
int model_sysfs_port_tables(const struct model_src *src, const struct rdma_dev *d,
			    struct port *p, struct model_ask ask);
/* netlink.c: the devices (and unless MODEL_PORTS_NONE, ports) as the RDMA netlink has them. */
int model_load_netlink(const struct model_src *src, const char *only, struct model_ask ask,
		       struct model *m);

#endif
