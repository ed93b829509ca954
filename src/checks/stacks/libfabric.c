// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libfabric's verbs provider's variables as vrb_read_params reads them:
 * names that are prefixes, an index of 0 to 255 that DGRAM endpoints alone
 * read; and FI_PROVIDER's list.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checks/stacks/internal.h"

void stacks_libfabric(struct run *r)
{
	const char *dev = stacks_env(r, "FI_VERBS_DEVICE_NAME"), *iface = stacks_env(r, "FI_VERBS_IFACE");
	const char *gidv = stacks_env(r, "FI_VERBS_GID_IDX"), *prov = stacks_env(r, "FI_PROVIDER");
	struct sport v[MAX_PORTS], act[MAX_PORTS];
	int64_t idx[MAX_PORTS];
	size_t n = 0, nact = stacks_active_ports(r, act);
	char list[512], uses[1024], how[160], fix[160];
	long long num = 0;

	if (!dev && !iface && !gidv)
		return;
	/* "verbs;ofi_rxm": a utility layered on a core provider, each a word of the list. */
	if (prov && *prov && !stacks_list_takes(prov, "verbs", ",;")) {
		stacks_say_fmt(r, V_WARN, "FI_PROVIDER=verbs;ofi_rxm, or unset",
		    "libfabric: FI_PROVIDER=%s leaves out the verbs provider: FI_VERBS_* are not read "
		    "and no RDMA device is used", prov);
		return;
	}
	/* The provider refuses to load with an index outside 0-255 ("Invalid value of gid index"). */
	if (gidv && (!stacks_c_number(gidv, &num) || (int)num < 0 || (int)num > 255)) {
		stacks_say_fmt(r, V_FAIL, "FI_VERBS_GID_IDX from 0 to 255, as 'rdmactl env' gives it",
		    "libfabric: FI_VERBS_GID_IDX=%s is not an index from 0 to 255: the verbs provider "
		    "refuses to load ('Invalid value of gid index')", gidv);
		return;
	}
	/* Both are "the prefix or the full name" (vrb_read_params). */
	for (size_t i = 0; i < nact; i++)
		if (!dev || !strncmp(act[i].d->name, dev, strlen(dev)))
			v[n++] = act[i];
	stacks_ports_text(act, nact, list, sizeof(list));
	if (dev && !n) {
		stacks_say_fmt(r, V_FAIL, "'rdmactl env' gives FI_VERBS_DEVICE_NAME for the links",
		    "libfabric: FI_VERBS_DEVICE_NAME=%s begins the name of no active RDMA device here "
		    "(%s): the verbs provider finds none", dev, list);
		return;
	}
	if (iface) {
		size_t k = 0;

		while (k < r->in->nnetdevs && strncmp(r->in->netdevs[k], iface, strlen(iface)))
			k++;
		if (k == r->in->nnetdevs) {
			stacks_say_fmt(r, V_FAIL, "'rdmactl env' gives FI_VERBS_IFACE for the links",
			    "libfabric: FI_VERBS_IFACE=%s begins the name of no netdev here: the verbs "
			    "provider finds no address to use", iface);
			return;
		}
	}
	if (!n) {
		stacks_say_fmt(r, V_FAIL, "rdmactl up NETDEV: make an rxe link",
		    "libfabric: no active RDMA port here: the verbs provider finds none");
		return;
	}
	/* MSG and RDM endpoints resolve an address through rdma_cm, which picks its GID. */
	if (!gidv) {
		stacks_ports_text(v, n, list, sizeof(list));
		stacks_say_fmt(r, V_PASS, NULL, "libfabric: the verbs provider uses %s; its MSG and RDM "
		    "endpoints take their address's GID through rdma_cm", list);
		return;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = num;
	snprintf(how, sizeof(how), "FI_VERBS_GID_IDX=%s, read by DGRAM endpoints; MSG and RDM "
		 "endpoints take their address's GID through rdma_cm", gidv);
	snprintf(fix, sizeof(fix), "FI_VERBS_GID_IDX=%" PRId64, model_port_ipv4_gid_index(v[0].p, NULL));
	/* A wrong index costs DGRAM endpoints alone: a warning, not a failure. */
	if (!stacks_gids_ok(r, "libfabric", v, n, idx, how, fix, V_WARN))
		return;
	stacks_uses_text(v, n, idx, uses, sizeof(uses));
	stacks_say_fmt(r, V_PASS, NULL, "libfabric: the verbs provider uses %s (%s)", uses, how);
}

