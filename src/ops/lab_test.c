// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab test: a selftest server in every node of a lab, and each node's client
 * against every other, each in its node's namespace (lab_node.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ops/op_err.h"
#include "ops/lab.h"
#include "ops/lab_node.h"
#include "selftest/selftest.h"

#define LAB_PORT 18515		/* the selftest exchange's port in every node */

/* A server in its node: says it listens (a byte on FD), then serves until killed. */
struct server_arg {
	const char *dev;
	unsigned int timeout_ms;
	int fd;
};

static void server_session(void *arg, const struct st_report *r)
{
	struct server_arg *a = arg;

	(void)r;
	if (a->fd >= 0) {
		if (write(a->fd, "L", 1) != 1)
			_exit(2);
		close(a->fd);
		a->fd = -1;
	}
}

static int serve(void *arg, void *out, struct op_err *e)
{
	struct server_arg *a = arg;
	struct st_report r;
	struct st_opts o;

	(void)out;
	st_opts_init(&o, a->dev);
	o.common.port = LAB_PORT;
	o.common.timeout_ms = a->timeout_ms;
	st_server(&o, &r, server_session, a);
	return op_err_set(e, -EIO, NULL, "the selftest server in %s did not start: %s", a->dev,
			  r.st[ST_SETUP].f.detail);
}

/* Node I's client against every other node, a lab_pair each on FD. */
struct client_arg {
	const struct lab *l;
	size_t i;
	unsigned int timeout_ms;
	int fd;
};

static int clients(void *arg, void *out, struct op_err *e)
{
	struct client_arg *a = arg;

	(void)out;
	(void)e;
	for (size_t j = 0; j < a->l->n; j++) {
		struct lab_pair p = { .from = (unsigned int)a->i, .to = (unsigned int)j };
		struct st_report r;
		struct st_opts o;

		if (j == a->i)
			continue;
		st_opts_init(&o, a->l->node[a->i].netns);
		o.common.host = a->l->node[j].addr;
		o.common.port = LAB_PORT;
		o.common.timeout_ms = a->timeout_ms;
		st_client(&o, &r);
		p.passed = r.passed;
		for (int s = 0; s < ST_NSTAGES; s++) {
			p.usec += r.st[s].ran ? r.st[s].usec : 0;
			if (!p.f.failed && r.st[s].result == ST_FAIL)
				p.f = r.st[s].f;
		}
		if (write(a->fd, &p, sizeof(p)) != (ssize_t)sizeof(p))
			return -1;
	}
	return 0;
}

/*
 * Forks FN in node SPEC without waiting, into *PID, with *WFD the write end
 * of a pipe FN writes to: the read end, or -1 with E set.
 */
static int spawn_piped(const char *spec, lab_node_fn fn, void *arg, int *wfd, pid_t *pid,
		       struct op_err *e)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC)) {
		op_err_set(e, -errno, NULL, "cannot make a pipe");
		return -1;
	}
	*wfd = p[1];
	*pid = lab_node_spawn(spec, fn, arg, NULL, 0, -1);
	close(p[1]);
	return p[0];
}

static void stop(pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}

int lab_test(const struct lab *l, unsigned int timeout_ms, struct lab_pair **pairs,
	     size_t *npairs, struct op_err *e)
{
	pid_t servers[LAB_MAX_NODES] = { 0 };
	size_t want = l->n * (l->n - 1), got = 0;
	struct lab_pair *v = calloc(want ? want : 1, sizeof(*v));
	int err = 0, failed = 0;

	*pairs = NULL;
	*npairs = 0;
	if (!v)
		return op_err_set(e, -ENOMEM, NULL, "out of memory");
	for (size_t j = 0; !err && j < l->n; j++) {
		struct server_arg sa = { .dev = l->node[j].netns, .timeout_ms = timeout_ms };
		struct pollfd pfd = { .fd = spawn_piped(l->node[j].netns, serve, &sa, &sa.fd,
							&servers[j], e), .events = POLLIN };
		char c;

		if (pfd.fd < 0) {
			err = e->err;
			break;
		}
		if (servers[j] < 0 || poll(&pfd, 1, (int)timeout_ms) != 1 || read(pfd.fd, &c, 1) != 1)
			err = op_err_set(e, -EIO, NULL, "the selftest server in %s did not start listening "
					 "('rdmactl -n %s selftest server %s' says why)", l->node[j].netns,
					 l->node[j].netns, l->node[j].netns);
		close(pfd.fd);
	}
	for (size_t i = 0; !err && i < l->n; i++) {
		struct client_arg ca = { .l = l, .i = i, .timeout_ms = timeout_ms };
		pid_t pid;
		int rd = spawn_piped(l->node[i].netns, clients, &ca, &ca.fd, &pid, e);

		if (rd < 0) {
			err = e->err;
			break;
		}
		while (got < want && read(rd, &v[got], sizeof(v[got])) == (ssize_t)sizeof(v[got]))
			failed |= !v[got++].passed;
		close(rd);
		if (pid > 0)
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		if (got != (i + 1) * (l->n - 1))
			err = op_err_set(e, -EIO, NULL, "the clients of %s ended early", l->node[i].netns);
	}
	stop(servers, l->n);
	if (err) {
		free(v);
		return err;
	}
	*pairs = v;
	*npairs = got;
	return failed;
}
