// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for kernel/uverbs.c and diag/record.c: requests built as
 * libibverbs lays them out (the uapi's structs, through write and through
 * ioctl's INVOKE_WRITE, short ones too) decoded into the verb and its
 * attributes, and the causes record names from them: no GRH, the
 * link-local source GID, a path MTU past the port's, memlock, libibverbs'
 * probe, an errno the request tells nothing more of, an rdma_cm reject, a
 * QP's first error completion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "tests/unit.h"

#include "diag/record.h"
#include "kernel/uverbs.h"
#include "model/gid.h"

/* A MODIFY_QP to RTR as ibv_modify_qp writes it, into BUF: its length. */
static size_t modify_write(uint8_t *buf, bool global, uint8_t sgid, const char *dgid, uint8_t mtu)
{
	struct ib_uverbs_cmd_hdr h = { .command = IB_USER_VERBS_CMD_MODIFY_QP };
	struct ib_uverbs_modify_qp m = { 0 };

	m.attr_mask = 1u << 0 | 1u << 7 | 1u << 8;	/* STATE, AV, PATH_MTU */
	m.qp_state = 2;					/* RTR */
	m.path_mtu = mtu;
	m.dest.is_global = global;
	m.dest.sgid_index = sgid;
	m.dest.port_num = 1;
	if (dgid)
		assert_int_equal(model_gid_parse(dgid, m.dest.dgid), 0);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &m, sizeof(m));
	return sizeof(h) + sizeof(m);
}

static void decodes_write_and_invoke_write(void **state)
{
	uint8_t buf[256] = { 0 };
	struct ib_uverbs_ioctl_hdr ih = { 0 };
	struct ib_uverbs_attr a = { 0 };
	struct uverbs_call c;
	size_t n = modify_write(buf, true, 1, "0000:0000:0000:0000:0000:ffff:0a0b:0bfb", 3);
	uint8_t io[256] = { 0 };

	(void)state;
	assert_true(uverbs_decode(UVERBS_VIA_WRITE, buf, n, &c));
	assert_string_equal(c.verb, "ibv_modify_qp");
	assert_string_equal(c.cmd, "MODIFY_QP");
	assert_true(c.modify_qp && c.is_global);
	assert_int_equal(c.qp_state, 2);
	assert_int_equal(c.sgid_index, 1);
	assert_int_equal(c.path_mtu, 3);
	assert_true(model_gid_is_v4mapped(c.dgid));
	/* The same command through ioctl: its struct after record's header bytes, without the write's header. */
	ih.length = sizeof(ih) + sizeof(a);
	ih.object_id = UVERBS_OBJECT_DEVICE;
	ih.method_id = UVERBS_METHOD_INVOKE_WRITE;
	ih.num_attrs = 1;
	a.attr_id = UVERBS_ATTR_WRITE_CMD;
	a.len = sizeof(uint16_t);
	a.data = IB_USER_VERBS_CMD_MODIFY_QP;
	memcpy(io, &ih, sizeof(ih));
	memcpy(io + sizeof(ih), &a, sizeof(a));
	memcpy(io + UVERBS_CORE_IN_AT, buf + sizeof(struct ib_uverbs_cmd_hdr),
	       n - sizeof(struct ib_uverbs_cmd_hdr));
	assert_true(uverbs_decode(UVERBS_VIA_IOCTL, io, UVERBS_CORE_IN_AT + n - 8, &c));
	assert_string_equal(c.cmd, "MODIFY_QP");
	assert_true(c.modify_qp && c.is_global);
	assert_int_equal(c.sgid_index, 1);
	/* Short: too short to name is false; a command cut after its header is named, its fields zero. */
	assert_false(uverbs_decode(UVERBS_VIA_WRITE, buf, 4, &c));
	assert_true(uverbs_decode(UVERBS_VIA_WRITE, buf, 8, &c));
	assert_true(c.modify_qp && !c.is_global && c.sgid_index == 0);
	/* An ioctl method this table does not know is named by its numbers. */
	ih.object_id = 200;
	ih.method_id = 7;
	memcpy(io, &ih, sizeof(ih));
	assert_true(uverbs_decode(UVERBS_VIA_IOCTL, io, sizeof(ih), &c));
	assert_string_equal(c.cmd, "object 200 method 7");
	/* rdma_cm's commands, and a number past its table. */
	memset(buf, 0, 8);
	buf[0] = 6;	/* CONNECT */
	assert_true(uverbs_decode(UVERBS_VIA_UCMA, buf, 8, &c));
	assert_string_equal(c.verb, "rdma_connect");
	buf[0] = 99;
	assert_true(uverbs_decode(UVERBS_VIA_UCMA, buf, 8, &c));
	assert_string_equal(c.cmd, "command 99");
}

