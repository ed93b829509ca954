// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for model/capture.c on packets captured in the test bed
 * (bats/fixtures/packets, tools/capture-packets): rxe0 and rxe1 talking over a
 * veth pair, tcpdump on veth0, the stock programs and a failing one.
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
#include <pcap/pcap.h>

#include "tests/unit.h"

#include "model/capture.h"

/* One captured frame. */
struct frame {
	uint8_t *data;
	size_t len, wire_len;
	uint64_t ts_us;
};

struct trace {
	struct frame *v;
	size_t n;
	int link;
};

/* tools/run-tests runs from the top of the tree; FIXTURES may say otherwise. */
static struct trace load(const char *name)
{
	char path[512], err[PCAP_ERRBUF_SIZE];
	const char *dir = getenv("FIXTURES");
	struct trace t = { 0 };
	struct pcap_pkthdr *h;
	const u_char *d;
	pcap_t *pc;

	snprintf(path, sizeof(path), "%s/packets/%s.pcap", dir ? dir : "bats/fixtures", name);
	pc = pcap_open_offline(path, err);
	if (!pc)
		fail_msg("%s: %s", path, err);
	t.link = pcap_datalink(pc);
	while (pcap_next_ex(pc, &h, &d) == 1) {
		struct frame *f;

		t.v = realloc(t.v, (t.n + 1) * sizeof(*t.v));
		assert_non_null(t.v);
		f = &t.v[t.n++];
		f->data = malloc(h->caplen);
		assert_non_null(f->data);
		memcpy(f->data, d, h->caplen);
		f->len = h->caplen;
		f->wire_len = h->len;
		f->ts_us = (uint64_t)h->ts.tv_sec * 1000000 + (uint64_t)h->ts.tv_usec;
	}
	pcap_close(pc);
	assert_true(t.n > 0);
	return t;
}

static void trace_free(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].data);
	free(t->v);
}

/* Every frame of T decoded into PKTS (T's length) and tracked into FLOWS. */
static struct capture_pkt *decode_all(const struct trace *t, struct capture_flows *flows,
				      struct capture_seen *seen)
{
	struct capture_pkt *p = calloc(t->n, sizeof(*p));

	assert_non_null(p);
	assert_int_equal(t->link, CAPTURE_LINK_ETHERNET);
	for (size_t i = 0; i < t->n; i++) {
		assert_int_equal(model_capture_decode(CAPTURE_LINK_ETHERNET, t->v[i].data, t->v[i].len,
						t->v[i].wire_len, &p[i]), 0);
		assert_int_equal(model_capture_track(flows, &p[i], t->v[i].ts_us, seen ? &seen[i] : NULL), 0);
	}
	return p;
}

/* How many of PKTS (N) have OPCODE's operation. */
static size_t count_op(const struct capture_pkt *p, size_t n, const char *op)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += !strcmp(model_capture_opcode_name(p[i].opcode), op);
	return c;
}

