/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The packets record --capture keeps around the errors: the last RoCE v2
 * frames captured held in a ring of fixed size, as they came, until an
 * error asks for those of a set of QPs (by number: the command's and their
 * peers', known by then however soon the QPs were made), and those that
 * come soon after an error let through as they come. Pure: frames in,
 * frames out; what captures them lives in kernel/, what writes them in cmd/.
 */
#ifndef RDMACTL_MODEL_CAPTURE_KEEP_H
#define RDMACTL_MODEL_CAPTURE_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/capture.h"

/* The bytes of a frame kept: every header of a RoCE v2 packet, VLAN tags and some payload. */
#define CAPTURE_KEEP_SNAP 256
/*
 * The frames held: at CAPTURE_KEEP_SNAP bytes each, some 9 MiB however
 * long the command runs; at a full link's rate they are the last tens of
 * milliseconds, at a ping-pong's the last seconds.
 */
#define CAPTURE_KEEP_SLOTS 32768
/* An error asks for the packets of this long before it, and lets through those this long after. */
#define CAPTURE_KEEP_BEFORE_US 2000000
#define CAPTURE_KEEP_AFTER_US 1000000

struct capture_keep_frame {
	uint64_t ts_us;			/* its capture's time, microseconds since the epoch */
	uint32_t len, wire_len;		/* the bytes kept, of the frame's on the wire */
	uint8_t data[CAPTURE_KEEP_SNAP];
};

struct capture_keep {
	enum capture_link link;		/* what each frame starts with */
	struct capture_keep_frame *ring;	/* CAPTURE_KEEP_SLOTS, the oldest at HEAD */
	size_t head, n;
	uint8_t *qpns;			/* a bit for each of the 2^24 QP numbers kept */
	uint64_t until_us;		/* frames to this time go out as they come; 0: none */
	uint64_t overwritten;		/* held frames the ring gave up for newer ones */
};

/* K made empty, for frames that start as LINK says: 0, or -ENOMEM. */
int model_capture_keep_init(struct capture_keep *k, enum capture_link link);
void model_capture_keep_free(struct capture_keep *k);

/* QPN's packets kept from now on (BTH's destination, or a UD packet's source). */
void model_capture_keep_qpn(struct capture_keep *k, uint32_t qpn);
/* Whether packet P is of the QPs kept. */
bool model_capture_keep_wants(const struct capture_keep *k, const struct capture_pkt *p);
/* Whether frame F is a RoCE v2 packet of the QPs kept. */
bool model_capture_keep_wanted(const struct capture_keep *k, const struct capture_keep_frame *f);

/*
 * A frame, LEN bytes of WIRE_LEN captured at TS_US: true when it is within
 * an error's time and goes out now (the caller writes it, when wanted),
 * false when it is held for an error to come.
 */
bool model_capture_keep_add(struct capture_keep *k, uint64_t ts_us, const uint8_t *data,
			    size_t len, size_t wire_len);

/*
 * An error at AT_US: each held frame from CAPTURE_KEEP_BEFORE_US before it
 * on, of the QPs kept, given to EACH, oldest first; every held frame taken
 * off; frames to AT_US + CAPTURE_KEEP_AFTER_US go out as they come. The
 * number given.
 */
size_t model_capture_keep_mark(struct capture_keep *k, uint64_t at_us,
			       void (*each)(const struct capture_keep_frame *f, void *arg),
			       void *arg);

#endif
