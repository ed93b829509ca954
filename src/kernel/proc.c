// SPDX-License-Identifier: GPL-2.0-or-later
/* Another process's command, capabilities, memlock limit, environment and libraries. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/nsfs.h>

#include "kernel/proc.h"
#include "kernel/safe.h"
#include "kernel/sysfs.h"

#define PROC_FILE_MAX (4 << 20)	/* the most of one file read: maps of a large program */

/* ROOT/proc/PID/NAME whole into a new buffer (*LEN bytes, NUL-terminated): 0 or an errno. */
static int slurp(const char *root, int pid, const char *name, char **buf, size_t *len)
{
	char path[4096];
	struct safe_path sp;
	size_t max = 64 << 10;
	int err;

	snprintf(path, sizeof(path), "%s/proc/%d/%s", root, pid, name);
	for (;;) {
		*buf = malloc(max + 2);
		if (!*buf)
			return -ENOMEM;
		err = safe_read(path, *buf, max, len, &sp);
		if (err || *len <= max || max >= PROC_FILE_MAX)
			break;
		free(*buf);
		max *= 4;
	}
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	if (*len > max)
		*len = max;
	(*buf)[*len] = '\0';
	return 0;
}

bool proc_parse_cap(const char *status, unsigned int cap, bool *has)
{
	const char *l = strstr(status, "\nCapEff:");
	unsigned long long mask;

	if (!l || sscanf(l + 8, " %llx", &mask) != 1 || cap > 63)
		return false;
	*has = (mask >> cap) & 1;
	return true;
}

/* One value of /proc/PID/limits: a number or "unlimited". */
static bool limit_value(const char *text, uint64_t *v)
{
	char *end;

	if (!strncmp(text, "unlimited", 9)) {
		*v = PROC_UNLIMITED;
		return true;
	}
	*v = strtoull(text, &end, 10);
	return end != text;
}

bool proc_parse_memlock(const char *limits, uint64_t *soft, uint64_t *hard)
{
	const char *l = strstr(limits, "Max locked memory");
	char a[32], b[32];

	if (!l || sscanf(l + 17, " %31s %31s", a, b) != 2)
		return false;
	return limit_value(a, soft) && limit_value(b, hard);
}

int proc_parse_verbs(const char *maps, bool *rxe)
{
	const char *l = strstr(maps, "/libibverbs.so.1.");
	int major, version = 0;

	*rxe = strstr(maps, "/librxe-rdmav") != NULL;
	/* libibverbs.so.1.14.44.0: rdma-core 44 */
	if (l && sscanf(l + 17, "%d.%d", &major, &version) != 2)
		version = 0;
	return version;
}

int proc_parse_netdevs(const char *net_dev, int (*each)(void *arg, const char *name), void *arg)
{
	const char *line = net_dev;

	/* Two lines of heading ("Inter-|   Receive ..."), then "  NAME: counters" a netdev. */
	if (strncmp(line, "Inter-|", 7))
		return -EINVAL;
	for (int skip = 0; skip < 2 && line; skip++) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t lead = strspn(line, " "), n = strcspn(line + lead, ":\n");
		char name[IF_NAMESIZE];
		int ret;

		/* A netdev's name has no ':', white space or '/', and fits IFNAMSIZ. */
		if (line[lead + n] != ':' || !n || n >= sizeof(name))
			return -EINVAL;
		memcpy(name, line + lead, n);
		name[n] = '\0';
		ret = each(arg, name);
		if (ret)
			return ret;
	}
	return 0;
}

bool proc_parse_nccl(const char *maps, char *buf, size_t len)
{
	unsigned int major, minor, patch;
	int n = 0;

	*buf = '\0';
	for (const char *l = strstr(maps, "/libnccl.so."); l; l = strstr(l + 1, "/libnccl.so."))
		if (sscanf(l + 12, "%u.%u.%u%n", &major, &minor, &patch, &n) == 3 &&
		    (l[12 + n] == '\n' || l[12 + n] == '\0')) {
			snprintf(buf, len, "%u.%u.%u", major, minor, patch);
			return true;
		}
	return false;
}

