// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: one buffer read from the RDMA netlink socket, run the way
 * nl_talk runs it (libmnl's checks, NLMSG_ERROR with extended ACK, DONE),
 * each data message parsed as a device, a port, a device's resource counts and
 * its QPs; and the buffer laid out as --debug lays it out, nests opened.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "kernel/nl.h"
#include "kernel/nldebug.h"
#include "kernel/nldev.h"

/* Each QP parsed whole: its names terminated. */
static int qp_cb(const struct nldev_qp *q, void *arg)
{
	(void)arg;
	CHECK(strnlen(q->dev_name, sizeof(q->dev_name)) < sizeof(q->dev_name));
	CHECK(strnlen(q->kern_name, sizeof(q->kern_name)) < sizeof(q->kern_name));
	return 0;
}

static int data_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nldev_dev d;
	struct nldev_port p;
	struct nldev_res r;
	unsigned int *n = arg;

	if (nldev_parse_dev(nlh, &d) == 0)
		CHECK(strnlen(d.name, sizeof(d.name)) < sizeof(d.name));
	if (nldev_parse_port(nlh, &p) == 0) {
		CHECK(strnlen(p.dev_name, sizeof(p.dev_name)) < sizeof(p.dev_name));
		CHECK(strnlen(p.netdev, sizeof(p.netdev)) < sizeof(p.netdev));
	}
	/* A device's counts: parsed whole or refused, never read past the message. */
	(void)nldev_parse_res(nlh, &r);
	(void)nldev_parse_qps(nlh, qp_cb, NULL);
	(*n)++;
	return NL_CB_CONTINUE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libmnl reads the buffer as netlink headers: give it their alignment. */
	static unsigned char buf[NL_BUF_SIZE] __attribute__((aligned(8)));
	struct nl_reply r = { 0 };
	unsigned int n = 0;
	int ret;

	static FILE *debug;

	if (size > sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	/* --debug's layout of what came, read to its end whatever it holds. */
	if (!debug && (debug = fopen("/dev/null", "w")))
		nldebug_set(debug);
	nldebug_msgs(NETLINK_RDMA, "received", buf, size);
	/* Sequence 1 from the kernel (port 0): what the seeds were answers to. */
	ret = nl_reply_run(&r, buf, size, 1, 0, data_cb, &n);
	CHECK(ret <= 1);
	CHECK(strnlen(r.ext_msg, sizeof(r.ext_msg)) < sizeof(r.ext_msg));
	CHECK(!strchr(r.ext_msg, '\n'));
	CHECK(r.err <= 0 && r.err >= -4095);
	return 0;
}
