// SPDX-License-Identifier: GPL-2.0-or-later
/* Entering a network namespace as 'ip -n' and 'ip netns exec' do. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kernel/netns.h"

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

int netns_enter(const char *spec, enum netns_step *step, char *path, size_t len)
{
	int fd, err;

	*step = NETNS_NAME;
	err = netns_path(spec, path, len);
	if (err)
		return err;
	*step = NETNS_OPEN;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
