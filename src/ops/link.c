// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations on rxe links: add, delete, select, refuse busy ones. They never print. */
#include <errno.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/holders.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "ops/link.h"
#include "ops/system.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

/* Operations act on the running system: never on a fixture. */
static const char live[] = "";

/* The devices as the kernel has them now. */
static int devices(struct nl *nl, struct model *m)
{
	const struct model_src src = { .root = live, .nl = nl };

	return model_load(&src, NULL, (struct model_ask){ .source = MODEL_NETLINK }, m);
}

static int link_create(struct nl *nl, const char *name, const char *netdev)
{
	/*
	 * No NLM_F_CREATE | NLM_F_EXCL: EXCL shares its bit with NLM_F_MATCH and the
	 * RDMA netlink core takes any NLM_F_DUMP bit for a dump request (EINVAL).
	 */
	struct nlmsghdr *nlh = nldev_request(nl, RDMA_NLDEV_CMD_NEWLINK, 0);

	if (!nldev_put_newlink(nlh, NL_BUF_SIZE, name, "rxe", netdev))
		return -EMSGSIZE;
	return nl_talk(nl, nlh, NULL, NULL);
}

static int link_delete(struct nl *nl, uint32_t dev_index)
{
	struct nlmsghdr *nlh = nldev_request(nl, RDMA_NLDEV_CMD_DELLINK, 0);

	if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, dev_index))
		return -EMSGSIZE;
	return nl_talk(nl, nlh, NULL, NULL);
}

static int res_cb(const struct nlmsghdr *nlh, void *data)
{
	return nldev_parse_res(nlh, data) ? NL_CB_ERROR : NL_CB_CONTINUE;
}

/*
 * Whether a process may hold one of TARGETS: the kernel counts each device's
 * user contexts and rdma_cm ids, and a device with none is held by nobody
 * (a kernel user such as nvme-rdma holds neither, and no /proc scan sees it
 * either). Where the kernel does not say, it may be held: the scan decides.
 */
static bool maybe_held(struct nl *nl, const struct rdma_dev *const *targets, size_t n)
{
	for (size_t i = 0; nl && i < n; i++) {
		struct nlmsghdr *nlh = nldev_request(nl, RDMA_NLDEV_CMD_RES_GET, 0);
		struct nldev_res r = { 0 };

		if (!nldev_put_dev_index(nlh, NL_BUF_SIZE, targets[i]->index) ||
		    nl_talk(nl, nlh, res_cb, &r) || r.dev_index != targets[i]->index ||
		    !r.has_ctx || r.ctx || r.cm_id)
			return true;
	}
	return !nl;
}

static void free_name(const struct model *m, char *buf, size_t len)
{
	for (unsigned int i = 0;; i++) {
		snprintf(buf, len, "rxe%u", i);
		if (!model_find(m, buf))
			return;
	}
}

int link_add(struct nl *nl, struct link_add_req *r, struct op_err *e)
{
	struct model m = { 0 };
	const struct rdma_dev *k;
	struct netdev nd;
	int err;

	r->created = false;
	/* A port on a non-Ethernet or loopback device never carries RoCE traffic. */
	if (!r->force && netdev_basic(live, r->netdev, &nd) == 0 && !netdev_is_ethernet(&nd))
		return op_err_set(e, -EINVAL, NULL,
				  "%s is %s, not an Ethernet device: an rxe port on it carries no "
				  "RoCE traffic to other hosts; use an Ethernet device (or --force)",
				  r->netdev, nd.type == ARPHRD_LOOPBACK ? "the loopback device" : "a device");
	/*
	 * The devices as they are: to pick a free name, or to find the link
	 * --exist-ok accepts. A name to make needs none: the kernel refuses one
	 * that is taken, or a netdev that has a link, and the refusal is
	 * explained from a listing then.
	 */
	err = r->name && !r->exist_ok ? 0 : devices(nl, &m);
	if (err)
		return op_err_dump(e, err, nl_ext_msg(nl));
	k = r->name ? NULL : model_rxe_on(&m, r->netdev);
	if (k && r->exist_ok)
		snprintf(r->made, sizeof(r->made), "%s", k->name);
	else if (r->name)
		snprintf(r->made, sizeof(r->made), "%s", r->name);
	else
		free_name(&m, r->made, sizeof(r->made));
	k = model_find(&m, r->made);
	if (r->exist_ok && k && k == model_rxe_on(&m, r->netdev)) {
		err = 0;	/* already as asked */
	} else {
		err = link_create(nl, r->made, r->netdev);
		if (err) {
			char ext[sizeof(((struct op_err *)0)->ext)];

			/* The devices as they are now name who holds the name or netdev. */
			snprintf(ext, sizeof(ext), "%s", nl_ext_msg(nl));
			model_free(&m);
			devices(nl, &m);
			op_err_newlink(e, err, ext, live, &m, r->made, r->netdev);
		}
		r->created = !err;
	}
	model_free(&m);
	return err;
}

int link_del(struct nl *nl, const struct rdma_dev *d, struct op_err *e)
{
	int err = link_delete(nl, d->index);

	if (err == -ENODEV || err == -ENOENT)
		return 0;	/* gone meanwhile: what was asked */
	if (err)
		return op_err_dellink(e, err, nl_ext_msg(nl), d->name);
	return 0;
}

