// SPDX-License-Identifier: GPL-2.0-or-later
/* The loop of the commands that run until asked to end (runloop.h). */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "kernel/runloop.h"

static volatile sig_atomic_t asked;

static void on_signal(int sig)
{
	(void)sig;
	asked = 1;
}

void runloop_begin(struct runloop *l, bool hold)
{
	/* No SA_RESTART: a blocking call the signal lands in ends with EINTR. */
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	memset(l, 0, sizeof(*l));
	asked = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &l->old_int);
	sigaction(SIGTERM, &sa, &l->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	l->hold = hold;
	sigprocmask(hold ? SIG_BLOCK : SIG_SETMASK, hold ? &block : NULL, &l->orig);
}

bool runloop_asked(void)
{
	return asked;
}

int runloop_wait(const struct runloop *l, struct pollfd *p, nfds_t n, int timeout_ms)
{
	struct timespec t = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
	int r;

	r = l->hold ? ppoll(p, n, timeout_ms < 0 ? NULL : &t, &l->orig) :
		      poll(p, n, timeout_ms);
	if (r < 0)
		return errno == EINTR ? -EINTR : -errno;
	return r;
}

void runloop_end(struct runloop *l)
{
	sigprocmask(SIG_SETMASK, &l->orig, NULL);
	sigaction(SIGINT, &l->old_int, NULL);
	sigaction(SIGTERM, &l->old_term, NULL);
}
