// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations on rxe links: add, delete, select, refuse busy ones. They never print. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/holders.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "model/link.h"
#include "ops/explain.h"
#include "ops/rxe.h"

/* Operations act on the running system: never on a fixture. */
static const char live[] = "";

static void free_name(const struct link_list *l, char *buf, size_t len)
{
	for (unsigned int i = 0;; i++) {
		snprintf(buf, len, "rxe%u", i);
		if (!links_find_dev(l, buf))
			return;
	}
}

int rxe_add(struct nl *nl, struct rxe_add_req *r, struct rc_err *e)
{
	struct link_list l = { 0 };
	const struct rdma_link *k;
	struct netdev nd;
	int err;

	r->created = false;
	/* A port on a non-Ethernet or loopback device never carries RoCE traffic. */
	if (!r->force && netdev_get(live, r->netdev, &nd) == 0 && !netdev_is_ethernet(&nd))
		return rc_err_set(e, -EINVAL, NULL,
				  "%s is %s, not an Ethernet device: an rxe port on it carries no "
				  "RoCE traffic to other hosts; use an Ethernet device (or --force)",
				  r->netdev, nd.flags & IFF_LOOPBACK ? "the loopback device" : "a device");
	err = links_get(nl, live, &l);
	if (err)
		return explain_dump(e, err, nl_ext_msg(nl));
	k = r->name ? NULL : links_find_netdev(&l, r->netdev);
	if (k && r->exist_ok)
		snprintf(r->made, sizeof(r->made), "%s", k->p.dev_name);
	else if (r->name)
		snprintf(r->made, sizeof(r->made), "%s", r->name);
	else
		free_name(&l, r->made, sizeof(r->made));
	k = links_find_dev(&l, r->made);
	if (r->exist_ok && k && k->is_rxe && k->p.has_netdev && !strcmp(k->p.netdev, r->netdev)) {
		err = 0;	/* already as asked */
	} else {
		err = link_create(nl, r->made, r->netdev);
		if (err) {
			/* The links as they are now name who holds the name or netdev. */
			links_free(&l);
			links_get(nl, live, &l);
			explain_newlink(e, err, nl_ext_msg(nl), live, &l, r->made, r->netdev);
		}
		r->created = !err;
	}
	links_free(&l);
	return err;
}

int rxe_del(struct nl *nl, const struct rdma_link *k, struct rc_err *e)
{
	int err = link_delete(nl, k->p.dev_index);

	if (err == -ENODEV || err == -ENOENT)
		return 0;	/* gone meanwhile: what was asked */
	if (err)
		return explain_dellink(e, err, nl_ext_msg(nl), k->p.dev_name);
	return 0;
}

int rxe_del_name(struct nl *nl, const char *name, struct rc_err *e)
{
	struct link_list l = { 0 };
	const struct rdma_link *k;
	int err = links_get(nl, live, &l);

	if (err)
		return explain_dump(e, err, nl_ext_msg(nl));
	k = links_find_dev(&l, name);
	err = k && k->is_rxe ? rxe_del(nl, k, e) : 0;
	links_free(&l);
	return err;
}

int rxe_select(const struct link_list *l, const char *word, bool netdev_only,
	       const struct rdma_link **targets, size_t *n, struct rc_err *e)
{
	const struct rdma_link *bad = NULL;
	int err;

	if (!word)
		return links_select(l, NULL, NULL, targets, n, &bad);
	err = netdev_only ? -ENODEV : links_select(l, word, NULL, targets, n, &bad);
	if (err == -ENODEV)
		err = links_select(l, NULL, word, targets, n, &bad);
	if (err)
		return explain_select(e, err, word, netdev_only, bad);
	return 0;
}

int rxe_refuse_busy(const struct rdma_link *const *targets, size_t n, struct rc_err *e)
{
	struct dev_use *u = calloc(n ? n : 1, sizeof(*u));
	int busy = 0;

	if (!u)
		return rc_err_set(e, -ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++)
		u[i].dev = targets[i]->p.dev_name;
	dev_holders(live, u, n);
	for (size_t i = 0; i < n; i++)
		busy += u[i].count > 0;
	if (busy)
		explain_busy(e, u, n);
	free(u);
	return busy ? -EBUSY : 0;
}