/* ibv_rc_pingpong -n 5 -s 64: SENDs both ways, each acknowledged, over fe80:: GIDs. */
static void rc_pingpong(void **state)
{
	struct trace t = load("rc-pingpong");
	struct capture_flows f = { 0 };
	struct capture_seen *seen = calloc(t.n, sizeof(*seen));
	struct capture_pkt *p;
	size_t sends[2] = { 0 };

	(void)state;
	assert_non_null(seen);
	p = decode_all(&t, &f, seen);
	for (size_t i = 0; i < t.n; i++) {
		assert_int_equal(p[i].ip_version, 6);
		assert_string_equal(model_capture_transport_name(p[i].opcode), "RC");
		assert_int_equal(p[i].pkey, 0xffff);
		assert_true(p[i].sport >= 0xc000);
		assert_true(!strncmp(p[i].src, "fe80::", 6) && !strncmp(p[i].dst, "fe80::", 6));
		assert_true(seen[i].qp < 2);
		if (model_capture_opcode_is_request(p[i].opcode)) {
			sends[seen[i].qp]++;
			assert_string_equal(model_capture_opcode_name(p[i].opcode), "SEND_ONLY");
			assert_int_equal(p[i].payload, 64);
			assert_int_equal(p[i].ext, 0);
		} else {
			assert_string_equal(model_capture_opcode_name(p[i].opcode), "ACKNOWLEDGE");
			assert_int_equal(p[i].ext, CAPTURE_AETH);
			assert_int_equal(model_capture_ack_kind(p[i].syndrome), CAPTURE_ACK);
			assert_int_equal(p[i].payload, 0);
		}
	}
	/* Five pings each way, whatever ACKs rxe coalesced. */
	assert_int_equal(count_op(p, t.n, "SEND_ONLY"), 10);
	/* One conversation a direction: each the other's reverse, each sender known by its port. */
	assert_int_equal(f.n, 2);
	assert_int_equal(model_capture_reverse(&f, 0), 1);
	assert_int_equal(model_capture_reverse(&f, 1), 0);
	for (size_t i = 0; i < 2; i++) {
		assert_true(f.v[i].sender_known);
		assert_int_equal(f.v[i].sender_qpn, f.v[1 - i].qpn);
		/* Linux 6.1: the port both ends of the connection share. */
		assert_int_equal(f.v[i].sport, f.v[1 - i].sport);
		assert_int_equal(f.v[i].sport, model_capture_rxe_flow_sport(f.v[i].qpn, f.v[i].sender_qpn));
		assert_int_not_equal(f.v[i].sport, model_capture_rxe_qp_sport(f.v[i].sender_qpn));
		assert_int_equal(f.v[i].resent, 0);
		assert_int_equal(sends[i], 5);
	}
	assert_int_equal(f.v[0].packets + f.v[1].packets, t.n);
	model_capture_flows_free(&f);
	free(p);
	free(seen);
	trace_free(&t);
}

