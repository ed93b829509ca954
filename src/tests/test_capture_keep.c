// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for model/capture_keep.c: the packets record --capture keeps,
 * real ones (bats/fixtures/packets/rnr.pcap, a SEND met by an RNR NAK).
 * Only the QPs named are wanted, a UD packet by its sender too; frames are
 * held until an error asks for those of the 2 s before it to 1 s after,
 * given oldest first once that time has passed, by the QPs known then;
 * a full ring gives up its oldest, or within an error's time is judged
 * early.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include <pcap/pcap.h>

#include "tests/unit.h"

#include "model/capture_keep.h"

#define SEC 1000000ull
#define T0 (1764748800ull * SEC)	/* some time since the epoch */

struct given {
	uint64_t ts[64];
	size_t n;
};

static void give(const struct capture_keep_frame *f, void *arg)
{
	struct given *g = arg;

	if (g->n < 64)
		g->ts[g->n++] = f->ts_us;
}

/* The RNR fixture's first frame (a SEND), and its link. */
static struct capture_keep_frame one;
static enum capture_link link;

static int load(void **state)
{
	char path[512], err[PCAP_ERRBUF_SIZE];
	const char *dir = getenv("FIXTURES");
	struct pcap_pkthdr *h;
	const u_char *d;
	pcap_t *pc;

	(void)state;
	snprintf(path, sizeof(path), "%s/packets/rnr.pcap", dir ? dir : "bats/fixtures");
	pc = pcap_open_offline(path, err);
	if (!pc)
		return -1;
	link = (enum capture_link)pcap_datalink(pc);
	if (pcap_next_ex(pc, &h, &d) == 1) {
		one.len = h->caplen < CAPTURE_KEEP_SNAP ? h->caplen : CAPTURE_KEEP_SNAP;
		one.wire_len = h->len;
		memcpy(one.data, d, one.len);
	}
	pcap_close(pc);
	return one.len ? 0 : -1;
}

static struct given added;	/* what add_at's frames gave */

static bool add_at(struct capture_keep *k, const struct capture_keep_frame *f, uint64_t ts)
{
	return model_capture_keep_add(k, ts, f->data, f->len, f->wire_len, give, &added);
}

/* The QP frame F goes to, and with ANOTHER the one after it, kept in K. */
static void keep_qp_of(struct capture_keep *k, const struct capture_keep_frame *f, bool another)
{
	struct capture_pkt p;

	assert_int_equal(model_capture_decode(link, f->data, f->len, f->wire_len, &p), 0);
	model_capture_keep_qpn(k, p.dqpn + another);
}

/* K made empty, with nothing given yet, keeping the fixture's QP when KEEP. */
static void fresh(struct capture_keep *k, bool keep)
{
	memset(&added, 0, sizeof(added));
	assert_int_equal(model_capture_keep_init(k, link), 0);
	if (keep)
		keep_qp_of(k, &one, false);
}

static void wanted(void **state)
{
	struct capture_keep k;
	struct capture_pkt rc = { .dqpn = 17 }, elsewhere = { .dqpn = 18 };
	struct capture_pkt ud = { .dqpn = 1, .ext = CAPTURE_DETH, .sqpn = 17 };
	struct capture_pkt ud_other = { .dqpn = 1, .ext = CAPTURE_DETH, .sqpn = 19 };

	(void)state;
	assert_int_equal(model_capture_keep_init(&k, link), 0);
	assert_false(model_capture_keep_wants(&k, &rc));
	model_capture_keep_qpn(&k, 17);
	model_capture_keep_qpn(&k, 0xffffff);
	assert_true(model_capture_keep_wants(&k, &rc));
	assert_false(model_capture_keep_wants(&k, &elsewhere));
	assert_true(model_capture_keep_wants(&k, &ud));
	assert_false(model_capture_keep_wants(&k, &ud_other));
	assert_true(model_capture_keep_wants(&k, &(struct capture_pkt){ .dqpn = 0xffffff }));
	model_capture_keep_free(&k);
}

