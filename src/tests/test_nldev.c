// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for nldev.c: NLDEV messages built and parsed over canned buffers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nldev.h"

static char buf[8192];

static struct nlmsghdr *msg(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET);
	return nlh;
}

/* What 6.1 sends for rxe0 port 1 on veth0, plus an attribute newer than us. */
static struct nlmsghdr *port_msg(void)
{
	struct nlmsghdr *nlh = msg();

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_CAP_FLAGS, 0x12345);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_STATE, 4);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, 7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, "veth0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MAX + 5, 99);	/* from a future kernel */
	return nlh;
}

static void parse_port(void **state)
{
	struct nldev_port p;

	(void)state;
	assert_int_equal(nldev_parse_port(port_msg(), &p), 0);
	assert_int_equal(p.dev_index, 3);
	assert_string_equal(p.dev_name, "rxe0");
	assert_int_equal(p.port, 1);
	assert_int_equal(p.state, 4);
	assert_int_equal(p.phys_state, 5);
	assert_true(p.has_netdev);
	assert_int_equal(p.netdev_index, 7);
	assert_string_equal(p.netdev, "veth0");
}

static void parse_port_without_netdev(void **state)
{
	struct nlmsghdr *nlh = msg();
	struct nldev_port p;

	(void)state;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 2);
	assert_int_equal(nldev_parse_port(nlh, &p), 0);
	assert_false(p.has_netdev);
	assert_string_equal(p.netdev, "");
	assert_int_equal(p.state, 0);
}

static void parse_missing_required(void **state)
{
	struct nlmsghdr *nlh = msg();
	struct nldev_port p;
	struct nldev_dev d;

	(void)state;
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	assert_int_equal(nldev_parse_port(nlh, &p), -ENODATA);
	assert_int_equal(nldev_parse_dev(nlh, &d), -ENODATA);
	assert_int_equal(nldev_parse_dev(msg(), &d), -ENODATA);	/* empty */
}

static void parse_malformed(void **state)
{
	struct nlmsghdr *nlh = msg();
	struct nldev_port p;

	(void)state;
	/* A u32 attribute carrying one byte. */
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1, "x");
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	assert_int_equal(nldev_parse_port(nlh, &p), -EBADMSG);

	/* A name that is not NUL-terminated. */
	nlh = msg();
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_DEV_NAME, 4, "rxe0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	assert_int_equal(nldev_parse_port(nlh, &p), -EBADMSG);

	/* An attribute whose length runs past the message: cut the message short. */
	nlh = port_msg();
	nlh->nlmsg_len -= 6;
	assert_int_equal(nldev_parse_port(nlh, &p), -EBADMSG);
}

static void parse_long_name_truncated_safely(void **state)
{
	char name[200];
	struct nlmsghdr *nlh = msg();
	struct nldev_port p;

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, name);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, name);
	assert_int_equal(nldev_parse_port(nlh, &p), 0);
	assert_int_equal(strlen(p.dev_name), sizeof(p.dev_name) - 1);
	assert_int_equal(strlen(p.netdev), sizeof(p.netdev) - 1);
}

static void parse_dev(void **state)
{
	struct nlmsghdr *nlh = msg();
	struct nldev_dev d;

	(void)state;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 9);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe9");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	assert_int_equal(nldev_parse_dev(nlh, &d), 0);
	assert_int_equal(d.index, 9);
	assert_string_equal(d.name, "rxe9");
	assert_int_equal(d.nports, 1);
}

/* One RES_SUMMARY_ENTRY of a RES_GET answer. */
static void put_summary_entry(struct nlmsghdr *nlh, const char *name, uint64_t curr)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);

	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name);
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, curr);
	mnl_attr_nest_end(nlh, e);
}

/* A RES_GET answer as 6.1 sends it: the device's handle, then its counts. */
static struct nlmsghdr *res_msg(void)
{
	struct nlmsghdr *nlh = msg();
	struct nlattr *sum;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe1");
	sum = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY);
	put_summary_entry(nlh, "pd", 3);
	put_summary_entry(nlh, "ctx", 2);
	put_summary_entry(nlh, "cm_id", 0);
	mnl_attr_nest_end(nlh, sum);
	return nlh;
}

static void parse_res(void **state)
{
	struct nldev_res r;

	(void)state;
	assert_int_equal(nldev_parse_res(res_msg(), &r), 0);
	assert_int_equal(r.dev_index, 4);
	assert_true(r.has_ctx);
	assert_int_equal(r.ctx, 2);
	assert_true(r.has_cm_id);
	assert_int_equal(r.cm_id, 0);
}

static void parse_res_without_counts(void **state)
{
	struct nlmsghdr *nlh = msg();
	struct nldev_res r;

	(void)state;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe1");
	assert_int_equal(nldev_parse_res(nlh, &r), -ENODATA);
}

