// SPDX-License-Identifier: GPL-2.0-or-later
/* Entering a network namespace as 'ip -n' and 'ip netns exec' do. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/netns.h"
#include "kernel/safe.h"

#define NETNS_RUN_DIR "/run/netns"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int netns_path(const char *spec, char *path, size_t len)
{
	int n;

	if (!*spec || strchr(spec, '/') || !strcmp(spec, ".") || !strcmp(spec, ".."))
		return -EINVAL;
	if (all_digits(spec))
		n = snprintf(path, len, "/proc/%s/ns/net", spec);
	else
		n = snprintf(path, len, NETNS_RUN_DIR "/%s", spec);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int netns_open(const char *spec, char *path, size_t len)
{
	int err = netns_path(spec, path, len), fd;

	if (err)
		return err;
	/* O_NONBLOCK: whatever else sits at PATH, the open never waits on it. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int netns_enter(const char *spec, enum netns_step *step, char *path, size_t len)
{
	int fd, err;

	fd = netns_open(spec, path, len);
	if (fd < 0) {
		/* netns_path's refusals: SPEC names no namespace. */
		*step = fd == -EINVAL || fd == -ENAMETOOLONG ? NETNS_NAME : NETNS_OPEN;
		return fd;
	}
	*step = NETNS_SETNS;
	err = setns(fd, CLONE_NEWNET) ? -errno : 0;
	close(fd);
	if (err)
		return err;
	/*
	 * sysfs shows the network devices of the namespace that mounted it: a
	 * fresh mount of it in a mount namespace of this process's own, the
	 * rest of the tree kept (and kept from propagating back).
	 */
	*step = NETNS_SYSFS;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL))
		return -errno;
	if (umount2("/sys", MNT_DETACH) && errno != EINVAL)
		return -errno;
	if (mount(spec, "/sys", "sysfs", 0, NULL))
		return -errno;
	return 0;
}

int netns_shared_with(int pid)
{
	char path[64];
	struct stat ours, its;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	if (stat("/proc/self/ns/net", &ours) || stat(path, &its))
		return -errno;
	return ours.st_dev == its.st_dev && ours.st_ino == its.st_ino;
}

int netns_run_in(int pid, int (*fn)(void *arg), void *arg)
{
	char spec[16], path[64];
	int self, its, ret;

	snprintf(spec, sizeof(spec), "%d", pid);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -errno;
	its = netns_open(spec, path, sizeof(path));
	if (its < 0) {
		close(self);
		return its;
	}
	ret = setns(its, CLONE_NEWNET) ? -errno : 0;
	close(its);
	if (!ret) {
		ret = fn(arg);
		if (setns(self, CLONE_NEWNET) < 0)
			ret = -errno;
	}
	close(self);
	return ret;
}

int netns_initial(const char *root)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/proc/sys/net/core", root);
	if (access(path, F_OK) < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/proc/sys/net/core/netdev_max_backlog", root);
	if (access(path, F_OK) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/* 1 when the table ROOT/proc/net/FILE has a socket on local PORT. */
static int udp_table_has(const char *root, int pid, const char *file, unsigned int port)
{
	char path[4096], line[512];
	unsigned int p;
	int found = 0;
	FILE *f;

	if (pid > 0)
		snprintf(path, sizeof(path), "%s/proc/%d/net/%s", root, pid, file);
	else
		snprintf(path, sizeof(path), "%s/proc/net/%s", root, file);
	f = safe_fopen(path);
	if (!f)
		return -errno;
	/* "  361: 00000000:12B7 00000000:0000 07 ...", after a header line */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, " %*u: %*[0-9A-Fa-f]:%x", &p) == 1 && p == port;
	fclose(f);
	return found;
}

int netns_udp_bound(const char *root, unsigned int port)
{
	return netns_udp_bound_pid(root, 0, port);
}

int netns_udp_bound_pid(const char *root, int pid, unsigned int port)
{
	int v4 = udp_table_has(root, pid, "udp", port), v6;

	if (v4 == 1)
		return 1;
	v6 = udp_table_has(root, pid, "udp6", port);
	/* No udp6 table: IPv6 is off; the IPv4 one answers. */
	return v6 == 1 ? 1 : v4 < 0 ? v4 : 0;
}

/* NAME's file under /run/netns: netns_path's, refused when it names a PID. */
static int run_path(const char *name, char *path, size_t len)
{
	return all_digits(name) ? -EINVAL : netns_path(name, path, len);
}

/* /run/netns as 'ip netns' keeps it: a mount point of its own, shared, so
 * that the namespaces bound there are seen from every mount namespace. */
static int run_dir(void)
{
	if (mkdir(NETNS_RUN_DIR, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	if (mount(NETNS_RUN_DIR, NETNS_RUN_DIR, "none", MS_BIND | MS_REC, NULL) < 0 ||
	    mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL) < 0)
		return -errno;
	return 0;
}

int netns_add(const char *name)
{
	char path[PATH_MAX];
	int fd, self, err = run_path(name, path, sizeof(path));

	if (!err)
		err = run_dir();
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		err = -errno;
		unlink(path);
		return err;
	}
	/* A new namespace for this process, bound to the name, then back. */
	if (unshare(CLONE_NEWNET) < 0)
		err = -errno;
	else if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL) < 0)
		err = -errno;
	if (setns(self, CLONE_NEWNET) < 0 && !err)
		err = -errno;
	close(self);
	if (err) {
		umount2(path, MNT_DETACH);
		unlink(path);
	}
	return err;
}

int netns_del(const char *name)
{
	char path[PATH_MAX];
	int err = run_path(name, path, sizeof(path));

	if (err)
		return err;
	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL)
		return -errno;
	return unlink(path) < 0 ? -errno : 0;
}
