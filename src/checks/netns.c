// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The network namespace rdmactl runs in, against what rxe can do there: its
 * UDP 4791 socket (in the initial namespace only before Linux 7.1, in each
 * from 7.1), and the RDMA subsystem's namespace mode (shared: every device
 * seen everywhere; exclusive: a device in one namespace).
 */
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "kernel/container.h"
#include "kernel/netns.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "kernel/release.h"
#include "kernel/roce.h"

const char *check_host_network(int engine, bool rootless)
{
	switch ((enum container_kind)engine) {
	case CONTAINER_DOCKER:
		return rootless ? "run the container with a rootful Docker's --network host (a "
				  "rootless one's host network is rootlesskit's namespace, not the "
				  "initial one)" : "run the container with --network host (docker run)";
	case CONTAINER_PODMAN:
		return "run the container with --network host (podman run)";
	case CONTAINER_KUBERNETES:
		return "give the pod hostNetwork: true";
	case CONTAINER_NONE:
		return "run in the initial network namespace (no -n, no 'ip netns exec'); for a "
		       "container, --network host (Docker, Podman) or hostNetwork: true (Kubernetes)";
	default:
		return "run in the host's network namespace";
	}
}

/* The namespace mode, -1 when the kernel does not say (or cannot be asked). */
static int netns_mode(struct check_ctx *c)
{
	struct nldev_sys s = { -1, -1 };
	struct nl *nl;

	if (model_sys_rdma(c->sys, &nl) || nldev_sys_get(nl, &s))
		s.netns_mode = -1;
	return s.netns_mode;
}

/* Appends NAME to the list LIST (LEN bytes), comma separated. */
static void list_add(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	snprintf(list + n, len - n, "%s%s", n ? ", " : "", name);
}

/* The rxe devices --dev selects, named in HERE or in OTHER (another namespace's). */
struct places {
	char here[256], other[256];
	size_t nhere, nother;
};

/* M's rxe devices (--dev's alone) sorted by namespace into P. */
static void sort_devices(struct check_ctx *c, const struct model *m, struct places *p)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct rdma_dev *d = &m->devs[i];

		if (strcmp(d->driver, "rxe") || (c->o.dev && strcmp(d->name, c->o.dev)))
			continue;
		if (check_dev_here(c, d))
			list_add(p->here, sizeof(p->here), d->name), p->nhere++;
		else
			list_add(p->other, sizeof(p->other), d->name), p->nother++;
	}
}

/* The devices, or NULL and the check skipped when there is nothing to look at. */
static const struct model *devices_or_skip(struct check_ctx *c)
{
	const struct model *m;

	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "namespaces are checked on the running system only");
		return NULL;
	}
	if (c->no_rxe) {
		check_report(c, V_SKIP, NULL, "no rdma_rxe on this kernel (see the kernel check)");
		return NULL;
	}
	m = check_ctx_model(c);
	if (!m)
		check_report(c, V_SKIP, NULL, "the RDMA devices cannot be read (see the link check)");
	return m;
}

void check_netns(struct check_ctx *c)
{
	const struct model *m = devices_or_skip(c);
	struct places p = { 0 };
	char fix[512];
	enum container_kind box;
	int initial, sock, mode;
	const char *mode_name;

	if (!m)
		return;
	sort_devices(c, m, &p);
	initial = netns_initial("");
	sock = netns_udp_bound("", ROCE_V2_UDP_PORT);
	mode = netns_mode(c);
	mode_name = nldev_netns_mode_name(mode);
	box = check_ctx_container(c);

	if (initial == 0 && p.nhere && sock == 0) {
		snprintf(fix, sizeof(fix), "%s; or boot Linux 7.1 or later, whose rdma_rxe opens "
			 "its socket in each namespace", check_host_network(box, container_rootless("")));
		check_report(c, V_FAIL, fix, "rxe carries no traffic from this namespace on this kernel: "
			     "this network namespace%s%s%s is not the initial one, and rdma_rxe has no "
			     "UDP %d socket in it (before Linux 7.1 it has one, in the initial "
			     "namespace only; this is %s): %s connect%s, then no packet moves", box ? " (" : "",
			     box ? container_name(box) : "", box ? "'s)" : "", ROCE_V2_UDP_PORT,
			     release_name(""), p.here, p.nhere > 1 ? "" : "s");
		return;
	}
	if (p.nhere && sock == 0) {
		check_report(c, V_WARN, "ss -uanp 'sport = :4791'; then rdmactl stop && rdmactl start",
			     "no UDP %d socket is open in this network namespace, yet "
			     "%s %s here: rdma_rxe receives nothing (is rdma_rxe's port taken? "
			     "ss -uanp sport = :%d)", ROCE_V2_UDP_PORT, p.here, p.nhere > 1 ? "are" : "is",
			     ROCE_V2_UDP_PORT);
		return;
	}
	if (c->o.dev && p.nother) {
		snprintf(fix, sizeof(fix), "rdmactl -n NETNS check --dev %s (in the namespace whose "
			 "netdev it is: 'ip netns list'; a container's PID)", c->o.dev);
		check_report(c, V_FAIL, fix, "%s is on a netdev of another network namespace: the RDMA "
			     "subsystem shows it here (%s mode), but programs here reach no peer "
			     "through it", c->o.dev, mode_name ? mode_name : "shared");
		return;
	}
	if (initial == 0 && !p.nhere && mode == 0) {
		check_report(c, V_FAIL, "from the initial namespace: rdmactl link move DEV NETNS",
			     "no RDMA device is in this network namespace, and the "
			     "RDMA subsystem is in exclusive mode: a link made here is created in the "
			     "initial namespace and must be moved here");
		return;
	}
	if (initial == 0 && !p.nhere && p.nother) {
		check_report(c, V_WARN, "rdmactl add rxe0 NETDEV (a name no namespace has taken)",
			     "no rxe device is on a netdev of this network namespace: %s %s another "
			     "namespace's, shown here because the RDMA subsystem is in shared mode",
			     p.other, p.nother > 1 ? "are" : "is");
		return;
	}
	check_report(c, V_PASS, NULL, "%s network namespace%s%s%s; RDMA namespace mode %s%s%s%s",
		     initial == 1 ? "the initial" : initial == 0 ? "a" : "this",
		     box ? " (in " : "", box ? container_name(box) : "", box ? ")" : "",
		     mode_name ? mode_name : "unknown",
		     p.nhere ? "; rdma_rxe's UDP 4791 socket is here" : "",
		     p.nother ? "; shown from other namespaces (shared mode), their names taken here "
		     "too: " : "", p.other);
}
