/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdma_rxe for a kernel that lacks it: built from the kernel's own source,
 * registered with DKMS, loaded and proven; and removed again. They never
 * print: the caller's progress is told of the long steps.
 */
#ifndef RDMACTL_OPS_MODULE_H
#define RDMACTL_OPS_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kbuild.h"

struct nl;
struct op_err;
struct spawn_progress;

/* What rdmactl writes into the DKMS source tree it makes, to know it again. */
#define MODULE_MARK "# made by rdmactl module install"

struct module_install_req {
	const char *kver;	/* NULL: the running kernel */
	const struct spawn_progress *progress;	/* told of the long steps; NULL: nobody */
	const char *source;	/* a tarball or a tree; NULL: Debian's linux-source-X.Y */
	bool force;		/* build although rdma_rxe is there, or the versions differ */
	bool install_deps;	/* apt-get what is missing */
	/* Out. */
	struct kbuild k;	/* the kernel as it was found */
	const char *unchanged;	/* why nothing was done, or NULL */
	char version[64];	/* the DKMS version installed */
	char package[160];	/* the distribution's package installed instead of a build */
	bool version_forced;	/* built from a source of another version (unsupported) */
	bool loaded, proved;	/* running kernel: loaded, and a link was made and deleted */
	uint64_t build_ms;	/* extracting and building */
};


/* NL: the netlink for the proof on the running kernel. */
int module_install(struct nl *nl, struct module_install_req *r, struct op_err *e);

struct module_remove_req {
	const char *kver;
	bool wait;		/* do not refuse devices in use */
	/* Out. */
	struct kbuild k;
	const char *unchanged;
	bool unloaded;
};

int module_remove(struct nl *nl, struct module_remove_req *r, struct op_err *e);

/*
 * Those of MODS (N names) not loaded, loaded: a module whose load fails is
 * left to what needs it to find not there (/sys/module/NAME), as rdma-core's
 * loading at boot leaves it.
 */
void module_load_missing(const char *const *mods, size_t n);

#endif
