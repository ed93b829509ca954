// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading sysfs and proc files below a root prefix ("" for the live system). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/safe.h"
#include "kernel/sysfs.h"

static int build_path(char *path, const char *root, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int build_path(char *path, const char *root, const char *fmt, va_list ap)
{
	int n = snprintf(path, PATH_MAX, "%s", root);
	int m;

	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	m = vsnprintf(path + n, PATH_MAX - (size_t)n, fmt, ap);
	if (m < 0 || m >= PATH_MAX - n)
		return -ENAMETOOLONG;
	return 0;
}

int sysfs_text(char *buf, size_t n, size_t len)
{
	if (n >= len) {
		buf[0] = '\0';	/* a caller that keeps BUF anyway keeps a string */
		return -EFBIG;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return (int)n;
}

/* One read of the open attribute FD into BUF, without the trailing newline. */
static int read_fd(int fd, char *buf, size_t len)
{
	ssize_t n;
	int err;

	/* One read: sysfs attributes are produced whole by a single show(). */
	n = read(fd, buf, len);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	return sysfs_text(buf, (size_t)n, len);
}

int sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int fd, err;

	if (len == 0)
		return -EINVAL;
	va_start(ap, fmt);
	err = build_path(path, root, fmt, ap);
	va_end(ap);
	if (err)
		return err;
	fd = safe_open_at(AT_FDCWD, path, NULL);
	if (fd < 0)
		return fd;
	return read_fd(fd, buf, len);
}

int sysfs_read_at(int dirfd, const char *name, char *buf, size_t len)
{
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = safe_open_at(dirfd, name, NULL);
	if (fd < 0)
		return fd;
	return read_fd(fd, buf, len);
}

int sysfs_open_dir(const char *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int fd, err;

	va_start(ap, fmt);
	err = build_path(path, root, fmt, ap);
	va_end(ap);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sysfs_list(const char *root, const char *dir, int (*each)(void *arg, const char *name),
	       void *arg)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s%s", root, dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = each(arg, de->d_name);
	closedir(d);
	return ret;
}

bool sysfs_exists(const char *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = build_path(path, root, fmt, ap);
	va_end(ap);
	return !err && access(path, F_OK) == 0;
}

int sysfs_link_base(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	va_list ap;
	ssize_t n;
	int err;

	va_start(ap, fmt);
	err = build_path(path, root, fmt, ap);
	va_end(ap);
	if (err)
		return err;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -EFBIG;
	strcpy(buf, base);
	return (int)strlen(buf);
}

int sysfs_tree_check(const char *root, char *bad, size_t len, mode_t *type)
{
	char *const paths[] = { (char *)root, NULL };
	FTSENT *e;
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	int err = 0;

	if (!fts)
		return -errno;
	while (!err && (e = fts_read(fts))) {
		switch (e->fts_info) {
		case FTS_D: case FTS_DP: case FTS_F: case FTS_SL: case FTS_SLNONE:
			break;
		case FTS_DNR: case FTS_ERR: case FTS_NS:
			break;	/* unreadable: the read that meets it says so */
		default:	/* FTS_DEFAULT: a FIFO, socket or device */
			snprintf(bad, len, "%s", e->fts_path);
			*type = e->fts_statp->st_mode & S_IFMT;
			err = -ENOTREG;
		}
	}
	fts_close(fts);
	return err;
}
