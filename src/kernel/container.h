/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether this process runs in a container, and whose: for fixes in its words. */
#ifndef RDMACTL_CONTAINER_H
#define RDMACTL_CONTAINER_H

#include <stdbool.h>

enum container_kind {
	CONTAINER_NONE,
	CONTAINER_DOCKER,
	CONTAINER_PODMAN,
	CONTAINER_KUBERNETES,
	CONTAINER_OTHER,	/* systemd-nspawn, LXC, ...: PID 1's container= says */
};

/*
 * What the runtimes leave for their containers to see: /.dockerenv (Docker),
 * /run/.containerenv (Podman), the service account or KUBERNETES_SERVICE_HOST
 * (Kubernetes, whichever runtime runs the pod), PID 1's container= (the rest),
 * in a PID namespace without the kernel's threads (kthreadd, PID 2): a
 * container sharing the host's PIDs is taken for the host.
 */
enum container_kind container_detect(const char *root);
/*
 * The container process PID runs in, by the cgroup its runtime put it in
 * (ROOT/proc/PID/cgroup): docker-ID.scope or /docker/ID, libpod-ID.scope
 * (under a user's slice: *ROOTLESS), kubepods; else, where its root is not
 * ours, by the runtime's marker there (run/.containerenv, .dockerenv);
 * CONTAINER_NONE for none or none known.
 */
enum container_kind container_of_pid(const char *root, int pid, bool *rootless);
/* The same of a cgroup file's TEXT: the seam the tests feed. */
enum container_kind container_parse_cgroup(const char *text, bool *rootless);
/* "Docker", "Podman", "Kubernetes", "a container"; NULL for none. */
const char *container_name(enum container_kind k);

/*
 * Whether this process holds CAP_IPC_LOCK where memory registration asks for
 * it: in its effective set, and not in a user namespace of its own (the
 * kernel asks of the initial one; a rootless container's root has it only in
 * its own).
 */
bool container_can_lock_memory(const char *root);
/* CAP_IPC_LOCK in this process's effective set, in whichever user namespace. */
bool container_has_cap_ipc_lock(const char *root);
/* This process's user namespace is not the initial one (a rootless container's, unshare -U's). */
bool container_userns_own(const char *root);
/*
 * This process runs in a user's own container (rootless podman, rootless
 * Docker): its user namespace maps that user's one uid to root.
 */
bool container_rootless(const char *root);

#endif
