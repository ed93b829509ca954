/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdma_rxe for a kernel that lacks it: built from the kernel's own source,
 * registered with DKMS, loaded and proven; and removed again. They never
 * print: the caller's progress is told of the long steps.
 */
#ifndef RDMACTL_OPS_RXEBUILD_H
#define RDMACTL_OPS_RXEBUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kbuild.h"

struct nl;
struct op_err;
struct spawn_progress;

/* What rdmactl writes into the DKMS source tree it makes, to know it again. */
#define RXEBUILD_MARK "# made by rdmactl module install"

struct rxe_install_req {
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

/* rxesource.c: the version to build (of the source, against the kernel's), into R. */
int rxebuild_pick_version(struct rxe_install_req *r, struct op_err *e);
/* rxesource.c: drivers/infiniband/sw/rxe of R's source in DIR, with the dkms.conf for it. */
int rxebuild_stage(struct rxe_install_req *r, const char *dir, struct op_err *e);

/* NL: the netlink for the proof on the running kernel. */
int rxe_module_install(struct nl *nl, struct rxe_install_req *r, struct op_err *e);

struct rxe_remove_req {
	const char *kver;
	bool wait;		/* do not refuse devices in use */
	/* Out. */
	struct kbuild k;
	const char *unchanged;
	bool unloaded;
};

int rxe_module_remove(struct nl *nl, struct rxe_remove_req *r, struct op_err *e);

#endif
