// SPDX-License-Identifier: GPL-2.0-or-later
/* start, stop and persist: rxe_cfg's boot-time workflow over the persistent-links file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/conf.h"
#include "ops/explain.h"
#include "kernel/kmods.h"
#include "model/link.h"
#include "model/names.h"
#include "kernel/nl.h"
#include "cli/out.h"
#include "cli/rdmactl.h"

/*
 * What start loads: the core, the user-space verbs interface, the rxe driver,
 * and rdma_ucm so rdma_cm applications find /dev/infiniband/rdma_cm.
 */
static const char *const rxe_modules[] = { "ib_core", "ib_uverbs", "rdma_ucm", "rdma_rxe" };

static int load_modules(struct rc_ctx *ctx)
{
	struct kmods *km;
	int err, ret = 0;

	err = kmods_open(&km);
	if (err) {
		pr_kerr(err, NULL, "cannot read the kernel module index");
		return err;
	}
	out_arr_open(ctx->out, "modules");
	for (size_t i = 0; i < sizeof(rxe_modules) / sizeof(rxe_modules[0]); i++) {
		const char *m = rxe_modules[i];
		enum kmod_state before = kmods_state(km, m);

		err = kmods_load(km, m);
		if (err == -ENOENT)
			fprintf(stderr, "rdmactl: module %s is not installed for the running kernel: "
				"use a kernel with CONFIG_RDMA_RXE (ENOENT)\n", m);
		else if (err == -EPERM && !strcmp(m, "rdma_rxe") && access("/proc/sys/net/ipv6", F_OK) < 0)
			/* Older rdma_rxe cannot start without a UDPv6 socket; Debian's
			 * 5.10 has the fix (it only logs that IPv6 is not supported). */
			pr_kerr(err, NULL, "rdma_rxe refused to load: the kernel was booted with "
				"ipv6.disable=1, which this rdma_rxe cannot start without; remove it "
				"from the kernel command line");
		else if (err)
			pr_kerr(err, NULL, "cannot load module %s (see 'dmesg')", m);
		out_obj_open(ctx->out, NULL);
		out_str(ctx->out, "module", "module %s", m);
		out_str(ctx->out, "state", " %s",
			err ? "failed" : before == KMOD_AVAILABLE ? "loaded now" :
			kmods_state_name(kmods_state(km, m)));
		out_nl(ctx->out);
		out_obj_close(ctx->out);
		if (err && !ret)
			ret = err;
	}
	out_arr_close(ctx->out);
	kmods_close(km);
	return ret;
}

int cmd_start(struct rc_ctx *ctx, int argc, char **argv)
{
	struct link_list l = { 0 };
	struct conf c = { 0 };
	struct nl *nl;
	int err, ret;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "rdmactl: start takes no arguments\n");
		return -EUSAGE;
	}
	out_obj_open(ctx->out, NULL);
	/* The file first: a broken file is reported before anything changes. */
	ret = rc_conf_load(ctx, &c);
	if (ret)
		goto out;
	ret = load_modules(ctx);
	if (ret)
		goto out;
	ret = rc_netlink(ctx, &nl);
	if (ret)
		goto out;
	out_arr_open(ctx->out, "links");
	for (size_t i = 0; i < c.n; i++) {
		const struct conf_entry *e = &c.e[i];
		const struct rdma_link *k;
		const char *state;

		if (rdma_name_invalid(e->name) || netdev_name_invalid(e->netdev)) {
			fprintf(stderr, "rdmactl: %s:%zu: '%s %s' is not a valid NAME NETDEV pair\n",
				ctx->config, e->line, e->name, e->netdev);
			ret = -EINVAL;
			continue;
		}
		links_free(&l);
		err = rc_links(ctx, &l);
		if (err) {
			ret = err;
			break;
		}
		k = links_find_dev(&l, e->name);
		if (k && k->is_rxe && k->p.has_netdev && !strcmp(k->p.netdev, e->netdev)) {
			state = "present";
		} else {
			err = link_create(nl, e->name, e->netdev);
			if (err) {
				pr_kerr(err, nl_ext_msg(nl), "%s:%zu: cannot add %s on %s%s", ctx->config,
					e->line, e->name, e->netdev,
					err == -ENFILE ? ": that name is taken" :
					err == -EEXIST ? ": the netdev already carries rxe" :
					err == -ENODEV ? ": no such network device" :
					err == -EPERM ? ": this needs root or CAP_NET_ADMIN" : "");
				ret = err;
				state = "failed";
			} else {
				state = "added";
			}
		}
		out_obj_open(ctx->out, NULL);
		out_str(ctx->out, "name", "link %s", e->name);
		out_str(ctx->out, "netdev", " netdev %s", e->netdev);
		out_str(ctx->out, "result", " %s", state);
		out_nl(ctx->out);
		out_obj_close(ctx->out);
	}
	out_arr_close(ctx->out);
out:
	out_obj_close(ctx->out);
	links_free(&l);
	conf_free(&c);
	return ret;
}

