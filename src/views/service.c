// SPDX-License-Identifier: GPL-2.0-or-later
/* What start and up print: the modules loaded and the persisted links made. */
#include <errno.h>

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
	out_obj_open(o, NULL);
	if (r->mods_done)
		view_service_modules(o, r->mods);
	if (r->links_done) {
		out_arr_open(o, "links");
		for (size_t i = 0; i < r->conf.n; i++)
			view_service_link(o, r->conf.e[i].name, r->conf.e[i].netdev,
					  view_start_state(r->state[i]));
		out_arr_close(o);
	}
	out_obj_close(o);
}

void view_service_links_begin(struct out *o)
{
	out_obj_open(o, NULL);
	out_arr_open(o, "links");
}

void view_service_links_end(struct out *o)
{
	out_arr_close(o);
	out_obj_close(o);
}

void view_stop_begin(struct out *o)
{
	out_obj_open(o, NULL);
	out_arr_open(o, "deleted");
}

void view_stop_deleted(struct out *o, const char *name)
{
	out_str(o, NULL, "deleted %s\n", name);
}

void view_stop_end(struct out *o, bool tried, int err, enum kmod_state after)
{
	out_arr_close(o);
	if (tried) {
		out_obj_open(o, "module");
		out_str(o, "module", "%s", "rdma_rxe");
		out_str(o, "state", " %s\n", err == -EBUSY ? "in use: left loaded" :
			err ? "failed" : after == KMOD_BUILTIN ? "built in" : "unloaded");
		out_obj_close(o);
	}
	out_obj_close(o);
}

void view_up(struct out *o, const char *netdev, const char *made, const char *failed)
{
	out_obj_open(o, NULL);
	out_str(o, "netdev", "up: %s", netdev);
	out_str(o, "ifname", *made ? ": %s" : NULL, *made ? made : NULL);
	out_bool(o, "proven", NULL, !failed);
	out_str(o, "failed_step", NULL, failed);
	if (failed)
		out_text(o, ": stopped at %s: see above\n", failed);
	else
		out_text(o, " is up and proven: modules loaded, link ACTIVE, every check "
			 "passed, selftest passed\n");
	out_obj_close(o);
}
