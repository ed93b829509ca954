/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one netlink transport over libmnl, for every family rdmactl speaks
 * (RDMA, route): a socket, requests with fresh sequences, answers and dumps
 * read with sequence and port checks, the extended ACK kept; recordings and
 * their replay. Above kernel/, messages are built with the families' typed
 * putters (kernel/nldev.h, kernel/rtnl.h), never with libmnl's.
 */
#ifndef RDMACTL_NL_H
#define RDMACTL_NL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

struct nl;

/* Requests are built, and answers read, in a buffer this large (dumps need 32 KiB). */
#define NL_BUF_SIZE 32768

/* libmnl callback results, named (mnl: >= 1 go on, 0 stop, < 0 error). */
enum {
	NL_CB_ERROR = MNL_CB_ERROR,
	NL_CB_STOP = MNL_CB_STOP,
	NL_CB_CONTINUE = MNL_CB_OK,
};

/*
 * Opens a socket of netlink family BUS (NETLINK_RDMA, NETLINK_ROUTE) in this
 * process's network namespace. -EPROTONOSUPPORT for NETLINK_RDMA: the kernel
 * has no RDMA netlink (CONFIG_INFINIBAND off).
 */
int nl_open(struct nl **nlp, int bus);
void nl_close(struct nl *nl);

/* The largest recording nl_open_replay reads. */
#define NL_REPLAY_MAX (4 << 20)

/*
 * Captured answers instead of a socket: nl_talk answers each request with the
 * answer recorded (by nl_record) for an equal request, -ENOMSG when there is
 * none. -EBADMSG when PATH is not whole netlink messages.
 */
int nl_open_replay(const char *path, struct nl **nlp);

/*
 * From now on, each request and its answer are written to PATH, raw; a write
 * that fails fails the request (never a short capture).
 */
int nl_record(struct nl *nl, const char *path);

/*
 * A request of message type TYPE in the socket's buffer (NL_BUF_SIZE bytes),
 * with a fresh sequence; the family's header, if any, and attributes follow.
 */
struct nlmsghdr *nl_request(struct nl *nl, uint16_t type, uint16_t flags);

/*
 * Sends REQ and reads the answer until done, calling CB for each data message.
 * Returns 0 or a negative errno; the kernel's extended ACK message, if any, is
 * then in nl_ext_msg().
 */
int nl_talk(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data);
const char *nl_ext_msg(const struct nl *nl);
/*
 * Joins NL's family's multicast group GROUP (RTNLGRP_LINK, ...): its
 * notifications then wait in the socket, for nl_drain. Best on a socket of
 * its own, that makes no requests. -EINVAL on a replay.
 */
int nl_join(struct nl *nl, unsigned int group);
/* The socket's descriptor, to poll(2) for notifications; -1 on a replay. */
int nl_fd(const struct nl *nl);
/*
 * Reads every notification waiting, never blocking, and discards them: how
 * many were read (the socket's overrun, ENOBUFS, counts as one: some were
 * lost), or a negative errno.
 */
int nl_drain(struct nl *nl);

/*
 * Parses an NLMSG_ERROR message: returns its error (0 for an ACK, negative
 * errno) and copies the extended ACK text into MSG (empty when there is none).
 * -EBADMSG for a malformed message.
 */
int nl_parse_error(const struct nlmsghdr *nlh, char *msg, size_t len);

/* How an answer ended: the kernel's error and extended ACK text. */
struct nl_reply {
	int err;
	char ext_msg[256];
};

/*
 * Runs one received buffer of the answer to request SEQ (from PORTID, 0 for
 * any) through CB for each data message, as nl_talk does: > 0 when more is to
 * come, 0 when the answer is complete, or a negative errno (R->err is the
 * kernel's own error, if it sent one).
 */
int nl_reply_run(struct nl_reply *r, const void *buf, size_t n, unsigned int seq,
		 unsigned int portid, mnl_cb_t cb, void *data);

#endif
