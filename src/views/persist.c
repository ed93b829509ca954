// SPDX-License-Identifier: GPL-2.0-or-later
/* What a persist edit prints: the notes that tell the user of symlinks and systemd. */
#include "cli/out.h"
#include "model/conf.h"
#include "ops/persist.h"
#include "views/persist.h"

void view_persist_edited(const char *config)
{
	char target[4096];

	/* An edit replaces the file a symlink leads to, not the symlink: said. */
	if (persist_is_symlink(config, target, sizeof(target)))
		pr_note("%s is a symlink: the file it leads to, %s, was written", config, target);
	if (persist_needs_reload(config))
		pr_note("'systemctl daemon-reload' lets systemd make these links again when their "
			"netdevs come back before the next boot");
}

void view_persist_links(struct out *o, const struct conf *c, bool plain)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < c->n; i++) {
		out_obj_open(o, NULL);
		out_str(o, "ifname", plain ? "%s" : NULL, c->e[i].name);
		out_str(o, "netdev", plain ? " %s\n" : NULL, c->e[i].netdev);
		out_obj_close(o);
	}
	out_arr_close(o);
}

void view_persist_wants(struct out *o, const char *dir)
{
	out_obj_open(o, NULL);
	out_str(o, "directory", NULL, dir);
	out_obj_close(o);
}
