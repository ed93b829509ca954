// SPDX-License-Identifier: GPL-2.0-or-later
/* The selftest's two-host messages: encoded big-endian, decoded strictly. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/gid.h"
#include "selftest/wire.h"

/* "RCST": rdmactl selftest. */
#define WIRE_MAGIC 0x52435354u

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static int zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

size_t wire_body_len(enum wire_kind kind)
{
	switch (kind) {
	case WIRE_HELLO:
		return WIRE_HELLO_BODY;
	case WIRE_STEP:
		return WIRE_STEP_BODY;
	case WIRE_RESULT:
		return WIRE_RESULT_BODY;
	case WIRE_BYE:
		return 0;
	case WIRE_XOPEN:
		return WIRE_XOPEN_BODY;
	case WIRE_XENDS:
		return WIRE_XENDS_BODY;
	case WIRE_XSTEP:
		return WIRE_XSTEP_BODY;
	}
	return 0;
}

static size_t put_hdr(uint8_t *buf, enum wire_kind kind)
{
	size_t len = wire_body_len(kind);

	memset(buf, 0, WIRE_HDR_LEN + len);
	put32(buf, WIRE_MAGIC);
	put16(buf + 4, WIRE_VERSION);
	put16(buf + 6, (uint16_t)kind);
	put32(buf + 8, (uint32_t)len);
	return WIRE_HDR_LEN + len;
}

int wire_hdr_decode(const uint8_t hdr[WIRE_HDR_LEN], const char **why)
{
	uint16_t kind = get16(hdr + 6);

	if (get32(hdr) != WIRE_MAGIC) {
		*why = "not an rdmactl selftest message (bad magic)";
		return -EBADMSG;
	}
	if (get16(hdr + 4) != WIRE_VERSION) {
		*why = "another version of the rdmactl selftest exchange";
		return -EPROTO;
	}
	if (kind < WIRE_HELLO || kind > WIRE_XSTEP) {
		*why = "unknown message kind";
		return -EBADMSG;
	}
	if (get32(hdr + 8) != wire_body_len(kind)) {
		*why = "wrong length for its kind";
		return -EBADMSG;
	}
	if (!zero(hdr + 12, 4)) {
		*why = "reserved header bytes not zero";
		return -EBADMSG;
	}
	return kind;
}

/*
 * Hello body: flags 16, lid 16, mtu 8, 0 x 3, qpn 32, psn 32, gid 128,
 * addr 64, rkey 32, len 32, atom_addr 64, atom_rkey 32, 0 x 4.
 */
size_t wire_hello_encode(const struct wire_hello *h, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_HELLO);
	uint8_t *b = buf + WIRE_HDR_LEN;

	put16(b, h->flags);
	put16(b + 2, h->lid);
	b[4] = h->mtu;
	put32(b + 8, h->qpn);
	put32(b + 12, h->psn);
	memcpy(b + 16, h->gid, 16);
	put64(b + 32, h->addr);
	put32(b + 40, h->rkey);
	put32(b + 44, h->len);
	put64(b + 48, h->atom_addr);
	put32(b + 56, h->atom_rkey);
	return n;
}

int wire_hello_decode(const uint8_t *b, struct wire_hello *h, const char **why)
{
	h->flags = get16(b);
	h->lid = get16(b + 2);
	h->mtu = b[4];
	h->qpn = get32(b + 8);
	h->psn = get32(b + 12);
	memcpy(h->gid, b + 16, 16);
	h->addr = get64(b + 32);
	h->rkey = get32(b + 40);
	h->len = get32(b + 44);
	h->atom_addr = get64(b + 48);
	h->atom_rkey = get32(b + 56);
	if (h->flags & ~WIRE_F_ATOMICS)
		*why = "unknown flags";
	else if (h->mtu < 1 || h->mtu > 5)
		*why = "MTU code outside 1..5";
	else if (!zero(b + 5, 3) || !zero(b + 60, 4))
		*why = "reserved bytes not zero";
	else if (h->qpn == 0 || h->qpn > 0xffffff)
		*why = "QP number outside 1..0xffffff";
	else if (h->psn > 0xffffff)
		*why = "PSN wider than 24 bits";
	else if (zero(h->gid, 16))
		*why = "GID all zero";
	else if (h->addr == 0)
		*why = "buffer address zero";
	else if (h->len == 0 || h->len > WIRE_MAX_LEN)
		*why = "buffer length outside 1..64 MiB";
	else if (h->addr + h->len < h->addr)
		*why = "buffer wraps around the address space";
	else if ((h->flags & WIRE_F_ATOMICS) ? h->atom_addr == 0 || h->atom_addr % 8 :
		 h->atom_addr || h->atom_rkey)
		*why = "atomic word inconsistent with the flags, or not 8-aligned";
	else
		return 0;
	return -EBADMSG;
}

