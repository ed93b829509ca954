// SPDX-License-Identifier: GPL-2.0-or-later
/* The packets kept around the errors (capture_keep.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture_keep.h"

/* QP numbers are 24 bits: a bit each. */
#define QPN_BITS (1u << 24)

int model_capture_keep_init(struct capture_keep *k, enum capture_link link)
{
	memset(k, 0, sizeof(*k));
	k->link = link;
	/* Zeroed pages are the kernel's until written: memory grows with what is held. */
	k->ring = calloc(CAPTURE_KEEP_SLOTS, sizeof(*k->ring));
	k->qpns = calloc(QPN_BITS / 8, 1);
	if (!k->ring || !k->qpns) {
		model_capture_keep_free(k);
		return -ENOMEM;
	}
	return 0;
}

void model_capture_keep_free(struct capture_keep *k)
{
	free(k->ring);
	free(k->qpns);
	k->ring = NULL;
	k->qpns = NULL;
}

void model_capture_keep_qpn(struct capture_keep *k, uint32_t qpn)
{
	qpn &= QPN_BITS - 1;
	k->qpns[qpn / 8] |= (uint8_t)(1u << (qpn % 8));
}

static bool kept(const struct capture_keep *k, uint32_t qpn)
{
	qpn &= QPN_BITS - 1;
	return k->qpns[qpn / 8] & (1u << (qpn % 8));
}

bool model_capture_keep_wants(const struct capture_keep *k, const struct capture_pkt *p)
{
	/* BTH names only where a packet goes; a UD packet's DETH names its sender too. */
	return kept(k, p->dqpn) || ((p->ext & CAPTURE_DETH) && kept(k, p->sqpn));
}

bool model_capture_keep_wanted(const struct capture_keep *k, const struct capture_keep_frame *f)
{
	struct capture_pkt p;

	return !model_capture_decode(k->link, f->data, f->len, f->wire_len, &p) &&
	       model_capture_keep_wants(k, &p);
}

/*
 * The frames held given to EACH when of the errors' time and the QPs kept,
 * oldest first; every one taken off. The number given.
 */
static size_t judge(struct capture_keep *k, capture_keep_each *each, void *arg)
{
	size_t given = 0;

	for (; k->n; k->head = (k->head + 1) % CAPTURE_KEEP_SLOTS, k->n--) {
		const struct capture_keep_frame *f = &k->ring[k->head];

		if (f->ts_us < k->from_us || f->ts_us > k->until_us ||
		    !model_capture_keep_wanted(k, f))
			continue;
		each(f, arg);
		given++;
	}
	k->head = 0;
	return given;
}

bool model_capture_keep_add(struct capture_keep *k, uint64_t ts_us, const uint8_t *data,
			    size_t len, size_t wire_len, capture_keep_each *each, void *arg)
{
	struct capture_keep_frame *f;

	if (k->judging && ts_us > k->until_us) {
		judge(k, each, arg);
		k->judging = false;
	}
	if (!k->judging && k->until_us && ts_us <= k->until_us)
		return true;
	if (k->n == CAPTURE_KEEP_SLOTS) {
		if (k->judging) {
			/* Full within an error's time: judged now, by the QPs known so far. */
			judge(k, each, arg);
		} else {
			k->head = (k->head + 1) % CAPTURE_KEEP_SLOTS;
			k->n--;
			k->overwritten++;
		}
	}
	f = &k->ring[(k->head + k->n++) % CAPTURE_KEEP_SLOTS];
	f->ts_us = ts_us;
	f->len = (uint32_t)(len < CAPTURE_KEEP_SNAP ? len : CAPTURE_KEEP_SNAP);
	f->wire_len = (uint32_t)wire_len;
	memcpy(f->data, data, f->len);
	return false;
}

size_t model_capture_keep_mark(struct capture_keep *k, uint64_t at_us, capture_keep_each *each,
			       void *arg)
{
	uint64_t from = at_us > CAPTURE_KEEP_BEFORE_US ? at_us - CAPTURE_KEEP_BEFORE_US : 0;
	size_t given = 0;

	/* An earlier error's time passed with no frame after it: judged first. */
	if (k->judging && from > k->until_us) {
		given = judge(k, each, arg);
		k->judging = false;
	}
	if (!k->judging) {
		/* Those of an earlier error's time went out already: none twice. */
		k->from_us = k->until_us && from <= k->until_us ? k->until_us + 1 : from;
		k->judging = true;
	} else if (from < k->from_us) {
		k->from_us = from;
	}
	if (at_us + CAPTURE_KEEP_AFTER_US > k->until_us)
		k->until_us = at_us + CAPTURE_KEEP_AFTER_US;
	return given;
}

size_t model_capture_keep_end(struct capture_keep *k, capture_keep_each *each, void *arg)
{
	size_t given = k->judging ? judge(k, each, arg) : 0;

	k->judging = false;
	k->n = 0;
	k->head = 0;
	return given;
}
