// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a captured frame as the packet decoder reads it, from its
 * Ethernet header and from its IP header on. What decodes has a named
 * opcode, printable addresses and a payload inside the UDP datagram, and
 * is followed in a conversation whose counts add up.
 */
#include <errno.h>
#include <ctype.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "model/capture.h"

static void check_pkt(const struct capture_pkt *p)
{
	CHECK(model_capture_opcode_name(p->opcode) && model_capture_transport_name(p->opcode));
	CHECK(p->ip_version == 4 || p->ip_version == 6);
	for (const char *a = p->src; *a; a++)
		CHECK(isxdigit((unsigned char)*a) || *a == '.' || *a == ':');
	for (const char *a = p->dst; *a; a++)
		CHECK(isxdigit((unsigned char)*a) || *a == '.' || *a == ':');
	/* What UDP's length left after the headers, pad and ICRC: never wrapped below zero. */
	CHECK(p->payload + p->pad + 24u <= 65535u);	/* UDP 8, BTH 12, ICRC 4 */
	CHECK((p->ext & ~model_capture_opcode_ext(p->opcode)) == 0);
	if (p->ext & CAPTURE_AETH)
		CHECK(model_capture_ack_name(model_capture_ack_kind(p->syndrome)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum capture_link links[] = { CAPTURE_LINK_ETHERNET, CAPTURE_LINK_RAW,
						   CAPTURE_LINK_SLL, CAPTURE_LINK_SLL2 };

	for (size_t l = 0; l < sizeof(links) / sizeof(links[0]); l++) {
		struct capture_flows f = { 0 };
		struct capture_pkt p;
		struct capture_seen s;
		int r = model_capture_decode(links[l], data, size, size, &p);

		CHECK(r == 0 || r == -EBADMSG || r == -EPROTONOSUPPORT);
		if (r)
			continue;
		check_pkt(&p);
		/* Twice: the second is the first's PSN again, resent if a reliable request. */
		for (int again = 0; again < 2; again++) {
			CHECK(model_capture_track(&f, &p, 1000 * (uint64_t)again, &s) == 0);
			CHECK(f.n == 1 && s.qp == 0);
			CHECK(s.gap_us == (again ? 1000 : 0));
		}
		CHECK(f.v[0].packets == 2 && f.v[0].resent <= 1 && f.v[0].longest_gap_us == 1000);
		CHECK(s.resent == (model_capture_opcode_is_request(p.opcode) &&
				   (!strcmp(model_capture_transport_name(p.opcode), "RC") ||
				    !strcmp(model_capture_transport_name(p.opcode), "XRC"))));
		model_capture_flows_free(&f);
	}
	return 0;
}
