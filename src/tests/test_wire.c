// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for wire.c: the selftest's two-host messages, round trips and refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "selftest/wire.h"

static const struct wire_hello good = {
	.flags = WIRE_F_ATOMICS, .lid = 0, .mtu = 3, .qpn = 0x11, .psn = 0xabcdef,
	.gid = { [10] = 0xff, [11] = 0xff, 10, 11, 12, 1 },
	.addr = 0x7f0012345625, .rkey = 0x1234, .len = 12411,
	.atom_addr = 0x7f0000001000, .atom_rkey = 0x5678,
};

static void hello_round_trip(void **state)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_hello h;
	const char *why = NULL;

	(void)state;
	assert_int_equal(wire_hello_encode(&good, buf), WIRE_HDR_LEN + WIRE_HELLO_BODY);
	assert_int_equal(wire_hdr_decode(buf, &why), WIRE_HELLO);
	/* Big-endian on the wire, whatever the host. */
	assert_memory_equal(buf, "RCST\0\1\0\1\0\0\0\x40\0\0\0\0", 16);
	assert_memory_equal(buf + 16 + 8, "\0\0\0\x11\0\xab\xcd\xef", 8);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), 0);
	assert_memory_equal(&h.gid, good.gid, 16);
	assert_int_equal(h.qpn, good.qpn);
	assert_int_equal(h.psn, good.psn);
	assert_int_equal(h.addr, good.addr);
	assert_int_equal(h.len, good.len);
	assert_int_equal(h.atom_addr, good.atom_addr);
	assert_int_equal(h.atom_rkey, good.atom_rkey);
	assert_int_equal(h.mtu, 3);
}

/* Each bad field on its own is refused, and WHY names it. */
static void hello_refusals(void **state)
{
	static const struct {
		size_t off;	/* into the body */
		uint8_t val;
		const char *why;
	} cases[] = {
		{ 1, 0x02, "unknown flags" },
		{ 4, 0, "MTU code outside 1..5" },
		{ 4, 6, "MTU code outside 1..5" },
		{ 5, 1, "reserved bytes not zero" },
		{ 63, 1, "reserved bytes not zero" },
		{ 8, 1, "QP number outside 1..0xffffff" },
		{ 12, 1, "PSN wider than 24 bits" },
		{ 44, 0x05, "buffer length outside 1..64 MiB" },
		{ 55, 0x04, "atomic word inconsistent with the flags, or not 8-aligned" },
	};
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_hello h, z = good;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		wire_hello_encode(&good, buf);
		buf[WIRE_HDR_LEN + cases[i].off] = cases[i].val;
		why = NULL;
		assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), -EBADMSG);
		assert_string_equal(why, cases[i].why);
	}
	z.qpn = 0;
	wire_hello_encode(&z, buf);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), -EBADMSG);
	z = good;
	memset(z.gid, 0, 16);
	wire_hello_encode(&z, buf);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), -EBADMSG);
	assert_string_equal(why, "GID all zero");
	z = good;
	z.addr = UINT64_MAX - 5;
	wire_hello_encode(&z, buf);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), -EBADMSG);
	assert_string_equal(why, "buffer wraps around the address space");
	z = good;
	z.flags = 0;
	wire_hello_encode(&z, buf);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), -EBADMSG);
	z.atom_addr = z.atom_rkey = 0;
	wire_hello_encode(&z, buf);
	assert_int_equal(wire_hello_decode(buf + WIRE_HDR_LEN, &h, &why), 0);
}

static void header_refusals(void **state)
{
	uint8_t buf[WIRE_MSG_MAX];
	const char *why;

	(void)state;
	wire_bye_encode(buf);
	assert_int_equal(wire_hdr_decode(buf, &why), WIRE_BYE);
	buf[0] = 'X';
	assert_int_equal(wire_hdr_decode(buf, &why), -EBADMSG);
	assert_string_equal(why, "not an rdmactl selftest message (bad magic)");
	wire_bye_encode(buf);
	buf[5] = 2;
	assert_int_equal(wire_hdr_decode(buf, &why), -EPROTO);
	wire_bye_encode(buf);
	buf[7] = 9;
	assert_int_equal(wire_hdr_decode(buf, &why), -EBADMSG);
	assert_string_equal(why, "unknown message kind");
	wire_bye_encode(buf);
	buf[11] = 1;
	assert_int_equal(wire_hdr_decode(buf, &why), -EBADMSG);
	assert_string_equal(why, "wrong length for its kind");
	wire_bye_encode(buf);
	buf[15] = 1;
	assert_int_equal(wire_hdr_decode(buf, &why), -EBADMSG);
	/* A hello header claiming a huge body is refused before any body is read. */
	wire_hello_encode(&good, buf);
	buf[8] = 0x7f;
	assert_int_equal(wire_hdr_decode(buf, &why), -EBADMSG);
}

