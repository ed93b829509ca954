// SPDX-License-Identifier: GPL-2.0-or-later
/* The files rdmactl reads and writes: regular files only, replaced atomically (safe.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "kernel/safe.h"

const char *safe_type_name(mode_t type)
{
	switch (type & S_IFMT) {
	case S_IFDIR:
		return "a directory";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symlink";
	case S_IFREG:
		return "a regular file";
	case 0:
		return "nothing";
	default:
		return "not a regular file";
	}
}

/*
 * What PATH names, looked at without opening it: 0 for a regular file (or a
 * symlink to one), -ENOENT for nothing (P->target the path a new file gets),
 * -ENOTREG for anything else, or lstat's errno.
 */
static int resolve_stat(const char *path, struct safe_path *p, struct stat *st)
{
	memset(p, 0, sizeof(*p));
	if (!*path)
		return -ENOENT;
	if (snprintf(p->target, sizeof(p->target), "%s", path) >= (int)sizeof(p->target))
		return -ENAMETOOLONG;
	if (lstat(path, st) < 0)
		return -errno;
	if (S_ISLNK(st->st_mode)) {
		char *real = realpath(path, NULL);

		p->symlink = true;
		if (!real)
			return errno == ENOENT ? -ENOTREG : -errno;	/* it leads nowhere */
		snprintf(p->target, sizeof(p->target), "%s", real);
		free(real);
		if (lstat(p->target, st) < 0)
			return -errno;
	}
	p->type = st->st_mode & S_IFMT;
	return S_ISREG(st->st_mode) ? 0 : -ENOTREG;
}

int safe_resolve(const char *path, struct safe_path *p)
{
	struct stat st;

	return resolve_stat(path, p, &st);
}

int safe_create(const char *path, mode_t mode, struct safe_path *p)
{
	struct stat st;
	int err = resolve_stat(path, p, &st), fd;

	if (err && err != -ENOENT)
		return err;
	err = 0;
	/* O_NOFOLLOW, O_NONBLOCK: what was looked at changed meanwhile is refused, never waited on. */
	fd = open(p->target, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		  mode);
	if (fd < 0)
		return errno == ELOOP ? -ENOTREG : -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		p->type = st.st_mode & S_IFMT;
		err = -ENOTREG;
	} else if (ftruncate(fd, 0) < 0) {
		err = -errno;
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int safe_append(const char *path, const char *text, size_t len, struct safe_path *p)
{
	struct stat st;
	int err = resolve_stat(path, p, &st), fd;
	ssize_t n;

	if (err && err != -ENOENT)
		return err;
	fd = open(p->target, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		  O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == ELOOP ? -ENOTREG : -errno;
	err = 0;
	if (fstat(fd, &st) < 0) {
		err = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		p->type = st.st_mode & S_IFMT;
		err = -ENOTREG;
	} else {
		/* One write, O_APPEND: another writer's lines go before or after, never into it. */
		n = write(fd, text, len);
		err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	}
	close(fd);
	return err;
}

int safe_open_at(int dirfd, const char *path, mode_t *type)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer;
	 * on the regular file it lets through, it changes nothing. */
	fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		if (type)
			*type = st.st_mode & S_IFMT;
		close(fd);
		return -ENOTREG;
	}
	return fd;
}

FILE *safe_fopen(const char *path)
{
	int fd = safe_open_at(AT_FDCWD, path, NULL);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (fd < 0)
		errno = -fd;
	else if (!f)
		close(fd);
	return f;
}

