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

struct model;

/* M's rxe links (DEV's alone when not NULL), a row a port: link show. */
void view_links(struct out *o, const struct model *m, const char *dev);
/*
 * del's list of the links deleted, said as each goes: begun, a NAME each,
 * ended: a JSON array, nothing in plain text.
 */
void view_link_deleted_begin(struct out *o);
void view_link_deleted(struct out *o, const char *name);
void view_link_deleted_end(struct out *o);
/* link move: DEV moved to the network namespace SPEC. */
void view_link_moved(struct out *o, const char *dev, const char *spec);

#endif
