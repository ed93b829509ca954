// SPDX-License-Identifier: GPL-2.0-or-later
/* The selftest's TCP side channel, every wait bounded. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kernel/clock.h"
#include "kernel/runloop.h"
#include "selftest/sidechan.h"
#include "selftest/wire.h"

/* Waits for EVENTS on FD until DEADLINE (0: forever): 0, or -ETIMEDOUT. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = events };
		int64_t left = deadline ? (int64_t)(deadline - mono_ms()) : -1;
		int n;

		if (deadline && left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno == EINTR && runloop_asked())
			return -EINTR;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

int sc_read(int fd, void *buf, size_t len, uint64_t deadline)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n;
		int err = wait_fd(fd, POLLIN, deadline);

		if (err)
			return err;
		n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	return 0;
}

int sc_write(int fd, const void *buf, size_t len, uint64_t deadline)
{
	size_t put = 0;

	while (put < len) {
		ssize_t n;
		int err = wait_fd(fd, POLLOUT, deadline);

		if (err)
			return err;
		n = send(fd, (const char *)buf + put, len - put, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EPIPE)
			return -ECONNRESET;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0)
			put += (size_t)n;
	}
	return 0;
}

/* connect() bounded by DEADLINE: a host that drops the SYN must not hang us. */
static int connect_by(int fd, const struct sockaddr *sa, socklen_t salen, uint64_t deadline)
{
	int err = 0;
	socklen_t elen = sizeof(err);

	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		return -errno;
	if (connect(fd, sa, salen) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	if ((err = wait_fd(fd, POLLOUT, deadline)))
		return err;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
		return -errno;
	return -err;
}

int sc_connect(const char *host, unsigned int port, uint64_t deadline, char *errbuf, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *t;
	char serv[8];
	int fd = -1, err;

	snprintf(serv, sizeof(serv), "%u", port);
	err = getaddrinfo(host, serv, &hints, &res);
	if (err) {
		snprintf(errbuf, len, "%s: %s", host, gai_strerror(err));
		return -1;
	}
	err = -EHOSTUNREACH;
	for (t = res; t && fd < 0; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype | SOCK_CLOEXEC, t->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		err = connect_by(fd, t->ai_addr, t->ai_addrlen, deadline);
		if (err) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(errbuf, len, "cannot connect to %s port %u: %s", host, port, strerror(-err));
	return fd;
}

int sc_listen(const char *bind_addr, unsigned int port, char *errbuf, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_INET6, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST }, *res = NULL;
	char serv[8];
	int one = 1, fd, err;

	snprintf(serv, sizeof(serv), "%u", port);
	/* IPv4 addresses listen as themselves, not as v4-mapped IPv6. */
	if (bind_addr && !strchr(bind_addr, ':'))
		hints.ai_family = AF_INET;
	err = getaddrinfo(bind_addr, serv, &hints, &res);
	if (err) {
		snprintf(errbuf, len, "--bind %s: not a numeric IPv4 or IPv6 address (%s)", bind_addr,
			 gai_strerror(err));
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, 8) < 0) {
			err = errno;
			close(fd);
			fd = -1;
			errno = err;
		}
	}
	if (fd < 0)
		snprintf(errbuf, len, "cannot listen on %s port %u: %s%s", bind_addr ? bind_addr :
			 "every address", port, strerror(errno), errno == EADDRINUSE ?
			 " (another server? pick one with --port)" : errno == EADDRNOTAVAIL ?
			 " (no netdev has that address)" : "");
	freeaddrinfo(res);
	return fd;
}

int sc_accept(int lfd, uint64_t deadline, char *peer, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[INET6_ADDRSTRLEN] = "?";
	int fd;

	for (;;) {
		int err = wait_fd(lfd, POLLIN, deadline);

		if (err)
			return err;
		fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			break;
		if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
			return -errno;
	}
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(peer, len, "%s port %u", host, ntohs(s4->sin_port));
	} else {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		/* A v4 client of an IPv6 socket reads as itself. */
		snprintf(peer, len, "%s port %u", strncmp(host, "::ffff:", 7) ? host : host + 7,
			 ntohs(s6->sin6_port));
	}
	return fd;
}

const char *sc_recv_error(int err, const char *why, char *buf, size_t len)
{
	switch (err) {
	case -ETIMEDOUT:
		return "sent nothing, or too little, in time";
	case -ECONNRESET:
		return "closed the connection in the middle of the exchange";
	case -EPROTO:
		return "speaks another version of the rdmactl selftest exchange (upgrade one side)";
	case -EBADMSG:
		snprintf(buf, len, "sent a malformed message: %s (refused)", why);
		return buf;
	default:
		snprintf(buf, len, "the connection failed: %s", strerror(-err));
		return buf;
	}
}

int sc_recv_msg(int fd, uint8_t *buf, uint64_t deadline, const char **why)
{
	int kind, err;

	*why = "";
	err = sc_read(fd, buf, WIRE_HDR_LEN, deadline);
	if (err)
		return err;
	kind = wire_hdr_decode(buf, why);
	if (kind < 0)
		return kind;
	err = sc_read(fd, buf + WIRE_HDR_LEN, wire_body_len((enum wire_kind)kind), deadline);
	return err ? err : kind;
}
