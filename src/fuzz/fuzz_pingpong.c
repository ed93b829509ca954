// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: ibv_rc_pingpong's 52-byte exchange message, as --pingpong reads
 * it from a peer. What is accepted must encode back to the same bytes.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "selftest/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[WIRE_PP_LEN], again[WIRE_PP_LEN];
	struct wire_pp m;

	/*
	 * The reader takes exactly 52 bytes: a shorter peer times out, and what
	 * follows (the stock tool's "done") is read later, as something else.
	 */
	if (size < WIRE_PP_LEN)
		return 0;
	memcpy(msg, data, WIRE_PP_LEN);
	if (wire_pp_decode(msg, &m) != 0)
		return 0;
	CHECK(m.qpn && m.qpn <= 0xffffff && m.psn <= 0xffffff);
	wire_pp_encode(&m, again);
	/* Hex digits may come in either case; the encoder writes lower case. */
	for (size_t i = 0; i < WIRE_PP_LEN; i++)
		CHECK(again[i] == (msg[i] >= 'A' && msg[i] <= 'F' ? msg[i] + 32 : msg[i]));
	return 0;
}
