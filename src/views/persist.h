/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What persist prints: the file's links, and the notes that tell the user of symlinks and systemd. */
#ifndef RDMACTL_VIEWS_PERSIST_H
#define RDMACTL_VIEWS_PERSIST_H

#include <stdbool.h>

struct out;
struct conf;

/* C's links, a name and a netdev each: as lines when PLAIN, else JSON alone. */
void view_persist_links(struct out *o, const struct conf *c, bool plain);
/* The directory persist wants wrote the unit's wants into. */
void view_persist_wants(struct out *o, const char *dir);
/* After an edit of CONFIG: the note that tells systemd of it, when one is needed. */
void view_persist_edited(const char *config);

#endif
