// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each QP's conversation followed through a capture: found by its key in
 * constant time (a hash of where its packets go and come from), paired
 * with the other way's, its resends, NAKs and waits counted. Pure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture.h"

/* The transports whose requests are resent, by the opcode's top three bits. */
enum { T_RC = 0x00, T_XRC = 0xa0 };

uint16_t model_capture_rxe_qp_sport(uint32_t qpn)
{
	/* rxe_qp.c: RXE_ROCE_V2_SPORT + (hash_32(qpn, 14) & 0x3fff), hash_32 the golden ratio's. */
	return (uint16_t)(0xc000 + (((uint32_t)(qpn * 0x61c88647u)) >> 18));
}

uint16_t model_capture_rxe_flow_sport(uint32_t lqpn, uint32_t rqpn)
{
	/* ib_verbs.h: rdma_calc_flow_label, then rdma_flow_label_to_udp_sport. */
	uint64_t v = (uint64_t)lqpn * rqpn;
	uint32_t fl, low;

	v ^= v >> 20;
	v ^= v >> 40;
	fl = (uint32_t)(v & 0xfffff);
	low = (fl & 0x3fff) ^ ((fl & 0xfc000) >> 14);
	return (uint16_t)(low | 0xc000);
}

bool model_capture_psn_before(uint32_t a, uint32_t b)
{
	uint32_t d = (b - a) & 0xffffff;

	return d != 0 && d < 0x800000;
}

/*
 * The three keys a conversation is found by: its own (addresses, UDP source
 * port, destination QP); its addresses and source port, which the other
 * way's reverse pairing looks up; its addresses alone, counted.
 */
enum key_kind { K_FLOW = 1, K_PORT, K_PAIR };

/* How many of a port's newest conversations the other way of one is looked for among. */
#define PAIR_WINDOW 256

struct capture_slot {
	uint64_t h;		/* the key's hash; 0: empty */
	size_t head;		/* the newest conversation of the key */
	size_t count;		/* how many conversations it has */
};

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *b = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t key_hash(enum key_kind k, uint8_t ipv, const char *to, const char *from,
			 uint16_t sport, uint32_t qpn)
{
	uint8_t kk = (uint8_t)k;
	uint64_t h = fnv(0xcbf29ce484222325ull, &kk, 1);

	h = fnv(h, &ipv, 1);
	h = fnv(h, to, strlen(to) + 1);
	h = fnv(h, from, strlen(from) + 1);
	if (k != K_PAIR)
		h = fnv(h, &sport, sizeof(sport));
	if (k == K_FLOW)
		h = fnv(h, &qpn, sizeof(qpn));
	return h ? h : 1;
}

/* Whether conversation Q has the key K of (IPV, TO, FROM, SPORT, QPN). */
static bool has_key(const struct capture_qp *q, enum key_kind k, uint8_t ipv, const char *to,
		    const char *from, uint16_t sport, uint32_t qpn)
{
	return q->ip_version == ipv && !strcmp(q->addr, to) && !strcmp(q->from, from) &&
	       (k == K_PAIR || q->sport == sport) && (k != K_FLOW || q->qpn == qpn);
}

/* The slot of key K: its own, or the empty one where it would go. */
static struct capture_slot *slot(const struct capture_flows *f, enum key_kind k, uint8_t ipv,
				 const char *to, const char *from, uint16_t sport, uint32_t qpn)
{
	uint64_t h = key_hash(k, ipv, to, from, sport, qpn);

	for (size_t i = (size_t)h & (f->nslots - 1);; i = (i + 1) & (f->nslots - 1)) {
		struct capture_slot *s = &f->slots[i];

		if (!s->h || (s->h == h && has_key(&f->v[s->head], k, ipv, to, from, sport, qpn)))
			return s;
	}
}

/* Room for N more keys, the table at most half full. */
static int reserve(struct capture_flows *f, size_t n)
{
	struct capture_slot *old = f->slots;
	size_t oldn = f->nslots, size = oldn ? oldn : 64;

	while (2 * (f->nkeys + n) > size)
		size *= 2;
	if (size == oldn)
		return 0;
	f->slots = calloc(size, sizeof(*f->slots));
	if (!f->slots) {
		f->slots = old;
		return -ENOMEM;
	}
	f->nslots = size;
	for (size_t i = 0; i < oldn; i++) {
		size_t j = (size_t)old[i].h & (size - 1);

		if (!old[i].h)
			continue;
		while (f->slots[j].h)
			j = (j + 1) & (size - 1);
		f->slots[j] = old[i];
	}
	free(old);
	return 0;
}

/* Conversation I entered under key K (made by its caller: the slot is looked up again). */
static void add_key(struct capture_flows *f, size_t i, enum key_kind k)
{
	const struct capture_qp *q = &f->v[i];
	struct capture_slot *s = slot(f, k, q->ip_version, q->addr, q->from, q->sport, q->qpn);

	if (!s->h) {
		s->h = key_hash(k, q->ip_version, q->addr, q->from, q->sport, q->qpn);
		f->nkeys++;
	} else if (k == K_PORT) {
		f->v[i].next_port = s->head + 1;	/* the chains of its key's conversations */
	} else if (k == K_PAIR) {
		f->v[i].next_pair = s->head + 1;
	}
	s->head = i;
	s->count++;
}

static long flow_find(const struct capture_flows *f, const struct capture_pkt *p)
{
	const struct capture_slot *s;

	if (!f->nslots)
		return -1;
	s = slot(f, K_FLOW, p->ip_version, p->dst, p->src, p->sport, p->dqpn);
	return s->h ? (long)s->head : -1;
}