int cmd_stop(struct rc_ctx *ctx, int argc, char **argv)
{
	struct link_list l = { 0 };
	const struct rdma_link **rxe;
	struct kmods *km = NULL;
	bool wait = argc == 2 && !strcmp(argv[1], "--wait");
	size_t nrxe = 0;
	struct nl *nl;
	int err, ret = 0;

	if (argc > 1 && !wait) {
		fprintf(stderr, "rdmactl: stop takes no arguments but --wait\n");
		return -EUSAGE;
	}
	err = rc_netlink(ctx, &nl);
	if (err)
		return err;
	err = rc_links(ctx, &l);
	if (err)
		return err;
	/* A device a process holds open would hang the delete: nothing is deleted. */
	rxe = calloc(l.n + 1, sizeof(*rxe));
	if (!rxe) {
		links_free(&l);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l.n; i++)
		if (l.v[i].is_rxe)
			rxe[nrxe++] = &l.v[i];
	err = wait ? 0 : rc_refuse_busy(ctx, rxe, nrxe);
	free(rxe);
	if (err) {
		links_free(&l);
		return err;
	}
	out_obj_open(ctx->out, NULL);
	out_arr_open(ctx->out, "deleted");
	for (size_t i = 0; i < l.n; i++) {
		if (!l.v[i].is_rxe)
			continue;
		err = link_delete(nl, l.v[i].p.dev_index);
		if (err && err != -ENODEV) {
			pr_kerr(err, nl_ext_msg(nl), "cannot delete %s", l.v[i].p.dev_name);
			ret = err;
			continue;
		}
		out_str(ctx->out, NULL, "deleted %s\n", l.v[i].p.dev_name);
	}
	out_arr_close(ctx->out);
	/* rdma_rxe goes when nothing holds it; a busy module stays, and that is fine. */
	if (!ret && kmods_open(&km) == 0) {
		err = kmods_unload(km, "rdma_rxe");
		out_str(ctx->out, "rdma_rxe", "rdma_rxe %s\n",
			err == -EBUSY ? "in use: left loaded" : err ? "could not be unloaded" :
			kmods_state(km, "rdma_rxe") == KMOD_BUILTIN ? "built in" : "unloaded");
		if (err && err != -EBUSY) {
			pr_kerr(err, NULL, "cannot unload rdma_rxe");
			ret = err;
		}
		kmods_close(km);
	}
	out_obj_close(ctx->out);
	links_free(&l);
	return ret;
}

static int persist_list(struct rc_ctx *ctx, const struct conf *c)
{
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < c->n; i++) {
		out_obj_open(ctx->out, NULL);
		out_str(ctx->out, "name", "%s", c->e[i].name);
		out_str(ctx->out, "netdev", " %s\n", c->e[i].netdev);
		out_obj_close(ctx->out);
	}
	out_arr_close(ctx->out);
	return 0;
}

int cmd_persist(struct rc_ctx *ctx, int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : "list";
	struct conf c = { 0 };
	const char *why;
	int err;

	if (strcmp(verb, "list") && strcmp(verb, "add") && strcmp(verb, "del")) {
		fprintf(stderr, "rdmactl: persist: unknown word '%s' (list, add or del)\n", verb);
		return -EUSAGE;
	}
	if ((!strcmp(verb, "list") && argc > 2) || (!strcmp(verb, "add") && argc != 4) ||
	    (!strcmp(verb, "del") && argc < 3)) {
		fprintf(stderr, "rdmactl: persist: expected 'list', 'add NAME NETDEV' or "
			"'del NAME|NETDEV...'\n");
		return -EUSAGE;
	}
	for (int i = 2; i < argc; i++) {
		why = i == 3 ? netdev_name_invalid(argv[i]) : rdma_name_invalid(argv[i]);
		if (!strcmp(verb, "del") && why)
			why = rdma_name_invalid(argv[i]) && netdev_name_invalid(argv[i]) ?
			      rdma_name_invalid(argv[i]) : NULL;
		if (why) {
			fprintf(stderr, "rdmactl: persist %s: '%s': %s\n", verb, argv[i], why);
			return -EUSAGE;
		}
	}
	err = rc_conf_load(ctx, &c);
	if (err)
		return err;
	if (!strcmp(verb, "list")) {
		err = persist_list(ctx, &c);
		goto out;
	}
	if (!strcmp(verb, "add")) {
		err = conf_add(&c, argv[2], argv[3]);
		if (err == -EEXIST) {
			fprintf(stderr, "rdmactl: %s is already persisted on %s in %s (EEXIST)\n",
				argv[2], conf_find(&c, argv[2])->netdev, ctx->config);
			goto out;
		}
		if (err == 1) {
			err = 0;	/* already there: nothing to write */
			goto out;
		}
	} else {
		for (int i = 2; i < argc; i++) {
			if (conf_del(&c, argv[i]) == 0) {
				fprintf(stderr, "rdmactl: %s is not in %s (ENOENT)\n", argv[i],
					ctx->config);
				err = -ENOENT;
				goto out;
			}
		}
	}
	if (err)
		goto out;
	err = conf_save(&c, ctx->config);
	if (err)
		pr_kerr(err, NULL, "cannot write %s; it was left as it was", ctx->config);
out:
	conf_free(&c);
	return err;
}
