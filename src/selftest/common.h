/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every selftest mode is told and reports alike: the stages, two hosts,
 * the transports matrix and the ping-pong each add their own to these.
 */
#ifndef RDMACTL_SELFTEST_COMMON_H
#define RDMACTL_SELFTEST_COMMON_H

#include <stdbool.h>

#include "model/gid.h"

/* Which device, GID and peer; how long to wait; how many bytes. */
struct st_common {
	const char *dev;
	int gid_index;		/* -1: the RoCE v2 GID of an IPv4 address */
	unsigned int timeout_ms;	/* every wait is bounded by this */
	unsigned int size;	/* bytes moved per operation */
	const char *host;	/* two hosts: the server, for a client */
	unsigned int port;	/* two hosts: the TCP port of the exchange */
	bool events;		/* completions through a completion channel */
};

/* Where a report's run happened: the device, its GID and path MTU, the peer. */
struct st_head {
	char dev[64];
	int gid_index;		/* -1 until one is known */
	char gid[GID_ADDR_LEN];
	int mtu;		/* path MTU in bytes */
	char peer[80];		/* two hosts: the other end */
	char remote_gid[GID_ADDR_LEN];
};

#endif
