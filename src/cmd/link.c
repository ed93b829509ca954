// SPDX-License-Identifier: GPL-2.0-or-later
/* add, del, link, status: rxe links over RDMA netlink, with the kernel's answers explained. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "model/conf.h"
#include "ops/explain.h"
#include "kernel/holders.h"
#include "kernel/kmods.h"
#include "model/link.h"
#include "model/model.h"
#include "model/names.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "cli/out.h"
#include "cli/rdmactl.h"
#include "kernel/verbs.h"

/* GNU getopt over a command's own argv (argv[0] is the command's name). */
#define CMD_GETOPT(argc, argv, short, longs) \
	(optind = 0, opterr = 1, getopt_long(argc, argv, short, longs, NULL))
#define CMD_GETOPT_NEXT(argc, argv, short, longs) getopt_long(argc, argv, short, longs, NULL)

static int usage_err(const char *cmd, const char *what)
{
	fprintf(stderr, "rdmactl: %s: %s; try 'rdmactl help %s'\n", cmd, what, cmd);
	return -EUSAGE;
}

/* Checks a name a user typed; prints why it is refused. */
static int check_name(const char *cmd, const char *what, const char *name, bool rdma)
{
	const char *why = rdma ? rdma_name_invalid(name) : netdev_name_invalid(name);

	if (!why)
		return 0;
	fprintf(stderr, "rdmactl: %s: %s '%s': %s; try 'rdmactl help %s'\n", cmd, what, name, why,
		cmd);
	return -EUSAGE;
}

/* The smallest rxeN no RDMA device is called. */
static void free_rxe_name(const struct link_list *l, char *buf, size_t len)
{
	for (unsigned int i = 0;; i++) {
		snprintf(buf, len, "rxe%u", i);
		if (!links_find_dev(l, buf))
			return;
	}
}

/* CAP_NET_ADMIN (bit 12) in this process's effective set. */
static bool have_net_admin(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ULL << 12);
}

static void explain_add_error(struct rc_ctx *ctx, int err, const char *ext, const char *name,
			      const char *netdev)
{
	struct link_list l = { 0 };
	const struct rdma_link *other = NULL;
	struct netdev nd;
	struct kmods *km = NULL;	/* kmods_close(NULL) is fine; garbage is not */
	struct utsname u;

	if (err == -EEXIST || err == -ENFILE)
		links_get(ctx->nl, ctx->sysfs_root, &l);
	switch (err) {
	case -EEXIST:
		other = links_find_netdev(&l, netdev);
		if (other)
			pr_kerr(err, ext, "cannot add %s: %s already has an rxe device: %s", name,
				netdev, other->p.dev_name);
		else
			pr_kerr(err, ext, "cannot add %s: %s already has an rxe device", name, netdev);
		break;
	case -ENFILE:
		/* 6.1 says "Too many open files in system" for a name in use. */
		other = links_find_dev(&l, name);
		if (other && other->p.has_netdev)
			pr_kerr(err, ext, "cannot add %s: an RDMA device named %s already exists, on %s",
				name, name, other->p.netdev);
		else
			pr_kerr(err, ext, "cannot add %s: an RDMA device named %s already exists", name,
				name);
		break;
	case -ENODEV:
		pr_kerr(err, ext, "cannot add %s: there is no network device named %s ('ip link' lists them)",
			name, netdev);
		break;
	case -EPERM:
		/* rxe also answers EPERM for a VLAN: only meaningful with the privilege. */
		if (have_net_admin() && netdev_get(ctx->sysfs_root, netdev, &nd) == 0 && nd.is_vlan)
			pr_kerr(err, ext,
				"cannot add %s: %s is a VLAN device and rxe binds only to real devices: "
				"add the link on its parent%s%s (the VLAN's addresses appear in its GID table)",
				name, netdev, *nd.vlan_parent ? ", " : "", nd.vlan_parent);
		else
			pr_kerr(err, ext, "cannot add %s: this needs root or CAP_NET_ADMIN", name);
		break;
	case -EINVAL:
	case -EOPNOTSUPP:
		/* The kernel could not find the rxe link type: rdma_rxe did not load. */
		if (uname(&u) < 0)
			strcpy(u.release, "this kernel");
		if (kmods_open(&km) == 0 && kmods_state(km, "rdma_rxe") == KMOD_ABSENT)
			pr_kerr(err, ext,
				"cannot add %s: the rdma_rxe module is not installed for kernel %s: "
				"install its modules package, or use a kernel with CONFIG_RDMA_RXE",
				name, u.release);
		else
			pr_kerr(err, ext,
				"cannot add %s: the kernel has no rxe link type: rdma_rxe did not load "
				"(try 'modprobe rdma_rxe' and see 'dmesg')", name);
		kmods_close(km);
		break;
	default:
		pr_kerr(err, ext, "cannot add %s on %s", name, netdev);
		break;
	}
	links_free(&l);
}

