// SPDX-License-Identifier: GPL-2.0-or-later
/* add, del, link show: rxe links. Parse, call the operations, print. */
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "views/link.h"
#include "views/persist.h"
#include "kernel/netns.h"
#include "kernel/nl.h"
#include "model/conf.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "ops/persist.h"
#include "ops/link.h"

int cmd_add(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct link_add_req r = { .exist_ok = cli_flag(a, "exist-ok"),
				 .force = cli_flag(a, "force") };
	struct model m = { 0 };
	struct op_err e;
	struct nl *nl;
	int err;

	/* [NAME] NETDEV, or iproute2's NAME type rxe netdev NETDEV. */
	if (a->argc == 5 && !strcmp(a->argv[1], "type") && !strcmp(a->argv[3], "netdev")) {
		if (strcmp(a->argv[2], "rxe"))
			return cli_usage(a, "rdmactl makes links of type rxe only, not '%s'",
					 a->argv[2]);
		r.name = a->argv[0];
		r.netdev = a->argv[4];
	} else if (a->argc <= 2) {
		r.name = a->argc == 2 ? a->argv[0] : NULL;
		r.netdev = a->argv[a->argc - 1];
	} else {
		return cli_usage(a, "expected [NAME] NETDEV, or NAME type rxe netdev NETDEV");
	}
	if ((r.name && (err = cmd_valid_name(a, "device name", r.name, true))) ||
	    (err = cmd_valid_name(a, "netdev", r.netdev, false)))
		return err;
	/* A link to be recorded: its names as the file can hold them (a made name, rxeN, can). */
	if (cli_flag(a, "persist") &&
	    ((r.name && (err = cmd_valid_field(a, "device name", r.name))) ||
	     (err = cmd_valid_field(a, "netdev", r.netdev))))
		return err;

	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	err = cli_flag(a, "persist") ? persist_add_link(nl, ctx->config, &r, &e) :
				       link_add(nl, &r, &e);
	if (err)
		return cmd_fail(&e);
	if (cli_flag(a, "persist"))
		view_persist_edited(ctx->config);
	/*
	 * The new link's port states as sysfs has them: its name is known (the
	 * netlink would dump every device to find its index), and so are its
	 * driver and netdev.
	 */
	err = model_load_new_rxe(ctx->sys.root, r.made, r.netdev, &m);
	if (err && err != -ENODEV)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, r.made), &e));
	if (!err)
		view_link(ctx->out, &m.devs[0]);
	else
		err = cmd_fail((op_err_set(&e, -ENODEV, NULL, "%s vanished right after it was "
					   "created", r.made), &e));
	model_free(&m);
	return err;
}

int cmd_del(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *netdev = cli_str(a, "netdev");
	bool all = cli_flag(a, "all"), persist = cli_flag(a, "persist");
	const struct rdma_dev **targets = NULL;
	struct model m = { 0 };
	struct conf c = { 0 };
	struct op_err e;
	size_t n = 0;
	struct nl *nl;
	int err, ret = 0, lock = -1;

	if ((a->argc > 0) + !!netdev + all > 1)
		return cli_usage(a, "%s and %s: give one of NAME..., --netdev NETDEV or --all",
				 a->argc ? "NAME" : "--netdev", all ? "--all" : "--netdev");
	if ((a->argc > 0) + !!netdev + all == 0)
		return cli_usage(a, "give NAME..., --netdev NETDEV or --all");
	for (int i = 0; i < a->argc; i++)
		if ((err = cmd_valid_name(a, "device name", a->argv[i], true)))
			return err;
	if (netdev && (err = cmd_valid_name(a, "netdev", netdev, false)))
		return err;

	err = cmd_netlink(ctx, &nl);
	if (err)
		return err;
	/* The file first, held until written: a broken one is reported before anything changes. */
	if (persist && (lock = persist_lock(ctx->config, &e)) < 0)
		return cmd_fail(&e);
	if (persist && (err = persist_load(ctx->config, &c, &e))) {
		persist_unlock(lock);
		return cmd_fail(&e);
	}
	/*
	 * One device named: that device alone, without its ports (or, a
	 * netdev's name, all of them with their ports).
	 */
	err = a->argc == 1 ? cmd_device(ctx, a->argv[0], (struct model_ask){ .ports = MODEL_PORTS_NONE }, &m) : -ENODEV;
	if (err == -ENODEV)
		err = cmd_devices(ctx, &m);
	if (err)
		goto out;
	err = netdev ? link_pick(nl, &m, (char *const *)&netdev, 1, true, cli_flag(a, "wait"),
				&targets, &n, &e) :
		       link_pick(nl, &m, a->argv, (size_t)a->argc, false, cli_flag(a, "wait"),
				&targets, &n, &e);
	if (err) {
		cmd_fail(&e);
		goto out;
	}
	/* Each name said as its link goes: a failure between them is said in its place. */
	view_link_deleted_begin(ctx->out);
	for (size_t i = 0; i < n; i++) {
		err = link_del(nl, targets[i], &e);
		if (err) {
			ret = cmd_fail(&e);
			continue;
		}
		view_link_deleted(ctx->out, targets[i]->name);
		if (persist)
			model_conf_del(&c, targets[i]->name);
	}
	view_link_deleted_end(ctx->out);
	if (persist && (err = persist_save(ctx->config, &c, &e)))
		ret = cmd_fail(&e);
	else if (persist)
		view_persist_edited(ctx->config);
	err = ret;
out:
	persist_unlock(lock);
	free(targets);
	model_free(&m);
	model_conf_free(&c);
	return err;
}

int cmd_link_show(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	struct model m = { 0 };
	const struct rdma_dev *k = NULL;
	struct op_err e;
	int err;

	if (dev && (err = cmd_valid_name(a, "device name", dev, true)))
		return err;
	/* One device named: that device's ports alone are asked for. */
	err = cmd_device(ctx, dev, (struct model_ask){ .mtu = MODEL_MTU_LINK }, &m);
	if (err && err != -ENODEV)
		return err;
	if (dev && (!(k = model_find(&m, dev)) || !model_dev_is_rxe(k))) {
		model_free(&m);
		return cmd_fail((op_err_set(&e, -ENODEV, NULL, k ? "%s is not an rxe device" :
					    "there is no RDMA device named %s ('rdmactl show' lists "
					    "them)", dev), &e));
	}
	view_links(ctx->out, &m, dev);
	model_free(&m);
	return 0;
}

int cmd_link_move(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argv[0], *spec = a->argv[1];
	char path[PATH_MAX];
	struct op_err e;
	struct nl *nl;
	int err, fd;

	if (cmd_valid_name(a, "device name", dev, true))
		return -EUSAGE;
	fd = netns_open(spec, path, sizeof(path));
	if (fd == -EINVAL || fd == -ENAMETOOLONG)
		return cli_usage(a, "'%s' names no network namespace: a name 'ip netns list' "
				 "lists, or a PID", spec);
	/* A word that names nothing is the argument's fault, as with -n: exit 2. */
	if (fd == -ENOENT)
		return cli_usage(a, "there is no network namespace %s: %s does not exist ('ip netns "
				 "list' lists the names; a PID must be a running process's)", spec,
				 path);
	if (fd < 0) {
		op_err_set(&e, fd, NULL, "cannot open network namespace %s (%s)", spec, path);
		return cmd_fail(&e);
	}
	err = cmd_netlink(ctx, &nl);
	if (!err && link_move(nl, dev, fd, spec, &e))
		err = cmd_fail(&e);
	close(fd);
	if (err)
		return err;
	view_link_moved(ctx->out, dev, spec);
	return 0;
}
