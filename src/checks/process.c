// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --pid PID: one process's RDMA health, read from /proc/PID and the
 * RDMA netlink: its libibverbs and provider, its memlock limit against
 * CAP_IPC_LOCK, the RDMA stacks' variables in its environment against the
 * links, its network namespace, and its QPs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/checks.h"
#include "checks/stacks.h"
#include "kernel/container.h"
#include "kernel/errname.h"
#include "kernel/netns.h"
#include "kernel/proc.h"
#include "kernel/roce.h"
#include "kernel/safe.h"
#include "kernel/sysfs.h"

/* "PID (comm)" of P. */
static const char *who(const struct proc_info *p)
{
	static char buf[64];

	return check_proc_who(p, buf, sizeof(buf));
}

/*
 * Why another process's file could not be read, for ERR: the kernel asks
 * for ptrace access to maps and environ, which root has only with
 * CAP_SYS_PTRACE (a container may lack it, a Yama ptrace_scope of 3 denies
 * it to all).
 */
static const char *unreadable(int err)
{
	static char buf[160];

	if (err == -ENOTREG)	/* a fixture's: /proc's own are files */
		snprintf(buf, sizeof(buf), "not a regular file, which is never read");
	else if (err != -EACCES && err != -EPERM)
		snprintf(buf, sizeof(buf), "%s: %s", errname(err), strerror(-err));
	else if (geteuid())
		snprintf(buf, sizeof(buf), "%s: another user's process needs root", errname(err));
	else
		snprintf(buf, sizeof(buf), "%s: root here may not read it: no CAP_SYS_PTRACE, or "
			 "kernel.yama.ptrace_scope forbids it", errname(err));
	return buf;
}

void check_process(struct check_ctx *c)
{
	const struct proc_info *p;

	if (!c->proc_done) {
		c->proc_err = proc_read(c->sys->root, c->o.pid, &c->proc);
		c->proc_done = true;
	}
	if (c->proc_err) {
		check_report(c, V_FAIL, "give a running process's PID: pgrep -a PROGRAM",
			     "there is no process %d (it ended, or it is in another "
			     "PID namespace)", c->o.pid);
		return;
	}
	p = &c->proc;
	if (p->kthread) {
		check_report(c, V_FAIL, "give a program's PID: pgrep -a PROGRAM",
			     "%s is a kernel thread, no program: it runs no RDMA stack to check",
			     who(p));
	} else if (p->zombie) {
		check_report(c, V_FAIL, "'rdmactl check --only qps' and the kernel log (dmesg) tell "
			     "what failed after a program ended",
			     "%s has ended: a zombie its parent has not yet reaped, whose memory, "
			     "environment and QPs are gone", who(p));
	} else if (!p->maps_known) {
		check_report(c, V_SKIP, NULL, "%s: its libraries cannot be read from /proc/%d/maps "
			     "(%s)", who(p), p->pid, unreadable(p->maps_err));
	} else if (!p->libibverbs) {
		check_report(c, V_PASS, NULL, "%s has no libibverbs mapped: not an RDMA program, or "
			     "not one yet", who(p));
	} else if (p->rxe_provider && p->libibverbs < 55) {
		check_report(c, V_WARN, "rdma-core 55 or later (Debian 13 has 56) for a program that "
			     "polls with ibv_start_poll/ibv_next_poll",
			     "%s runs rdma-core %d's rxe provider: its extended CQ polling "
			     "(ibv_start_poll, ibv_next_poll) can move past the last completion and "
			     "return entries never written (fixed in rdma-core 55)", who(p),
			     p->libibverbs);
	} else {
		check_report(c, V_PASS, NULL, "%s runs rdma-core %d's libibverbs%s", who(p),
			     p->libibverbs, p->rxe_provider ? " with the rxe provider" : "");
	}
}

/* The limit's fix in the words of what started P: its container engine's flag, else the shell's. */
static const char *memlock_fix(const struct proc_info *p)
{
	switch (p->engine) {
	case CONTAINER_DOCKER:
		return p->engine_rootless ? "docker run --ulimit memlock=-1:-1, within the hard "
				  "limit of the user running the rootless dockerd, which it cannot "
				  "raise: LimitMEMLOCK=infinity in that user's docker.service, or '* "
				  "- memlock unlimited' in /etc/security/limits.d/rdma.conf, then a "
				  "new login" :
				  "docker run --ulimit memlock=-1:-1 (or --default-ulimit "
				  "memlock=-1:-1 for dockerd)";
	case CONTAINER_PODMAN:
		return p->engine_rootless ? "podman run --ulimit memlock=-1:-1, within the user's own hard "
				  "limit, which a rootless podman cannot raise: '* - memlock "
				  "unlimited' in /etc/security/limits.d/rdma.conf, then a new login" :
				  "podman run --ulimit memlock=-1:-1";
	case CONTAINER_KUBERNETES:
		return "the container runtime's default memlock limit (containerd's LimitMEMLOCK="
		       "infinity in its unit), which a pod cannot set";
	default:
		return "raise the limit where the program starts: 'ulimit -l unlimited', "
		       "LimitMEMLOCK=infinity for a service, --ulimit memlock=-1:-1 for a "
		       "container, '* - memlock unlimited' in /etc/security/limits.d/rdma.conf "
		       "for logins";
	}
}

