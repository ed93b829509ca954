/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop of the commands that run until asked to end (monitor, capture,
 * start --watch, the selftest server): SIGINT and SIGTERM ask, as one flag
 * any layer may read; a wait ends at a signal, a ready descriptor or its
 * timeout, and with the signals held (runloop_begin's HOLD) none is lost
 * between a look at the flag and the wait: they come in only while it
 * waits, as ppoll lets them.
 */
#ifndef RDMACTL_RUNLOOP_H
#define RDMACTL_RUNLOOP_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>

struct runloop {
	struct sigaction old_int, old_term;
	sigset_t orig;		/* the mask before, and the one a wait lets signals in with */
	bool hold;
};

/*
 * The handlers set and the flag cleared. HOLD: SIGINT and SIGTERM held off
 * but while runloop_wait waits; without it they interrupt any blocking call
 * (EINTR), which a loop that blocks elsewhere (the selftest's sockets)
 * needs.
 */
void runloop_begin(struct runloop *l, bool hold);
/* Whether a signal asked the loop to end. */
bool runloop_asked(void);
/*
 * Waits for P's N descriptors at most TIMEOUT_MS (negative: no limit): how
 * many are ready, 0 at the timeout, -EINTR when a signal came (held, one
 * that came before comes in as the wait begins: runloop_asked tells whether
 * it asked the end), another negative errno when the wait failed.
 */
int runloop_wait(const struct runloop *l, struct pollfd *p, nfds_t n, int timeout_ms);
/*
 * The mask and the handlers as they were before runloop_begin, in that
 * order: a signal held till then comes in to the loop's handler. A
 * command calls it once what it does after its loop (a file committed,
 * links dealt with) is done, so that a second signal does not cut it.
 */
void runloop_end(struct runloop *l);

#endif
