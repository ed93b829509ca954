/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading sysfs and proc files below a root prefix ("" for the live system). */
#ifndef RDMACTL_SYSFS_H
#define RDMACTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Reads the file ROOT/PATH (PATH from FMT) into BUF, without its trailing
 * newline. Returns the length, or a negative errno (the kernel's own, such as
 * -EINVAL for an empty GID slot's attributes), -ENOTREG for what is not a
 * regular file (a FIFO is never waited on). -EFBIG when it does not fit
 * (BUF is then "").
 */
int sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The same for NAME in the directory open as DIRFD: for many files of one
 * directory (a GID table), one short lookup each instead of a whole path.
 */
int sysfs_read_at(int dirfd, const char *name, char *buf, size_t len);
/* ROOT/PATH opened as a directory for sysfs_read_at, or a negative errno. */
int sysfs_open_dir(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Calls EACH with the name of every entry of the directory ROOT/DIR (not "."
 * or ".."), in no order, until it returns non-zero: that value, 0, or a
 * negative errno when the directory cannot be read.
 */
int sysfs_list(const char *root, const char *dir, int (*each)(void *arg, const char *name),
	       void *arg);
/*
 * N bytes just read into BUF (of LEN bytes) made the attribute's text: the
 * trailing newline cut, NUL-terminated. Its length, or -EFBIG when the read
 * filled BUF (the value may go on; BUF is then ""). What every read above does
 * with its bytes.
 */
int sysfs_text(char *buf, size_t n, size_t len);
/*
 * Whether the fixture ROOT holds only what a capture does (directories,
 * regular files, symlinks): 0, or -ENOTREG with the first other thing's
 * path in BAD and its S_IFMT in *TYPE (a FIFO, socket or device, which a
 * read of sysfs would otherwise meet), or the errno of ROOT's walk.
 */
int sysfs_tree_check(const char *root, char *bad, size_t len, mode_t *type);
bool sysfs_exists(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last component of the symlink ROOT/PATH's target. */
int sysfs_link_base(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