/* One rxe device with one port: GID 0 link-local, GID 1 IPv4, a 1024 active MTU. */
static void one_port(struct model *m, struct rdma_dev *d, struct port *p, struct gid_slot g[2])
{
	memset(m, 0, sizeof(*m));
	memset(d, 0, sizeof(*d));
	memset(p, 0, sizeof(*p));
	memset(g, 0, 2 * sizeof(*g));
	snprintf(d->name, sizeof(d->name), "rxe0");
	p->num = 1;
	snprintf(p->netdev, sizeof(p->netdev), "eth0");
	p->active_mtu = 1024;
	p->gid_tbl_len = 16;
	g[0].index = 0;
	assert_int_equal(model_gid_parse("fe80:0000:0000:0000:5054:00ff:fe12:3456", g[0].raw), 0);
	g[1].index = 1;
	assert_int_equal(model_gid_parse("0000:0000:0000:0000:0000:ffff:0a0b:0bfb", g[1].raw), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(g[i].type, sizeof(g[i].type), "RoCE v2");
		snprintf(g[i].netdev, sizeof(g[i].netdev), "eth0");
	}
	p->gids = g;
	p->ngids = 2;
	d->ports = p;
	d->nports = 1;
	m->devs = d;
	m->n = 1;
}

static void names_causes(void **state)
{
	struct model m;
	struct rdma_dev d;
	struct port p;
	struct gid_slot g[2];
	struct diag_record_verdict v;
	struct diag_record_proc proc = { .memlock_known = true, .memlock_soft = 65536,
					 .caps_known = true };
	uint8_t buf[256];
	struct uverbs_call c;

	(void)state;
	one_port(&m, &d, &p, g);
	/* No GRH: the index to give is the port's IPv4 GID's. */
	uverbs_decode(UVERBS_VIA_WRITE, buf, modify_write(buf, false, 0, NULL, 3), &c);
	diag_record_refused(&c, -EINVAL, &m, NULL, &v);
	assert_true(v.sure);
	assert_non_null(strstr(v.cause, "no GRH (is_global 0)"));
	assert_string_equal(v.fix, "give the GID index on both sides: -g 1 (perftest: -x 1), rxe0 "
			    "port 1's IPv4 GID");
	/* The link-local source against an IPv4 destination. */
	uverbs_decode(UVERBS_VIA_WRITE, buf, modify_write(buf, true, 0,
		      "0000:0000:0000:0000:0000:ffff:0a0b:0bfc", 3), &c);
	diag_record_refused(&c, -EINVAL, &m, NULL, &v);
	assert_string_equal(v.cause, "source GID index 0 is rxe0's link-local fe80:: GID, and the "
			    "destination 10.11.11.252 is not: no route between them");
	/* No -g on one side, the peer's GID global: index 255 (-1), an empty slot: ENODATA. */
	uverbs_decode(UVERBS_VIA_WRITE, buf, modify_write(buf, true, 255,
		      "fe80:0000:0000:0000:0024:13ff:fec5:518f", 3), &c);
	diag_record_refused(&c, -ENODATA, &m, NULL, &v);
	assert_true(v.sure);
	assert_non_null(strstr(v.cause, "255 is -1 as a byte: the program was given no GID index"));
	assert_non_null(strstr(v.evidence, "refused with ENODATA"));
	assert_string_equal(v.fix, "-g 1 (perftest: -x 1): rxe0 port 1's IPv4 GID");
	/* A path MTU of 4096 on a port whose active MTU is 1024. */
	uverbs_decode(UVERBS_VIA_WRITE, buf, modify_write(buf, true, 1,
		      "0000:0000:0000:0000:0000:ffff:0a0b:0bfc", 5), &c);
	diag_record_refused(&c, -EINVAL, &m, NULL, &v);
	assert_string_equal(v.cause, "the path MTU asked, 4096, is above rxe0 port 1's active MTU, 1024");
	/* Nothing in the request explains it: the errno's causes, likely. */
	uverbs_decode(UVERBS_VIA_WRITE, buf, modify_write(buf, true, 1,
		      "0000:0000:0000:0000:0000:ffff:0a0b:0bfc", 3), &c);
	diag_record_refused(&c, -EINVAL, &m, NULL, &v);
	assert_false(v.sure);
	assert_non_null(strstr(v.cause, "ibv_modify_qp"));
	/* memlock: past the limit, or with it unlimited nothing is claimed. */
	memset(&c, 0, sizeof(c));
	c.verb = "ibv_reg_mr";
	c.reg_mr = true;
	c.mr_length = 1 << 20;
	diag_record_refused(&c, -ENOMEM, NULL, &proc, &v);
	assert_true(v.sure);
	assert_non_null(strstr(v.cause, "RLIMIT_MEMLOCK is 64 KiB and it lacks CAP_IPC_LOCK"));
	proc.memlock_soft = UINT64_MAX;
	diag_record_refused(&c, -ENOMEM, NULL, &proc, &v);
	assert_false(v.sure);
	/* libibverbs' own probe. */
	c.verb = "ibv_query_device";
	assert_true(diag_record_probe(&c, -ENOSPC));
	assert_false(diag_record_probe(&c, -EINVAL));
}