int safe_read(const char *path, char *buf, size_t max, size_t *len, struct safe_path *p)
{
	struct stat st;
	ssize_t n;
	int fd, err = resolve_stat(path, p, &st);

	*len = 0;
	if (err)
		return err;
	/* Never blocks, should a FIFO have taken the file's place meanwhile. */
	fd = safe_open_at(AT_FDCWD, p->target, &p->type);
	if (fd < 0)
		return fd;
	while (*len <= max && (n = read(fd, buf + *len, max + 1 - *len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		*len += (size_t)n;
	}
	close(fd);
	return err;
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A file in DIR with no name yet (O_TMPFILE): a process killed before it is
 * linked leaves nothing behind. -EOPNOTSUPP (and the like) where the file
 * system has none: the caller falls back to a named temporary file.
 */
static int open_unnamed(const char *dir, mode_t mode)
{
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode & 07777);

	return fd < 0 ? -errno : fd;
}

/*
 * The unnamed file FD as a temporary name TMP (LEN bytes) beside TARGET,
 * through /proc (linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH): the
 * name then lives only between this link and the rename that follows it.
 */
static int link_unnamed(int fd, const char *target, char *tmp, size_t len)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	for (unsigned int i = 0; i < 100; i++) {
		if (snprintf(tmp, len, "%s.tmp.%d.%u", target, (int)getpid(), i) >= (int)len)
			return -ENAMETOOLONG;
		if (!linkat(AT_FDCWD, self, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int safe_begin(const char *path, mode_t mode, struct safe_file *f)
{
	char buf[PATH_MAX];
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	err = resolve_stat(path, &f->path, &f->st);
	if (err && err != -ENOENT)
		return err;
	f->exists = !err;
	f->mode = mode;
	/* dirname() may write into its argument and return it: never the buffer it fills. */
	snprintf(buf, sizeof(buf), "%s", f->path.target);
	snprintf(f->dir, sizeof(f->dir), "%s", dirname(buf));
	/* The temporary file beside the file it replaces: the rename stays on one file system. */
	f->fd = open_unnamed(f->dir, f->exists ? f->st.st_mode : mode);
	if (f->fd < 0) {
		if (snprintf(f->tmp, sizeof(f->tmp), "%s.tmp.XXXXXX", f->path.target) >=
		    (int)sizeof(f->tmp))
			return -ENAMETOOLONG;
		f->fd = mkostemp(f->tmp, O_CLOEXEC);
		if (f->fd < 0)
			return -errno;
		f->named = true;
	}
	return 0;
}

int safe_commit(struct safe_file *f)
{
	int err = 0, dfd;

	if (f->exists && fchown(f->fd, f->st.st_uid, f->st.st_gid) < 0 && errno != EPERM)
		err = -errno;
	if (!err && fchmod(f->fd, f->exists ? f->st.st_mode & 07777 : f->mode) < 0)
		err = -errno;
	/* On disk before the rename makes it the file: a crash leaves old or new. */
	if (!err && fsync(f->fd) < 0)
		err = -errno;
	if (!err && !f->named) {
		err = link_unnamed(f->fd, f->path.target, f->tmp, sizeof(f->tmp));
		f->named = !err;
	}
	if (close(f->fd) < 0 && !err)
		err = -errno;
	f->fd = -1;
	if (!err && rename(f->tmp, f->path.target) < 0)
		err = -errno;
	if (err) {
		safe_abort(f);
		return err;
	}
	dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

void safe_abort(struct safe_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->named)
		unlink(f->tmp);
	f->named = false;
}

int safe_write(const char *path, const char *text, size_t len, mode_t mode,
	       struct safe_path *p)
{
	struct safe_file f;
	int err = safe_begin(path, mode, &f);

	*p = f.path;
	if (err)
		return err;
	err = write_all(f.fd, text, len);
	if (err) {
		safe_abort(&f);
		return err;
	}
	return safe_commit(&f);
}

static void on_alarm(int sig)
{
	(void)sig;	/* only to end flock's wait with EINTR */
}

/*
 * An exclusive flock of FD, waited for up to WAIT_MS in the kernel's queue
 * (a timer's signal ends the wait): polling had fifty editors each sleep
 * between tries, and take ten times as long.
 */
static int flock_wait(int fd, int wait_ms)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old_sa;
	struct itimerval t = { .it_value = { .tv_sec = wait_ms / 1000,
					     .tv_usec = (wait_ms % 1000) * 1000 } }, old_t;
	int err = 0;

	if (!flock(fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno != EWOULDBLOCK)
		return -errno;
	if (wait_ms <= 0)
		return -EWOULDBLOCK;
	sigemptyset(&sa.sa_mask);	/* no SA_RESTART: the signal ends the wait */
	sigaction(SIGALRM, &sa, &old_sa);
	setitimer(ITIMER_REAL, &t, &old_t);
	if (flock(fd, LOCK_EX) < 0)
		err = errno == EINTR ? -EWOULDBLOCK : -errno;
	setitimer(ITIMER_REAL, &old_t, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	return err;
}

int safe_lock(const char *path, int wait_ms, struct safe_path *p)
{
	char buf[PATH_MAX];
	struct stat st;
	int fd, err = resolve_stat(path, p, &st);

	if (err && err != -ENOENT)
		return err;
	snprintf(buf, sizeof(buf), "%s", p->target);
	fd = open(dirname(buf), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = flock_wait(fd, wait_ms);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

void safe_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* the lock goes with the descriptor */
}
