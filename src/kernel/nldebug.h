/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --debug: every netlink message rdmactl sends and receives (or replays
 * from a fixture), its type and flags named and each attribute laid out
 * (named on the RDMA netlink, nested ones opened), on a stream (standard
 * error) for a user's bug report.
 */
#ifndef RDMACTL_NLDEBUG_H
#define RDMACTL_NLDEBUG_H

#include <stddef.h>
#include <stdio.h>

/* Where the messages go from now on; NULL: nowhere (the default). */
void nldebug_set(FILE *f);
/*
 * The messages in BUF's LEN bytes, of netlink family BUS (NETLINK_RDMA,
 * NETLINK_ROUTE), said as WHAT ("sent", "received", "notified", "asked of
 * the fixture", "replayed"): a line each naming it, then a line for each
 * of its attributes.
 */
void nldebug_msgs(int bus, const char *what, const void *buf, size_t len);

#endif
