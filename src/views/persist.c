// SPDX-License-Identifier: GPL-2.0-or-later
/* What a persist edit prints: the notes that tell the user of symlinks and systemd. */
#include "cli/out.h"
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
