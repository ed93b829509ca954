/* SPDX-License-Identifier: GPL-2.0-or-later */
/* help -j's records, a command each, and version (plain and JSON). */
#ifndef RDMACTL_VIEWS_HELP_H
#define RDMACTL_VIEWS_HELP_H

struct out;

/* help -j's list: begun, a record each (view_help_command), ended. */
void view_help_begin(struct out *o);
/* One command: its words (PATH), its one-line SYNOPSIS and SUMMARY. */
void view_help_command(struct out *o, const char *path, const char *synopsis,
		       const char *summary);
void view_help_end(struct out *o);
/* rdmactl's VERSION. */
void view_version(struct out *o, const char *version);

#endif
