// SPDX-License-Identifier: GPL-2.0-or-later
/* The model's loader: the source the flags pick, then the link facts MODEL_MTU asks. */
#include "model/model.h"
#include "model/sources.h"

int model_load(const struct model_src *src, const char *only, unsigned int flags,
	       struct model *m)
{
	int err = flags & MODEL_NETLINK ? model_load_netlink(src, only, flags, m) :
					  model_load_sysfs(src, only, flags, m);

	if (!err && (flags & MODEL_MTU))
		model_load_mtus(src, m, flags);
	return err;
}
