// SPDX-License-Identifier: GPL-2.0-or-later
/* A capture's packets, conversations and counts, plain and JSON (views/capture.h). */
#include <inttypes.h>

#include "cli/out.h"
#include "model/capture.h"
#include "views/capture.h"

static void opt_u64(struct out *o, const char *key, const char *fmt, bool has, uint64_t v)
{
	if (has)
		out_u64(o, key, fmt, v);
	else
		out_str(o, key, NULL, NULL);
}

/* What P's AETH says: "ACK", "RNR NAK" with its timer, or the NAK by name. */
static void ack(struct out *o, const struct capture_pkt *p)
{
	enum capture_ack k = model_capture_ack_kind(p->syndrome);

	out_str(o, "ack", NULL, model_capture_ack_key(k));
	out_text(o, " %s", model_capture_ack_name(k));
	out_u64(o, "msn", " msn %" PRIu64, p->msn);
	opt_u64(o, "rnr_timer_us", " timer %" PRIu64 " us", k == CAPTURE_NAK_RNR,
		model_capture_rnr_timer_us(p->syndrome));
}

void view_capture_packet(struct out *o, const struct capture_pkt *p, int64_t rel_us,
			 const struct capture_seen *seen, const struct capture_flows *f)
{
	const struct capture_qp *q = &f->v[seen->qp];
	bool sender = q->sender_known || (p->ext & CAPTURE_DETH);

	out_obj_open(o, NULL);
	out_str(o, "record", NULL, "packet");
	out_s64(o, "time_us", NULL, rel_us);
	out_text(o, "%.6f", (double)rel_us / 1e6);
	out_str(o, "src", " %s", p->src);
	out_str(o, "dst", " > %s", p->dst);
	out_str(o, "transport", " %s", model_capture_transport_name(p->opcode));
	out_str(o, "opcode", " %s", model_capture_opcode_name(p->opcode));
	out_u64(o, "qpn", " qp %" PRIu64, p->dqpn);
	opt_u64(o, "src_qpn", " from qp %" PRIu64, sender,
		(p->ext & CAPTURE_DETH) ? p->sqpn : q->sender_qpn);
	out_u64(o, "psn", " psn %" PRIu64, p->psn);
	out_u64(o, "payload", " len %" PRIu64, p->payload);
	if (p->ext & CAPTURE_AETH)
		ack(o, p);
	else {
		out_str(o, "ack", NULL, NULL);
		out_str(o, "msn", NULL, NULL);
		out_str(o, "rnr_timer_us", NULL, NULL);
	}
	opt_u64(o, "rkey", " rkey 0x%" PRIx64, p->ext & (CAPTURE_RETH | CAPTURE_ATOMICETH), p->rkey);
	opt_u64(o, "dma_len", " dma_len %" PRIu64, p->ext & CAPTURE_RETH, p->dma_len);
	opt_u64(o, "qkey", " qkey 0x%" PRIx64, p->ext & CAPTURE_DETH, p->qkey);
	out_bool(o, "resent", NULL, seen->resent);
	if (seen->resent)
		out_text(o, " RESENT");
	/* A wait of a millisecond or more before it, in its conversation. */
	out_u64(o, "gap_us", NULL, seen->gap_us);
	if (seen->gap_us >= 1000)
		out_text(o, " after %.3f ms", (double)seen->gap_us / 1e3);
	out_nl(o);
	out_obj_close(o);
}

void view_capture_qp(struct out *o, const struct capture_qp *q, uint64_t t0_us)
{
	static const enum capture_ack naks[] = {
		CAPTURE_NAK_RNR, CAPTURE_NAK_PSN, CAPTURE_NAK_INVALID, CAPTURE_NAK_ACCESS,
		CAPTURE_NAK_OPERATION, CAPTURE_NAK_INVALID_RD, CAPTURE_ACK_RESERVED,
	};
	uint64_t all = 0;

	out_obj_open(o, NULL);
	out_str(o, "record", NULL, "qp");
	out_u64(o, "qpn", "qp %" PRIu64, q->qpn);
	out_str(o, "dst", " at %s", q->addr);
	out_str(o, "src", " from %s", q->from);
	opt_u64(o, "src_qpn", " qp %" PRIu64, q->sender_known, q->sender_qpn);
	out_u64(o, "sport", " port %" PRIu64, q->sport);
	out_u64(o, "packets", ": %" PRIu64, q->packets);
	out_text(o, q->packets == 1 ? " packet" : " packets");
	out_u64(o, "bytes", ", %" PRIu64, q->bytes);
	out_text(o, q->bytes == 1 ? " byte" : " bytes");
	out_u64(o, "retransmissions", ", %" PRIu64 " resent", q->resent);
	out_obj_open(o, "naks");
	for (size_t i = 0; i < sizeof(naks) / sizeof(naks[0]); i++) {
		uint64_t n = q->naks[naks[i]];

		all += n;
		/* Text names only the kinds that came; JSON has every one. */
		if (n)
			out_text(o, ", %" PRIu64 " %s", n, model_capture_ack_name(naks[i]));
		out_u64(o, model_capture_ack_key(naks[i]), NULL, n);
	}
	out_obj_close(o);
	if (!all)
		out_text(o, ", no NAK");
	out_s64(o, "first_us", NULL, (int64_t)(q->first_us - t0_us));
	out_s64(o, "last_us", NULL, (int64_t)(q->last_us - t0_us));
	out_u64(o, "longest_gap_us", NULL, q->longest_gap_us);
	out_text(o, ", longest wait %.3f ms", (double)q->longest_gap_us / 1e3);
	out_nl(o);
	out_obj_close(o);
}

void view_capture_end(struct out *o, const struct capture_totals *t)
{
	out_obj_open(o, NULL);
	out_str(o, "record", NULL, "end");
	out_u64(o, "packets", "%" PRIu64, t->packets);
	out_text(o, t->packets == 1 ? " RoCE v2 packet" : " RoCE v2 packets");
	out_u64(o, "duration_us", NULL, t->duration_us);
	out_text(o, " in %.3f s", (double)t->duration_us / 1e6);
	out_u64(o, "dropped", ", %" PRIu64 " dropped", t->dropped);
	out_u64(o, "malformed", ", %" PRIu64 " malformed", t->malformed);
	out_u64(o, "other", ", %" PRIu64, t->other);
	out_text(o, t->other == 1 ? " other frame" : " other frames");
	out_nl(o);
	out_obj_close(o);
}