/* Step body: stage 8, phase 8, 0 x 2, iters 32, size 32, 0 x 4. */
size_t wire_step_encode(const struct wire_step *s, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_STEP);
	uint8_t *b = buf + WIRE_HDR_LEN;

	b[0] = s->stage;
	b[1] = s->phase;
	put32(b + 4, s->iters);
	put32(b + 8, s->size);
	return n;
}

int wire_step_decode(const uint8_t *b, unsigned int nstages, struct wire_step *s,
		     const char **why)
{
	s->stage = b[0];
	s->phase = b[1];
	s->iters = get32(b + 4);
	s->size = get32(b + 8);
	if (s->stage >= nstages)
		*why = "unknown stage";
	else if (s->phase != WIRE_PREPARE && s->phase != WIRE_CHECK)
		*why = "unknown phase";
	else if (!zero(b + 2, 2) || !zero(b + 12, 4))
		*why = "reserved bytes not zero";
	else if (s->size > WIRE_MAX_LEN)
		*why = "size over 64 MiB";
	else
		return 0;
	return -EBADMSG;
}

/* Result body: ok 8, 0 x 3, value 32, 0 x 8, detail, hint. */
size_t wire_result_encode_value(const struct st_fault *r, uint32_t value, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_RESULT);
	uint8_t *b = buf + WIRE_HDR_LEN;

	b[0] = r->failed ? 0 : 1;
	put32(b + 4, value);
	/* put_hdr zeroed the body: each text keeps its NUL. */
	memcpy(b + 16, r->detail, strnlen(r->detail, WIRE_TEXT_LEN - 1));
	memcpy(b + 16 + WIRE_TEXT_LEN, r->hint, strnlen(r->hint, WIRE_TEXT_LEN - 1));
	return n;
}

size_t wire_result_encode(const struct st_fault *r, uint8_t *buf)
{
	return wire_result_encode_value(r, 0, buf);
}

/* A text field: printable ASCII up to a NUL, and nothing but NULs after it. */
static int text(const uint8_t *p, char *out)
{
	size_t len = strnlen((const char *)p, WIRE_TEXT_LEN);

	if (len == WIRE_TEXT_LEN || !zero(p + len, WIRE_TEXT_LEN - len))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return -1;
	memcpy(out, p, len + 1);
	return 0;
}

int wire_result_decode_value(const uint8_t *b, struct st_fault *r, uint32_t *value,
			     const char **why)
{
	r->failed = b[0] == 0;
	*value = get32(b + 4);
	if (b[0] > 1)
		*why = "result neither 0 nor 1";
	else if (!zero(b + 1, 3) || !zero(b + 8, 8))
		*why = "reserved bytes not zero";
	else if (text(b + 16, r->detail) || text(b + 16 + WIRE_TEXT_LEN, r->hint))
		*why = "text not printable, or not NUL-terminated";
	else
		return 0;
	return -EBADMSG;
}

int wire_result_decode(const uint8_t *b, struct st_fault *r, const char **why)
{
	uint32_t value;

	if (wire_result_decode_value(b, r, &value, why))
		return -EBADMSG;
	if (value) {
		*why = "reserved bytes not zero";
		return -EBADMSG;
	}
	return 0;
}

size_t wire_bye_encode(uint8_t *buf)
{
	return put_hdr(buf, WIRE_BYE);
}

/* NQP QP numbers and PSNs at P (then the PSNs): each in range, the unused zero. */
static void put_qps(uint8_t *p, const uint32_t *qpn, const uint32_t *psn)
{
	for (int i = 0; i < WIRE_XQPS; i++) {
		put32(p + 4 * i, qpn[i]);
		put32(p + 4 * (WIRE_XQPS + i), psn[i]);
	}
}

static const char *get_qps(const uint8_t *p, unsigned int nqp, uint32_t *qpn, uint32_t *psn)
{
	if (nqp < 1 || nqp > WIRE_XQPS)
		return "QP count outside 1..16";
	for (unsigned int i = 0; i < WIRE_XQPS; i++) {
		qpn[i] = get32(p + 4 * i);
		psn[i] = get32(p + 4 * (WIRE_XQPS + i));
		if (i >= nqp && (qpn[i] || psn[i]))
			return "an unused QP slot not zero";
		if (i < nqp && (qpn[i] == 0 || qpn[i] > 0xffffff))
			return "QP number outside 1..0xffffff";
		if (psn[i] > 0xffffff)
			return "PSN wider than 24 bits";
	}
	return NULL;
}

/* Xopen body: transport 8, nqp 8, flags 8, 0 x 1, len 32, gid 128, qpn 32 x 16, psn 32 x 16. */
size_t wire_xopen_encode(const struct wire_xopen *o, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_XOPEN);
	uint8_t *b = buf + WIRE_HDR_LEN;

	b[0] = o->transport;
	b[1] = o->nqp;
	b[2] = o->flags;
	put32(b + 4, o->len);
	memcpy(b + 8, o->gid, 16);
	put_qps(b + 24, o->qpn, o->psn);
	return n;
}

