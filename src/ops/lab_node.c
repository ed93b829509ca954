// SPDX-License-Identifier: GPL-2.0-or-later
/* Work in a lab's node: a child in the node's network namespace (lab_node.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/netns.h"
#include "ops/op_err.h"
#include "ops/lab_node.h"

/*
 * Forks a child that enters the network namespace SPEC, as '-n' does, and
 * runs FN(ARG, OUT, E) there. With FD >= 0 the child writes E, then OUTLEN
 * bytes of OUT, to FD. The child's pid, or -1.
 */
pid_t lab_node_spawn(const char *spec, lab_node_fn fn, void *arg, void *out, size_t outlen, int fd)
{
	struct op_err ce = { 0 };
	enum netns_step step;
	char path[PATH_MAX];
	pid_t pid;
	int err;

	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	err = netns_enter(spec, &step, path, sizeof(path));
	if (err)
		op_err_set(&ce, err, NULL, "cannot enter network namespace %s (%s)", spec, path);
	else
		fn(arg, out, &ce);
	/* Both in one go: a pipe takes that much at once. */
	if (fd >= 0 && (write(fd, &ce, sizeof(ce)) != (ssize_t)sizeof(ce) ||
			(outlen && write(fd, out, outlen) != (ssize_t)outlen)))
		_exit(2);
	_exit(ce.err ? 1 : 0);
}

/* FN run in node SPEC and waited for; E and OUT come back through a pipe. */
int lab_node_run(const char *spec, lab_node_fn fn, void *arg, void *out, size_t outlen,
		 struct op_err *e)
{
	int p[2];
	pid_t pid;
	ssize_t got;

	if (pipe2(p, O_CLOEXEC))
		return op_err_set(e, -errno, NULL, "cannot make a pipe");
	pid = lab_node_spawn(spec, fn, arg, out, outlen, p[1]);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return op_err_set(e, -errno, NULL, "cannot fork");
	}
	got = read(p[0], e, sizeof(*e));
	if (got == (ssize_t)sizeof(*e) && outlen && read(p[0], out, outlen) != (ssize_t)outlen)
		got = -1;
	close(p[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (got != (ssize_t)sizeof(*e))
		return op_err_set(e, -EIO, NULL, "the work in network namespace %s ended without a "
				  "word", spec);
	return e->err;
}
