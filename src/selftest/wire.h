/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The selftest's own two-host exchange: fixed-size, versioned, big-endian
 * messages, each a 16-byte header and a body whose length the kind fixes.
 * Pure encoding and strict decoding; the socket is someone else's.
 */
#ifndef RDMACTL_WIRE_H
#define RDMACTL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "selftest/selftest.h"

#define WIRE_VERSION 1
#define WIRE_HDR_LEN 16
#define WIRE_MAX_LEN (64u << 20)	/* the largest buffer a peer may ask for */

enum wire_kind {
	WIRE_HELLO = 1,		/* who I am: QP, GID and the one buffer I expose */
	WIRE_STEP = 2,		/* client to server: prepare or check a stage */
	WIRE_RESULT = 3,	/* server to client: how a step went, or why refused */
	WIRE_BYE = 4,		/* client to server: the end, cleanly */
	WIRE_XOPEN = 5,		/* --transport: make your end of a transport, towards mine */
	WIRE_XENDS = 6,		/* --transport: the end made, what the client may reach */
	WIRE_XSTEP = 7,		/* --transport: prepare or check; a RESULT answers */
};

enum wire_phase {
	WIRE_PREPARE = 1,	/* get ready: poison, fill, post the receive */
	WIRE_CHECK = 2,		/* the client has acted: verify */
};

#define WIRE_F_ATOMICS 0x1	/* hello: the atomic word is exposed */

struct wire_hello {
	uint16_t flags;
	uint16_t lid;
	uint8_t mtu;		/* enum ibv_mtu, 1..5 */
	uint32_t qpn;		/* 24 bits, not 0 */
	uint32_t psn;		/* 24 bits */
	uint8_t gid[16];	/* not all zero */
	uint64_t addr;		/* the exposed buffer */
	uint32_t rkey;
	uint32_t len;		/* 1..WIRE_MAX_LEN */
	uint64_t atom_addr;	/* the 8-byte atomic word, 8-aligned; 0 without atomics */
	uint32_t atom_rkey;
};

struct wire_step {
	uint8_t stage;		/* enum st_stage, or a bench stage */
	uint8_t phase;		/* enum wire_phase */
	uint32_t iters;		/* bench stages: iterations */
	uint32_t size;		/* bench stages: bytes per operation */
};

/* --transport (selftest/xport.c): up to this many QPs an end, SRQ's 16. */
#define WIRE_XQPS 16
#define WIRE_XF_EVENTS 0x1	/* xopen: completions through a completion channel */

struct wire_xopen {
	uint8_t transport;	/* enum xp_transport, below WIRE_XTRANSPORTS */
	uint8_t nqp;		/* 1..WIRE_XQPS */
	uint8_t flags;		/* WIRE_XF_* */
	uint32_t len;		/* the buffer each QP needs, 1..WIRE_MAX_LEN */
	uint8_t gid[16];	/* the client's, not all zero */
	uint32_t qpn[WIRE_XQPS];	/* the client's QPs, 24 bits, not 0; the unused 0 */
	uint32_t psn[WIRE_XQPS];
};

struct wire_xends {
	uint8_t nqp;		/* as asked */
	uint32_t len;		/* the buffer, at least as asked */
	uint64_t addr;		/* the first QP's buffer, not 0 */
	uint32_t rkey;
	uint8_t gid[16];
	uint32_t qpn[WIRE_XQPS];
	uint32_t psn[WIRE_XQPS];
};

struct wire_xstep {
	uint8_t op;		/* 1..WIRE_XOPS: what xport.c's end B is asked */
	uint8_t stage;		/* the pattern's number */
	uint8_t flags;		/* the op's own */
	uint32_t len;		/* 0..WIRE_MAX_LEN */
	uint64_t value;		/* an atomic's word, a count, a window's type */
};

/* Kinds of end the exchange knows (XRC has none) and ops it carries. */
#define WIRE_XTRANSPORTS 6
#define WIRE_XOPS 15

/* A RESULT carries a struct st_fault: ok (not failed), detail and hint, printable. */
#define WIRE_TEXT_LEN ST_TEXT_LEN

#define WIRE_HELLO_BODY 64
#define WIRE_STEP_BODY 16
#define WIRE_RESULT_BODY (16 + 2 * WIRE_TEXT_LEN)
#define WIRE_XOPEN_BODY (24 + 8 * WIRE_XQPS)
#define WIRE_XENDS_BODY (40 + 8 * WIRE_XQPS)
#define WIRE_XSTEP_BODY 16
#define WIRE_MSG_MAX (WIRE_HDR_LEN + WIRE_RESULT_BODY)

/* The body length KIND fixes; 0 for a kind this version does not know. */
size_t wire_body_len(enum wire_kind kind);

/*
 * A header's kind, checked: magic, version and length. KIND, or a negative
 * errno with WHY saying what was wrong (-EPROTO for another version).
 */
int wire_hdr_decode(const uint8_t hdr[WIRE_HDR_LEN], const char **why);

/* Whole messages, header included; each returns its length. */
size_t wire_hello_encode(const struct wire_hello *h, uint8_t *buf);
size_t wire_step_encode(const struct wire_step *s, uint8_t *buf);
size_t wire_result_encode(const struct st_fault *r, uint8_t *buf);
/* A RESULT with a value: the rkey of a window a step bound. */
size_t wire_result_encode_value(const struct st_fault *r, uint32_t value, uint8_t *buf);
size_t wire_bye_encode(uint8_t *buf);
size_t wire_xopen_encode(const struct wire_xopen *o, uint8_t *buf);
size_t wire_xends_encode(const struct wire_xends *e, uint8_t *buf);
size_t wire_xstep_encode(const struct wire_xstep *s, uint8_t *buf);

/* Bodies, strictly: 0, or -EBADMSG with WHY naming the field. */
int wire_hello_decode(const uint8_t *body, struct wire_hello *h, const char **why);
int wire_step_decode(const uint8_t *body, unsigned int nstages, struct wire_step *s,
		     const char **why);
int wire_result_decode(const uint8_t *body, struct st_fault *r, const char **why);
/* The same, and the value (0 in a plain RESULT). */
int wire_result_decode_value(const uint8_t *body, struct st_fault *r, uint32_t *value,
			     const char **why);
int wire_xopen_decode(const uint8_t *body, struct wire_xopen *o, const char **why);
int wire_xends_decode(const uint8_t *body, struct wire_xends *e, const char **why);
int wire_xstep_decode(const uint8_t *body, struct wire_xstep *s, const char **why);

/*
 * ibv_rc_pingpong's exchange, for --pingpong: "LLLL:QQQQQQ:PPPPPP:" in hex,
 * then the GID's 32 hex digits and a NUL, 52 bytes in all.
 */
#define WIRE_PP_LEN 52

struct wire_pp {
	uint16_t lid;
	uint32_t qpn;		/* 24 bits, not 0 */
	uint32_t psn;		/* 24 bits */
	uint8_t gid[16];
};

void wire_pp_encode(const struct wire_pp *m, char out[WIRE_PP_LEN]);
/* 0, or -EBADMSG unless IN is that format to the byte. */
int wire_pp_decode(const char in[WIRE_PP_LEN], struct wire_pp *m);

#endif