int wire_xopen_decode(const uint8_t *b, struct wire_xopen *o, const char **why)
{
	const char *bad;

	o->transport = b[0];
	o->nqp = b[1];
	o->flags = b[2];
	o->len = get32(b + 4);
	memcpy(o->gid, b + 8, 16);
	bad = get_qps(b + 24, o->nqp, o->qpn, o->psn);
	if (o->transport >= WIRE_XTRANSPORTS)
		*why = "unknown transport";
	else if (bad)
		*why = bad;
	else if (o->flags & ~WIRE_XF_EVENTS)
		*why = "unknown flags";
	else if (b[3])
		*why = "reserved bytes not zero";
	else if (o->len == 0 || o->len > WIRE_MAX_LEN)
		*why = "buffer length outside 1..64 MiB";
	else if (zero(o->gid, 16))
		*why = "GID all zero";
	else
		return 0;
	return -EBADMSG;
}

/* Xends body: nqp 8, 0 x 3, len 32, addr 64, rkey 32, 0 x 4, gid 128, qpn 32 x 16, psn 32 x 16. */
size_t wire_xends_encode(const struct wire_xends *e, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_XENDS);
	uint8_t *b = buf + WIRE_HDR_LEN;

	b[0] = e->nqp;
	put32(b + 4, e->len);
	put64(b + 8, e->addr);
	put32(b + 16, e->rkey);
	memcpy(b + 24, e->gid, 16);
	put_qps(b + 40, e->qpn, e->psn);
	return n;
}

int wire_xends_decode(const uint8_t *b, struct wire_xends *e, const char **why)
{
	const char *bad;

	e->nqp = b[0];
	e->len = get32(b + 4);
	e->addr = get64(b + 8);
	e->rkey = get32(b + 16);
	memcpy(e->gid, b + 24, 16);
	bad = get_qps(b + 40, e->nqp, e->qpn, e->psn);
	if (bad)
		*why = bad;
	else if (!zero(b + 1, 3) || !zero(b + 20, 4))
		*why = "reserved bytes not zero";
	else if (e->len == 0 || e->len > WIRE_MAX_LEN)
		*why = "buffer length outside 1..64 MiB";
	else if (e->addr == 0)
		*why = "buffer address zero";
	else if (e->addr + e->len < e->addr)
		*why = "buffer wraps around the address space";
	else if (zero(e->gid, 16))
		*why = "GID all zero";
	else
		return 0;
	return -EBADMSG;
}

/* Xstep body: op 8, stage 8, flags 8, 0 x 1, len 32, value 64. */
size_t wire_xstep_encode(const struct wire_xstep *s, uint8_t *buf)
{
	size_t n = put_hdr(buf, WIRE_XSTEP);
	uint8_t *b = buf + WIRE_HDR_LEN;

	b[0] = s->op;
	b[1] = s->stage;
	b[2] = s->flags;
	put32(b + 4, s->len);
	put64(b + 8, s->value);
	return n;
}

int wire_xstep_decode(const uint8_t *b, struct wire_xstep *s, const char **why)
{
	s->op = b[0];
	s->stage = b[1];
	s->flags = b[2];
	s->len = get32(b + 4);
	s->value = get64(b + 8);
	if (s->op < 1 || s->op > WIRE_XOPS)
		*why = "unknown step";
	else if (b[3])
		*why = "reserved bytes not zero";
	else if (s->len > WIRE_MAX_LEN)
		*why = "size over 64 MiB";
	else
		return 0;
	return -EBADMSG;
}

void wire_pp_encode(const struct wire_pp *m, char out[WIRE_PP_LEN])
{
	int n;

	memset(out, 0, WIRE_PP_LEN);
	n = snprintf(out, WIRE_PP_LEN, "%04x:%06x:%06x:", m->lid, m->qpn & 0xffffff,
		     m->psn & 0xffffff);
	for (int i = 0; i < 16; i++, n += 2)
		snprintf(out + n, WIRE_PP_LEN - (size_t)n, "%02x", m->gid[i]);
}

/* Reads N hex digits at S into V; false unless all are hex. */
static bool hexfield(const char *s, int n, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		int h = model_gid_hex_digit(s[i]);

		if (h < 0)
			return false;
		*v = *v << 4 | (uint32_t)h;
	}
	return true;
}

int wire_pp_decode(const char in[WIRE_PP_LEN], struct wire_pp *m)
{
	uint32_t lid;

	if (in[4] != ':' || in[11] != ':' || in[18] != ':' || in[WIRE_PP_LEN - 1] != '\0' ||
	    !hexfield(in, 4, &lid) || !hexfield(in + 5, 6, &m->qpn) ||
	    !hexfield(in + 12, 6, &m->psn) || model_gid_parse_hex(in + 19, m->gid) < 0 || m->qpn == 0)
		return -EBADMSG;
	m->lid = (uint16_t)lid;
	return 0;
}
