// SPDX-License-Identifier: GPL-2.0-or-later
/* Start and stop: the modules Soft-RoCE needs loaded in order, the persisted links made. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/nl.h"
#include "model/sys.h"
#include "ops/op_err.h"
#include "ops/service.h"

int service_start(struct model_sys *sys, const char *config, char *const *netdevs, int n,
		  struct service_result *r, struct op_err *e)
{
	struct nl *nl;
	int err;

	memset(r, 0, sizeof(*r));
	/* The file first: a broken file is reported before anything changes. */
	err = persist_load(config, &r->conf, e);
	if (err)
		return err;
	persist_only_netdevs(&r->conf, netdevs, n);
	err = service_load_modules(r->mods, e);
	r->mods_done = true;
	if (err)
		return err;
	err = model_sys_rdma(sys, &nl);
	if (err)
		return op_err_netlink_open(e, err, sys->root);
	r->state = calloc(r->conf.n + 1, sizeof(*r->state));
	if (!r->state)
		return op_err_set(e, -ENOMEM, NULL, "out of memory");
	err = persist_start(nl, config, &r->conf, r->state, e);
	r->links_done = true;
	return err;
}

void service_result_free(struct service_result *r)
{
	free(r->state);
	model_conf_free(&r->conf);
	memset(r, 0, sizeof(*r));
}

int service_load_modules(struct service_module res[RXE_NMODULES], struct op_err *e)
{
	struct kmods *km;
	int err, ret = 0;

	for (size_t i = 0; i < RXE_NMODULES; i++)
		res[i] = (struct service_module){ rxe_modules[i], KMOD_ABSENT, KMOD_ABSENT, -ENOENT };
	err = kmods_open(&km);
	if (err)
		return op_err_kmod_index(e, err);
	/* No module can help a kernel built without RDMA: that alone is said. */
	if (kmods_state(km, rxe_modules[0]) == KMOD_ABSENT && op_err_kernel_no_rdma(e, "")) {
		kmods_close(km);
		return e->err;
	}
	for (size_t i = 0; i < RXE_NMODULES; i++) {
		struct service_module *r = &res[i];

		r->before = kmods_state(km, r->name);
		r->err = kmods_load(km, r->name);
		r->after = kmods_state(km, r->name);
		if (!r->err)
			continue;
		if (!ret) {
			ret = op_err_modprobe(e, r->err, "", r->name);
		} else {
			struct op_err more;

			op_err_modprobe(&more, r->err, "", r->name);
			op_err_add(e, "%s", more.what);
		}
	}
	kmods_close(km);
	return ret;
}

int service_unload_module(const char *name, enum kmod_state *after, struct op_err *e)
{
	struct kmods *km;
	int err;

	err = kmods_open(&km);
	if (err)
		return op_err_kmod_index(e, err);
	err = kmods_unload(km, name);
	*after = kmods_state(km, name);
	kmods_close(km);
	return err ? op_err_rmmod(e, err, name) : 0;
}
