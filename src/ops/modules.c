// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations on kernel modules: load what Soft-RoCE needs, unload rdma_rxe. */
#include <errno.h>
#include <string.h>

#include "ops/explain.h"
#include "ops/modules.h"

int modules_load(struct module_result res[RXE_NMODULES], struct op_err *e)
{
	struct kmods *km;
	int err, ret = 0;

	for (size_t i = 0; i < RXE_NMODULES; i++)
		res[i] = (struct module_result){ rxe_modules[i], KMOD_ABSENT, KMOD_ABSENT, -ENOENT };
	err = kmods_open(&km);
	if (err)
		return explain_kmod_index(e, err);
	for (size_t i = 0; i < RXE_NMODULES; i++) {
		struct module_result *r = &res[i];

		r->before = kmods_state(km, r->name);
		r->err = kmods_load(km, r->name);
		r->after = kmods_state(km, r->name);
		if (!r->err)
			continue;
		if (!ret) {
			ret = explain_modprobe(e, r->err, "", r->name);
		} else {
			struct op_err more;

			explain_modprobe(&more, r->err, "", r->name);
			op_err_add(e, "%s", more.what);
		}
	}
	kmods_close(km);
	return ret;
}

int modules_unload(const char *name, enum kmod_state *after, struct op_err *e)
{
	struct kmods *km;
	int err;

	err = kmods_open(&km);
	if (err)
		return explain_kmod_index(e, err);
	err = kmods_unload(km, name);
	*after = kmods_state(km, name);
	kmods_close(km);
	return err ? explain_rmmod(e, err, name) : 0;
}