int link_del_name(struct nl *nl, const char *name, struct op_err *e)
{
	const struct model_src src = { .root = live, .nl = nl };
	struct model m = { 0 };
	const struct rdma_dev *d;
	int err = model_load(&src, NULL,
			     (struct model_ask){ .source = MODEL_NETLINK, .ports = MODEL_PORTS_NONE }, &m);

	if (err)
		return op_err_dump(e, err, nl_ext_msg(nl));
	d = model_find(&m, name);
	if (d && model_dev_is_rxe(d)) {
		err = link_del(nl, d, e);
		if (!err)
			err = 1;
	}
	model_free(&m);
	return err;
}

static int select_rxe(const struct model *m, const char *word, bool netdev_only,
		      const struct rdma_dev **targets, size_t *n, struct op_err *e)
{
	const struct rdma_dev *bad = NULL;
	int err;

	if (!word)
		return model_select_rxe(m, NULL, NULL, targets, n, &bad);
	err = netdev_only ? -ENODEV : model_select_rxe(m, word, NULL, targets, n, &bad);
	if (err == -ENODEV)
		err = model_select_rxe(m, NULL, word, targets, n, &bad);
	if (err)
		return op_err_select(e, err, word, netdev_only, bad);
	return 0;
}

static int refuse_busy(struct nl *nl, const struct rdma_dev *const *targets, size_t n,
		       struct op_err *e)
{
	struct dev_use *u;
	int busy = 0;

	if (!maybe_held(nl, targets, n))
		return 0;	/* one question a device instead of a pass over /proc */
	u = calloc(n ? n : 1, sizeof(*u));
	if (!u)
		return op_err_set(e, -ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++)
		u[i].dev = targets[i]->name;
	holders_scan(live, u, n);
	for (size_t i = 0; i < n; i++)
		busy += u[i].count > 0;
	if (busy)
		op_err_busy(e, u, n);
	free(u);
	return busy ? -EBUSY : 0;
}

int link_pick(struct nl *nl, const struct model *m, char *const *words, size_t nwords,
	     bool netdev_only, bool wait, const struct rdma_dev ***targets, size_t *n,
	     struct op_err *e)
{
	const struct rdma_dev **t = calloc(m->n + 1, sizeof(*t));
	int err = 0;

	*targets = NULL;
	*n = 0;
	if (!t)
		return op_err_set(e, -ENOMEM, NULL, "out of memory");
	/* Every target is checked before anything is deleted. */
	if (nwords == 0)
		err = select_rxe(m, NULL, false, t, n, e);
	for (size_t i = 0; !err && i < nwords; i++)
		err = select_rxe(m, words[i], netdev_only, t, n, e);
	if (!err && !wait)
		err = refuse_busy(nl, t, *n, e);
	if (err) {
		free(t);
		*n = 0;
		return err;
	}
	*targets = t;
	return 0;
}

int link_move(struct nl *nl, const char *name, int nsfd, const char *spec, struct op_err *e)
{
	const struct model_src src = { .root = "", .nl = nl };
	struct model m = { 0 };
	const struct rdma_dev *d;
	struct nlmsghdr *nlh;
	int err = model_load(&src, NULL,
			     (struct model_ask){ .source = MODEL_NETLINK, .ports = MODEL_PORTS_NONE }, &m);

	if (err)
		return op_err_dump(e, err, nl_ext_msg(nl));
	d = model_find(&m, name);
	if (!d) {
		model_free(&m);
		return op_err_set(e, -ENODEV, NULL, "there is no RDMA device named %s in this network "
				  "namespace ('rdmactl link' lists them)", name);
	}
	nlh = nldev_request(nl, RDMA_NLDEV_CMD_SET, 0);
	err = nldev_put_dev_index(nlh, NL_BUF_SIZE, d->index) &&
	      nldev_put_netns_fd(nlh, NL_BUF_SIZE, nsfd) ? nl_talk(nl, nlh, NULL, NULL) : -EMSGSIZE;
	model_free(&m);
	if (err == -EOPNOTSUPP) {
		struct nldev_sys sys;
		struct op_err ignore;
		char ext[sizeof(e->ext)];

		snprintf(ext, sizeof(ext), "%s", nl_ext_msg(nl));
		if (system_get(nl, &sys, &ignore) == 0 && sys.netns_mode == 0)
			return op_err_set(e, err, ext, "%s cannot be moved: the kernel moves only a "
					  "device whose driver can detach programs' contexts from it, "
					  "and this kernel's cannot (rdma_rxe can on 7.3, not on 6.1); "
					  "on this kernel, use the shared namespace mode", name);
		return op_err_set(e, err, ext, "a device moves between network namespaces only in "
				  "the exclusive namespace mode; this is shared, where every namespace "
				  "sees %s already ('rdmactl system set netns exclusive')", name);
	}
	if (err)
		return op_err_set(e, err, nl_ext_msg(nl), "cannot move %s into network namespace %s",
				  name, spec);
	return 0;
}
