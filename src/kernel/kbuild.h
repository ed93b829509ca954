/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What building a module for a kernel needs, as it is on this system: the
 * kernel's headers and versions, a source of the same version, whether the
 * kernel demands signed modules, and where rdma_rxe comes from.
 */
#ifndef RDMACTL_KBUILD_H
#define RDMACTL_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

/* What makes a kernel that demands signatures trust what DKMS signs (dkms 3's own key). */
#define MOK_ENROLL "enroll DKMS's key: mokutil --import /var/lib/dkms/mok.pub, then reboot " \
	"and confirm it in the MOK manager"

enum rxe_origin {
	RXE_NONE,		/* no rdma_rxe for this kernel */
	RXE_BUILTIN,		/* CONFIG_RDMA_RXE=y */
	RXE_IN_TREE,		/* the kernel's own module (kernel/drivers/...) */
	RXE_DKMS,		/* built and installed by DKMS (updates/dkms) */
	RXE_OTHER,		/* another file: installed by hand, or by another package */
};

struct kbuild {
	char kver[128];		/* the kernel release: uname -r, or --kernel */
	bool running;		/* KVER is the running kernel */
	char headers[4096];	/* /lib/modules/KVER/build, resolved; "" when absent */
	char kernel_pkgver[64];	/* Debian's version of it, "6.1.192-2"; "" unknown */
	char upstream[32];	/* "6.1.192", from the headers' Makefile; "" unknown */
	char series[16];	/* "6.1": which linux-source-X.Y matches */
	char source[4096];	/* /usr/src/linux-source-X.Y.tar.xz; "" when absent */
	char source_pkgver[64];	/* its package's version; "" unknown */
	enum rxe_origin origin;
	char module_path[4096];	/* rdma_rxe's file, "" when none (or built in) */
	char dkms_version[64];		/* rdma_rxe's DKMS version for KVER, "" when none */
	bool loaded;		/* running kernel only */
	char taint[16];		/* its taint flags, "OE"; "" none or not loaded */
	bool sig_enforce;	/* running kernel: module.sig_enforce=1 or a lockdown */
	char lockdown[32];	/* the selected lockdown mode, "" when unknown */
};

/* Fills K for KVER (NULL: the running kernel). Reads files and asks dpkg-query only. */
int kbuild_facts(const char *kver, struct kbuild *k);

const char *kbuild_origin_name(enum rxe_origin o);

/* "6.1.192" from a kernel tree's (or headers') top Makefile, DIR; -ENOENT / -EINVAL. */
int kbuild_makefile_version(const char *dir, char *buf, size_t len);
/* The version of installed package PKG ("" and -ENOENT when not installed). */
int kbuild_pkg_version(const char *pkg, char *buf, size_t len);

#endif