bool model_capture_from(const struct capture_qp *q, uint32_t qpn)
{
	if (q->sender_known)
		return q->sender_qpn == qpn;
	return q->sport == model_capture_rxe_flow_sport(qpn, q->qpn) ||
	       q->sport == model_capture_rxe_qp_sport(qpn);
}

/* Whether conversations Q and R are the two ways of one rdma_rxe connection, by their ports. */
static bool rxe_pair(const struct capture_qp *q, const struct capture_qp *r)
{
	bool shared = q->sport == r->sport && q->sport == model_capture_rxe_flow_sport(q->qpn, r->qpn);
	bool own = model_capture_rxe_qp_sport(r->qpn) == q->sport &&
		   model_capture_rxe_qp_sport(q->qpn) == r->sport;

	return shared || own;
}

long model_capture_reverse(const struct capture_flows *f, size_t i)
{
	const struct capture_qp *q = &f->v[i];
	/* The other way's source port: the one both share, or its own, the hash of Q's QPN's. */
	const uint16_t ports[2] = { q->sport, model_capture_rxe_qp_sport(q->qpn) };
	const struct capture_slot *pair;
	long first = -1;

	if (!f->nslots)
		return -1;
	/*
	 * The first conversation, in the order they came, that pairs with Q,
	 * among the PAIR_WINDOW newest of each port: the two ways of a
	 * connection begin a few packets apart, and a capture of many QPs on
	 * one port (another device's, which keeps one) stays linear.
	 */
	for (size_t k = 0; k < 2; k++) {
		const struct capture_slot *s = slot(f, K_PORT, q->ip_version, q->from, q->addr,
						    ports[k], 0);
		size_t seen = 0;

		for (size_t j = s->h ? s->head + 1 : 0; j && seen < PAIR_WINDOW;
		     j = f->v[j - 1].next_port, seen++)
			if (j - 1 != i && rxe_pair(q, &f->v[j - 1]) &&
			    (first < 0 || j - 1 < (size_t)first))
				first = (long)(j - 1);
	}
	if (first >= 0)
		return first;
	/* Another RoCE device hashes its ports its own way: the one pair there is, not Q. */
	pair = slot(f, K_PAIR, q->ip_version, q->from, q->addr, 0, 0);
	if (!pair->h || pair->count > 2)	/* Q itself among them at most */
		return -1;
	for (size_t j = pair->head + 1; j; j = f->v[j - 1].next_pair) {
		if (j - 1 == i)
			continue;
		if (first >= 0)
			return -1;
		first = (long)(j - 1);
	}
	return first;
}

int model_capture_track(struct capture_flows *f, const struct capture_pkt *p, uint64_t ts_us,
		  struct capture_seen *seen)
{
	struct capture_seen s = { 0 };
	struct capture_qp *q;
	long i = flow_find(f, p);
	uint8_t t = p->opcode & 0xe0;

	if (i < 0) {
		long r;

		if (f->n == f->cap) {
			size_t cap = f->cap ? f->cap * 2 : 16;
			struct capture_qp *v = realloc(f->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			f->v = v;
			f->cap = cap;
		}
		q = &f->v[f->n];
		memset(q, 0, sizeof(*q));
		q->ip_version = p->ip_version;
		memcpy(q->addr, p->dst, sizeof(q->addr));
		memcpy(q->from, p->src, sizeof(q->from));
		q->qpn = p->dqpn;
		q->sport = p->sport;
		q->first_us = q->last_us = ts_us;
		if (reserve(f, 3))
			return -ENOMEM;
		i = (long)f->n++;
		/* Paired before it is indexed: its own keys hold it, never its other way. */
		r = model_capture_reverse(f, (size_t)i);
		add_key(f, (size_t)i, K_FLOW);
		add_key(f, (size_t)i, K_PORT);
		add_key(f, (size_t)i, K_PAIR);

		if (r >= 0) {
			q->sender_known = f->v[r].sender_known = true;
			q->sender_qpn = f->v[r].qpn;
			f->v[r].sender_qpn = q->qpn;
		}
	} else {
		q = &f->v[i];
		/* Since its latest packet: a timestamp that went back (a merged capture) waits 0. */
		s.gap_us = ts_us > q->last_us ? ts_us - q->last_us : 0;
		if (s.gap_us > q->longest_gap_us)
			q->longest_gap_us = s.gap_us;
	}
	s.qp = (size_t)i;
	q->packets++;
	q->bytes += p->wire_len;
	if (ts_us > q->last_us)
		q->last_us = ts_us;
	if (ts_us < q->first_us)
		q->first_us = ts_us;
	if (p->ext & CAPTURE_AETH) {
		enum capture_ack k = model_capture_ack_kind(p->syndrome);

		if (k != CAPTURE_ACK)
			q->naks[k]++;
	}
	/* Only the reliable transports resend; their requests' PSNs only go up. */
	if (model_capture_opcode_is_request(p->opcode) && (t == T_RC || t == T_XRC)) {
		if (q->psn_known && model_capture_psn_before(p->psn, q->next_psn)) {
			s.resent = true;
			q->resent++;
		} else {
			q->next_psn = (p->psn + 1) & 0xffffff;
			q->psn_known = true;
		}
	}
	if (seen)
		*seen = s;
	return 0;
}

void model_capture_flows_free(struct capture_flows *f)
{
	free(f->v);
	free(f->slots);
	f->v = NULL;
	f->slots = NULL;
	f->n = f->cap = f->nslots = f->nkeys = 0;
}
