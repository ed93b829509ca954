// SPDX-License-Identifier: GPL-2.0-or-later
/* Running the programs rdmactl builds modules with and reads (tar, dkms, dpkg-query, nft): output kept. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/signalfd.h>
#include <sys/wait.h>

#include "kernel/clock.h"
#include "kernel/spawn.h"

extern char **environ;

/*
 * ARGV started with standard input from /dev/null and its standard output
 * (and its standard error too when BOTH, else /dev/null) into the pipe
 * whose read end is *FD: 0 and its PID in *PID, or a negative errno.
 */
static int start(const char *const argv[], bool both, int *fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	int fds[2], err;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	if (both)
		posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	/* rdmactl ignores SIGPIPE (its reader may go); the program it runs does not. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	err = posix_spawnp(pid, argv[0], &fa, &at, (char *const *)argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		return -err;
	}
	*fd = fds[0];
	return 0;
}

/* PID waited for: its exit status, 128 + N for signal N; a negative errno. */
static int reap(pid_t pid)
{
	int wst;

	while (waitpid(pid, &wst, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}

int spawn_run(const char *const argv[], const char *label, const struct spawn_progress *p,
	      struct spawn_out *o)
{
	bool tell = p && p->tick;
	long start_s = (long)(mono_ms() / 1000), shown = -1;
	int fd, err, st;
	pid_t pid;

	o->len = 0;
	o->text[0] = '\0';
	o->status = -1;
	err = start(argv, true, &fd, &pid);
	if (err)
		return err;
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (tell && (long)(mono_ms() / 1000) != shown) {
			shown = (long)(mono_ms() / 1000);
			p->tick(p->arg, label, (unsigned int)(shown - start_s), false);
		}
		if (poll(&pf, 1, 1000) == 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (o->len < sizeof(o->text) - 1) {
			size_t room = sizeof(o->text) - 1 - o->len;
			size_t k = (size_t)n < room ? (size_t)n : room;

			memcpy(o->text + o->len, buf, k);
			o->len += k;
			o->text[o->len] = '\0';
		}
	}
	close(fd);
	if (tell)
		p->tick(p->arg, label, (unsigned int)((long)(mono_ms() / 1000) - start_s), true);
	st = reap(pid);
	if (st < 0)
		return st;
	o->status = st;
	/* posix_spawnp reports a missing program as exit 127 from the child. */
	if (o->status == 127 && o->len == 0)
		return -ENOENT;
	return 0;
}

int spawn_read(const char *const argv[], size_t max, char **out)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd, err, st;
	pid_t pid;

	*out = NULL;
	err = start(argv, false, &fd, &pid);
	if (err)
		return err;
	for (;;) {
		ssize_t n;

		if (cap - len < 4096 + 1) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!b) {
				err = -ENOMEM;
				break;
			}
			buf = b;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);	/* a program with more to say ends on SIGPIPE */
	st = reap(pid);
	if (!err && st < 0)
		err = st;
	else if (!err && st == 127 && len == 0)
		err = -ENOENT;	/* posix_spawnp's child: no such program */
	else if (!err && st != 0)
		err = -EIO;
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int spawn_child_start(char *const argv[], const sigset_t *mask, struct spawn_child *c)
{
	int go[2], failed[2], err;

	c->pid = -1;
	c->go = c->failed = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(failed, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		close(failed[0]);
		close(failed[1]);
		return err;
	}
	if (c->pid == 0) {
		char b;

		close(go[1]);
		close(failed[0]);
		/* The parent's end closed without a go (it failed): nothing is run. */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		sigprocmask(SIG_SETMASK, mask, NULL);
		execvp(argv[0], argv);
		err = errno;
		if (write(failed[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(failed[1]);
	c->go = go[1];
	c->failed = failed[0];
	return 0;
}

int spawn_child_go(struct spawn_child *c)
{
	int e = 0;
	ssize_t n;

	n = write(c->go, "g", 1);
	close(c->go);
	c->go = -1;
	if (n != 1) {
		close(c->failed);
		c->failed = -1;
		return -EPIPE;
	}
	do
		n = read(c->failed, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->failed);
	c->failed = -1;
	return n == (ssize_t)sizeof(e) ? -e : 0;
}

bool spawn_child_signalled(const struct spawn_child *c, int sfd, int *status)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			continue;
		if ((si.ssi_signo == SIGINT || si.ssi_signo == SIGQUIT) &&
		    si.ssi_code == SI_KERNEL)
			continue;
		kill(c->pid, (int)si.ssi_signo);
	}
	return waitpid(c->pid, status, WNOHANG) == c->pid;
}
