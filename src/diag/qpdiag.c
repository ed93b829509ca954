// SPDX-License-Identifier: GPL-2.0-or-later
/* A live QP's trouble: its cause from its state, its peer and its port's counters. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/counter.h"
#include "diag/qpdiag.h"

/* D's fix, formatted. */
__attribute__((format(printf, 2, 3)))
static void fix(struct diag_qp *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->fix, sizeof(d->fix), fmt, ap);
	va_end(ap);
}

/*
 * Adds to D's fix the capture of QP Q's packets ('rdmactl capture DEV --qp
 * N') and SHOWS, what it shows. Between two devices the packets cross a
 * netdev, where a packet socket sees them before the host's firewall does;
 * between two QPs of one device rxe hands them to itself, where capture
 * reads them through eBPF.
 */
static void capture_fix(struct diag_qp *d, const struct rdma_qp *q, const char *shows)
{
	size_t n = strlen(d->fix);

	snprintf(d->fix + n, sizeof(d->fix) - n, "; 'rdmactl capture %s --qp %u' %s", q->dev,
		 q->qpn, shows);
}

/* What a capture shows of a QP whose packets cross its netdev. */
#define WIRE_SHOWS "(in its network namespace) shows its requests RESENT and what comes " \
	"back: nothing (its peer gone, or its packets lost on the way) or its peer's packets, " \
	"which this host drops (a firewall here)"

/* P's counter NAME (rdmactl's name for it), 0 when P has none such. */
static uint64_t counter(const struct port *p, const char *name)
{
	for (size_t k = 0; p && k < p->ncounters; k++) {
		const struct model_counter_info *t = model_counter_info(p->counters[k].name);

		if (t && !strcmp(t->name, name))
			return p->counters[k].value;
	}
	return 0;
}

void diag_qp_facts(const struct port *now, const struct port *before,
			 struct diag_qp_port *f)
{
	memset(f, 0, sizeof(*f));
	f->resent = -1;
	if (!now)
		return;
	f->known = true;
	f->active = now->state == 4;
	f->rnr_exceeded = counter(now, "retry_rnr_exceeded_err");
	f->retry_exceeded = counter(now, "retry_exceeded_err");
	f->link_downed = counter(now, "link_downed");
	f->out_of_seq = counter(now, "out_of_seq_request");
	if (before && before->counters_known && now->counters_known) {
		uint64_t a = counter(before, "completer_retry_err");
		uint64_t b = counter(now, "completer_retry_err");

		f->resent = b >= a ? (int64_t)(b - a) : 0;
	}
}

const struct diag_qp_port *diag_qp_facts_memo(struct diag_qp_memo *m,
						     const struct port *now,
						     const struct port *before)
{
	if (!m->set || m->now != now || m->before != before) {
		diag_qp_facts(now, before, &m->f);
		m->now = now;
		m->before = before;
		m->set = true;
	}
	return &m->f;
}

/* PSNs are 24 bits: whether A and B, both read, differ. */
static bool psn_moved(bool has_a, uint32_t a, bool has_b, uint32_t b)
{
	return has_a && has_b && ((a ^ b) & 0xffffff);
}

/* A QP in ERR or SQE: the likeliest cause from its port and its peer on this host. */
/* What Q's peer (NULL: none on this host) says, begun in D's evidence: its length. */
static size_t peer_evidence(const struct rdma_qp *q, const struct rdma_qp *peer,
			    struct diag_qp *d)
{
	size_t n = 0;

	d->evidence[0] = '\0';
	if (peer) {
		char who[64];

		n = (size_t)snprintf(d->evidence, sizeof(d->evidence), "its peer QP %u of %s is in "
				     "%s; ", peer->qpn, model_qp_owner(peer, who, sizeof(who)),
				     model_qp_state_name(peer->state));
	} else if (q->has_rqpn && q->rqpn) {
		n = (size_t)snprintf(d->evidence, sizeof(d->evidence), "its peer QP %u is on no "
				     "device of this host; ", q->rqpn);
	}
	return n < sizeof(d->evidence) ? n : sizeof(d->evidence) - 1;
}

