// SPDX-License-Identifier: GPL-2.0-or-later
/* Which processes hold an RDMA device open: the kernel waits for them on delete. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holders.h"
#include "sysfs.h"

#define VERBS "/sys/class/infiniband_verbs"

/* "/dev/infiniband/uverbsN" for DEV into NODE; false when it has none. */
static bool uverbs_node(const char *root, const char *dev, char *node, size_t len)
{
	char path[PATH_MAX], ibdev[64];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s" VERBS, root);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "uverbs", 6) ||
		    sysfs_read(root, ibdev, sizeof(ibdev), VERBS "/%s/ibdev", e->d_name) <= 0 ||
		    strcmp(ibdev, dev))
			continue;
		snprintf(node, len, "/dev/infiniband/%s", e->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/* Whether process directory PID (an fd below ROOT/proc) has NODE open. */
static bool holds(int pidfd, const char *node)
{
	int fdd = openat(pidfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (fdd < 0)
		return false;
	d = fdopendir(fdd);
	if (!d) {
		close(fdd);
		return false;
	}
	while (!found && (e = readdir(d))) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(fdd, e->d_name, target, sizeof(target) - 1);

		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, node);
	}
	closedir(d);
	return found;
}

int dev_holders(const char *root, const char *dev, char *buf, size_t len)
{
	char node[300], path[PATH_MAX];
	struct dirent *e;
	int count = 0;
	size_t used = 0;
	DIR *d;

	if (len)
		buf[0] = '\0';
	if (!uverbs_node(root, dev, node, sizeof(node)))
		return 0;
	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid;
		int pfd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = strtol(e->d_name, NULL, 10);
		if (pid == (long)getpid())
			continue;
		pfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0)
			continue;
		if (holds(pfd, node)) {
			char comm[32] = "?";

			sysfs_read(root, comm, sizeof(comm), "/proc/%ld/comm", pid);
			if (used < len) {
				int n = snprintf(buf + used, len - used, "%s%s (pid %ld)",
						 count ? ", " : "", comm, pid);

				used += n > 0 ? (size_t)n : 0;
			}
			count++;
		}
		close(pfd);
	}
	closedir(d);
	return count;
}