static void cm_events(void **state)
{
	uint8_t resp[20] = { 0 };
	struct uverbs_cm_event e;
	struct diag_record_verdict v;

	(void)state;
	assert_false(uverbs_cm_event(resp, 19, &e));
	resp[12] = 8;	/* REJECTED */
	resp[16] = 8;	/* status: invalid service ID */
	assert_true(uverbs_cm_event(resp, sizeof(resp), &e));
	assert_true(diag_record_cm_event(&e, &v));
	assert_string_equal(v.cause, "nothing listens on that port there (status 8: invalid service ID)");
	e.status = 28;
	assert_true(diag_record_cm_event(&e, &v));
	assert_non_null(strstr(v.cause, "status 28: consumer reject"));
	/* An established connection and a disconnect are no failures. */
	e.event = 9;
	assert_false(diag_record_cm_event(&e, &v));
	e.event = 10;
	assert_false(diag_record_cm_event(&e, &v));
	assert_null(uverbs_cm_event_name(99));
}

static void wc_statuses(void **state)
{
	struct diag_record_verdict v;
	const char *name;

	(void)state;
	assert_true(diag_record_wc(13, &name, &v));
	assert_string_equal(name, "IBV_WC_RNR_RETRY_EXC_ERR");
	assert_false(v.sure);
	assert_non_null(strstr(v.evidence, "status 13 (IBV_WC_RNR_RETRY_EXC_ERR)"));
	assert_true(diag_record_wc(5, &name, &v));
	assert_string_equal(name, "IBV_WC_WR_FLUSH_ERR");
	/* A status no libibverbs has: no name, no cause made up. */
	assert_false(diag_record_wc(1000, &name, &v));
	assert_null(name);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decodes_write_and_invoke_write),
		cmocka_unit_test(names_causes),
		cmocka_unit_test(cm_events),
		cmocka_unit_test(wc_statuses),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
