// SPDX-License-Identifier: GPL-2.0-or-later
/* What start and up print: the modules loaded and the persisted links made. */
#include "cli/out.h"
#include "kernel/kmods.h"
#include "views/service.h"

const char *view_start_state(enum start_state s)
{
	static const char *const words[] = { "present", "added", "failed", "absent" };

	return words[s];
}

void view_service_link(struct out *o, const char *name, const char *netdev, const char *result)
{
	out_obj_open(o, NULL);
	out_str(o, "ifname", "link %s", name);
	out_str(o, "netdev", " netdev %s", netdev);
	out_str(o, "result", " %s", result);
	out_nl(o);
	out_obj_close(o);
}

/* What start did to each module: an array under "modules". */
static void view_service_modules(struct out *o, const struct service_module res[RXE_NMODULES])
{
	out_arr_open(o, "modules");
	for (size_t i = 0; i < RXE_NMODULES; i++) {
		const struct service_module *r = &res[i];

		out_obj_open(o, NULL);
		out_str(o, "module", "module %s", r->name);
		out_str(o, "state", " %s", r->err ? "failed" : r->before == KMOD_AVAILABLE ?
			"loaded now" : kmods_state_name(r->after));
		out_nl(o);
		out_obj_close(o);
	}
	out_arr_close(o);
}

void view_service_start(struct out *o, const struct service_result *r)
{
	if (r->mods_done)
		view_service_modules(o, r->mods);
	if (!r->links_done)
		return;
	out_arr_open(o, "links");
	for (size_t i = 0; i < r->conf.n; i++)
		view_service_link(o, r->conf.e[i].name, r->conf.e[i].netdev,
				  view_start_state(r->state[i]));
	out_arr_close(o);
}
