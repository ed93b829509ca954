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
static int udp_table_has(const char *root, const char *file, unsigned int port)
{
	char path[4096], line[512];
	unsigned int p;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/net/%s", root, file);
	f = fopen(path, "re");
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
	int v4 = udp_table_has(root, "udp", port), v6;

	if (v4 == 1)
		return 1;
	v6 = udp_table_has(root, "udp6", port);
	/* No udp6 table: IPv6 is off; the IPv4 one answers. */
	return v6 == 1 ? 1 : v4 < 0 ? v4 : 0;
}
