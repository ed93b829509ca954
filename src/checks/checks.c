// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl check: verdicts, and the state the checks share. */
#include <errno.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "kernel/container.h"
#include "kernel/netns.h"
#include "kernel/nl.h"
#include "kernel/sysfs.h"

const char *check_verdict_name(enum verdict v)
{
	static const char *const names[] = { "pass", "warn", "fail", "skip" };

	return names[v];
}

enum verdict check_verdict_of(const struct check_result *const *r, size_t n, const char *id)
{
	/* Worse first: fail, warn, pass, then nothing said. */
	static const int rank[] = { [V_FAIL] = 0, [V_WARN] = 1, [V_PASS] = 2, [V_SKIP] = 3 };
	enum verdict v = V_SKIP;

	for (size_t k = 0; id && k < n; k++)
		if (!strcmp(r[k]->id, id) && rank[r[k]->v] < rank[v])
			v = r[k]->v;
	return v;
}

void check_report(struct check_ctx *c, enum verdict v, const char *fix, const char *fmt, ...)
{
	struct check_result *r = realloc(c->r, (c->nr + 1) * sizeof(*r));
	va_list ap;

	if (!r)
		return;
	c->r = r;
	r = &c->r[c->nr++];
	r->id = c->cur;
	r->v = v;
	va_start(ap, fmt);
	if (vasprintf(&r->msg, fmt, ap) < 0)
		r->msg = NULL;
	va_end(ap);
	r->fix = fix ? strdup(fix) : NULL;
}

void check_ctx_free(struct check_ctx *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->r[i].msg);
		free(c->r[i].fix);
	}
	free(c->r);
	if (c->model_done && !c->model_err)
		model_free(&c->m);
	if (c->ifa)
		freeifaddrs(c->ifa);
	if (c->proc_done && !c->proc_err)
		proc_free(&c->proc);
}

const struct model *check_ctx_model(struct check_ctx *c)
{
	if (!c->model_done) {
		/*
		 * sysfs lists every device of the host; --pid's process sees
		 * those of its own network namespace (a container's, from the
		 * host), which the netlink asked there says (check_dev_here).
		 */
		c->model_err = model_sys_load(c->sys, NULL,
					      (struct model_ask){ .gids = MODEL_GIDS_USED,
								  .counters = true,
								  .mtu = MODEL_MTU_DEVICE,
								  .netdev = true },
					      c->o.pid, &c->m);
		c->model_done = true;
	}
	return c->model_err ? NULL : &c->m;
}

size_t check_ctx_rxe_devs(struct check_ctx *c, const struct rdma_dev **out, size_t max)
{
	const struct model *m = check_ctx_model(c);
	size_t n = 0;

	for (size_t i = 0; m && i < m->n && n < max; i++)
		if (!strcmp(m->devs[i].driver, "rxe") && check_dev_here(c, &m->devs[i]) &&
		    (!c->o.dev || !strcmp(m->devs[i].name, c->o.dev)))
			out[n++] = &m->devs[i];
	return n;
}

size_t check_ctx_rxe_devs_or_skip(struct check_ctx *c, const struct rdma_dev **out, size_t max)
{
	size_t n = check_ctx_rxe_devs(c, out, max);

	if (n == 0)
		check_report(c, V_SKIP, NULL, "no rxe device to check (see the link check)");
	return n;
}

bool check_ctx_live(const struct check_ctx *c)
{
	return model_sys_live(c->sys);
}

int check_ctx_container(struct check_ctx *c)
{
	if (!c->box_done) {
		c->box = check_ctx_live(c) ? (int)container_detect("") : CONTAINER_NONE;
		c->box_done = true;
	}
	return c->box;
}

bool check_dev_here(struct check_ctx *c, const struct rdma_dev *d)
{
	if (!check_ctx_live(c))
		return true;
	/* The netlink's list merged into the model's (model_sys_load); sysfs's word without it. */
	if (!d->here_known)
		return d->nports && d->ports[0].netdev_exists;
	return d->here;
}

struct ifaddrs *check_ctx_addrs(struct check_ctx *c)
{
	if (!c->ifa_done) {
		c->ifa_done = true;
		if (!check_ctx_live(c) || getifaddrs(&c->ifa) < 0)
			c->ifa = NULL;
	}
	return c->ifa;
}

bool check_ctx_on_netdev(const struct check_ctx *c, const char *ifname, const char *netdev)
{
	return !strcmp(ifname, netdev) ||
	       sysfs_exists(c->sys->root, "/sys/class/net/%s/upper_%s", netdev, ifname);
}

const struct proc_info *check_ctx_proc(struct check_ctx *c)
{
	if (!c->proc_done) {
		c->proc_err = proc_read(c->sys->root, c->o.pid, &c->proc);
		c->proc_done = true;
	}
	if (c->proc_err) {
		check_report(c, V_SKIP, NULL, "there is no process %d", c->o.pid);
		return NULL;
	}
	/* The process check says what it is instead; the others have nothing to read. */
	if (c->proc.kthread || c->proc.zombie) {
		char who[64];

		check_report(c, V_SKIP, NULL, "%s is %s", check_proc_who(&c->proc, who, sizeof(who)),
			     c->proc.kthread ? "a kernel thread, no program" :
					       "a zombie: its program has ended");
		return NULL;
	}
	return &c->proc;
}

const char *check_proc_who(const struct proc_info *p, char *buf, size_t len)
{
	snprintf(buf, len, "%d (%s)", p->pid, *p->comm ? p->comm : "?");
	return buf;
}