/* ibv_ud_pingpong: UD SENDs with the datagram header, the source QP in it. */
static void ud_pingpong(void **state)
{
	struct trace t = load("ud-pingpong");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);

	(void)state;
	for (size_t i = 0; i < t.n; i++) {
		assert_string_equal(model_capture_transport_name(p[i].opcode), "UD");
		assert_string_equal(model_capture_opcode_name(p[i].opcode), "SEND_ONLY");
		assert_int_equal(p[i].ext, CAPTURE_DETH);
		/* ibv_ud_pingpong's Q_Key. */
		assert_int_equal(p[i].qkey, 0x11111111);
		/* A datagram QP's port is its own. */
		assert_int_equal(p[i].sport, model_capture_rxe_qp_sport(p[i].sqpn));
		assert_int_equal(p[i].payload, 64);
	}
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* ib_write_bw -s 4096 at path MTU 1024: FIRST with the RETH, MIDDLEs, LAST; 1024 bytes each. */
static void write_bw(void **state)
{
	struct trace t = load("write-bw");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);
	size_t first = count_op(p, t.n, "RDMA_WRITE_FIRST");

	(void)state;
	assert_true(first >= 5);
	assert_int_equal(count_op(p, t.n, "RDMA_WRITE_LAST"), first);
	assert_int_equal(count_op(p, t.n, "RDMA_WRITE_MIDDLE"), 2 * first);
	for (size_t i = 0; i < t.n; i++) {
		const char *op = model_capture_opcode_name(p[i].opcode);

		if (!strcmp(op, "RDMA_WRITE_FIRST")) {
			assert_int_equal(p[i].ext, CAPTURE_RETH);
			assert_int_equal(p[i].dma_len, 4096);
			assert_int_not_equal(p[i].rkey, 0);
			/* The next two of the same conversation go on the same PSN count. */
			assert_int_equal(p[i].payload, 1024);
		} else if (!strncmp(op, "RDMA_WRITE_", 11)) {
			assert_int_equal(p[i].ext, 0);
			assert_int_equal(p[i].payload, 1024);
		}
	}
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* ib_read_lat -s 64: READ requests with the RETH, each answered by a READ_RESPONSE_ONLY. */
static void read_lat(void **state)
{
	struct trace t = load("read-lat");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);
	size_t req = count_op(p, t.n, "RDMA_READ_REQUEST");

	(void)state;
	assert_true(req >= 5);
	assert_int_equal(count_op(p, t.n, "RDMA_READ_RESPONSE_ONLY"), req);
	for (size_t i = 0; i < t.n; i++) {
		if (p[i].opcode == 0x0c) {
			assert_int_equal(p[i].ext, CAPTURE_RETH);
			assert_int_equal(p[i].dma_len, 64);
			assert_int_equal(p[i].payload, 0);
		} else if (p[i].opcode == 0x10) {
			assert_int_equal(p[i].ext, CAPTURE_AETH);
			assert_int_equal(model_capture_ack_kind(p[i].syndrome), CAPTURE_ACK);
			assert_int_equal(p[i].payload, 64);
			assert_false(model_capture_opcode_is_request(p[i].opcode));
		}
	}
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* ib_atomic_lat: FETCH_ADD (its default) answered by ATOMIC_ACKNOWLEDGE. */
static void atomic_lat(void **state)
{
	struct trace t = load("atomic-lat");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);
	size_t req = count_op(p, t.n, "FETCH_ADD");

	(void)state;
	assert_true(req >= 5);
	assert_int_equal(count_op(p, t.n, "ATOMIC_ACKNOWLEDGE"), req);
	for (size_t i = 0; i < t.n; i++) {
		if (p[i].opcode == 0x14)
			assert_int_equal(p[i].ext, CAPTURE_ATOMICETH);
		else if (p[i].opcode == 0x12)
			assert_int_equal(p[i].ext, CAPTURE_AETH | CAPTURE_ATOMICACKETH);
		assert_int_equal(p[i].payload, 0);
	}
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* The first packet of P (N) with an AETH of kind K: its index, or N. */
static size_t find_ack(const struct capture_pkt *p, size_t n, enum capture_ack k)
{
	size_t i = 0;

	while (i < n && !((p[i].ext & CAPTURE_AETH) && model_capture_ack_kind(p[i].syndrome) == k))
		i++;
	return i;
}

/* qpfail rnr: a SEND with no receive posted: an RNR NAK with the receiver's timer. */
static void rnr(void **state)
{
	struct trace t = load("rnr");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);
	size_t i = find_ack(p, t.n, CAPTURE_NAK_RNR);

	(void)state;
	assert_true(i < t.n);
	assert_string_equal(model_capture_ack_name(CAPTURE_NAK_RNR), "RNR NAK");
	assert_string_equal(model_capture_ack_key(CAPTURE_NAK_RNR), "rnr");
	/* qpfail's receiver asks for min_rnr_timer 1: 0.01 ms. */
	assert_int_equal(model_capture_rnr_timer_us(p[i].syndrome), 10);
	/* The NAK is counted in the sender's conversation, the one its packets go to. */
	for (size_t q = 0; q < f.n; q++)
		if (!strcmp(f.v[q].addr, p[i].dst) && f.v[q].qpn == p[i].dqpn)
			assert_true(f.v[q].naks[CAPTURE_NAK_RNR] >= 1);
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* qpfail bad-rkey: an RDMA WRITE with a key never given: a remote access NAK. */
static void bad_rkey(void **state)
{
	struct trace t = load("bad-rkey");
	struct capture_flows f = { 0 };
	struct capture_pkt *p = decode_all(&t, &f, NULL);
	size_t i = find_ack(p, t.n, CAPTURE_NAK_ACCESS);

	(void)state;
	assert_true(i < t.n);
	assert_int_equal(count_op(p, t.n, "RDMA_WRITE_ONLY"), 1);
	assert_string_equal(model_capture_ack_name(model_capture_ack_kind(p[i].syndrome)),
			    "NAK remote access error");
	model_capture_flows_free(&f);
	free(p);
	trace_free(&t);
}

