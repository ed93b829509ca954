/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RDMA stacks' variables in an environment, each read by its own
 * stack's rules, as that stack's source reads them: NCCL's NET/IB
 * (NCCL_IB_*), UCX (UCX_*), libfabric's verbs provider (FI_VERBS_*) and Open
 * MPI (OMPI_MCA_*). For each stack whose variables are set: the ports and
 * GID index it will end up with, and what in them keeps it off the links.
 * Pure: the links come in a model, the environment and the netdevs from the
 * caller, the verdicts go out through a callback.
 */
#ifndef RDMACTL_CHECKS_STACKS_H
#define RDMACTL_CHECKS_STACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/checks.h"
#include "model/model.h"

struct stacks_in {
	const struct model *m;	/* the devices, their ports' states and GID tables */
	/* Whether a program here sees device D (another namespace's does not); NULL: all do. */
	bool (*here)(void *arg, const struct rdma_dev *d);
	/* NAME's value in the environment, or NULL when it is not set. */
	const char *(*env)(void *arg, const char *name);
	/* The netdevs here, which NCCL_SOCKET_IFNAME, FI_VERBS_IFACE and UCX_NET_DEVICES name too. */
	const char *const *netdevs;
	size_t nnetdevs;
	/* The NCCL the program has mapped ("2.18.3"), whose defaults differ by version; NULL: unknown. */
	const char *nccl;
	void *arg;
};

/* A verdict: V_PASS, V_WARN or V_FAIL; FIX may be NULL. */
typedef void (*stacks_say)(void *arg, enum verdict v, const char *fix, const char *msg);

/*
 * Says, through SAY, what each stack whose variables IN's environment sets
 * will do with them. Returns how many stacks had any set (none said then).
 */
int stacks_check(const struct stacks_in *in, stacks_say say, void *say_arg);

#endif
