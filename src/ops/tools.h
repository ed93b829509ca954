/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tools a module build runs (apt-get, tar, cp, rm, dkms): each failure said in an op_err. */
#ifndef RDMACTL_OPS_TOOLS_H
#define RDMACTL_OPS_TOOLS_H

#include <stddef.h>

struct op_err;
struct spawn_out;
struct spawn_progress;

/*
 * Runs ARGV, its output in O; P (when given) is told of it under LABEL while
 * it runs. A failure to run it, or a non-zero status with the line of its
 * output that says why, is said in E after WHAT.
 */
int tools_run(const char *const argv[], const char *label, const struct spawn_progress *p,
	     struct spawn_out *o, struct op_err *e, const char *what);
/* DIR and all below it, on its own file system only; a failure is not an error. */
void tools_rm_tree(const char *dir);
/* apt-get install PKGS[0..N), without recommends. */
int tools_apt_install(const char *const pkgs[], size_t n, const struct spawn_progress *p,
		     struct op_err *e);

#endif
