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

#include "checks/checks.h"
#include "kernel/errname.h"
#include "kernel/netns.h"
#include "kernel/proc.h"
#include "kernel/sysfs.h"
#include "model/roce.h"

/* "PID (comm)" of P. */
static const char *who(const struct proc_info *p)
{
	static char buf[64];

	return check_proc_who(p, buf, sizeof(buf));
}

void check_process(struct check_ctx *c)
{
	const struct proc_info *p;

	if (!c->proc_done) {
		c->proc_err = proc_read(c->o.root, c->o.pid, &c->proc);
		c->proc_done = true;
	}
	if (c->proc_err) {
		check_report(c, V_FAIL, "give a running process's PID: pgrep -a PROGRAM",
			     "there is no process %d (it ended, or it is in another "
			     "PID namespace)", c->o.pid);
		return;
	}
	p = &c->proc;
	if (!p->maps_known) {
		check_report(c, V_SKIP, NULL, "%s: its libraries cannot be read from /proc/%d/maps "
			     "(another user's process needs root)", who(p), p->pid);
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

void check_process_memlock(struct check_ctx *c)
{
	const struct proc_info *p = check_ctx_proc(c);

	if (!p)
		return;
	if (!p->caps_known || !p->memlock_known) {
		check_report(c, V_SKIP, NULL, "%s: its limits cannot be read from /proc/%d/status "
			     "and limits", who(p), p->pid);
	} else if (p->cap_ipc_lock) {
		check_report(c, V_PASS, NULL, "%s has CAP_IPC_LOCK: its memlock limit does not bind "
			     "memory registration", who(p));
	} else if (p->memlock_soft == PROC_UNLIMITED) {
		check_report(c, V_PASS, NULL, "%s: RLIMIT_MEMLOCK is unlimited", who(p));
	} else if (p->memlock_soft <= 64 * 1024) {
		check_report(c, V_WARN, "raise the limit where the program starts: 'ulimit -l "
			     "unlimited', LimitMEMLOCK=infinity for a service, --ulimit memlock=-1 "
			     "for a container, '* - memlock unlimited' in "
			     "/etc/security/limits.d/rdma.conf for logins",
			     "%s: RLIMIT_MEMLOCK is %" PRIu64 " KiB and it has no CAP_IPC_LOCK: "
			     "ibv_reg_mr of more than that fails with ENOMEM", who(p),
			     p->memlock_soft / 1024);
	} else {
		check_report(c, V_PASS, NULL, "%s: RLIMIT_MEMLOCK is %" PRIu64 " KiB: registrations "
			     "past it fail with ENOMEM", who(p), p->memlock_soft / 1024);
	}
}

/* The device of the links that a stack's device variable VALUE names first: "mlx5_0:1,rxe0". */
static void first_item(const char *value, char *buf, size_t len)
{
	value += strspn(value, "=^");
	snprintf(buf, len, "%.*s", (int)strcspn(value, ",:"), value);
}

/* The RDMA device the process's stacks are told to use, or the one rxe device there is. */
static const struct rdma_dev *their_dev(struct check_ctx *c, const struct proc_info *p,
					const struct model *m)
{
	static const char *const vars[] = { "NCCL_IB_HCA", "UCX_NET_DEVICES",
					    "FI_VERBS_DEVICE_NAME", NULL };
	const struct rdma_dev *only = NULL;
	size_t nrxe = 0;

	for (int i = 0; vars[i]; i++) {
		const char *v = proc_env(p, vars[i]);

		if (v && *v != '^') {
			char name[64];

			first_item(v, name, sizeof(name));
			return model_find(m, name);
		}
	}
	for (size_t i = 0; i < m->n; i++)
		if (model_dev_is_rxe(&m->devs[i]) && check_dev_here(c, &m->devs[i]))
			only = &m->devs[i], nrxe++;
	return nrxe == 1 ? only : NULL;
}

/* The first item of the list VALUE ("=a:1,b"; "^a" excludes) that is no device or netdev of ROOT's. */
static const char *unknown_item(const char *root, const char *value, const struct model *m,
				char *buf, size_t len)
{
	if (*value == '^' || !strcmp(value, "all"))
		return NULL;	/* an exclusion, or every one: nothing to name */
	value += strspn(value, "=");
	for (const char *s = value; *s; s += strcspn(s, ","), s += *s == ',') {
		snprintf(buf, len, "%.*s", (int)strcspn(s, ",:"), s);
		if (*buf && !model_find(m, buf) && !sysfs_exists(root, "/sys/class/net/%s", buf))
			return buf;
	}
	return NULL;
}

void check_process_env(struct check_ctx *c)
{
	static const char *const gid_vars[] = { "NCCL_IB_GID_INDEX", "UCX_IB_GID_INDEX",
						"FI_VERBS_GID_IDX", NULL };
	static const char *const dev_vars[] = { "NCCL_IB_HCA", "UCX_NET_DEVICES",
						"FI_VERBS_DEVICE_NAME", NULL };
	static const char *const net_vars[] = { "NCCL_SOCKET_IFNAME", "FI_VERBS_IFACE",
						"UCX_TLS", NULL };
	const struct proc_info *p = check_ctx_proc(c);
	const struct model *m;
	const struct rdma_dev *d;
	char fix[160], buf[64];
	bool ok = true, any = false;

	if (!p)
		return;
	if (!p->env_known) {
		check_report(c, V_SKIP, NULL, "%s: its environment cannot be read from "
			     "/proc/%d/environ (another user's process needs root)", who(p), p->pid);
		return;
	}
	m = check_ctx_model(c);
	if (!m) {
		check_report(c, V_SKIP, NULL, "the RDMA devices cannot be read ('rdmactl check --only link' says why)");
		return;
	}
	d = their_dev(c, p, m);
	snprintf(fix, sizeof(fix), "'rdmactl env%s%s' gives the settings for the links",
		 d ? " " : "", d ? d->name : "");
	for (int i = 0; dev_vars[i]; i++) {
		const char *v = proc_env(p, dev_vars[i]), *bad;

		any |= v != NULL;
		if (v && (bad = unknown_item(c->o.root, v, m, buf, sizeof(buf)))) {
			check_report(c, V_FAIL, fix, "%s: %s=%s names %s, which is no RDMA device or "
				     "netdev here", who(p), dev_vars[i], v, bad);
			ok = false;
		}
	}
	for (int i = 0; gid_vars[i]; i++) {
		const char *v = proc_env(p, gid_vars[i]);
		int64_t want = -1;
		char *end;
		long got;

		if (!v)
			continue;
		any = true;
		got = strtol(v, &end, 10);
		for (size_t k = 0; d && k < d->nports && want < 0; k++)
			want = model_port_ipv4_gid_index(&d->ports[k], NULL);
		if (*end || end == v) {
			check_report(c, V_FAIL, fix, "%s: %s=%s is not a GID index", who(p), gid_vars[i], v);
			ok = false;
		} else if (want >= 0 && got != want) {
			check_report(c, V_FAIL, fix, "%s: %s=%s, but %s's RoCE v2 GID of an IPv4 "
				     "address is index %" PRId64 ": GID %ld is another type or address, "
				     "and the stack talks past its peer", who(p), gid_vars[i], v,
				     d->name, want, got);
			ok = false;
		}
	}
	for (int i = 0; net_vars[i]; i++)
		any |= proc_env(p, net_vars[i]) != NULL;
	if (ok)
		check_report(c, V_PASS, NULL, "%s: %s", who(p), any ? "the RDMA stacks' variables "
			     "it sets agree with the links" : "it sets none of the RDMA stacks' "
			     "variables (NCCL_IB_*, UCX_*, FI_VERBS_*)");
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
	sock = netns_udp_bound_pid(c->o.root, p->pid, ROCE_V2_UDP_PORT);
	if (sock < 0) {
		check_report(c, V_SKIP, NULL, "%s: its network namespace's sockets cannot be read",
			     who(p));
	} else if (sock) {
		check_report(c, V_PASS, NULL, "%s: rdma_rxe's UDP %d socket is in its network "
			     "namespace", who(p), ROCE_V2_UDP_PORT);
	} else {
		check_report(c, V_FAIL, "run it in the initial network namespace (a container with "
			     "the host's network), or boot Linux 7.1 or later",
			     "%s: no rdma_rxe UDP %d socket in its network namespace: rxe carries no "
			     "traffic for it (before Linux 7.1, rdma_rxe has its socket in the initial "
			     "namespace alone)", who(p), ROCE_V2_UDP_PORT);
	}
}