bool proc_parse_stat(const char *stat, bool *kthread, bool *zombie)
{
	const char *r = strrchr(stat, ')');	/* comm may hold spaces and parentheses */
	unsigned long flags;
	char state;

	/* state ppid pgrp session tty_nr tpgid flags */
	if (!r || sscanf(r + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
		return false;
	*kthread = flags & 0x00200000;	/* PF_KTHREAD */
	*zombie = state == 'Z' || state == 'X';
	return true;
}

bool proc_parse_userns(const char *link, bool *init)
{
	unsigned long long ino;
	char end;

	if (sscanf(link, "user:[%llu%c", &ino, &end) != 2 || end != ']')
		return false;
	*init = ino == PROC_USER_INIT_INO;
	return true;
}

/*
 * Whether PID's user namespace was made by a user other than root: the
 * kernel's own answer (NS_GET_OWNER_UID on ns/user), as a rootless podman's
 * or Docker's is and a root runtime's --userns remapping is not.
 */
static bool userns_users(const char *root, int pid)
{
	char path[4096];
	uid_t owner;
	int fd, ok;

	snprintf(path, sizeof(path), "%s/proc/%d/ns/user", root, pid);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = ioctl(fd, NS_GET_OWNER_UID, &owner) == 0;
	close(fd);
	return ok && owner != 0;
}

int proc_read(const char *root, int pid, struct proc_info *p)
{
	char path[4096], link[64];
	ssize_t n;
	char *buf;
	size_t len;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	if (sysfs_read(root, p->comm, sizeof(p->comm), "/proc/%d/comm", pid) < 0) {
		if (!sysfs_exists(root, "/proc/%d", pid))
			return -ENOENT;
		p->comm[0] = '\0';
	}
	if (slurp(root, pid, "stat", &buf, &len) == 0) {
		p->stat_known = proc_parse_stat(buf, &p->kthread, &p->zombie);
		free(buf);
	}
	snprintf(path, sizeof(path), "%s/proc/%d/ns/user", root, pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		p->userns_known = proc_parse_userns(link, &p->userns_init);
	}
	p->engine = container_of_pid(root, pid, &p->engine_rootless);
	if (p->engine != CONTAINER_NONE && p->userns_known && !p->userns_init &&
	    userns_users(root, pid))
		p->engine_rootless = true;
	if (slurp(root, pid, "status", &buf, &len) == 0) {
		p->caps_known = proc_parse_cap(buf, 14 /* CAP_IPC_LOCK */, &p->cap_ipc_lock);
		free(buf);
	}
	if (slurp(root, pid, "limits", &buf, &len) == 0) {
		p->memlock_known = proc_parse_memlock(buf, &p->memlock_soft, &p->memlock_hard);
		free(buf);
	}
	p->env_err = slurp(root, pid, "environ", &p->env, &p->env_len);
	p->env_known = !p->env_err;
	p->maps_err = slurp(root, pid, "maps", &buf, &len);
	if (!p->maps_err) {
		p->maps_known = true;
		p->libibverbs = proc_parse_verbs(buf, &p->rxe_provider);
		proc_parse_nccl(buf, p->nccl, sizeof(p->nccl));
		free(buf);
	}
	return 0;
}

void proc_free(struct proc_info *p)
{
	free(p->env);
	p->env = NULL;
}

const char *proc_env(const struct proc_info *p, const char *name)
{
	size_t n = strlen(name);

	if (!p->env)
		return NULL;
	for (size_t i = 0; i < p->env_len; i += strlen(p->env + i) + 1)
		if (!strncmp(p->env + i, name, n) && p->env[i + n] == '=')
			return p->env + i + n + 1;
	return NULL;
}