/* qpfail dead-peer: the receiving QP destroyed: the SEND resent, never answered. */
static void dead_peer(void **state)
{
	struct trace t = load("dead-peer");
	struct capture_flows f = { 0 };
	struct capture_seen *seen = calloc(t.n, sizeof(*seen));
	struct capture_pkt *p;

	(void)state;
	assert_non_null(seen);
	p = decode_all(&t, &f, seen);
	assert_true(t.n >= 3);
	assert_int_equal(f.n, 1);
	assert_false(f.v[0].sender_known);
	/*
	 * Nothing came back, yet its source port names its sender: qpfail
	 * made its two QPs in step, one on each device, so the sender's
	 * number is its peer's (24 here). Its neighbours' ports are others.
	 */
	assert_true(model_capture_from(&f.v[0], f.v[0].qpn));
	assert_false(model_capture_from(&f.v[0], f.v[0].qpn - 1));
	assert_false(model_capture_from(&f.v[0], f.v[0].qpn + 1));
	assert_int_equal(f.v[0].resent, t.n - 1);
	assert_false(seen[0].resent);
	for (size_t i = 1; i < t.n; i++) {
		assert_true(seen[i].resent);
		assert_int_equal(p[i].psn, p[0].psn);
		assert_true(seen[i].gap_us > 0);
		assert_true(f.v[0].longest_gap_us >= seen[i].gap_us);
	}
	model_capture_flows_free(&f);
	free(p);
	free(seen);
	trace_free(&t);
}

/* Every prefix of every captured frame: decoded whole or refused, never read past. */
static void truncated(void **state)
{
	static const char *const traces[] = {
		"rc-pingpong", "ud-pingpong", "write-bw", "read-lat", "atomic-lat", "rnr", "bad-rkey",
	};

	(void)state;
	for (size_t n = 0; n < sizeof(traces) / sizeof(traces[0]); n++) {
		struct trace t = load(traces[n]);

		for (size_t i = 0; i < t.n && i < 8; i++) {
			struct capture_pkt p;

			for (size_t len = 0; len < t.v[i].len; len++) {
				/* A copy of exactly LEN bytes, so the sanitizers see any read past. */
				uint8_t *b = malloc(len ? len : 1);
				int r;

				assert_non_null(b);
				memcpy(b, t.v[i].data, len);
				r = model_capture_decode(CAPTURE_LINK_ETHERNET, b, len, len, &p);
				assert_true(r == 0 || r == -EBADMSG);
				free(b);
			}
		}
		trace_free(&t);
	}
}

/* A frame that is no RoCE v2 packet: another UDP port, another protocol, another link. */
static void not_roce(void **state)
{
	struct trace t = load("rc-pingpong");
	struct capture_pkt p;
	uint8_t *b = t.v[0].data;
	size_t udp = 14 + 40;

	(void)state;
	b[udp + 3] ^= 1;	/* UDP destination port 4791 -> 4790 */
	assert_int_equal(model_capture_decode(CAPTURE_LINK_ETHERNET, b, t.v[0].len, t.v[0].len, &p),
			 -EPROTONOSUPPORT);
	b[udp + 3] ^= 1;
	b[14 + 6] = 6;		/* IPv6 next header: TCP */
	assert_int_equal(model_capture_decode(CAPTURE_LINK_ETHERNET, b, t.v[0].len, t.v[0].len, &p),
			 -EPROTONOSUPPORT);
	b[14 + 6] = 17;
	/* The same frame from its IP header on decodes as DLT_RAW. */
	assert_int_equal(model_capture_decode(CAPTURE_LINK_RAW, b + 14, t.v[0].len - 14, t.v[0].len,
					      &p), 0);
	assert_int_equal(model_capture_decode(99, b, t.v[0].len, t.v[0].len, &p), -EPROTONOSUPPORT);
	/* An opcode no RoCE transport uses (RD's). */
	b[udp + 8] = 0x44;
	assert_int_equal(model_capture_decode(CAPTURE_LINK_ETHERNET, b, t.v[0].len, t.v[0].len, &p),
			 -EBADMSG);
	trace_free(&t);
}