/* One rxe link, plain or JSON: the row of `link`, also what `add` prints. */
static void print_link(struct rc_ctx *ctx, const struct rdma_link *k)
{
	struct out *o = ctx->out;
	struct netdev nd;
	int active = 0, max = 0;
	bool have_nd = k->p.has_netdev && netdev_get(ctx->sysfs_root, k->p.netdev, &nd) == 0;
	bool have_mtu = verbs_port_mtu(k->p.dev_name, k->p.port, &active, &max) == 0;

	out_obj_open(o, NULL);
	out_str(o, "ifname", "%s", k->p.dev_name);
	out_u64(o, "port", "/%" PRIu64, k->p.port);
	out_str(o, "state", " state %s", ib_port_state_name(k->p.state));
	out_str(o, "physical_state", " physical_state %s", ib_phys_state_name(k->p.phys_state));
	out_str(o, "netdev", " netdev %s", k->p.has_netdev ? k->p.netdev : NULL);
	if (have_nd) {
		out_u64(o, "netdev_mtu", " netdev_mtu %" PRIu64, nd.mtu);
	} else {
		out_text(o, " netdev_mtu -");
		out_str(o, "netdev_mtu", NULL, NULL);
	}
	if (have_mtu) {
		out_u64(o, "active_mtu", " active_mtu %" PRIu64, (uint64_t)active);
		out_u64(o, "max_mtu", NULL, (uint64_t)max);
	} else {
		/* No uverbs node (ib_uverbs not loaded): the MTU is unknown, not 0. */
		out_text(o, " active_mtu -");
		out_str(o, "active_mtu", NULL, NULL);
		out_str(o, "max_mtu", NULL, NULL);
	}
	out_nl(o);
	out_obj_close(o);
}

static int persist_add_conf(struct rc_ctx *ctx, struct conf *c, const char *name,
			    const char *netdev, bool *changed)
{
	int err = conf_add(c, name, netdev);

	*changed = err == 0;
	if (err == -EEXIST) {
		fprintf(stderr, "rdmactl: %s is persisted on %s in %s, not on %s: "
			"'rdmactl persist del %s' first\n", name, conf_find(c, name)->netdev,
			ctx->config, netdev, name);
		return err;
	}
	return err < 0 ? err : 0;
}

