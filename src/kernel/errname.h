/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errno's names as the kernel's headers spell them, for messages; and the
 * codes rdmactl returns as a negative errno that no errno is, all here.
 */
#ifndef RDMACTL_ERRNAME_H
#define RDMACTL_ERRNAME_H

/* Not an errno: the parser and a handler return -EUSAGE for a usage error. */
#define EUSAGE 4096
/*
 * Not an errno: a program rdmactl ran (tar, dkms, apt-get) exited non-zero.
 * Its own words are in the message; no errno name follows them.
 */
#define ETOOL 4097
/*
 * Not an errno: the path names something other than a regular file (its
 * struct safe_path's type says what), or a symlink that leads nowhere.
 */
#define ENOTREG 4098

/* "EEXIST" for -EEXIST (or EEXIST); "errno N" for what glibc does not name. */
const char *errname(int err);

#endif
