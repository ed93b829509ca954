// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the selftest's native exchange as a server or client reads it,
 * a stream of headers and bodies. Whatever a decoder accepts must encode back
 * to the same bytes, and a result's texts must be printable.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "selftest/wire.h"

static void check_text(const char *s, size_t len)
{
	size_t n = strnlen(s, len);

	CHECK(n < len);
	for (size_t i = 0; i < n; i++)
		CHECK(isprint((unsigned char)s[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[WIRE_MSG_MAX];

	while (size >= WIRE_HDR_LEN) {
		const char *why = NULL;
		int kind = wire_hdr_decode(data, &why);
		size_t body = kind > 0 ? wire_body_len((enum wire_kind)kind) : 0;
		const uint8_t *b = data + WIRE_HDR_LEN;
		size_t n = 0;
		int err = -1;

		if (kind < 0) {
			CHECK(why && *why);
			return 0;
		}
		if (size < WIRE_HDR_LEN + body)
			return 0;	/* truncated: the reader times out */
		why = NULL;
		/* Each kind decoded; what decodes must encode back to the same bytes. */
		switch (kind) {
		case WIRE_HELLO: {
			struct wire_hello h;

			err = wire_hello_decode(b, &h, &why);
			n = err ? 0 : wire_hello_encode(&h, again);
			break;
		}
		case WIRE_STEP: {
			struct wire_step st;

			err = wire_step_decode(b, 8, &st, &why);
			n = err ? 0 : wire_step_encode(&st, again);
			break;
		}
		case WIRE_RESULT: {
			struct st_fault r;
			uint32_t value;

			err = wire_result_decode_value(b, &r, &value, &why);
			if (!err) {
				check_text(r.detail, sizeof(r.detail));
				check_text(r.hint, sizeof(r.hint));
				/* The plain decoder takes exactly those without a value. */
				CHECK(!wire_result_decode(b, &r, &why) == !value);
			}
			n = err ? 0 : wire_result_encode_value(&r, value, again);
			break;
		}
		case WIRE_XOPEN: {
			struct wire_xopen o;

			err = wire_xopen_decode(b, &o, &why);
			n = err ? 0 : wire_xopen_encode(&o, again);
			break;
		}
		case WIRE_XENDS: {
			struct wire_xends e;

			err = wire_xends_decode(b, &e, &why);
			n = err ? 0 : wire_xends_encode(&e, again);
			break;
		}
		case WIRE_XSTEP: {
			struct wire_xstep st;

			err = wire_xstep_decode(b, &st, &why);
			n = err ? 0 : wire_xstep_encode(&st, again);
			break;
		}
		case WIRE_BYE:
			err = 0;
			n = wire_bye_encode(again);
			break;
		default:
			CHECK(!"wire_hdr_decode returned a kind it does not know");
		}
		if (err) {
			CHECK(why && *why);
		} else {
			CHECK(n == WIRE_HDR_LEN + body);
			CHECK(!memcmp(again, data, n));
		}
		data += WIRE_HDR_LEN + body;
		size -= WIRE_HDR_LEN + body;
	}
	return 0;
}
