// SPDX-License-Identifier: GPL-2.0-or-later
/* The RDMA subsystem's namespace mode and copy-on-fork, as system show prints them (system.h). */
#include "cli/out.h"
#include "kernel/nldev.h"
#include "views/system.h"

void view_system(struct out *o, const struct nldev_sys *s, int boot)
{
	out_obj_open(o, NULL);
	out_str(o, "netns", "netns %s", nldev_netns_mode_name(s->netns_mode));
	/*
	 * A kernel that does not say (before 5.13) has no copy-on-fork: off, as
	 * rdma says too. In text, rdma's words: on or off.
	 */
	out_bool(o, "copy_on_fork", NULL, s->copy_on_fork > 0);
	out_text(o, " copy-on-fork %s", s->copy_on_fork > 0 ? "on" : "off");
	/* The mode of the next boot: said in text only where it is not today's. */
	out_str(o, "netns_boot", NULL, nldev_netns_mode_name(boot));
	if (boot >= 0 && s->netns_mode >= 0 && boot != s->netns_mode)
		out_text(o, " (netns %s from the next boot)", nldev_netns_mode_name(boot));
	out_nl(o);
	out_obj_close(o);
}
