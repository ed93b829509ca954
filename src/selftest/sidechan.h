/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The selftest's TCP side channel: connect, listen, accept, read and write,
 * every wait bounded by a deadline (milliseconds of mono_ms(), kernel/clock.h).
 */
#ifndef RDMACTL_SIDECHAN_H
#define RDMACTL_SIDECHAN_H

#include <stddef.h>
#include <stdint.h>

/* A wait without deadline ends with -EINTR when a signal asks (kernel/runloop.h). */

/* A connected socket, or -1 with ERR saying why (host, port and reason). */
int sc_connect(const char *host, unsigned int port, uint64_t deadline, char *err, size_t len);
/* A listening socket on BIND (NULL: every address) and PORT, or -1 with ERR. */
int sc_listen(const char *bind, unsigned int port, char *err, size_t len);
/*
 * The next client, its address in PEER; DEADLINE 0 waits as long as it takes.
 * A socket, -ETIMEDOUT, or another negative errno.
 */
int sc_accept(int lfd, uint64_t deadline, char *peer, size_t len);

/*
 * Exactly LEN bytes before DEADLINE: 0, -ETIMEDOUT, -ECONNRESET when the
 * peer closed first, or another negative errno. Never raises SIGPIPE.
 */
int sc_read(int fd, void *buf, size_t len, uint64_t deadline);
int sc_write(int fd, const void *buf, size_t len, uint64_t deadline);

/*
 * One whole message of the selftest's exchange (wire.h) into BUF, read
 * before DEADLINE: its kind, or a negative errno with WHY.
 */
int sc_recv_msg(int fd, uint8_t *buf, uint64_t deadline, const char **why);
/* Why a message did not come, in words ("sent nothing..."), from its errno and WHY. */
const char *sc_recv_error(int err, const char *why, char *buf, size_t len);

#endif
