// SPDX-License-Identifier: GPL-2.0-or-later
/* One handle per run: the system read, its RDMA netlink opened once (sys.h). */
#include <errno.h>
#include <string.h>

#include "kernel/netns.h"
#include "kernel/nl.h"
#include "model/sys.h"

void model_sys_init(struct model_sys *s, const char *root)
{
	memset(s, 0, sizeof(*s));
	s->root = root ? root : "";
}

void model_sys_forget(struct model_sys *s)
{
	for (size_t i = 0; i < 2; i++) {
		model_free(&s->devs[i].m);
		s->devs[i].done = false;
	}
}

void model_sys_close(struct model_sys *s)
{
	model_sys_forget(s);
	nl_close(s->rdma);
	nl_close(s->ns_rdma);
	nl_close(s->route);
	model_sys_init(s, s->root);
}

bool model_sys_live(const struct model_sys *s)
{
	return !*s->root;
}

int model_sys_rdma(struct model_sys *s, struct nl **nl)
{
	int err = 0;

	/* Tried again after a failure: loading ib_core makes the RDMA netlink exist. */
	if (!s->rdma) {
		if (model_sys_live(s)) {
			err = nl_open(&s->rdma, NETLINK_RDMA);
		} else {
			char path[4096];

			model_netlink_recording(s->root, path, sizeof(path));
			err = nl_open_replay(path, &s->rdma);
		}
	}
	*nl = s->rdma;
	return err;
}

int model_sys_route(struct model_sys *s, struct nl **nl)
{
	int err = 0;

	if (!model_sys_live(s))
		err = -EOPNOTSUPP;
	else if (!s->route)
		err = nl_open(&s->route, NETLINK_ROUTE);
	*nl = s->route;
	return err;
}

static int open_rdma(void *arg)
{
	return nl_open(arg, NETLINK_RDMA);
}

/* Whether PID's network namespace is another than this process's (and S live). */
static bool elsewhere(const struct model_sys *s, int pid)
{
	return pid > 0 && model_sys_live(s) && netns_shared_with(pid) == 0;
}

int model_sys_rdma_of(struct model_sys *s, int pid, struct nl **nl)
{
	if (!elsewhere(s, pid))
		return model_sys_rdma(s, nl);
	int err = 0;

	if (s->ns_rdma && s->ns_pid != pid)
		return -EBUSY;	/* one other namespace a run */
	if (!s->ns_rdma) {
		err = netns_run_in(pid, open_rdma, &s->ns_rdma);
		s->ns_pid = err ? 0 : pid;
	}
	*nl = s->ns_rdma;
	return err;
}

struct model_src model_sys_src(const struct model_sys *s)
{
	/* libibverbs speaks for the running system only, never for a fixture. */
	return (struct model_src){ .root = s->root, .nl = s->rdma, .verbs = model_sys_live(s) };
}

const struct model *model_sys_devices_of(struct model_sys *s, int pid, int *err)
{
	struct model_sys_devs *d = &s->devs[elsewhere(s, pid)];

	if (!d->done) {
		struct model_src src = model_sys_src(s);

		d->done = true;
		d->err = model_sys_rdma_of(s, pid, &src.nl);
		if (!d->err)
			d->err = model_load(&src, NULL, (struct model_ask){ .source = MODEL_NETLINK,
									.ports = MODEL_PORTS_STATES },
					    &d->m);
	}
	*err = d->err;
	return d->err ? NULL : &d->m;
}

/* The netlink's facts of NLM merged into M's devices (a sysfs list). */
static void merge_netlink(const struct model *nlm, struct model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct rdma_dev *d = &m->devs[i];
		const struct rdma_dev *n = model_find(nlm, d->name);

		d->here_known = true;
		d->here = n && n->nports && *n->ports[0].netdev;
		if (n)
			d->index = n->index;
	}
}

int model_sys_load(struct model_sys *s, const char *only, struct model_ask ask, int here_of,
		   struct model *m)
{
	struct model_src src = model_sys_src(s);
	const struct model *nlm;
	int err = 0;

	if (ask.source == MODEL_NETLINK)
		err = model_sys_rdma(s, &src.nl);
	if (!err)
		err = model_load(&src, only, ask, m);
	/* No device, nothing to merge: the netlink is not asked (nor its module loaded for it). */
	if (err || ask.source != MODEL_SYSFS || here_of < 0 || !model_sys_live(s) || !m->n)
		return err;
	/* A list that cannot be read leaves here_known false: the caller judges without. */
	nlm = model_sys_devices_of(s, here_of, &(int){ 0 });
	if (nlm)
		merge_netlink(nlm, m);
	return 0;
}
