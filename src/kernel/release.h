/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which kernel: its release, and errno's names as the kernel's headers spell them. */
#ifndef RDMACTL_RELEASE_H
#define RDMACTL_RELEASE_H

#include <stdbool.h>

/*
 * The release of the kernel ROOT describes: ROOT/proc/sys/kernel/osrelease
 * for a captured fixture, uname() for the running system (ROOT ""). "unknown"
 * when neither says.
 */
const char *kernel_release(const char *root);
/* The kernel of ROOT is older than MAJOR.MINOR; false when unknown. */
bool kernel_before(const char *root, int major, int minor);

/* "EEXIST" for -EEXIST (or EEXIST); "errno N" for what glibc does not name. */
const char *errname(int err);

#endif
