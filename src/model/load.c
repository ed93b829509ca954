// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's loader: the devices and ports from the source MODEL_NETLINK
 * picks, then each other fact asked for, read by its own reader whichever
 * source listed them.
 */
#include "model/model.h"
#include "model/sources.h"

/* The GID tables and counters sysfs alone has, for a list the netlink made. */
static int load_tables(const struct model_src *src, struct model *m, unsigned int flags)
{
	int err = 0;

	for (size_t i = 0; !err && i < m->n; i++)
		for (size_t k = 0; !err && k < m->devs[i].nports; k++)
			err = model_sysfs_port_tables(src, &m->devs[i], &m->devs[i].ports[k], flags);
	return err;
}

int model_load(const struct model_src *src, const char *only, unsigned int flags,
	       struct model *m)
{
	int err = flags & MODEL_NETLINK ? model_load_netlink(src, only, flags, m) :
					  model_load_sysfs(src, only, flags, m);

	if (err)
		return err;
	if ((flags & MODEL_NETLINK) && (flags & (MODEL_GIDS | MODEL_ALL_GIDS | MODEL_COUNTERS))) {
		err = load_tables(src, m, flags);
		if (err) {
			model_free(m);
			return err;
		}
	}
	if (flags & (MODEL_MTU | MODEL_DEV_MTU | MODEL_NETDEV))
		model_load_mtus(src, m, flags);
	return 0;
}