static void diagnose_error(const struct rdma_qp *q, const struct rdma_qp *peer,
			   const struct diag_qp_port *f, struct diag_qp *d)
{
	size_t n;

	d->trouble = DIAG_QPT_ERROR;
	if (f->known && !f->active) {
		d->sure = true;
		d->cause = "its port went down under it (its netdev set down, or its link removed): "
			   "every QP on the port moved to ERR";
		snprintf(d->evidence, sizeof(d->evidence), "port %u of %s is not ACTIVE", q->port,
			 q->dev);
		fix(d, "bring the netdev up ('rdmactl check --only link' says how), then make the "
			 "QP again: a QP in ERR stays there");
		return;
	}
	n = peer_evidence(q, peer, d);
	if (peer && peer->state == MODEL_QPS_RTS && psn_moved(peer->has_sq_psn, peer->sq_psn,
							       q->has_rq_psn, q->rq_psn) &&
	    !psn_moved(q->has_sq_psn, q->sq_psn, peer->has_rq_psn, peer->rq_psn)) {
		/*
		 * Its peer sent it a request it never took in, and it sent
		 * nothing its peer did not: that request failed here. Where
		 * rxe NAKs it (6.1 and later) both ends end in ERR; 5.10's
		 * moves the receiver to ERR without a word.
		 */
		d->cause = "a request its peer sent it failed here (a remote access error most "
			   "likely: a wrong rkey, address, length or access flags), and no NAK "
			   "told the peer (5.10's rxe sends none for a wrong rkey): the peer "
			   "resends it for as long as its program runs";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "this one still expects PSN "
			 "%u where the peer sends %u", q->rq_psn, peer->sq_psn);
		fix(d, "hold the rkey, address and length the peer's program sends against this "
			 "QP's MR and its access flags (IBV_ACCESS_REMOTE_WRITE, _READ)");
		capture_fix(d, peer, "shows the request RESENT and nothing back");
	} else if (f->rnr_exceeded && (!peer || peer->state != MODEL_QPS_ERR)) {
		d->cause = "RNR retries ran out: its peer had no receive posted when its SEND came";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "retry_rnr_exceeded_err is "
			 "%" PRIu64 " on %s", f->rnr_exceeded, q->dev);
		d->counter = "retry_rnr_exceeded_err";
		d->counted = (uint64_t)f->rnr_exceeded;
		fix(d, "have the receiver post its receives before the sender sends, or set a "
			 "larger rnr_retry (7 retries for ever)");
	} else if (f->retry_exceeded && (!peer || peer->state != MODEL_QPS_ERR)) {
		d->cause = "transport retries ran out: its requests went unanswered (the peer's QP "
			   "gone, a firewall dropping UDP 4791, a route, another network namespace "
			   "before Linux 7.1)";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "retry_exceeded_err is "
			 "%" PRIu64 " on %s", f->retry_exceeded, q->dev);
		d->counter = "retry_exceeded_err";
		d->counted = (uint64_t)f->retry_exceeded;
		fix(d, "'rdmactl check --only firewall,netns,subnet' on both hosts, and whether "
			 "the peer's program still runs");
	} else if (peer && peer->state == MODEL_QPS_ERR) {
		d->cause = "a remote access error most likely (a wrong rkey, address, length or "
			   "access flags in an RDMA READ or WRITE); one end's error flushed the other";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "%s", "RNR and unanswered "
			 "requests leave the receiver in RTS; rxe counts remote access errors nowhere");
		fix(d, "hold the rkey, address and length the program sends against the peer's "
			 "MR and its access flags (IBV_ACCESS_REMOTE_WRITE, _READ); the first error "
			 "completion it polled (10: remote access error) tells: 'rdmactl explain' it");
	} else if (f->link_downed) {
		d->cause = "its port went down and came back (its netdev set down and up): the QP "
			   "moved to ERR meanwhile";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "link_downed is %" PRIu64
			 " on %s", f->link_downed, q->dev);
		fix(d, "make the QP again: a QP in ERR stays there");
	} else {
		d->cause = "a local error most likely: its source GID's address removed or its "
			   "route gone under it (Linux 7.3 says flush, 6.1 local QP operation error), "
			   "or a work request the device refused";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "%s counts no RNR, exhausted "
			 "retries or port down", q->dev);
		fix(d, "'rdmactl check --only gid-consistency' for the GIDs, and 'rdmactl "
			 "explain' the program's first error completion");
	}
}

void diag_qp_apportion(const struct model_qps *qs, struct diag_qp *diag)
{
	for (size_t i = 0; i < qs->n; i++) {
		struct diag_qp *d = &diag[i];
		size_t n = 0, len;

		if (!d->counter)
			continue;
		for (size_t k = 0; k < qs->n; k++)
			n += diag[k].counter == d->counter && !strcmp(qs->v[k].dev, qs->v[i].dev);
		if (n <= d->counted)
			continue;
		d->sure = false;
		len = strlen(d->evidence);
		snprintf(d->evidence + len, sizeof(d->evidence) - len, ", which counts fewer than "
			 "the %zu QPs in ERR of %s it would explain: it may be another's (rxe counts "
			 "per device, not per QP)", n, qs->v[i].dev);
	}
}

/*
 * QP Q resends to a peer on its own device that takes nothing in. No
 * firewall or namespace stands between two QPs of one device: the peer
 * drops what it gets. rxe NAKs the first request past the PSN a QP
 * expects, and counts it (out_of_seq_request); a request from an address
 * other than the one the QP was given it drops without a word.
 */
