// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for nl.c: NLMSG_ERROR and extended ACK parsing over canned messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include <linux/netlink.h>

#include "kernel/nl.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ack),
		cmocka_unit_test(error_with_ext_ack_capped),
		cmocka_unit_test(error_with_ext_ack_after_request),
		cmocka_unit_test(error_without_tlvs),
		cmocka_unit_test(ext_ack_truncated_to_buffer),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests_name("nl", tests, NULL, NULL);
}