int cmd_add(struct rc_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "persist", no_argument, NULL, 'P' },
		{ "exist-ok", no_argument, NULL, 'e' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	bool persist = false, exist_ok = false, force = false, changed = false;
	const char *netdev, *name = NULL;
	char auto_name[RDMA_DEV_NAME_MAX];
	struct link_list l = { 0 };
	const struct rdma_link *k;
	struct conf c = { 0 };
	struct netdev nd;
	struct nl *nl;
	int opt, err;

	for (opt = CMD_GETOPT(argc, argv, "", opts); opt != -1;
	     opt = CMD_GETOPT_NEXT(argc, argv, "", opts)) {
		switch (opt) {
		case 'P': persist = true; break;
		case 'e': exist_ok = true; break;
		case 'f': force = true; break;
		default: return -EUSAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		return usage_err("add", "expected NAME NETDEV, or NETDEV");
	netdev = argv[argc - 1];
	if (argc == 2) {
		name = argv[0];
		err = check_name("add", "device name", name, true);
		if (err)
			return err;
	}
	err = check_name("add", "netdev", netdev, false);
	if (err)
		return err;

	err = rc_netlink(ctx, &nl);
	if (err)
		return err;
	/* A port on a non-Ethernet or loopback device never carries RoCE traffic. */
	if (netdev_get(ctx->sysfs_root, netdev, &nd) == 0 && !netdev_is_ethernet(&nd) && !force) {
		fprintf(stderr, "rdmactl: %s is %s, not an Ethernet device: an rxe port on it "
			"carries no RoCE traffic to other hosts; use an Ethernet device "
			"(or --force)\n", netdev,
			nd.flags & IFF_LOOPBACK ? "the loopback device" : "a device");
		return -EINVAL;
	}
	if (persist) {
		err = rc_conf_load(ctx, &c);
		if (err)
			return err;
	}
	err = rc_links(ctx, &l);
	if (err)
		goto out;
	if (!name) {
		/* The same netdev again with --exist-ok names its existing link. */
		k = links_find_netdev(&l, netdev);
		if (k && exist_ok)
			name = k->p.dev_name;
		else
			free_rxe_name(&l, auto_name, sizeof(auto_name));
		if (!name)
			name = auto_name;
	}
	k = links_find_dev(&l, name);
	if (exist_ok && k && k->is_rxe && k->p.has_netdev && !strcmp(k->p.netdev, netdev)) {
		err = 0;	/* already as asked */
	} else {
		err = link_create(nl, name, netdev);
		if (err) {
			explain_add_error(ctx, err, nl_ext_msg(nl), name, netdev);
			goto out;
		}
		changed = true;
	}
	if (persist) {
		bool conf_changed;

		err = persist_add_conf(ctx, &c, name, netdev, &conf_changed);
		if (!err && conf_changed) {
			err = conf_save(&c, ctx->config);
			if (err)
				pr_kerr(err, NULL, "cannot write %s", ctx->config);
		}
		if (err && changed) {
			/* Nothing half-done: the link goes with the failed persist. */
			links_free(&l);
			if (links_get(nl, ctx->sysfs_root, &l) == 0 && (k = links_find_dev(&l, name)))
				link_delete(nl, k->p.dev_index);
			fprintf(stderr, "rdmactl: %s was not kept\n", name);
			goto out;
		}
	}
	links_free(&l);
	err = rc_links(ctx, &l);
	if (err)
		goto out;
	k = links_find_dev(&l, name);
	if (!k) {
		err = -ENODEV;
		pr_kerr(err, NULL, "%s vanished right after it was created", name);
		goto out;
	}
	print_link(ctx, k);
out:
	links_free(&l);
	conf_free(&c);
	return err;
}

/* Selects the targets of del, explaining what cannot be deleted. */
static int resolve_del(const struct link_list *l, const char *name, const char *netdev,
		       const struct rdma_link **targets, size_t *n)
{
	const struct rdma_link *bad = NULL;
	int err = links_select(l, name, netdev, targets, n, &bad);

	if (err == -EPERM)
		fprintf(stderr, "rdmactl: %s is not an rxe device (driver %s): rdmactl "
			"deletes rxe devices only (EPERM)\n", bad->p.dev_name, bad->driver);
	else if (err == -ENODEV && name)
		fprintf(stderr, "rdmactl: there is no RDMA device named %s ('rdmactl link' lists "
			"the rxe links) (ENODEV)\n", name);
	else if (err == -ENODEV)
		fprintf(stderr, "rdmactl: %s carries no rxe device (ENODEV)\n", netdev);
	return err;
}

int rc_refuse_busy(struct rc_ctx *ctx, const struct rdma_link *const *targets, size_t n)
{
	struct dev_use *u = calloc(n ? n : 1, sizeof(*u));
	int busy = 0;

	if (!u)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		u[i].dev = targets[i]->p.dev_name;
	dev_holders(ctx->sysfs_root, u, n);
	for (size_t i = 0; i < n; i++) {
		if (!u[i].count)
			continue;
		fprintf(stderr, "rdmactl: %s is in use by %s: the kernel would make the delete wait "
			"until %s it (rxe cannot force a user off). Stop %s first, or pass --wait "
			"(EBUSY)\n", u[i].dev, u[i].who, u[i].count > 1 ? "they close" : "it closes",
			u[i].count > 1 ? "them" : "it");
		busy++;
	}
	free(u);
	return busy ? -EBUSY : 0;
}

int cmd_del(struct rc_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "netdev", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "persist", no_argument, NULL, 'P' },
		{ "wait", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netdev = NULL;
	bool all = false, persist = false, wait = false;
	const struct rdma_link **targets = NULL;
	struct link_list l = { 0 };
	struct conf c = { 0 };
	size_t n = 0;
	struct nl *nl;
	int opt, err, ret = 0;

	for (opt = CMD_GETOPT(argc, argv, "", opts); opt != -1;
	     opt = CMD_GETOPT_NEXT(argc, argv, "", opts)) {
		switch (opt) {
		case 'n': netdev = optarg; break;
		case 'a': all = true; break;
		case 'P': persist = true; break;
		case 'w': wait = true; break;
		default: return -EUSAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if ((argc > 0) + !!netdev + all != 1)
		return usage_err("del", "give NAME..., --netdev NETDEV or --all");
	for (int i = 0; i < argc; i++) {
		err = check_name("del", "device name", argv[i], true);
		if (err)
			return err;
	}
	if (netdev && (err = check_name("del", "netdev", netdev, false)))
		return err;

	err = rc_netlink(ctx, &nl);
	if (err)
		return err;
	if (persist && (err = rc_conf_load(ctx, &c)))
		return err;
	err = rc_links(ctx, &l);
	if (err)
		goto out;
	targets = calloc(l.n + 1, sizeof(*targets));
	if (!targets) {
		err = -ENOMEM;
		goto out;
	}
	/* Every target is checked before anything is deleted. */
	if (argc == 0)
		err = resolve_del(&l, NULL, netdev, targets, &n);
	for (int i = 0; !err && i < argc; i++)
		err = resolve_del(&l, argv[i], NULL, targets, &n);
	/* A device a process holds open would hang the delete: nothing is deleted. */
	if (!err && !wait)
		err = rc_refuse_busy(ctx, targets, n);
	if (err)
		goto out;

	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < n; i++) {
		err = link_delete(nl, targets[i]->p.dev_index);
		if (err == -ENODEV || err == -ENOENT) {
			err = 0;	/* gone meanwhile: what was asked */
		} else if (err == -EPERM) {
			pr_kerr(err, nl_ext_msg(nl), "cannot delete %s: this needs root or CAP_NET_ADMIN",
				targets[i]->p.dev_name);
		} else if (err) {
			pr_kerr(err, nl_ext_msg(nl), "cannot delete %s", targets[i]->p.dev_name);
		}
		if (err) {
			ret = err;
			continue;
		}
		out_str(ctx->out, NULL, NULL, targets[i]->p.dev_name);
		if (persist)
			conf_del(&c, targets[i]->p.dev_name);
	}
	out_arr_close(ctx->out);
	if (persist && (err = conf_save(&c, ctx->config))) {
		pr_kerr(err, NULL, "cannot write %s", ctx->config);
		ret = err;
	}
	err = ret;
out:
	free(targets);
	links_free(&l);
	conf_free(&c);
	return err;
}

int cmd_link(struct rc_ctx *ctx, int argc, char **argv)
{
	struct link_list l = { 0 };
	const struct rdma_link *k;
	int err;

	if (argc > 2)
		return usage_err("link", "at most one NAME");
	if (argc == 2 && (err = check_name("link", "device name", argv[1], true)))
		return err;
	err = rc_links(ctx, &l);
	if (err)
		return err;
	if (argc == 2) {
		k = links_find_dev(&l, argv[1]);
		if (!k || !k->is_rxe) {
			fprintf(stderr, "rdmactl: %s: %s (ENODEV)\n", argv[1],
				k ? "not an rxe device" : "no such RDMA device");
			links_free(&l);
			return -ENODEV;
		}
	}
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < l.n; i++) {
		k = &l.v[i];
		if (k->is_rxe && (argc < 2 || !strcmp(k->p.dev_name, argv[1])))
			print_link(ctx, k);
	}
	out_arr_close(ctx->out);
	links_free(&l);
	return 0;
}

/* A column of the status table: JSON gets the value, plain text pads it. */
static void col(struct out *o, const char *key, const char *val, int width, bool last)
{
	out_str(o, key, "%s", val);
	if (!last)
		out_text(o, "%*s", width - (int)strlen(val ? val : "-") + 2, "");
}

static void col_num(struct out *o, const char *key, long v, int width, bool last)
{
	char buf[24];

	if (out_is_json(o)) {
		if (v < 0)
			out_str(o, key, NULL, NULL);
		else
			out_u64(o, key, NULL, (uint64_t)v);
		return;
	}
	snprintf(buf, sizeof(buf), "%ld", v);
	col(o, key, v < 0 ? NULL : buf, width, last);
}

struct status_row {
	struct netdev nd;
	const struct rdma_link *rxe;
	int rmtu;
};

int cmd_status(struct rc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {
		"Name", "Link", "Driver", "Speed", "NMTU", "IPv4_addr", "RDEV", "RMTU",
	};
	int w[8] = { 0 };
	struct netdev *nds = NULL;
	struct status_row *rows = NULL;
	struct link_list l = { 0 };
	size_t n = 0, nrows = 0;
	int err;

	(void)argv;
	if (argc > 1)
		return usage_err("status", "takes no arguments");
	err = rc_links(ctx, &l);
	if (err)
		return err;
	err = netdev_list(ctx->sysfs_root, &nds, &n);
	if (err) {
		pr_kerr(err, NULL, "cannot list the network devices");
		goto out;
	}
	rows = calloc(n + 1, sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < 8; i++)
		w[i] = (int)strlen(heads[i]);
	/* rxe_cfg's view: every Ethernet device, and any other device carrying rxe. */
	for (size_t i = 0; i < n; i++) {
		struct status_row *r = &rows[nrows];
		int max;
		char num[24];

		r->nd = nds[i];
		r->rxe = links_find_netdev(&l, nds[i].name);
		if (!netdev_is_ethernet(&nds[i]) && !r->rxe)
			continue;
		r->rmtu = -1;
		if (r->rxe && verbs_port_mtu(r->rxe->p.dev_name, r->rxe->p.port, &r->rmtu, &max))
			r->rmtu = -1;
		nrows++;
#define WIDEN(k, s) do { int len_ = (int)strlen(s); if (len_ > w[k]) w[k] = len_; } while (0)
		WIDEN(0, r->nd.name);
		WIDEN(2, *r->nd.driver ? r->nd.driver : "-");
		snprintf(num, sizeof(num), "%d", r->nd.speed);
		WIDEN(3, num);
		snprintf(num, sizeof(num), "%u", r->nd.mtu);
		WIDEN(4, num);
		WIDEN(5, *r->nd.ipv4 ? r->nd.ipv4 : "-");
		if (r->rxe)
			WIDEN(6, r->rxe->p.dev_name);
#undef WIDEN
	}
	for (int i = 0; i < 8; i++)
		out_text(ctx->out, "%-*s%s", i == 7 ? 0 : w[i], heads[i], i == 7 ? "\n" : "  ");
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < nrows; i++) {
		struct status_row *r = &rows[i];
		struct out *o = ctx->out;

		out_obj_open(o, NULL);
		col(o, "name", r->nd.name, w[0], false);
		if (out_is_json(o))
			out_bool(o, "link", NULL, r->nd.carrier && !strcmp(r->nd.operstate, "up"));
		else
			col(o, "link", r->nd.carrier && !strcmp(r->nd.operstate, "up") ? "yes" : "no",
			    w[1], false);
		col(o, "driver", *r->nd.driver ? r->nd.driver : NULL, w[2], false);
		col_num(o, "speed", r->nd.speed, w[3], false);
		col_num(o, "mtu", r->nd.mtu, w[4], false);
		col(o, "ipv4", *r->nd.ipv4 ? r->nd.ipv4 : NULL, w[5], false);
		col(o, "rdma_dev", r->rxe ? r->rxe->p.dev_name : NULL, w[6], false);
		col_num(o, "roce_mtu", r->rmtu, w[7], true);
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(ctx->out);
out:
	free(rows);
	free(nds);
	links_free(&l);
	return err;
}
