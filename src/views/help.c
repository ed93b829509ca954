// SPDX-License-Identifier: GPL-2.0-or-later
/* help -j's records and version (help.h). */
#include "cli/out.h"
#include "views/help.h"

void view_help_begin(struct out *o)
{
	out_arr_open(o, NULL);
}

void view_help_command(struct out *o, const char *path, const char *synopsis,
		       const char *summary)
{
	out_obj_open(o, NULL);
	out_str(o, "command", NULL, path);
	out_str(o, "synopsis", NULL, synopsis);
	out_str(o, "summary", NULL, summary);
	out_obj_close(o);
}

void view_help_end(struct out *o)
{
	out_arr_close(o);
}

void view_version(struct out *o, const char *version)
{
	out_obj_open(o, NULL);
	out_str(o, "version", "rdmactl %s\n", version);
	out_obj_close(o);
}
