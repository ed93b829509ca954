/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What rdmactl reads of another process, from ROOT/proc/PID: its command,
 * whether it may lock memory, its locked-memory limit, its environment and
 * the libraries it has mapped. Each file is read as a regular file only.
 */
#ifndef RDMACTL_PROC_H
#define RDMACTL_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/container.h"

#define PROC_UNLIMITED UINT64_MAX

struct proc_info {
	int pid;
	char comm[32];
	/* From stat: a kernel thread (PF_KTHREAD), no program; a zombie (Z), one that ended. */
	bool stat_known, kthread, zombie;
	bool caps_known, cap_ipc_lock;	/* CapEff has CAP_IPC_LOCK */
	/*
	 * Its user namespace is the initial one (ns/user's inode): the one whose
	 * capabilities the kernel honours for pinning memory (capable()).
	 */
	bool userns_known, userns_init;
	/*
	 * The container runtime that started it, from its cgroup or its root's
	 * marker; rootless: a user's own (its cgroup under user@UID.service, or
	 * its user namespace made by that user).
	 */
	enum container_kind engine;
	bool engine_rootless;
	bool memlock_known;
	uint64_t memlock_soft, memlock_hard;	/* bytes; PROC_UNLIMITED */
	bool env_known;
	int env_err;		/* why not: a negative errno */
	char *env;		/* "NAME=VALUE\0NAME=VALUE\0..." */
	size_t env_len;
	bool maps_known;
	int maps_err;
	int libibverbs;		/* rdma-core's version of the libibverbs mapped; 0: none */
	char nccl[16];		/* the NCCL mapped, "2.18.3" by its file's name; "": none known */
	bool rxe_provider;	/* librxe-rdmav*.so mapped */
};

/* The initial user namespace's inode, the same on every kernel (PROC_USER_INIT_INO). */
#define PROC_USER_INIT_INO 0xEFFFFFFDU

/*
 * PID's facts into P (what cannot be read stays unknown: another user's
 * process without privileges). -ENOENT when there is no such process.
 */
int proc_read(const char *root, int pid, struct proc_info *p);
void proc_free(struct proc_info *p);

/* NAME's value in P's environment, or NULL. */
const char *proc_env(const struct proc_info *p, const char *name);

/* The parsers proc_read uses, each over one file's text. */
/* Whether STATUS's CapEff has capability CAP; false when it has no CapEff line. */
bool proc_parse_cap(const char *status, unsigned int cap, bool *has);
/* LIMITS' "Max locked memory" soft and hard values, in bytes. */
bool proc_parse_memlock(const char *limits, uint64_t *soft, uint64_t *hard);
/* From STAT (/proc/PID/stat): PF_KTHREAD in its flags, and state Z or X. */
bool proc_parse_stat(const char *stat, bool *kthread, bool *zombie);
/* From ns/user's link text ("user:[4026531837]"): whether it is the initial namespace. */
bool proc_parse_userns(const char *link, bool *init);
/* From MAPS: rdma-core's version of libibverbs.so.1.X.VERSION.0 (0: none), and the rxe provider. */
int proc_parse_verbs(const char *maps, bool *rxe);
/*
 * From MAPS: the version NCCL's library names itself by (libnccl.so.2.18.3)
 * into BUF; false when none is mapped or its name has none (a wheel's libnccl.so.2).
 */
bool proc_parse_nccl(const char *maps, char *buf, size_t len);
/*
 * From NET_DEV (/proc/PID/net/dev: the netdevs of the process's own network
 * namespace, read from anywhere): EACH(ARG, NAME) for each; its first
 * nonzero result, or 0. -EINVAL when the text is not that file's.
 */
int proc_parse_netdevs(const char *net_dev, int (*each)(void *arg, const char *name), void *arg);

#endif
