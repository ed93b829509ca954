// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether this process runs in a container, and whose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/container.h"
#include "kernel/sysfs.h"

#define CAP_IPC_LOCK_BIT 14

/* PID 1's environment has container=VALUE (systemd's interface for runtimes). */
static bool init_says_container(const char *root, char *value, size_t len)
{
	char env[8192];
	int n = sysfs_read(root, env, sizeof(env), "/proc/1/environ");

	for (int i = 0; i < n; i += (int)strlen(env + i) + 1)
		if (!strncmp(env + i, "container=", 10)) {
			snprintf(value, len, "%s", env + i + 10);
			return true;
		}
	return false;
}

enum container_kind container_detect(const char *root)
{
	char what[64] = "", comm[32];

	/*
	 * A container has a PID namespace of its own, without the kernel's
	 * threads: where kthreadd is PID 2, the files below are the host's
	 * (a VM booted on a container's root has /.dockerenv too).
	 */
	if (sysfs_read(root, comm, sizeof(comm), "/proc/2/comm") > 0 && !strcmp(comm, "kthreadd"))
		return CONTAINER_NONE;
	if (sysfs_exists(root, "/run/secrets/kubernetes.io/serviceaccount") ||
	    (!*root && getenv("KUBERNETES_SERVICE_HOST")))
		return CONTAINER_KUBERNETES;
	if (sysfs_exists(root, "/run/.containerenv"))
		return CONTAINER_PODMAN;
	if (sysfs_exists(root, "/.dockerenv"))
		return CONTAINER_DOCKER;
	if (init_says_container(root, what, sizeof(what)))
		return !strcmp(what, "podman") ? CONTAINER_PODMAN :
		       !strcmp(what, "docker") ? CONTAINER_DOCKER : CONTAINER_OTHER;
	return CONTAINER_NONE;
}

const char *container_name(enum container_kind k)
{
	static const char *const names[] = { NULL, "Docker", "Podman", "Kubernetes", "a container" };

	return names[k];
}

bool container_has_cap_ipc_lock(const char *root)
{
	char status[8192];
	const char *cap;
	unsigned long long eff;

	if (sysfs_read(root, status, sizeof(status), "/proc/self/status") <= 0)
		return false;
	cap = strstr(status, "\nCapEff:");
	return cap && sscanf(cap, "\nCapEff: %llx", &eff) == 1 && (eff >> CAP_IPC_LOCK_BIT & 1);
}

/* The first line of this process's uid_map: ids from INSIDE, at OUTSIDE, COUNT of them. */
static bool uid_map_head(const char *root, unsigned long long *inside,
			 unsigned long long *outside, unsigned long long *count)
{
	char map[256];

	return sysfs_read(root, map, sizeof(map), "/proc/self/uid_map") > 0 &&
	       sscanf(map, "%llu %llu %llu", inside, outside, count) == 3;
}

bool container_userns_own(const char *root)
{
	unsigned long long inside, outside, count;

	/* The initial user namespace maps every id to itself: "0 0 4294967295". */
	return uid_map_head(root, &inside, &outside, &count) &&
	       !(inside == 0 && outside == 0 && count == 4294967295ULL);
}

bool container_rootless(const char *root)
{
	unsigned long long inside, outside, count;

	/*
	 * rootlesskit and a rootless podman map the user's own uid alone to
	 * root ("0 1000 1", subordinate ids after it); a root daemon's remapping
	 * maps root into a subordinate range ("0 100000 65536").
	 */
	return uid_map_head(root, &inside, &outside, &count) && inside == 0 && outside != 0 &&
	       count == 1;
}

bool container_can_lock_memory(const char *root)
{
	return container_has_cap_ipc_lock(root) && !container_userns_own(root);
}

enum container_kind container_parse_cgroup(const char *text, bool *rootless)
{
	*rootless = false;
	if (strstr(text, "kubepods"))
		return CONTAINER_KUBERNETES;
	if (strstr(text, "/docker-") || strstr(text, "/docker/"))
		return CONTAINER_DOCKER;
	if (strstr(text, "/libpod-") || strstr(text, "/libpod_parent")) {
		/* A user's own podman: its containers are under its user@UID.service. */
		*rootless = strstr(text, "/user@") != NULL;
		return CONTAINER_PODMAN;
	}
	return CONTAINER_NONE;
}

/* PID sees a root other than ours: its runtime's marker files there are its container's. */
static bool own_root(const char *root, int pid)
{
	char path[4096];
	struct stat ours, its;

	snprintf(path, sizeof(path), "%s/", root);
	if (stat(path, &ours))
		return false;
	snprintf(path, sizeof(path), "%s/proc/%d/root/", root, pid);
	return !stat(path, &its) && (its.st_dev != ours.st_dev || its.st_ino != ours.st_ino);
}

enum container_kind container_of_pid(const char *root, int pid, bool *rootless)
{
	char text[4096];
	enum container_kind k = CONTAINER_NONE;

	*rootless = false;
	if (sysfs_read(root, text, sizeof(text), "/proc/%d/cgroup", pid) >= 0)
		k = container_parse_cgroup(text, rootless);
	/*
	 * A runtime with no cgroup of its own (a rootless podman on cgroupfs,
	 * --cgroups=disabled) still leaves its marker in the container's root.
	 */
	if (k == CONTAINER_NONE && own_root(root, pid)) {
		if (sysfs_exists(root, "/proc/%d/root/run/.containerenv", pid))
			k = CONTAINER_PODMAN;
		else if (sysfs_exists(root, "/proc/%d/root/.dockerenv", pid))
			k = CONTAINER_DOCKER;
	}
	return k;
}
