// SPDX-License-Identifier: GPL-2.0-or-later
/* rxe-vm stage 1: modules loaded a dependency level at a time, from threads. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "init.h"

#define MAXMODS 64

struct module {
	char name[64];
	int err;
	pthread_t thread;
};

static void *load(void *arg)
{
	struct module *m = arg;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/modules/%s.ko", m->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		m->err = errno;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * FILE has a line for each level of the modules' dependency graph: a line's
 * modules need only those of earlier lines, so they load side by side (fuse
 * and overlay while the virtio core does).
 */
void load_modules(const char *file)
{
	struct module mods[MAXMODS];
	char line[4096];
	FILE *f = fopen(file, "re");

	if (!f)
		fail("cannot read %s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t n = 0;

		for (char *save, *w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
			if (n == MAXMODS)
				fail("more than %d modules on a line of %s", MAXMODS, file);
			snprintf(mods[n].name, sizeof(mods[n].name), "%s", w);
			mods[n].err = 0;
			if (pthread_create(&mods[n].thread, NULL, load, &mods[n]))
				fail("cannot start a thread to load %s", w);
			n++;
		}
		for (size_t i = 0; i < n; i++)
			pthread_join(mods[i].thread, NULL);
		for (size_t i = 0; i < n; i++)
			if (mods[i].err && mods[i].err != EEXIST)
				fail("insmod %s failed: %s", mods[i].name, strerror(mods[i].err));
	}
	fclose(f);
}
