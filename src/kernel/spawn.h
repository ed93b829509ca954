/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running the programs rdmactl builds modules with (tar, dkms, dpkg-query): output captured. */
#ifndef RDMACTL_SPAWN_H
#define RDMACTL_SPAWN_H

#include <stddef.h>

struct spawn_out {
	char text[8192];	/* the first of what it wrote, stdout and stderr together */
	size_t len;
	int status;		/* its exit status; 128 + N for signal N */
};

/*
 * Runs ARGV (argv[0] looked up in PATH) with standard input from /dev/null,
 * its output in O. With LABEL, a terminal on stderr sees "LABEL... N s" while
 * it runs. 0 when it ran (its own status in O->status), -ENOENT when there is
 * no such program, or another negative errno.
 */
int spawn_run(const char *const argv[], const char *label, struct spawn_out *o);

#endif
