/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a persist edit prints: the notes that tell the user of symlinks and systemd. */
#ifndef RDMACTL_VIEWS_PERSIST_H
#define RDMACTL_VIEWS_PERSIST_H

/* After an edit of CONFIG: the note that tells systemd of it, when one is needed. */
void view_persist_edited(const char *config);

#endif
