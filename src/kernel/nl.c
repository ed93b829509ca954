// SPDX-License-Identifier: GPL-2.0-or-later
/* The one netlink transport over libmnl: one socket, sequence checks, extended ACK. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/socket.h>

#include <linux/netlink.h>

#include "kernel/nl.h"
#include "kernel/nldebug.h"
#include "kernel/safe.h"

struct nl {
	struct mnl_socket *sock;	/* NULL when answers are replayed */
	int bus;			/* NETLINK_RDMA, NETLINK_ROUTE */
	unsigned int portid;
	unsigned int seq;
	struct nl_reply r;	/* how the last answer ended */
	int rec_fd;		/* each request and its answer are appended here; -1: not */
	unsigned char *replay;	/* a recording's messages, aligned */
	size_t replay_len;
	char buf[NL_BUF_SIZE] __attribute__((aligned(8)));
};

int nl_open(struct nl **nlp, int bus)
{
	struct nl *nl;
	int one = 1, err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->sock = mnl_socket_open(bus);
	if (!nl->sock) {
		err = -errno;
		free(nl);
		return err;
	}
	/* Best effort: old kernels lack them, and the errors still come back. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		mnl_socket_close(nl->sock);
		free(nl);
		return err;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->bus = bus;
	nl->seq = (unsigned int)time(NULL);
	nl->rec_fd = -1;
	*nlp = nl;
	return 0;
}

/* Whole messages, each aligned, from BUF: -EBADMSG for anything else. */
static int check_framing(const void *buf, size_t n)
{
	for (size_t off = 0; off < n;) {
		const struct nlmsghdr *h = (const void *)((const char *)buf + off);

		if (n - off < sizeof(*h) || h->nlmsg_len < sizeof(*h) || h->nlmsg_len > n - off)
			return -EBADMSG;
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
	return 0;
}

int nl_open_replay(const char *path, struct nl **nlp)
{
	struct nl *nl;
	FILE *f;
	size_t cap = 0;
	int err = 0;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->rec_fd = -1;
	nl->bus = NETLINK_RDMA;	/* a fixture records the RDMA netlink's answers */
	f = safe_fopen(path);
	if (!f) {
		err = -errno;
		free(nl);
		return err;
	}
	for (;;) {
		size_t got;

		if (nl->replay_len == cap) {
			unsigned char *v;

			if (cap >= NL_REPLAY_MAX) {
				err = -EFBIG;
				break;
			}
			cap = cap ? cap * 2 : 8192;
			v = realloc(nl->replay, cap);
			if (!v) {
				err = -ENOMEM;
				break;
			}
			nl->replay = v;
		}
		got = fread(nl->replay + nl->replay_len, 1, cap - nl->replay_len, f);
		nl->replay_len += got;
		if (got == 0) {
			err = ferror(f) ? -EIO : 0;
			break;
		}
	}
	fclose(f);
	if (!err)
		err = check_framing(nl->replay, nl->replay_len);
	if (err) {
		nl_close(nl);
		return err;
	}
	*nlp = nl;
	return 0;
}

int nl_record(struct nl *nl, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	if (nl->rec_fd >= 0)
		close(nl->rec_fd);
	nl->rec_fd = fd;
	return 0;
}

void nl_close(struct nl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	if (nl->rec_fd >= 0)
		close(nl->rec_fd);
	free(nl->replay);
	free(nl);
}

struct nlmsghdr *nl_request(struct nl *nl, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

const char *nl_ext_msg(const struct nl *nl)
{
	return nl->r.ext_msg;
}

int nl_parse_error(const struct nlmsghdr *nlh, char *msg, size_t len)
{
	const struct nlmsgerr *e;
	const struct nlattr *attr;
	size_t off;

	if (len)
		msg[0] = '\0';
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
		return -EBADMSG;
	e = mnl_nlmsg_get_payload(nlh);
	if (e->error > 0 || e->error < -4095)
		return -EBADMSG;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return e->error;
	/* The TLVs follow the request's header, or the whole request if not capped. */
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->error) {
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr))
			return -EBADMSG;
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	if (off > mnl_nlmsg_get_payload_len(nlh))
		return -EBADMSG;
	mnl_attr_for_each_payload((const void *)((const char *)e + off), mnl_nlmsg_get_payload_len(nlh) - off) {
		if (!mnl_attr_ok(attr, (const char *)mnl_nlmsg_get_payload_tail(nlh) - (const char *)attr))
			return -EBADMSG;
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG && len &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(msg, len, "%s", mnl_attr_get_str(attr));
			/* The kernel's messages end in no newline, but be sure. */
			msg[strcspn(msg, "\n")] = '\0';
		}
	}
	return e->error;
}

/* What libmnl's single data pointer carries: the socket and the caller's callback. */
struct talk {
	struct nl_reply *r;
	mnl_cb_t cb;
	void *data;
};

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_reply *r = ((struct talk *)data)->r;

	r->err = nl_parse_error(nlh, r->ext_msg, sizeof(r->ext_msg));
	return r->err ? NL_CB_ERROR : NL_CB_STOP;
}