static void build_newlink(void **state)
{
	struct nlmsghdr *nlh = msg();
	const struct nlattr *attr;
	int seen = 0;

	(void)state;
	assert_true(nldev_put_newlink(nlh, sizeof(buf), "rxe0", "rxe", "veth0"));
	mnl_attr_for_each(attr, nlh, 0) {
		switch (mnl_attr_get_type(attr)) {
		case RDMA_NLDEV_ATTR_DEV_NAME:
			assert_string_equal(mnl_attr_get_str(attr), "rxe0");
			seen |= 1;
			break;
		case RDMA_NLDEV_ATTR_LINK_TYPE:
			assert_string_equal(mnl_attr_get_str(attr), "rxe");
			seen |= 2;
			break;
		case RDMA_NLDEV_ATTR_NDEV_NAME:
			assert_string_equal(mnl_attr_get_str(attr), "veth0");
			seen |= 4;
			break;
		default:
			fail();
		}
	}
	assert_int_equal(seen, 7);
}

static void build_refuses_overflow(void **state)
{
	char big[600];
	struct nlmsghdr *nlh = msg();

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* A buffer of 512 bytes cannot hold a 600-byte name: refused, not overrun. */
	assert_false(nldev_put_newlink(nlh, 512, big, "rxe", "veth0"));
	assert_true(nlh->nlmsg_len <= 512);
	assert_false(nldev_put_dev_index(nlh, nlh->nlmsg_len, 1));
}

/* A RES_QP_GET answer for rxe0: a user's RC QP in RTS, and the kernel's GSI QP. */
static struct nlmsghdr *qp_msg(bool truncate, bool no_lqpn)
{
	struct nlmsghdr *nlh = msg();
	struct nlattr *table, *entry;

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_QP_GET);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
	table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	if (!no_lqpn)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 17);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, 18);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQ_PSN, 0x1234);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0x5678);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 0);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 1234);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MAX + 5, 99);	/* from a future kernel */
	mnl_attr_nest_end(nlh, entry);
	entry = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
	mnl_attr_nest_end(nlh, entry);
	mnl_attr_nest_end(nlh, table);
	if (truncate)	/* the table claims more than the message holds */
		table->nla_len += 8;
	return nlh;
}

struct qps {
	struct nldev_qp v[4];
	int n, stop_at;
};

static int take_qp(const struct nldev_qp *q, void *arg)
{
	struct qps *t = arg;

	if (t->n == t->stop_at)
		return -ECANCELED;
	t->v[t->n++] = *q;
	return 0;
}

static void parse_qps(void **state)
{
	struct qps t = { .stop_at = -1 };

	(void)state;
	assert_int_equal(nldev_parse_qps(qp_msg(false, false), take_qp, &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.v[0].dev_index, 3);
	assert_string_equal(t.v[0].dev_name, "rxe0");
	assert_int_equal(t.v[0].port, 1);
	assert_int_equal(t.v[0].lqpn, 17);
	assert_true(t.v[0].has_rqpn && t.v[0].has_rq_psn && t.v[0].has_sq_psn);
	assert_int_equal(t.v[0].rqpn, 18);
	assert_int_equal(t.v[0].rq_psn, 0x1234);
	assert_int_equal(t.v[0].sq_psn, 0x5678);
	assert_int_equal(t.v[0].type, 2);
	assert_int_equal(t.v[0].state, 3);
	assert_int_equal(t.v[0].pid, 1234);
	assert_string_equal(t.v[0].kern_name, "");
	/* The kernel's own QP: no port yet, no peer, a kernel name for an owner. */
	assert_int_equal(t.v[1].lqpn, 1);
	assert_int_equal(t.v[1].port, 0);
	assert_false(t.v[1].has_rqpn || t.v[1].has_rq_psn);
	assert_int_equal(t.v[1].pid, 0);
	assert_string_equal(t.v[1].kern_name, "ib_core");
}

static void parse_qps_refused(void **state)
{
	struct qps t = { .stop_at = -1 };

	(void)state;
	assert_int_equal(nldev_parse_qps(qp_msg(true, false), take_qp, &t), -EBADMSG);
	t.n = 0;
	assert_int_equal(nldev_parse_qps(qp_msg(false, true), take_qp, &t), -ENODATA);
	assert_int_equal(t.n, 0);
	/* The callback's refusal ends the parse, and is what it returns. */
	t = (struct qps){ .stop_at = 1 };
	assert_int_equal(nldev_parse_qps(qp_msg(false, false), take_qp, &t), -ECANCELED);
	assert_int_equal(t.n, 1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_port),
		cmocka_unit_test(parse_port_without_netdev),
		cmocka_unit_test(parse_missing_required),
		cmocka_unit_test(parse_malformed),
		cmocka_unit_test(parse_long_name_truncated_safely),
		cmocka_unit_test(parse_dev),
		cmocka_unit_test(parse_res),
		cmocka_unit_test(parse_res_without_counts),
		cmocka_unit_test(parse_qps),
		cmocka_unit_test(parse_qps_refused),
		cmocka_unit_test(build_newlink),
		cmocka_unit_test(build_refuses_overflow),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("nldev", tests, NULL, NULL);
}