void check_process_memlock(struct check_ctx *c)
{
	const struct proc_info *p = check_ctx_proc(c);

	if (!p)
		return;
	if (!p->caps_known || !p->memlock_known) {
		check_report(c, V_SKIP, NULL, "%s: its limits cannot be read from /proc/%d/status "
			     "and limits", who(p), p->pid);
	} else if (p->cap_ipc_lock && p->userns_known && p->userns_init) {
		check_report(c, V_PASS, NULL, "%s has CAP_IPC_LOCK: its memlock limit does not bind "
			     "memory registration", who(p));
	} else {
		/*
		 * ib_umem_get lets a pin past RLIMIT_MEMLOCK through only with
		 * capable(CAP_IPC_LOCK): in the initial user namespace. Held in one
		 * of its own (a rootless container, unshare -U), the limit binds.
		 */
		char cap[256] = "it has no CAP_IPC_LOCK";

		if (p->cap_ipc_lock)
			snprintf(cap, sizeof(cap), "its CAP_IPC_LOCK, held in %s, does not lift it "
				 "(the kernel honours it for pinned memory in the initial user namespace "
				 "alone)", p->userns_known ? "a user namespace of its own (a rootless "
				 "container's, unshare -U's)" : "a user namespace that cannot be read");
		if (p->memlock_soft == PROC_UNLIMITED)
			check_report(c, V_PASS, NULL, "%s: RLIMIT_MEMLOCK is unlimited", who(p));
		else if (p->memlock_soft <= 64 * 1024)
			check_report(c, V_WARN, memlock_fix(p),
				     "%s: RLIMIT_MEMLOCK is %" PRIu64 " KiB and %s: ibv_reg_mr of more "
				     "than that fails with ENOMEM", who(p), p->memlock_soft / 1024, cap);
		else
			check_report(c, V_PASS, NULL, "%s: RLIMIT_MEMLOCK is %" PRIu64 " KiB and %s: "
				     "registrations past it fail with ENOMEM", who(p),
				     p->memlock_soft / 1024, cap);
	}
}

struct env_run {
	struct check_ctx *c;
	const struct proc_info *p;
	char *netdevs[256];
	size_t nnetdevs;
};

static const char *env_get(void *arg, const char *name)
{
	const struct env_run *e = arg;

	return proc_env(e->p, name);
}

static bool env_here(void *arg, const struct rdma_dev *d)
{
	struct env_run *e = arg;

	return check_dev_here(e->c, d);
}

static int env_netdev(void *arg, const char *name)
{
	struct env_run *e = arg;

	char *copy;

	if (e->nnetdevs == sizeof(e->netdevs) / sizeof(e->netdevs[0]))
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	e->netdevs[e->nnetdevs++] = copy;
	return 0;
}

static void env_say(void *arg, enum verdict v, const char *fix, const char *msg)
{
	struct env_run *e = arg;

	check_report(e->c, v, fix, "%s: %s", who(e->p), msg);
}

void check_process_env(struct check_ctx *c)
{
	static char netdev[32 << 10];
	const struct proc_info *p = check_ctx_proc(c);
	struct env_run e = { .c = c, .p = p };
	struct stacks_in in = { .here = env_here, .env = env_get, .arg = &e };

	if (!p)
		return;
	if (!p->env_known) {
		check_report(c, V_SKIP, NULL, "%s: its environment cannot be read from "
			     "/proc/%d/environ (%s)", who(p), p->pid, unreadable(p->env_err));
		return;
	}
	in.m = check_ctx_model(c);
	if (!in.m) {
		check_report(c, V_SKIP, NULL, "the RDMA devices cannot be read ('rdmactl check --only link' says why)");
		return;
	}
	/*
	 * The netdevs of the process's own network namespace, the names its
	 * stacks match interfaces by: /proc/PID/net/dev shows them from
	 * anywhere (a container's from the host); sysfs only the caller's.
	 */
	if (sysfs_read(c->sys->root, netdev, sizeof(netdev), "/proc/%d/net/dev", p->pid) < 0 ||
	    proc_parse_netdevs(netdev, env_netdev, &e)) {
		for (size_t i = 0; i < e.nnetdevs; i++)
			free(e.netdevs[i]);
		e.nnetdevs = 0;
		sysfs_list(c->sys->root, "/sys/class/net", env_netdev, &e);
	}
	in.netdevs = (const char *const *)e.netdevs;
	in.nnetdevs = e.nnetdevs;
	in.nccl = *p->nccl ? p->nccl : NULL;
	/* Each stack's variables, read by that stack's rules (checks/stacks.c). */
	if (!stacks_check(&in, env_say, &e))
		check_report(c, V_PASS, NULL, "%s: it sets none of the RDMA stacks' variables "
			     "(NCCL_*, UCX_*, FI_VERBS_*, OMPI_MCA_pml)", who(p));
	for (size_t i = 0; i < e.nnetdevs; i++)
		free(e.netdevs[i]);
}

