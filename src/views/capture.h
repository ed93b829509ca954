/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A capture's packets, each QP's conversation at its end, and its counts (plain and JSON). */
#ifndef RDMACTL_VIEWS_CAPTURE_H
#define RDMACTL_VIEWS_CAPTURE_H

#include <stdint.h>

#include "model/capture.h"

struct out;

/* What the capture as a whole saw. */
struct capture_totals {
	uint64_t packets;	/* RoCE v2 packets shown (or written) */
	uint64_t other;		/* frames that were no RoCE v2 packet */
	uint64_t malformed;	/* RoCE v2 frames too short or malformed to decode */
	uint64_t dropped;	/* lost before the capture read them */
	uint64_t duration_us;	/* from the earliest packet to the latest */
};

/*
 * Packet P, REL_US after the capture's first (before it, negative, where a
 * merged file's timestamps go back), as capture_track SAW it in F: a line
 * in text, an object with "record": "packet" in JSON.
 */
void view_capture_packet(struct out *o, const struct capture_pkt *p, int64_t rel_us,
			 const struct capture_seen *seen, const struct capture_flows *f);

/* Conversation Q, its times from T0_US (the first packet's) on: "record": "qp". */
void view_capture_qp(struct out *o, const struct capture_qp *q, uint64_t t0_us);

/* The counts at the end: "record": "end". */
void view_capture_end(struct out *o, const struct capture_totals *t);

#endif
