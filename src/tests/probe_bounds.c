// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hostile selftest client, for the VM tests: it says hello as rdmactl's
 * client does, then reaches with RDMA for memory of the server's just outside
 * what the server exposed. Each probe is its own connection (a refused access
 * breaks the QP), and prints "PROBE: STATUS" with libibverbs' status words.
 *
 * Usage: probe_bounds HOST PORT DEV
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/clock.h"
#include "selftest/internal.h"
#include "selftest/sidechan.h"
#include "selftest/wire.h"

enum probe { READ_PAST_END, WRITE_BEFORE_START, ATOMIC_PAST_WORD, READ_WITH_ATOMIC_KEY, READ_INSIDE };

static const char *const names[] = {
	[READ_PAST_END] = "read 64 bytes across the buffer's end",
	[WRITE_BEFORE_START] = "write 8 bytes before the buffer",
	[ATOMIC_PAST_WORD] = "fetch-and-add the word after the atomic word",
	[READ_WITH_ATOMIC_KEY] = "read the buffer with the atomic word's key",
	[READ_INSIDE] = "read 64 bytes inside the buffer",
};

static int hello(struct st_run *s, const char *host, unsigned int port)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_hello h;
	const char *why = "";
	char err[200];

	s->fd = sc_connect(host, port, mono_ms() + 5000, err, sizeof(err));
	if (s->fd < 0) {
		fprintf(stderr, "probe_bounds: %s\n", err);
		return -1;
	}
	st_hello(s, &s->a, &h);
	if (sc_write(s->fd, buf, wire_hello_encode(&h, buf), mono_ms() + 5000) ||
	    sc_read(s->fd, buf, WIRE_HDR_LEN, mono_ms() + 5000) ||
	    wire_hdr_decode(buf, &why) != WIRE_HELLO ||
	    sc_read(s->fd, buf + WIRE_HDR_LEN, WIRE_HELLO_BODY, mono_ms() + 5000) ||
	    wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why)) {
		fprintf(stderr, "probe_bounds: no hello from the server %s\n", why);
		return -1;
	}
	st_remote_from_hello(&s->a.rem, &h);
	return st_connect_qp(s, &s->a);
}

static int probe(const char *host, unsigned int port, const char *dev, enum probe p)
{
	struct st_opts o = { .common = { .dev = dev, .gid_index = -1, .timeout_ms = 5000,
					.size = 4096 } };
	struct st_report r;
	struct st_run s = { .o = &o, .r = &r, .fd = -1 };
	struct ibv_sge sge = { .length = 64 };
	struct ibv_send_wr wr = { .num_sge = 1, .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc = { .status = IBV_WC_GENERAL_ERR };
	const struct st_remote *rem = &s.a.rem;
	st_report_init(&r, dev, 0);
	if (st_setup_device(&s, NULL) || st_make_end(&s, &s.a, 4096, false) || hello(&s, host, port)) {
		fprintf(stderr, "probe_bounds: setup: %s\n", r.st[r.st[ST_CONNECT].ran ?
			ST_CONNECT : ST_SETUP].f.detail);
		st_release(&s);
		return -1;
	}
	sge.addr = (uintptr_t)s.a.buf;
	sge.lkey = s.a.mr->lkey;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr.rdma.rkey = rem->rkey;
	switch (p) {
	case READ_PAST_END:
		wr.wr.rdma.remote_addr = rem->addr + rem->len - 32;
		break;
	case WRITE_BEFORE_START:
		wr.opcode = IBV_WR_RDMA_WRITE;
		sge.length = 8;
		wr.wr.rdma.remote_addr = rem->addr - 8;
		break;
	case ATOMIC_PAST_WORD:
		wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
		sge.addr = (uintptr_t)s.a.atom;
		sge.lkey = s.a.amr->lkey;
		sge.length = 8;
		wr.wr.atomic.remote_addr = rem->atom_addr + 8;
		wr.wr.atomic.rkey = rem->atom_rkey;
		wr.wr.atomic.compare_add = 1;
		break;
	case READ_WITH_ATOMIC_KEY:
		wr.wr.rdma.remote_addr = rem->addr;
		wr.wr.rdma.rkey = rem->atom_rkey;
		break;
	case READ_INSIDE:
		wr.wr.rdma.remote_addr = rem->addr;
		break;
	}
	wr.sg_list = &sge;
	if (ibv_post_send(s.a.qp, &wr, &bad)) {
		printf("%s: not posted (%s)\n", names[p], strerror(errno));
	} else {
		const char *env = getenv("PROBE_BOUNDS_WAIT_S");
		unsigned int wait_s = env ? (unsigned int)atoi(env) : 5;
		int n = 0;

		for (uint64_t end = mono_ms() + wait_s * 1000ULL; n == 0 && mono_ms() < end;)
			n = ibv_poll_cq(s.a.scq, 1, &wc);
		if (n == 1)
			printf("%s: %s\n", names[p], ibv_wc_status_str(wc.status));
		else
			printf("%s: no completion in %u s\n", names[p], wait_s);
	}
	fflush(stdout);
	close(s.fd);
	s.fd = -1;
	st_release(&s);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: probe_bounds HOST PORT DEV\n");
		return 2;
	}
	for (int p = READ_PAST_END; p <= READ_INSIDE; p++)
		ret |= probe(argv[1], (unsigned int)atoi(argv[2]), argv[3], (enum probe)p);
	return ret ? 1 : 0;
}
