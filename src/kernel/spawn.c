// SPDX-License-Identifier: GPL-2.0-or-later
/* Running the programs rdmactl builds modules with (tar, dkms, dpkg-query): output captured. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/wait.h>

#include "kernel/clock.h"
#include "kernel/spawn.h"

extern char **environ;

int spawn_run(const char *const argv[], const char *label, const struct spawn_progress *p,
	      struct spawn_out *o)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	bool tell = p && p->tick;
	long start = (long)(mono_ms() / 1000), shown = -1;
	int fds[2], err, wst;
	pid_t pid;

	o->len = 0;
	o->text[0] = '\0';
	o->status = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
	/* rdmactl ignores SIGPIPE (its reader may go); the program it runs does not. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	err = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		return -err;
	}
	for (;;) {
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (tell && (long)(mono_ms() / 1000) != shown) {
			shown = (long)(mono_ms() / 1000);
			p->tick(p->arg, label, (unsigned int)(shown - start), false);
		}
		if (poll(&pf, 1, 1000) == 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
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
	close(fds[0]);
	if (tell)
		p->tick(p->arg, label, (unsigned int)((long)(mono_ms() / 1000) - start), true);
	while (waitpid(pid, &wst, 0) < 0)
		if (errno != EINTR)
			return -errno;
	o->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
	/* posix_spawnp reports a missing program as exit 127 from the child. */
	if (o->status == 127 && o->len == 0)
		return -ENOENT;
	return 0;
}
