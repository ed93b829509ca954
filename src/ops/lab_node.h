/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Work in a lab's node: a child process that entered the node's network
 * namespace as '-n' does, so that sysfs and the sockets it opens are the
 * node's. They never print.
 */
#ifndef RDMACTL_OPS_LAB_NODE_H
#define RDMACTL_OPS_LAB_NODE_H

#include <stddef.h>
#include <sys/types.h>

struct op_err;

/* What runs in a node: ARG in, OUT back (may be NULL), E set on failure. */
typedef int (*lab_node_fn)(void *arg, void *out, struct op_err *e);

/*
 * Forks a child that enters the network namespace SPEC, as '-n' does, and
 * runs FN(ARG, OUT, E) there. With FD >= 0 the child writes E, then OUTLEN
 * bytes of OUT, to FD. The child's pid, or -1.
 */
pid_t lab_node_spawn(const char *spec, lab_node_fn fn, void *arg, void *out, size_t outlen, int fd);

/* FN run in node SPEC and waited for; E and OUT come back through a pipe. */
int lab_node_run(const char *spec, lab_node_fn fn, void *arg, void *out, size_t outlen,
		 struct op_err *e);

#endif