static void around_an_error(void **state)
{
	struct capture_keep k;
	struct given g = { 0 };

	(void)state;
	fresh(&k, true);
	assert_true(model_capture_keep_wanted(&k, &one));
	/* Held, none going out before an error. */
	assert_false(add_at(&k, &one, T0));
	assert_false(add_at(&k, &one, T0 + 1 * SEC));
	assert_false(add_at(&k, &one, T0 + 2 * SEC));
	assert_false(add_at(&k, &one, T0 + 3 * SEC));
	/* An error at 3.5 s: nothing given before its time, to 4.5 s, has passed. */
	assert_int_equal(model_capture_keep_mark(&k, T0 + 3 * SEC + SEC / 2, give, &g), 0);
	assert_int_equal(g.n, 0);
	/* Asked again: one time, nothing twice. */
	assert_int_equal(model_capture_keep_mark(&k, T0 + 3 * SEC + SEC / 2, give, &g), 0);
	assert_false(add_at(&k, &one, T0 + 4 * SEC));
	assert_false(add_at(&k, &one, T0 + 4 * SEC + SEC / 2));
	assert_int_equal(added.n, 0);
	/* A frame past it: those from 1.5 s to 4.5 s given, oldest first; the older dropped. */
	assert_false(add_at(&k, &one, T0 + 5 * SEC));
	assert_int_equal(added.n, 4);
	assert_true(added.ts[0] == T0 + 2 * SEC && added.ts[1] == T0 + 3 * SEC &&
		    added.ts[2] == T0 + 4 * SEC && added.ts[3] == T0 + 4 * SEC + SEC / 2);
	/* The one past it is held, as before any error. */
	assert_int_equal(k.n, 1);
	/* A frame's bytes kept as they came, its length on the wire as it was. */
	assert_int_equal(k.ring[k.head].len, one.len);
	assert_int_equal(k.ring[k.head].wire_len, one.wire_len);
	assert_memory_equal(k.ring[k.head].data, one.data, one.len);
	/* One of that time that came late, from another device: the caller's to write now. */
	assert_true(add_at(&k, &one, T0 + 4 * SEC + 1));
	/* The end: nothing asked for, nothing given. */
	assert_int_equal(model_capture_keep_end(&k, give, &g), 0);
	assert_int_equal(k.n, 0);
	model_capture_keep_free(&k);
	/* Another QP's error: this QP's frames held are not given. */
	assert_int_equal(model_capture_keep_init(&k, link), 0);
	keep_qp_of(&k, &one, true);
	assert_false(model_capture_keep_wanted(&k, &one));
	assert_false(add_at(&k, &one, T0));
	g.n = 0;
	assert_int_equal(model_capture_keep_mark(&k, T0 + 1, give, &g), 0);
	assert_int_equal(model_capture_keep_end(&k, give, &g), 0);
	assert_int_equal(k.n, 0);
	model_capture_keep_free(&k);
}

/* The error's peer QP learnt only after it: its frames before the error given too. */
static void peer_learnt_late(void **state)
{
	struct capture_keep k;
	struct given g = { 0 };

	(void)state;
	fresh(&k, false);
	assert_false(add_at(&k, &one, T0));
	assert_int_equal(model_capture_keep_mark(&k, T0 + SEC / 2, give, &g), 0);
	keep_qp_of(&k, &one, false);
	assert_false(add_at(&k, &one, T0 + SEC));
	/* The command ended within the error's time: the end gives both. */
	assert_int_equal(model_capture_keep_end(&k, give, &g), 2);
	assert_true(g.n == 2 && g.ts[0] == T0 && g.ts[1] == T0 + SEC);
	assert_int_equal(added.n, 0);
	model_capture_keep_free(&k);
}

/* Two errors: the second's time begins where the first's ended, nothing given twice. */
static void two_errors(void **state)
{
	struct capture_keep k;
	struct given g = { 0 };

	(void)state;
	fresh(&k, true);
	assert_false(add_at(&k, &one, T0));
	model_capture_keep_mark(&k, T0 + SEC, give, &g);
	assert_false(add_at(&k, &one, T0 + 2 * SEC + 1));	/* past 2 s: the first given */
	assert_int_equal(added.n, 1);
	/* An error at 3 s asks from 1 s: from 2 s on, the first's time given already. */
	assert_int_equal(model_capture_keep_mark(&k, T0 + 3 * SEC, give, &g), 0);
	assert_false(add_at(&k, &one, T0 + 3 * SEC));
	/* A third long after, no frame between: the second's time judged at the third. */
	assert_int_equal(model_capture_keep_mark(&k, T0 + 10 * SEC, give, &g), 2);
	assert_true(g.n == 2 && g.ts[0] == T0 + 2 * SEC + 1 && g.ts[1] == T0 + 3 * SEC);
	assert_int_equal(model_capture_keep_end(&k, give, &g), 0);
	model_capture_keep_free(&k);
}

static void ring_full(void **state)
{
	struct capture_keep k;
	struct given g = { 0 };

	(void)state;
	fresh(&k, true);
	for (uint64_t i = 0; i < CAPTURE_KEEP_SLOTS + 3; i++)
		assert_false(add_at(&k, &one, T0 + i));
	assert_int_equal(k.n, CAPTURE_KEEP_SLOTS);
	assert_int_equal(k.overwritten, 3);
	assert_int_equal(model_capture_keep_mark(&k, T0 + CAPTURE_KEEP_SLOTS + 3, give, &g), 0);
	/* Full within the error's time: what it holds judged then, none given up. */
	assert_false(add_at(&k, &one, T0 + CAPTURE_KEEP_SLOTS + 4));
	assert_int_equal(k.overwritten, 3);
	assert_int_equal(k.n, 1);
	/* The three oldest gave way; the first given is the fourth. */
	assert_true(added.n == 64 && added.ts[0] == T0 + 3);
	assert_int_equal(model_capture_keep_end(&k, give, &g), 1);
	assert_true(g.n == 1 && g.ts[0] == T0 + CAPTURE_KEEP_SLOTS + 4);
	model_capture_keep_free(&k);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wanted),
		cmocka_unit_test(around_an_error),
		cmocka_unit_test(peer_learnt_late),
		cmocka_unit_test(two_errors),
		cmocka_unit_test(ring_full),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests(tests, load, NULL);
}
