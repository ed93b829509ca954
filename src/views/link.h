/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One rxe link's rows, and the port facts every command shows the same way (plain and JSON). */
#ifndef RDMACTL_VIEWS_LINK_H
#define RDMACTL_VIEWS_LINK_H

struct out;
struct port;
struct rdma_dev;

/*
 * One rxe link, a row for each port of D (the netlink's, with MODEL_MTU_LINK): 'link
 * show', also what 'add' prints.
 */
void view_link(struct out *o, const struct rdma_dev *d);

/*
 * An MTU in bytes under KEY, plain text LABEL before it ("" none, NULL JSON
 * only): "-" and null when unknown (BYTES <= 0).
 */
void view_link_mtu(struct out *o, const char *key, const char *label, int bytes);

/* A port's " state S physical_state P", as every command shows it. */
void view_link_port_state(struct out *o, const struct port *p);

#endif
