// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open MPI's MCA lists (a leading '^' excludes): whether its pml is UCX,
 * which then reads the UCX_* variables, or whether any btl carries RDMA.
 */
#include <stdbool.h>
#include <string.h>

#include "checks/stacks/internal.h"

void stacks_openmpi(struct run *r)
{
	const char *pml = stacks_env(r, "OMPI_MCA_pml"), *btl = stacks_env(r, "OMPI_MCA_btl");
	bool ucx_vars = stacks_env(r, "UCX_NET_DEVICES") || stacks_env(r, "UCX_TLS") || stacks_env(r, "UCX_IB_GID_INDEX");

	if (!pml || !*pml)
		return;
	if (stacks_list_takes(pml, "ucx", ",")) {
		stacks_say_fmt(r, V_PASS, NULL, "Open MPI: OMPI_MCA_pml=%s takes UCX, which reads the UCX_* "
		    "variables", pml);
		return;
	}
	if (btl && *btl && !stacks_list_takes(btl, "openib", ",") && !stacks_list_takes(btl, "uct", ",") &&
	    !stacks_list_takes(btl, "ofi", ",")) {
		stacks_say_fmt(r, V_WARN, "OMPI_MCA_pml=ucx (what 'rdmactl env' sets)",
		    "Open MPI: OMPI_MCA_pml=%s leaves out UCX and OMPI_MCA_btl=%s every RDMA btl "
		    "(openib, uct, ofi): no MPI traffic goes over rxe", pml, btl);
		return;
	}
	stacks_say_fmt(r, ucx_vars ? V_WARN : V_PASS, ucx_vars ? "OMPI_MCA_pml=ucx" : NULL,
	    "Open MPI: OMPI_MCA_pml=%s leaves out UCX%s", pml,
	    ucx_vars ? ": the UCX_* variables it sets do not reach its MPI traffic" : "");
}

