/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files rdmactl reads and writes, handled as install, visudo and systemd's
 * tmpfiles do: only a regular file is ever read or replaced (a device, FIFO,
 * socket or directory is refused before anything is opened, so nothing
 * blocks), a symlink is followed to the file it names, and a write goes to a
 * temporary file beside it, with its owner, group and mode, synced and renamed
 * over it.
 */
#ifndef RDMACTL_SAFE_H
#define RDMACTL_SAFE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kernel/errname.h"	/* ENOTREG */

/* What a path named when it was read or written. */
struct safe_path {
	char target[PATH_MAX];	/* the file itself: the path, or where its symlink leads */
	bool symlink;		/* the path was a symlink, followed to TARGET */
	mode_t type;		/* S_IFMT of what is at TARGET; 0 when nothing is */
};


/* "a directory", "a FIFO", "a character device", ... for TYPE (S_IFMT bits). */
const char *safe_type_name(mode_t type);

/*
 * What PATH names, looked at without opening it: 0 for a regular file (or a
 * symlink to one), -ENOENT for nothing, -ENOTREG for anything else.
 */
int safe_resolve(const char *path, struct safe_path *p);

/*
 * PATH (relative to DIRFD, or AT_FDCWD) opened for reading if it is a regular
 * file, without ever waiting on a FIFO: the descriptor, -ENOTREG (*TYPE, when
 * given, says what is there) or open's errno. Every file rdmactl reads is
 * opened here or by safe_read.
 */
int safe_open_at(int dirfd, const char *path, mode_t *type);
/* The same as a stdio stream: NULL with errno set (ENOTREG too) when it cannot be. */
FILE *safe_fopen(const char *path);

/*
 * Up to MAX bytes of PATH into BUF (*LEN of them; MAX + 1 read means longer):
 * 0, -ENOENT when nothing is there, -ENOTREG, or the errno of the read.
 */
int safe_read(const char *path, char *buf, size_t max, size_t *len, struct safe_path *p);

/*
 * PATH's content made LEN bytes of TEXT, atomically: -ENOTREG, -ENOENT when
 * its directory does not exist (none is made), or the errno that stopped it,
 * PATH then as it was. A new file gets MODE; an existing one keeps its own,
 * and its owner and group.
 */
int safe_write(const char *path, const char *text, size_t len, mode_t mode,
	       struct safe_path *p);

/*
 * The same for a file written as it goes (a capture's packets): safe_begin
 * opens the temporary file beside PATH (F->fd, to write to), safe_commit
 * gives it PATH's owner, group and mode, syncs it and renames it over PATH,
 * safe_abort leaves PATH as it was. Each returns as safe_write does; a
 * failed commit has aborted.
 */
struct safe_file {
	int fd;
	struct safe_path path;
	struct stat st;
	bool exists, named;
	mode_t mode;
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
};
int safe_begin(const char *path, mode_t mode, struct safe_file *f);
int safe_commit(struct safe_file *f);
void safe_abort(struct safe_file *f);

/*
 * TEXT (LEN bytes) added at the end of PATH in one write (a CI system's
 * environment or output file, which other steps add to as well): a regular
 * file, or nothing there (made 0644); a symlink followed. 0, -ENOTREG (P
 * says what is there), -ENOENT when its directory does not exist, or the
 * errno of the open or the write (-EIO when it was short).
 */
int safe_append(const char *path, const char *text, size_t len, struct safe_path *p);

/*
 * PATH made empty and opened for writing as it goes, a reader seeing each
 * line once written (a record, which a process killed leaves readable up
 * to its last line): a regular file, or nothing there (made with MODE); a
 * symlink followed to its target. The descriptor, -ENOTREG (P says what is
 * there), -ENOENT when its directory does not exist, or open's errno.
 */
int safe_create(const char *path, mode_t mode, struct safe_path *p);

/*
 * Edits of PATH held to one process at a time, as visudo and apt hold
 * theirs: an exclusive lock on the directory the file is replaced in (each
 * write makes it a new inode, on which no lock would hold), waited for up
 * to WAIT_MS. The descriptor to give safe_unlock; -EWOULDBLOCK when another
 * still holds it; -ENOTREG (P says what is there), or -ENOENT when the
 * directory does not exist. Readers need
 * none: they see the old file or the new, whole.
 */
int safe_lock(const char *path, int wait_ms, struct safe_path *p);
void safe_unlock(int fd);

#endif
