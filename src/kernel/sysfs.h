/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading sysfs and proc files below a root prefix ("" for the live system). */
#ifndef RDMACTL_SYSFS_H
#define RDMACTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Reads the file ROOT/PATH (PATH from FMT) into BUF, without its trailing
 * newline. Returns the length, or a negative errno (the kernel's own, such as
 * -EINVAL for an empty GID slot's attributes). -EFBIG when it does not fit.
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
bool sysfs_exists(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last component of the symlink ROOT/PATH's target. */
int sysfs_link_base(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