static void step_and_result(void **state)
{
	struct wire_step s = { .stage = 2, .phase = WIRE_CHECK, .iters = 1000, .size = 65536 }, t;
	struct st_fault r = { .failed = true }, q;
	uint8_t buf[WIRE_MSG_MAX];
	const char *why;

	(void)state;
	assert_int_equal(wire_step_encode(&s, buf), WIRE_HDR_LEN + WIRE_STEP_BODY);
	assert_int_equal(wire_step_decode(buf + WIRE_HDR_LEN, 7, &t, &why), 0);
	assert_int_equal(t.stage, 2);
	assert_int_equal(t.phase, WIRE_CHECK);
	assert_int_equal(t.iters, 1000);
	assert_int_equal(t.size, 65536);
	assert_int_equal(wire_step_decode(buf + WIRE_HDR_LEN, 2, &t, &why), -EBADMSG);
	assert_string_equal(why, "unknown stage");
	buf[WIRE_HDR_LEN + 1] = 7;
	assert_int_equal(wire_step_decode(buf + WIRE_HDR_LEN, 7, &t, &why), -EBADMSG);
	assert_string_equal(why, "unknown phase");

	strcpy(r.detail, "received data: byte 17 of 12411 is 0xee");
	strcpy(r.hint, "look here");
	assert_int_equal(wire_result_encode(&r, buf), WIRE_HDR_LEN + WIRE_RESULT_BODY);
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), 0);
	assert_true(q.failed);
	assert_string_equal(q.detail, r.detail);
	assert_string_equal(q.hint, r.hint);
	/* A terminal escape from a hostile server never reaches the user's screen. */
	buf[WIRE_HDR_LEN + 16 + 3] = 0x1b;
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), -EBADMSG);
	/* Nor does text with no NUL, or bytes after the NUL. */
	wire_result_encode(&r, buf);
	memset(buf + WIRE_HDR_LEN + 16, 'a', WIRE_TEXT_LEN);
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), -EBADMSG);
	wire_result_encode(&r, buf);
	buf[WIRE_HDR_LEN + 16 + WIRE_TEXT_LEN - 1] = 'x';
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), -EBADMSG);
	wire_result_encode(&r, buf);
	buf[WIRE_HDR_LEN] = 2;
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), -EBADMSG);
}

