// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's loader: the devices and ports from the source asked for,
 * then each other fact asked for, read by its own reader whichever source
 * listed them.
 */
#include "model/model.h"
#include "model/sources.h"

/* The GID tables and counters sysfs alone has, for a list the netlink made. */
static int load_tables(const struct model_src *src, struct model *m, struct model_ask ask)
{
	int err = 0;

	for (size_t i = 0; !err && i < m->n; i++)
		for (size_t k = 0; !err && k < m->devs[i].nports; k++)
			err = model_sysfs_port_tables(src, &m->devs[i], &m->devs[i].ports[k], ask);
	return err;
}

int model_load(const struct model_src *src, const char *only, struct model_ask ask,
	       struct model *m)
{
	int err = ask.source == MODEL_NETLINK ? model_load_netlink(src, only, ask, m) :
				      model_load_sysfs(src, only, ask, m);

	if (err)
		return err;
	if (ask.source == MODEL_NETLINK && (ask.gids != MODEL_GIDS_NONE || ask.counters)) {
		err = load_tables(src, m, ask);
		if (err) {
			model_free(m);
			return err;
		}
	}
	model_load_links(src, m, ask);
	return 0;
}
