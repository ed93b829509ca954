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

#include "kernel/holders.h"
#include "kernel/sysfs.h"

#define VERBS "/sys/class/infiniband_verbs"

/* Each device's node, "/dev/infiniband/uverbsN", from one pass over infiniband_verbs. */
static void uverbs_nodes(const char *root, struct dev_use *u, size_t n)
{
	char path[PATH_MAX], ibdev[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s" VERBS, root);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "uverbs", 6) ||
		    sysfs_read(root, ibdev, sizeof(ibdev), VERBS "/%s/ibdev", e->d_name) <= 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(ibdev, u[i].dev))
				snprintf(u[i].node, sizeof(u[i].node), "/dev/infiniband/%s",
					 e->d_name);
	}
	closedir(d);
}

/* Marks in HIT which of U's nodes the process directory PIDFD has open. */
static void holds(int pidfd, const struct dev_use *u, size_t n, bool *hit)
{
	int fdd = openat(pidfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fdd < 0)
		return;
	d = fdopendir(fdd);
	if (!d) {
		close(fdd);
		return;
	}
	while ((e = readdir(d))) {
		char target[PATH_MAX];
		ssize_t len = readlinkat(fdd, e->d_name, target, sizeof(target) - 1);

		if (len <= 0)
			continue;
		target[len] = '\0';
		for (size_t i = 0; i < n; i++)
			hit[i] = hit[i] || (*u[i].node && !strcmp(target, u[i].node));
	}
	closedir(d);
}

/* Adds process PID (COMM) to U's list. */
static void add_holder(struct dev_use *u, const char *comm, long pid)
{
	size_t used = strlen(u->who);

	snprintf(u->who + used, sizeof(u->who) - used, "%s%s (pid %ld)", u->count ? ", " : "",
		 comm, pid);
	u->count++;
}

void holders_scan(const char *root, struct dev_use *u, size_t n)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool any = false, *hit;
	DIR *d;

	for (size_t i = 0; i < n; i++) {
		u[i].node[0] = u[i].who[0] = '\0';
		u[i].count = 0;
	}
	uverbs_nodes(root, u, n);
	for (size_t i = 0; i < n; i++)
		any = any || *u[i].node;
	hit = calloc(n ? n : 1, sizeof(*hit));
	snprintf(path, sizeof(path), "%s/proc", root);
	d = any && hit ? opendir(path) : NULL;
	while (d && (e = readdir(d))) {
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
		memset(hit, 0, n * sizeof(*hit));
		holds(pfd, u, n, hit);
		close(pfd);
		for (size_t i = 0; i < n; i++) {
			char comm[32] = "?";

			if (!hit[i])
				continue;
			sysfs_read(root, comm, sizeof(comm), "/proc/%ld/comm", pid);
			add_holder(&u[i], comm, pid);
		}
	}
	if (d)
		closedir(d);
	free(hit);
}