static void psn_order(void **state)
{
	static const struct {
		uint32_t a, b;
		bool before;
	} cases[] = {
		{ 0, 1, true }, { 1, 0, false }, { 5, 5, false },
		{ 0xffffff, 0, true },		/* wraps */
		{ 0, 0xffffff, false },
		{ 0, 0x7fffff, true },		/* half the space: still before */
		{ 0, 0x800000, false },		/* exactly half apart: neither first */
		{ 0x800000, 0, false },
		{ 0x800001, 0, true },		/* wraps, less than half */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(model_capture_psn_before(cases[i].a, cases[i].b), cases[i].before);
}

static void names(void **state)
{
	(void)state;
	/* AETH syndromes: ACK with credits, RNR with its timer, the NAK codes, reserved. */
	assert_int_equal(model_capture_ack_kind(0x1f), CAPTURE_ACK);
	assert_int_equal(model_capture_ack_kind(0x20 | 12), CAPTURE_NAK_RNR);
	assert_int_equal(model_capture_ack_kind(0x60), CAPTURE_NAK_PSN);
	assert_int_equal(model_capture_ack_kind(0x61), CAPTURE_NAK_INVALID);
	assert_int_equal(model_capture_ack_kind(0x62), CAPTURE_NAK_ACCESS);
	assert_int_equal(model_capture_ack_kind(0x63), CAPTURE_NAK_OPERATION);
	assert_int_equal(model_capture_ack_kind(0x64), CAPTURE_NAK_INVALID_RD);
	assert_int_equal(model_capture_ack_kind(0x65), CAPTURE_ACK_RESERVED);
	assert_int_equal(model_capture_ack_kind(0x40), CAPTURE_ACK_RESERVED);
	assert_int_equal(model_capture_ack_kind(0x80), CAPTURE_ACK_RESERVED);
	assert_string_equal(model_capture_ack_key(CAPTURE_NAK_PSN), "psn_sequence_error");
	/* IBA table 45's ends: code 0 is the longest, 31 the next. */
	assert_int_equal(model_capture_rnr_timer_us(0x20), 655360);
	assert_int_equal(model_capture_rnr_timer_us(0x20 | 12), 640);
	assert_int_equal(model_capture_rnr_timer_us(0x3f), 491520);
	/* Opcodes by transport; the unused ones named by none. */
	assert_string_equal(model_capture_opcode_name(0x04), "SEND_ONLY");
	assert_string_equal(model_capture_transport_name(0x24), "UC");
	assert_null(model_capture_opcode_name(0x2c));		/* UC has no READ */
	assert_null(model_capture_opcode_name(0x61));		/* UD sends only whole messages */
	assert_null(model_capture_opcode_name(0x15));		/* reserved */
	assert_null(model_capture_opcode_name(0x44));		/* RD */
	assert_string_equal(model_capture_opcode_name(0x81), "CNP");
	assert_string_equal(model_capture_transport_name(0xa4), "XRC");
	assert_string_equal(model_capture_opcode_name(0x1c), "FLUSH");
	assert_int_equal(model_capture_opcode_ext(0x1c), CAPTURE_FETH | CAPTURE_RETH);
	assert_int_equal(model_capture_opcode_ext(0x65), CAPTURE_DETH | CAPTURE_IMMDT);
	assert_true(model_capture_opcode_is_request(0x1d));
	assert_false(model_capture_opcode_is_request(0x11));
	assert_false(model_capture_opcode_is_request(0x81));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rc_pingpong),
		cmocka_unit_test(ud_pingpong),
		cmocka_unit_test(write_bw),
		cmocka_unit_test(read_lat),
		cmocka_unit_test(atomic_lat),
		cmocka_unit_test(rnr),
		cmocka_unit_test(bad_rkey),
		cmocka_unit_test(dead_peer),
		cmocka_unit_test(truncated),
		cmocka_unit_test(not_roce),
		cmocka_unit_test(psn_order),
		cmocka_unit_test(names),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