void check_process_uverbs(struct check_ctx *c)
{
	const struct proc_info *p = check_ctx_proc(c);
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	char missing[256] = "", seen[256] = "", fix[256];
	const char *first = NULL;
	enum container_kind k;
	size_t n;

	if (!p)
		return;
	n = check_ctx_rxe_devs(c, devs, CHECK_MAX_DEVS);
	if (!n) {
		check_report(c, V_SKIP, NULL, "no rxe link here for %s to open ('rdmactl check "
			     "--only link' says why)", who(p));
		return;
	}
	/* Its root, as the kernel resolves it for the process: a container's own /dev. */
	if (!sysfs_exists(c->sys->root, "/proc/%d/root/dev", p->pid)) {
		check_report(c, V_SKIP, NULL, "%s: its root cannot be read from /proc/%d/root "
			     "(another user's process needs root)", who(p), p->pid);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *buf = sysfs_exists(c->sys->root, "/proc/%d/root/dev/infiniband/%s", p->pid,
					 devs[i]->uverbs) ? seen : missing;

		if (!*devs[i]->uverbs)
			continue;
		if (buf == missing && !first)
			first = devs[i]->uverbs;
		snprintf(buf + strlen(buf), sizeof(seen) - strlen(buf), "%s/dev/infiniband/%s "
			 "(%s's)", *buf ? ", " : "", devs[i]->uverbs, devs[i]->name);
	}
	if (!*missing) {
		check_report(c, V_PASS, NULL, "%s sees %s", who(p), *seen ? seen :
			     "no uverbs node of an rxe device: none has one yet");
		return;
	}
	k = p->engine;
	/* A volume of /dev/infiniband is no fix: the device cgroup still refuses its nodes. */
	snprintf(fix, sizeof(fix), "%s run --device /dev/infiniband/%s (every uverbs node, and "
		 "/dev/infiniband/rdma_cm for rdma_cm programs)",
		 k == CONTAINER_DOCKER ? "docker" : k == CONTAINER_PODMAN ? "podman" :
		 "docker or podman", first);
	check_report(c, V_FAIL, k == CONTAINER_KUBERNETES ? "an RDMA device plugin, or a "
		     "hostPath volume of /dev/infiniband with a privileged container" : fix,
		     "%s%s%s%s: its root has no %s: libibverbs there finds no device ('No RDMA "
		     "devices found', ibv_get_device_list empty)", who(p),
		     k != CONTAINER_NONE ? ", in a " : "", k != CONTAINER_NONE ? container_name(k) : "",
		     k != CONTAINER_NONE ? " container" : "", missing);
}

void check_process_netns(struct check_ctx *c)
{
	const struct proc_info *p = check_ctx_proc(c);
	const struct rdma_dev *devs[CHECK_MAX_DEVS];
	int sock;

	if (!p)
		return;
	if (!check_ctx_rxe_devs(c, devs, CHECK_MAX_DEVS)) {
		check_report(c, V_SKIP, NULL, "no rxe link here to carry %s's traffic ('rdmactl check "
			     "--only link' says why)", who(p));
		return;
	}
	sock = netns_udp_bound_pid(c->sys->root, p->pid, ROCE_V2_UDP_PORT);
	if (sock < 0) {
		check_report(c, V_SKIP, NULL, "%s: its network namespace's sockets cannot be read",
			     who(p));
	} else if (sock) {
		check_report(c, V_PASS, NULL, "%s: rdma_rxe's UDP %d socket is in its network "
			     "namespace", who(p), ROCE_V2_UDP_PORT);
	} else {
		char fix[512];

		snprintf(fix, sizeof(fix), "%s; or boot Linux 7.1 or later, whose rdma_rxe opens its "
			 "socket in each namespace", check_host_network(p->engine, p->engine_rootless));
		check_report(c, V_FAIL, fix,
			     "%s: no rdma_rxe UDP %d socket in its network namespace: rxe carries no "
			     "traffic for it (before Linux 7.1, rdma_rxe has its socket in the initial "
			     "namespace alone)", who(p), ROCE_V2_UDP_PORT);
	}
}
