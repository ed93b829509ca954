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
	model_free(&s->devs);
	model_free(&s->ns_devs);
	s->devs_done = s->ns_devs_done = false;
}

void model_sys_close(struct model_sys *s)
{
	model_sys_forget(s);
	nl_close(s->rdma);
	nl_close(s->ns_rdma);
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
	bool other = elsewhere(s, pid);
	struct model *m = other ? &s->ns_devs : &s->devs;
	int *e = other ? &s->ns_devs_err : &s->devs_err;
	bool *done = other ? &s->ns_devs_done : &s->devs_done;

	if (!*done) {
		struct model_src src = model_sys_src(s);

		*done = true;
		*e = model_sys_rdma_of(s, pid, &src.nl);
		if (!*e)
			*e = model_load(&src, NULL, (struct model_ask){ .source = MODEL_NETLINK,
									.ports = MODEL_PORTS_STATES }, m);
	}
	*err = *e;
	return *e ? NULL : m;
}
