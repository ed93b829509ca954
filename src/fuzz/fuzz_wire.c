// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the selftest's native exchange as a server or client reads it,
 * a stream of headers and bodies. Whatever a decoder accepts must encode back
 * to the same bytes, and a result's texts must be printable.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "wire.h"

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

		if (kind < 0) {
			CHECK(why && *why);
			return 0;
		}
		if (size < WIRE_HDR_LEN + body)
			return 0;	/* truncated: the reader times out */
		why = NULL;
		switch (kind) {
		case WIRE_HELLO: {
			struct wire_hello h;

			if (wire_hello_decode(b, &h, &why) == 0) {
				CHECK(wire_hello_encode(&h, again) == WIRE_HDR_LEN + body);
				CHECK(!memcmp(again, data, WIRE_HDR_LEN + body));
			} else {
				CHECK(why && *why);
			}
			break;
		}
		case WIRE_STEP: {
			struct wire_step s;

			if (wire_step_decode(b, 8, &s, &why) == 0) {
				CHECK(wire_step_encode(&s, again) == WIRE_HDR_LEN + body);
				CHECK(!memcmp(again, data, WIRE_HDR_LEN + body));
			} else {
				CHECK(why && *why);
			}
			break;
		}
		case WIRE_RESULT: {
			struct wire_result r;

			if (wire_result_decode(b, &r, &why) == 0) {
				check_text(r.detail, sizeof(r.detail));
				check_text(r.hint, sizeof(r.hint));
				CHECK(wire_result_encode(&r, again) == WIRE_HDR_LEN + body);
				CHECK(!memcmp(again, data, WIRE_HDR_LEN + body));
			} else {
				CHECK(why && *why);
			}
			break;
		}
		case WIRE_BYE:
			CHECK(body == 0);
			break;
		default:
			CHECK(!"wire_hdr_decode returned a kind it does not know");
		}
		data += WIRE_HDR_LEN + body;
		size -= WIRE_HDR_LEN + body;
	}
	return 0;
}
