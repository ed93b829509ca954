// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for nl.c: NLMSG_ERROR and extended ACK parsing, and replaying captured answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/unit.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "kernel/nldev.h"

static char buf[4096];

/* An NLMSG_ERROR for a 24-byte request; CAPPED leaves the request's payload out. */
static struct nlmsghdr *err_msg(int error, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = flags;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = 24;
	if (!(flags & NLM_F_CAPPED) && error)
		mnl_nlmsg_put_extra_header(nlh, 8);	/* the request's own payload */
	return nlh;
}

static void ack(void **state)
{
	char msg[64] = "stale";

	(void)state;
	assert_int_equal(nl_parse_error(err_msg(0, 0), msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
}

static void error_with_ext_ack_capped(void **state)
{
	struct nlmsghdr *nlh = err_msg(-EEXIST, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	char msg[64];

	(void)state;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "rxe already configured on veth0");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EEXIST);
	assert_string_equal(msg, "rxe already configured on veth0");
}

static void error_with_ext_ack_after_request(void **state)
{
	struct nlmsghdr *nlh = err_msg(-EINVAL, NLM_F_ACK_TLVS);
	char msg[64];

	(void)state;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "bad attribute\n");
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "bad attribute");	/* no newline */
}

static void error_without_tlvs(void **state)
{
	char msg[64];

	(void)state;
	assert_int_equal(nl_parse_error(err_msg(-ENFILE, NLM_F_CAPPED), msg, sizeof(msg)), -ENFILE);
	assert_string_equal(msg, "");
}

static void ext_ack_truncated_to_buffer(void **state)
{
	struct nlmsghdr *nlh = err_msg(-EPERM, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	char msg[8];

	(void)state;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "a rather long message");
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EPERM);
	assert_string_equal(msg, "a rathe");
}

static void malformed(void **state)
{
	struct nlmsghdr *nlh;
	char msg[64];

	(void)state;
	/* Shorter than struct nlmsgerr. */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	mnl_nlmsg_put_extra_header(nlh, 4);
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EBADMSG);

	/* A positive "error", and one beyond any errno. */
	assert_int_equal(nl_parse_error(err_msg(5, 0), msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(nl_parse_error(err_msg(-100000, 0), msg, sizeof(msg)), -EBADMSG);

	/* Not capped, but the echoed request is claimed longer than the message. */
	nlh = err_msg(-EINVAL, NLM_F_ACK_TLVS);
	((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->msg.nlmsg_len = 4000;
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EBADMSG);

	/* A message TLV that is not NUL-terminated is ignored; the error stays. */
	nlh = err_msg(-EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, 3, "abc");
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "");

	/* A TLV running past the end: no crash, the error stays. */
	nlh = err_msg(-EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "cut");
	nlh->nlmsg_len -= 4;
	assert_int_equal(nl_parse_error(nlh, msg, sizeof(msg)), -EINVAL);
}

/* A recording as nl_record writes it: each request, then its answer. */
static unsigned char rec[1024] __attribute__((aligned(8)));
static size_t rec_len;

static struct nlmsghdr *rec_put(uint16_t type, uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(rec + rec_len);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

static void rec_done(struct nlmsghdr *nlh)
{
	rec_len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static char *rec_write(size_t len)
{
	static char path[] = "/tmp/rdmactl-test-nl-XXXXXX";
	int fd;

	strcpy(path + sizeof(path) - 7, "XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, rec, len), (ssize_t)len);
	close(fd);
	return path;
}

static const uint16_t get = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
static const uint16_t port_get = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET);

/* A device dump answered with one device, and a port dump for device 7 answered ENODEV. */
static void record_two(void)
{
	struct nlmsghdr *nlh;

	rec_len = 0;
	rec_done(rec_put(get, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK, 100));
	nlh = rec_put(get, NLM_F_MULTI, 100);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	rec_done(nlh);
	nlh = rec_put(NLMSG_DONE, NLM_F_MULTI, 100);
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	rec_done(nlh);
	nlh = rec_put(port_get, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK, 101);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	rec_done(nlh);
	nlh = rec_put(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, 101);
	((struct nlmsgerr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct nlmsgerr)))->error =
		-ENODEV;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "gone");
	rec_done(nlh);
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return NL_CB_CONTINUE;
}

static void replay_answers_the_same_request(void **state)
{
	struct nl *nl;
	struct nlmsghdr *req;
	char *path;
	int n = 0;

	(void)state;
	record_two();
	path = rec_write(rec_len);
	assert_int_equal(nl_open_replay(path, &nl), 0);
	/* The request's sequence differs from the recorded one: it does not matter. */
	req = nldev_request(nl, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	assert_int_equal(nl_talk(nl, req, count_cb, &n), 0);
	assert_int_equal(n, 1);
	req = nldev_request(nl, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
	mnl_attr_put_u32(req, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	assert_int_equal(nl_talk(nl, req, count_cb, &n), -ENODEV);
	assert_string_equal(nl_ext_msg(nl), "gone");
	/* Another device, or another command: nothing was recorded for it. */
	req = nldev_request(nl, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
	mnl_attr_put_u32(req, RDMA_NLDEV_ATTR_DEV_INDEX, 8);
	assert_int_equal(nl_talk(nl, req, count_cb, &n), -ENOMSG);
	req = nldev_request(nl, RDMA_NLDEV_CMD_DELLINK, 0);
	mnl_attr_put_u32(req, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	assert_int_equal(nl_talk(nl, req, count_cb, &n), -ENOMSG);
	assert_int_equal(n, 1);
	nl_close(nl);
	unlink(path);
}

static void replay_refuses_a_broken_recording(void **state)
{
	struct nl *nl = NULL;
	struct nlmsghdr *req;
	char *path;
	int n = 0;

	(void)state;
	assert_int_equal(nl_open_replay("/nonexistent/rdma", &nl), -ENOENT);
	record_two();
	/* Cut inside a message. */
	path = rec_write(rec_len - 3);
	assert_int_equal(nl_open_replay(path, &nl), -EBADMSG);
	unlink(path);
	/* Whole messages, but the dump's answer stops before its DONE. */
	req = (struct nlmsghdr *)rec;
	n = (int)NLMSG_ALIGN(req->nlmsg_len);
	n += (int)NLMSG_ALIGN(((struct nlmsghdr *)(rec + n))->nlmsg_len);
	path = rec_write((size_t)n);
	n = 0;
	assert_int_equal(nl_open_replay(path, &nl), 0);
	req = nldev_request(nl, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	assert_int_equal(nl_talk(nl, req, count_cb, &n), -EBADMSG);
	nl_close(nl);
	unlink(path);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ack),
		cmocka_unit_test(error_with_ext_ack_capped),
		cmocka_unit_test(error_with_ext_ack_after_request),
		cmocka_unit_test(error_without_tlvs),
		cmocka_unit_test(ext_ack_truncated_to_buffer),
		cmocka_unit_test(malformed),
		cmocka_unit_test(replay_answers_the_same_request),
		cmocka_unit_test(replay_refuses_a_broken_recording),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("nl", tests, NULL, NULL);
}
