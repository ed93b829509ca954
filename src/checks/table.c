// SPDX-License-Identifier: GPL-2.0-or-later
/* The checks in the order they run: id, function, summary (--list shows them). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "checks/checks.h"

/* Stable ids, in the order a broken host is best read: bottom up. */
const struct check_def check_defs[] = {
	{ "kernel", check_kernel, "the running kernel can do Soft-RoCE at all", false },
	{ "modules", check_modules, "ib_core, ib_uverbs, rdma_ucm, rdma_rxe installed, matching, "
	  "loaded", false },
	{ "netns", check_netns, "rxe can carry traffic from this network namespace; the RDMA "
	  "namespace mode", false },
	{ "uverbs", check_uverbs, "/dev/infiniband nodes exist and are usable", false },
	{ "provider", check_provider, "libibverbs has an rxe provider and lists every rxe device",
	  false },
	{ "link", check_link, "an rxe link exists and its port is ACTIVE", false },
	{ "mtu", check_mtu, "the active MTU is what the netdev MTU gives", false },
	{ "gid-consistency", check_gid_consistency, "the GID table matches the netdev's addresses",
	  false },
	{ "gid-index", check_gid_index, "the GID index to use (--gid-index, --peer)", false },
	{ "subnet", check_subnet, "no two rxe netdevs share a subnet; rp_filter; route to --peer",
	  false },
	{ "firewall", check_firewall, "nothing drops RoCE v2's UDP port 4791", false },
	{ "memlock", check_memlock, "RLIMIT_MEMLOCK allows memory registration", false },
	{ "ipv6", check_ipv6, "IPv6 is enabled on rxe netdevs (their fe80:: GID)", false },
	{ "counters", check_counters, "rxe hw_counters that show past trouble", false },
	{ "qps", check_qps, "live QPs: each in error or resending unanswered, with its owner and "
	  "likely cause", false },
	{ "journal", check_journal, "programs' failures the journal holds since --since (default "
	  "an hour): refused verbs, QPs in error, from rdmactl monitor --journal", false },
	/* check --pid PID: one process's. */
	{ "process", check_process, "--pid: the process, its libibverbs and provider", true },
	{ "process-memlock", check_process_memlock, "--pid: its memlock limit, or CAP_IPC_LOCK",
	  true },
	{ "process-env", check_process_env, "--pid: the RDMA stacks' variables it sets, against "
	  "the links", true },
	{ "process-uverbs", check_process_uverbs, "--pid: the uverbs nodes its root shows (a "
	  "container's --device)", true },
	{ "process-netns", check_process_netns, "--pid: rxe can carry traffic from its network "
	  "namespace", true },
	{ "process-qps", check_process_qps, "--pid: its QPs: each in error or resending unanswered, "
	  "with its likely cause",
	  true },
};
const size_t check_ndefs = sizeof(check_defs) / sizeof(check_defs[0]);

/* ID (LEN bytes) is one of LIST's comma-separated ids. */
static bool listed(const char *list, const char *id, size_t len)
{
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, id, len))
			return true;
	}
	return false;
}

const char *checks_unknown(const char *list)
{
	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		bool known = false;

		for (size_t i = 0; i < check_ndefs; i++)
			known |= strlen(check_defs[i].id) == n && !strncmp(check_defs[i].id, p, n);
		if (!known)
			return p;
		p += n;
		if (!*p)
			return NULL;
	}
}

const char *checks_misplaced(const char *list, bool pid)
{
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		for (size_t i = 0; i < check_ndefs; i++)
			if (strlen(check_defs[i].id) == strcspn(p, ",") &&
			    !strncmp(check_defs[i].id, p, strcspn(p, ",")) && check_defs[i].pid != pid)
				return p;
	return NULL;
}

bool checks_listed(const char *list, const char *id)
{
	return !list || listed(list, id, strlen(id));
}

void checks_run(const struct check_opts *o, struct model_sys *sys, struct check_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->o = *o;
	c->sys = sys;
	model_sys_forget(sys);	/* start --watch --check runs again: what is now */
	/* What skips on a kernel without rdma_rxe skips with --only too. */
	if (!o->pid && o->only && !listed(o->only, "kernel", strlen("kernel")))
		check_kernel_assess(c);
	for (size_t i = 0; i < check_ndefs; i++) {
		const char *id = check_defs[i].id;

		if (check_defs[i].pid != (o->pid != 0) ||
		    (o->only && !listed(o->only, id, strlen(id))))
			continue;
		c->cur = id;
		check_defs[i].run(c);
	}
}
