/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which kernel: its release, from the running system or a captured fixture. */
#ifndef RDMACTL_RELEASE_H
#define RDMACTL_RELEASE_H

#include <stdbool.h>

/*
 * The release of the kernel ROOT describes: ROOT/proc/sys/kernel/osrelease
 * for a captured fixture, uname() for the running system (ROOT ""). "unknown"
 * when neither says.
 */
const char *release_name(const char *root);
/* The kernel of ROOT is older than MAJOR.MINOR; false when unknown. */
bool release_before(const char *root, int major, int minor);

#endif