/* A dump ends with DONE, which carries the dump's error, if any. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_reply *r = ((struct talk *)data)->r;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		int err;

		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
		if (err < 0 && err >= -4095) {
			r->err = err;
			return NL_CB_ERROR;
		}
	}
	return NL_CB_STOP;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh, (void)data;
	return NL_CB_CONTINUE;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	return t->cb ? t->cb(nlh, t->data) : NL_CB_CONTINUE;
}

int nl_reply_run(struct nl_reply *r, const void *buf, size_t n, unsigned int seq,
		 unsigned int portid, mnl_cb_t cb, void *data)
{
	/* libmnl uses none of its defaults once an array is given: fill it all. */
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = noop_cb,
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = done_cb,
		[NLMSG_OVERRUN] = noop_cb,
	};
	struct talk t = { .r = r, .cb = cb, .data = data };
	int ret;

	/*
	 * libmnl compares nlmsg_len with the bytes left as an int: a length of
	 * 2 GiB or more passes, and one that aligns to 0 loops for ever. Every
	 * length is checked here first, as unsigned.
	 */
	if (check_framing(buf, n))
		return -EBADMSG;
	/* mnl_cb_run2 checks portid and seq on every message. */
	errno = 0;
	ret = mnl_cb_run2(buf, n, seq, portid, data_cb, &t, ctl, NLMSG_MIN_TYPE);
	if (ret > 0)
		return 1;
	if (ret < 0) {
		if (r->err)
			return r->err;
		/* A data callback's own error, or libmnl's (ESRCH, EPROTO, ...). */
		return errno ? -errno : -EIO;
	}
	return r->err;
}

/* The same request: the same command, flags and attributes, whatever its sequence. */
static bool same_request(const struct nlmsghdr *a, const struct nlmsghdr *b)
{
	return a->nlmsg_len == b->nlmsg_len && a->nlmsg_type == b->nlmsg_type &&
	       a->nlmsg_flags == b->nlmsg_flags &&
	       !memcmp(mnl_nlmsg_get_payload(a), mnl_nlmsg_get_payload(b),
		       a->nlmsg_len - sizeof(*a));
}

/*
 * A recording is requests (NLM_F_REQUEST set), each followed by its answer's
 * messages. The answer recorded for a request equal to REQ is run through CB
 * as if the kernel had sent it; -ENOMSG when none was recorded.
 */
static int replay(struct nl *nl, const struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	const unsigned char *p = nl->replay, *end = p + nl->replay_len;

	while (p < end) {
		const struct nlmsghdr *h = (const void *)p;
		const unsigned char *ans = p + NLMSG_ALIGN(h->nlmsg_len), *q = ans;

		while (q < end && !(((const struct nlmsghdr *)q)->nlmsg_flags & NLM_F_REQUEST))
			q += NLMSG_ALIGN(((const struct nlmsghdr *)q)->nlmsg_len);
		if ((h->nlmsg_flags & NLM_F_REQUEST) && same_request(h, req)) {
			int ret;

			nldebug_msgs(nl->bus, "replayed", ans, (size_t)(q - ans));
			ret = nl_reply_run(&nl->r, ans, (size_t)(q - ans), 0, 0, cb, data);

			/* An answer cut short in the recording is a broken recording. */
			return ret > 0 ? -EBADMSG : ret;
		}
		p = q;
	}
	return -ENOMSG;
}

/* A capture that cannot be written whole fails the request: never a short fixture. */
static int record(struct nl *nl, const void *buf, size_t n)
{
	ssize_t w;

	if (nl->rec_fd < 0)
		return 0;
	w = write(nl->rec_fd, buf, n);
	return w == (ssize_t)n ? 0 : w < 0 ? -errno : -ENOSPC;
}

int nl_talk(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	unsigned int seq = req->nlmsg_seq;
	int ret;

	memset(&nl->r, 0, sizeof(nl->r));
	/* Every request is acknowledged, so a command without data ends too. */
	req->nlmsg_flags |= NLM_F_ACK;
	nldebug_msgs(nl->bus, nl->sock ? "sent" : "asked of the fixture", req, req->nlmsg_len);
	if (!nl->sock)
		return replay(nl, req, cb, data);
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;
	ret = record(nl, req, NLMSG_ALIGN(req->nlmsg_len));
	if (ret)
		return ret;
	do {
		ssize_t n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));

		if (n < 0)
			return -errno;
		nldebug_msgs(nl->bus, "received", nl->buf, (size_t)n);
		ret = record(nl, nl->buf, (size_t)n);
		if (ret)
			return ret;
		ret = nl_reply_run(&nl->r, nl->buf, (size_t)n, seq, nl->portid, cb, data);
	} while (ret > 0);
	return ret;
}

int nl_join(struct nl *nl, unsigned int group)
{
	if (!nl->sock)
		return -EINVAL;
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0)
		return -errno;
	return 0;
}

int nl_fd(const struct nl *nl)
{
	return nl->sock ? mnl_socket_get_fd(nl->sock) : -1;
}

int nl_drain(struct nl *nl)
{
	int n = 0;

	if (!nl->sock)
		return -EINVAL;
	for (;;) {
		ssize_t r = recv(mnl_socket_get_fd(nl->sock), nl->buf, sizeof(nl->buf), MSG_DONTWAIT);

		if (r == 0) {
			return n;
		} else if (r > 0 || errno == ENOBUFS) {
			if (r > 0)
				nldebug_msgs(nl->bus, "notified", nl->buf, (size_t)r);
			n++;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			return n;
		} else if (errno != EINTR) {
			return -errno;
		}
	}
}
