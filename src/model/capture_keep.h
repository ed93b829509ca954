/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The packets record --capture keeps around the errors: the last RoCE v2
 * frames captured held in a ring of fixed size, as they came. An error
 * asks for those of its time, from some seconds before it to a second
 * after, of a set of QPs (by number: the command's and their peers');
 * they are judged once that time has passed, by the QPs known then, so a
 * peer's QP learnt only after the error still counts. Pure: frames in,
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
/* An error asks for the packets of this long before it to this long after it. */
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
	uint64_t from_us, until_us;	/* the errors' time asked for; 0: none yet */
	bool judging;			/* that time not passed yet: its frames held */
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

/* Given each frame of the QPs kept that an error asked for, oldest first. */
typedef void capture_keep_each(const struct capture_keep_frame *f, void *arg);

/*
 * A frame, LEN bytes of WIRE_LEN captured at TS_US, held as it came. A
 * frame past the errors' time ends it first: its frames given to EACH.
 * True when the frame is of that time, judged already (it came late,
 * from another device): the caller writes it now, when wanted.
 */
bool model_capture_keep_add(struct capture_keep *k, uint64_t ts_us, const uint8_t *data,
			    size_t len, size_t wire_len, capture_keep_each *each, void *arg);

/*
 * An error at AT_US: the frames from CAPTURE_KEEP_BEFORE_US before it to
 * CAPTURE_KEEP_AFTER_US after it asked for, judged when a frame past that
 * comes, or at the end. The number given of an earlier error's time that
 * had passed with no frame after it.
 */
size_t model_capture_keep_mark(struct capture_keep *k, uint64_t at_us, capture_keep_each *each,
			       void *arg);

/* The end: the errors' time not passed yet judged now; every frame held taken off. The number given. */
size_t model_capture_keep_end(struct capture_keep *k, capture_keep_each *each, void *arg);

#endif
