/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errno's names as the kernel's headers spell them, for messages. */
#ifndef RDMACTL_ERRNAME_H
#define RDMACTL_ERRNAME_H

/* "EEXIST" for -EEXIST (or EEXIST); "errno N" for what glibc does not name. */
const char *errname(int err);

#endif