static void same_device(struct diag_qp *d, const struct rdma_qp *q,
			const struct diag_qp_port *port)
{
	size_t n = strlen(d->evidence);

	if (port->out_of_seq) {
		d->cause = "its peer on the same device expects a PSN it does not send: the PSNs "
			   "its program gave the two QPs do not match (or the peer was given "
			   "another GID for it)";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "; %s counts %" PRIu64
			 " out-of-sequence request%s", q->dev, port->out_of_seq,
			 port->out_of_seq == 1 ? "" : "s");
		fix(d, "give each QP's RTR the sq_psn its peer's RTS has");
		capture_fix(d, q, "shows its requests RESENT and nothing back; started before the "
			    "program, the one NAK (PSN sequence error) at the first of them");
	} else {
		d->cause = "its peer on the same device was given another GID for it than the "
			   "one it sends from, and drops its packets";
		snprintf(d->evidence + n, sizeof(d->evidence) - n, "; %s counts no "
			 "out-of-sequence request, which PSNs that do not match make", q->dev);
		fix(d, "give each QP its peer's GID at the index the peer sends from (one GID "
			 "index for both ends)");
		capture_fix(d, q, "shows its requests RESENT and nothing back, no NAK at all");
	}
}

void diag_qp_diagnose(const struct model_qps *now, size_t i, const struct model_qps *before,
		       const struct diag_qp_port *port, struct diag_qp *d)
{
	const struct rdma_qp *q = &now->v[i];
	const struct rdma_qp *peer = q->peer >= 0 ? &now->v[q->peer] : NULL;
	const struct rdma_qp *was;

	memset(d, 0, sizeof(*d));
	if (q->state == MODEL_QPS_ERR || q->state == MODEL_QPS_SQE) {
		diagnose_error(q, peer, port, d);
		return;
	}
	/*
	 * An RC QP in RTS is resending unanswered when its port resent
	 * meanwhile and it made no progress: a peer of this host took in
	 * nothing with packets still owed to it, or, with no peer here, it
	 * received nothing either (a peer that sends to it is there).
	 */
	if (q->type != 2 || q->state != MODEL_QPS_RTS || !before || port->resent <= 0)
		return;
	was = model_qp_find(before, q->dev, q->qpn);
	if (!was)
		return;		/* made during the interval */
	if (peer) {
		const struct rdma_qp *peer_was = model_qp_find(before, peer->dev, peer->qpn);
		char who[64];

		if (!peer_was || psn_moved(peer_was->has_rq_psn, peer_was->rq_psn,
					   peer->has_rq_psn, peer->rq_psn) || model_qp_owes(now, i) != 1)
			return;
		snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times meanwhile; "
			 "its peer QP %u of %s, in %s, still expects PSN %u where it sends %u",
			 q->dev, port->resent, peer->qpn, model_qp_owner(peer, who, sizeof(who)),
			 model_qp_state_name(peer->state), peer->rq_psn, q->sq_psn);
		if (peer->state == MODEL_QPS_ERR) {
			d->cause = "its peer on this host is in ERR, where it takes in nothing "
				   "(a request of its that failed there may have put it there "
				   "unsaid: 5.10's rxe sends no NAK for a wrong rkey), and rxe "
				   "resends to it for as long as the program runs";
			fix(d, "'rdmactl check' names the peer's cause; the program must time "
			       "out its waits and destroy both QPs (or bring the peer through "
			       "RESET again)");
			capture_fix(d, q, "shows its requests RESENT and nothing back");
		} else if (peer->state != MODEL_QPS_RTS && peer->state != MODEL_QPS_RTR) {
			d->cause = "its peer on this host takes in nothing in its state, and rxe "
				   "resends to it for as long as the program runs";
			fix(d, "the program must bring its peer QP to RTR before this one sends "
			       "(one in ERR through RESET again), or destroy both");
		} else if (!strcmp(peer->dev, q->dev)) {
			same_device(d, q, port);
		} else {
			d->cause = "its packets do not reach its peer on this host: a firewall "
				   "dropping UDP 4791 between network namespaces, or the peer in "
				   "another namespace before Linux 7.1";
			fix(d, "'rdmactl check --only firewall,netns' in both namespaces");
			/* Between two devices the packets cross a netdev, where capture sees them. */
			capture_fix(d, q, WIRE_SHOWS);
		}
	} else {
		if (psn_moved(was->has_rq_psn, was->rq_psn, q->has_rq_psn, q->rq_psn))
			return;
		d->cause = "its peer QP is gone (destroyed, or its process ended) or does not "
			   "answer: rxe resends for as long as the program runs, and no error "
			   "completion comes";
		if (q->has_rqpn)
			snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times "
				 "meanwhile; its peer QP %u is on no device of this host", q->dev,
				 port->resent, q->rqpn);
		else
			snprintf(d->evidence, sizeof(d->evidence), "%s resent %" PRId64 " times "
				 "meanwhile", q->dev, port->resent);
		fix(d, "find whether the peer's program still runs ('rdmactl qp' on its host); "
			 "a program should time out its own waits, as rxe never fails the QP");
		capture_fix(d, q, WIRE_SHOWS);
	}
	d->trouble = DIAG_QPT_STALLED;
}

const struct port *diag_qp_port(const struct model *m, const struct rdma_qp *q)
{
	const struct rdma_dev *d = m ? model_find(m, q->dev) : NULL;

	for (size_t k = 0; d && k < d->nports; k++)
		if (d->ports[k].num == q->port)
			return &d->ports[k];
	return NULL;
}