/* --transport's messages: round trips, and each bad field refused by name. */
static void transport_messages(void **state)
{
	struct wire_xopen o = { .transport = 3, .nqp = 16, .flags = WIRE_XF_EVENTS,
				.len = 1024, .gid = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 1 } }, p;
	struct wire_xends e = { .nqp = 1, .len = 12411, .addr = 0x7f0012345000, .rkey = 0x99,
				.gid = { [15] = 2 }, .qpn = { 0x12 }, .psn = { 0xffffff } }, f;
	struct wire_xstep s = { .op = 4, .stage = 10, .flags = 2, .len = 1024, .value = ~0ull }, t;
	struct st_fault r = { 0 }, q;
	uint8_t buf[WIRE_MSG_MAX];
	uint32_t value;
	const char *why;

	(void)state;
	for (int i = 0; i < 16; i++) {
		o.qpn[i] = 0x100 + (uint32_t)i;
		o.psn[i] = (uint32_t)i;
	}
	assert_int_equal(wire_xopen_encode(&o, buf), WIRE_HDR_LEN + WIRE_XOPEN_BODY);
	assert_int_equal(wire_hdr_decode(buf, &why), WIRE_XOPEN);
	assert_int_equal(wire_xopen_decode(buf + WIRE_HDR_LEN, &p, &why), 0);
	assert_true(p.transport == o.transport && p.nqp == o.nqp && p.flags == o.flags &&
		    p.len == o.len);
	assert_memory_equal(p.gid, o.gid, 16);
	assert_memory_equal(p.qpn, o.qpn, sizeof(o.qpn));
	assert_memory_equal(p.psn, o.psn, sizeof(o.psn));
	buf[WIRE_HDR_LEN] = 6;
	assert_int_equal(wire_xopen_decode(buf + WIRE_HDR_LEN, &p, &why), -EBADMSG);
	assert_string_equal(why, "unknown transport");
	o.nqp = 2;	/* QPs 3..16 given, but only 2 counted */
	wire_xopen_encode(&o, buf);
	assert_int_equal(wire_xopen_decode(buf + WIRE_HDR_LEN, &p, &why), -EBADMSG);
	assert_string_equal(why, "an unused QP slot not zero");
	o.nqp = 0;
	wire_xopen_encode(&o, buf);
	assert_int_equal(wire_xopen_decode(buf + WIRE_HDR_LEN, &p, &why), -EBADMSG);
	assert_string_equal(why, "QP count outside 1..16");
	o.nqp = 16;
	o.len = WIRE_MAX_LEN + 1;
	wire_xopen_encode(&o, buf);
	assert_int_equal(wire_xopen_decode(buf + WIRE_HDR_LEN, &p, &why), -EBADMSG);
	assert_string_equal(why, "buffer length outside 1..64 MiB");

	assert_int_equal(wire_xends_encode(&e, buf), WIRE_HDR_LEN + WIRE_XENDS_BODY);
	assert_int_equal(wire_xends_decode(buf + WIRE_HDR_LEN, &f, &why), 0);
	assert_true(f.nqp == 1 && f.len == e.len && f.addr == e.addr && f.rkey == e.rkey);
	assert_memory_equal(f.gid, e.gid, 16);
	assert_memory_equal(f.qpn, e.qpn, sizeof(e.qpn));
	assert_memory_equal(f.psn, e.psn, sizeof(e.psn));
	e.qpn[0] = 0x1000000;
	wire_xends_encode(&e, buf);
	assert_int_equal(wire_xends_decode(buf + WIRE_HDR_LEN, &f, &why), -EBADMSG);
	assert_string_equal(why, "QP number outside 1..0xffffff");
	e.qpn[0] = 0x12;
	e.addr = UINT64_MAX - 5;
	wire_xends_encode(&e, buf);
	assert_int_equal(wire_xends_decode(buf + WIRE_HDR_LEN, &f, &why), -EBADMSG);
	assert_string_equal(why, "buffer wraps around the address space");

	assert_int_equal(wire_xstep_encode(&s, buf), WIRE_HDR_LEN + WIRE_XSTEP_BODY);
	assert_int_equal(wire_xstep_decode(buf + WIRE_HDR_LEN, &t, &why), 0);
	assert_true(t.op == s.op && t.stage == s.stage && t.flags == s.flags && t.len == s.len &&
		    t.value == s.value);
	buf[WIRE_HDR_LEN] = WIRE_XOPS + 1;
	assert_int_equal(wire_xstep_decode(buf + WIRE_HDR_LEN, &t, &why), -EBADMSG);
	assert_string_equal(why, "unknown step");
	wire_xstep_encode(&s, buf);
	buf[WIRE_HDR_LEN + 3] = 1;
	assert_int_equal(wire_xstep_decode(buf + WIRE_HDR_LEN, &t, &why), -EBADMSG);
	assert_string_equal(why, "reserved bytes not zero");

	/* A result's value: a window's rkey; a plain result must have none. */
	wire_result_encode_value(&r, 0xabcd1234, buf);
	assert_int_equal(wire_result_decode_value(buf + WIRE_HDR_LEN, &q, &value, &why), 0);
	assert_int_equal(value, 0xabcd1234);
	assert_false(q.failed);
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), -EBADMSG);
	wire_result_encode(&r, buf);
	assert_int_equal(wire_result_decode(buf + WIRE_HDR_LEN, &q, &why), 0);
}

/* ibv_rc_pingpong's text, as the stock tool writes it for a RoCE v2 IPv4 GID. */
static void pingpong_message(void **state)
{
	static const char stock[WIRE_PP_LEN] =
		"0000:000011:abcdef:00000000000000000000ffff0a0b0c01";
	struct wire_pp m = { .lid = 0, .qpn = 0x11, .psn = 0xabcdef,
			     .gid = { [10] = 0xff, [11] = 0xff, 10, 11, 12, 1 } }, q;
	char buf[WIRE_PP_LEN];

	(void)state;
	wire_pp_encode(&m, buf);
	assert_memory_equal(buf, stock, WIRE_PP_LEN);
	assert_int_equal(wire_pp_decode(stock, &q), 0);
	assert_memory_equal(&q, &m, sizeof(m));
	/* Each separator, digit field, the GID, the NUL and QPN 0 is checked. */
	for (size_t i = 0; i < WIRE_PP_LEN; i++) {
		memcpy(buf, stock, WIRE_PP_LEN);
		buf[i] = i == WIRE_PP_LEN - 1 ? 'x' : 'g';
		assert_int_equal(wire_pp_decode(buf, &q), -EBADMSG);
	}
	memcpy(buf, stock, WIRE_PP_LEN);
	memcpy(buf + 5, "000000", 6);
	assert_int_equal(wire_pp_decode(buf, &q), -EBADMSG);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_round_trip),
		cmocka_unit_test(hello_refusals),
		cmocka_unit_test(header_refusals),
		cmocka_unit_test(step_and_result),
		cmocka_unit_test(pingpong_message),
		cmocka_unit_test(transport_messages),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
