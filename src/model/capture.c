// SPDX-License-Identifier: GPL-2.0-or-later
/* RoCE v2 packets decoded from captured bytes: their headers, opcodes and acknowledgements. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "kernel/roce.h"
#include "model/capture.h"

/* Header sizes, IBA's and the network's. */
enum {
	ETH_LEN = 14, VLAN_LEN = 4, SLL_LEN = 16, SLL2_LEN = 20, IPV4_MIN = 20, IPV6_LEN = 40, UDP_LEN = 8,
	BTH_LEN = 12, RETH_LEN = 16, AETH_LEN = 4, DETH_LEN = 8, IMMDT_LEN = 4,
	IETH_LEN = 4, ATOMICETH_LEN = 28, ATOMICACKETH_LEN = 8, FETH_LEN = 4,
	XRCETH_LEN = 4, ICRC_LEN = 4,
};

/* The extended headers in the order IBA puts them after the BTH, and their lengths. */
enum { X_XRC, X_DETH, X_FETH, X_RETH, X_ATOMIC, X_AETH, X_ATOMICACK, X_IMMDT, X_IETH, X_N };
static const struct {
	unsigned int ext;
	size_t len;
} ext_hdrs[X_N] = {
	[X_XRC] = { CAPTURE_XRCETH, XRCETH_LEN },
	[X_DETH] = { CAPTURE_DETH, DETH_LEN },
	[X_FETH] = { CAPTURE_FETH, FETH_LEN },
	[X_RETH] = { CAPTURE_RETH, RETH_LEN },
	[X_ATOMIC] = { CAPTURE_ATOMICETH, ATOMICETH_LEN },
	[X_AETH] = { CAPTURE_AETH, AETH_LEN },
	[X_ATOMICACK] = { CAPTURE_ATOMICACKETH, ATOMICACKETH_LEN },
	[X_IMMDT] = { CAPTURE_IMMDT, IMMDT_LEN },
	[X_IETH] = { CAPTURE_IETH, IETH_LEN },
};

/* The transports, by the opcode's top three bits. */
enum { T_RC = 0x00, T_UC = 0x20, T_RD = 0x40, T_UD = 0x60, T_CNP = 0x80, T_XRC = 0xa0 };

#define CNP_OPCODE 0x81

/* The operations, by the opcode's low five bits, and the headers each carries. */
static const struct {
	const char *name;
	unsigned int ext;
} ops[32] = {
	[0x00] = { "SEND_FIRST", 0 },
	[0x01] = { "SEND_MIDDLE", 0 },
	[0x02] = { "SEND_LAST", 0 },
	[0x03] = { "SEND_LAST_WITH_IMMEDIATE", CAPTURE_IMMDT },
	[0x04] = { "SEND_ONLY", 0 },
	[0x05] = { "SEND_ONLY_WITH_IMMEDIATE", CAPTURE_IMMDT },
	[0x06] = { "RDMA_WRITE_FIRST", CAPTURE_RETH },
	[0x07] = { "RDMA_WRITE_MIDDLE", 0 },
	[0x08] = { "RDMA_WRITE_LAST", 0 },
	[0x09] = { "RDMA_WRITE_LAST_WITH_IMMEDIATE", CAPTURE_IMMDT },
	[0x0a] = { "RDMA_WRITE_ONLY", CAPTURE_RETH },
	[0x0b] = { "RDMA_WRITE_ONLY_WITH_IMMEDIATE", CAPTURE_RETH | CAPTURE_IMMDT },
	[0x0c] = { "RDMA_READ_REQUEST", CAPTURE_RETH },
	[0x0d] = { "RDMA_READ_RESPONSE_FIRST", CAPTURE_AETH },
	[0x0e] = { "RDMA_READ_RESPONSE_MIDDLE", 0 },
	[0x0f] = { "RDMA_READ_RESPONSE_LAST", CAPTURE_AETH },
	[0x10] = { "RDMA_READ_RESPONSE_ONLY", CAPTURE_AETH },
	[0x11] = { "ACKNOWLEDGE", CAPTURE_AETH },
	[0x12] = { "ATOMIC_ACKNOWLEDGE", CAPTURE_AETH | CAPTURE_ATOMICACKETH },
	[0x13] = { "COMPARE_SWAP", CAPTURE_ATOMICETH },
	[0x14] = { "FETCH_ADD", CAPTURE_ATOMICETH },
	[0x16] = { "SEND_LAST_WITH_INVALIDATE", CAPTURE_IETH },
	[0x17] = { "SEND_ONLY_WITH_INVALIDATE", CAPTURE_IETH },
	[0x1c] = { "FLUSH", CAPTURE_FETH | CAPTURE_RETH },
	[0x1d] = { "ATOMIC_WRITE", CAPTURE_RETH },
};

/* The operations each transport has (IBA's tables, and the kernel's ib_pack.h). */
static bool op_in_transport(uint8_t opcode)
{
	uint8_t op = opcode & 0x1f;

	switch (opcode & 0xe0) {
	case T_RC:
	case T_XRC:
		return ops[op].name != NULL;
	case T_UC:
		return op <= 0x0b;
	case T_UD:
		return op == 0x04 || op == 0x05;
	case T_CNP:
		return opcode == CNP_OPCODE;
	default:
		/* RD: rdma_rxe and RoCE have none. */
		return false;
	}
}

const char *model_capture_transport_name(uint8_t opcode)
{
	if (!op_in_transport(opcode))
		return NULL;
	switch (opcode & 0xe0) {
	case T_RC: return "RC";
	case T_UC: return "UC";
	case T_UD: return "UD";
	case T_CNP: return "CNP";
	default: return "XRC";
	}
}

const char *model_capture_opcode_name(uint8_t opcode)
{
	if (!op_in_transport(opcode))
		return NULL;
	return opcode == CNP_OPCODE ? "CNP" : ops[opcode & 0x1f].name;
}

unsigned int model_capture_opcode_ext(uint8_t opcode)
{
	if (!op_in_transport(opcode) || opcode == CNP_OPCODE)
		return 0;
	if ((opcode & 0xe0) == T_UD)
		return CAPTURE_DETH | ops[opcode & 0x1f].ext;
	if ((opcode & 0xe0) == T_XRC)
		return CAPTURE_XRCETH | ops[opcode & 0x1f].ext;
	return ops[opcode & 0x1f].ext;
}

bool model_capture_opcode_is_request(uint8_t opcode)
{
	uint8_t op = opcode & 0x1f;

	if (!op_in_transport(opcode) || opcode == CNP_OPCODE)
		return false;
	return op < 0x0d || op > 0x12;
}

enum capture_ack model_capture_ack_kind(uint8_t syndrome)
{
	switch (syndrome >> 5) {
	case 0: return CAPTURE_ACK;
	case 1: return CAPTURE_NAK_RNR;
	case 3:
		switch (syndrome & 0x1f) {
		case 0: return CAPTURE_NAK_PSN;
		case 1: return CAPTURE_NAK_INVALID;
		case 2: return CAPTURE_NAK_ACCESS;
		case 3: return CAPTURE_NAK_OPERATION;
		case 4: return CAPTURE_NAK_INVALID_RD;
		default: return CAPTURE_ACK_RESERVED;
		}
	default:
		return CAPTURE_ACK_RESERVED;
	}
}

static const struct {
	const char *name, *key;
} acks[] = {
	[CAPTURE_ACK_NONE] = { "", "none" },
	[CAPTURE_ACK] = { "ACK", "ack" },
	[CAPTURE_NAK_RNR] = { "RNR NAK", "rnr" },
	[CAPTURE_NAK_PSN] = { "NAK PSN sequence error", "psn_sequence_error" },
	[CAPTURE_NAK_INVALID] = { "NAK invalid request", "invalid_request" },
	[CAPTURE_NAK_ACCESS] = { "NAK remote access error", "remote_access_error" },
	[CAPTURE_NAK_OPERATION] = { "NAK remote operational error", "remote_operational_error" },
	[CAPTURE_NAK_INVALID_RD] = { "NAK invalid RD request", "invalid_rd_request" },
	[CAPTURE_ACK_RESERVED] = { "reserved syndrome", "reserved" },
};

const char *model_capture_ack_name(enum capture_ack k)
{
	return k <= CAPTURE_ACK_RESERVED ? acks[k].name : acks[CAPTURE_ACK_RESERVED].name;
}

const char *model_capture_ack_key(enum capture_ack k)
{
	return k <= CAPTURE_ACK_RESERVED ? acks[k].key : acks[CAPTURE_ACK_RESERVED].key;
}

uint32_t model_capture_rnr_timer_us(uint8_t syndrome)
{
	/* IBA table 45: the RNR NAK timer field's codes, 0 the longest. */
	static const uint32_t us[32] = {
		655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
		2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
		163840, 245760, 327680, 491520,
	};

	return us[syndrome & 0x1f];
}

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t be24(const uint8_t *b)
{
	return (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | be24(b + 1);
}

static uint64_t be64(const uint8_t *b)
{
	return (uint64_t)be32(b) << 32 | be32(b + 4);
}

/*
 * The IP and UDP headers from *OFF on: the UDP payload's length into
 * *UDP_PAYLOAD, which must fit in the WIRE_LEN bytes the frame had.
 */
static int decode_ip_udp(const uint8_t *f, size_t len, size_t wire_len, size_t *off,
			 struct capture_pkt *p, uint32_t *udp_payload)
{
	size_t o = *off, hl;
	const uint8_t *u;
	uint16_t udp_len;

	if (len < o + 1)
		return -EBADMSG;
	p->ip_version = f[o] >> 4;
	if (p->ip_version == 4) {
		hl = (size_t)(f[o] & 0x0f) * 4;
		if (hl < IPV4_MIN || len < o + hl)
			return -EBADMSG;
		if (f[o + 9] != 17)
			return -EPROTONOSUPPORT;
		/* A fragment's UDP header is the first fragment's alone. */
		if (be16(f + o + 6) & 0x3fff)
			return -EPROTONOSUPPORT;
		inet_ntop(AF_INET, f + o + 12, p->src, sizeof(p->src));
		inet_ntop(AF_INET, f + o + 16, p->dst, sizeof(p->dst));
	} else if (p->ip_version == 6) {
		hl = IPV6_LEN;
		if (len < o + hl)
			return -EBADMSG;
		/* rdma_rxe puts UDP right after the fixed header. */
		if (f[o + 6] != 17)
			return -EPROTONOSUPPORT;
		inet_ntop(AF_INET6, f + o + 8, p->src, sizeof(p->src));
		inet_ntop(AF_INET6, f + o + 24, p->dst, sizeof(p->dst));
	} else {
		return -EPROTONOSUPPORT;
	}
	o += hl;
	if (len < o + UDP_LEN)
		return -EBADMSG;
	u = f + o;
	if (be16(u + 2) != ROCE_V2_UDP_PORT)
		return -EPROTONOSUPPORT;
	p->sport = be16(u);
	udp_len = be16(u + 4);
	if (udp_len < UDP_LEN + BTH_LEN + ICRC_LEN || o + udp_len > wire_len)
		return -EBADMSG;
	*udp_payload = udp_len - UDP_LEN;
	*off = o + UDP_LEN;
	return 0;
}

/*
 * The link layer's header of FRAME: where the IP header begins into *OFF, or
 * -EPROTONOSUPPORT for another protocol. Ethernet with up to two VLAN tags;
 * Linux's cooked headers (tcpdump -i any), whose protocol is an EtherType;
 * raw IP.
 */
static int link_header(enum capture_link link, const uint8_t *f, size_t len, size_t *off)
{
	size_t o;
	uint16_t type;

	switch (link) {
	case CAPTURE_LINK_ETHERNET:
		if (len < ETH_LEN)
			return -EBADMSG;
		o = 12;
		type = be16(f + o);
		/* 802.1Q and 802.1ad tags, one or two. */
		while (type == 0x8100 || type == 0x88a8) {
			o += VLAN_LEN;
			if (len < o + 2)
				return -EBADMSG;
			type = be16(f + o);
		}
		o += 2;
		break;
	case CAPTURE_LINK_SLL:	/* type, ARPHRD, address length and 8 bytes, protocol */
		if (len < SLL_LEN)
			return -EBADMSG;
		type = be16(f + 14);
		o = SLL_LEN;
		break;
	case CAPTURE_LINK_SLL2:	/* protocol, reserved, ifindex, ARPHRD, type, length, address */
		if (len < SLL2_LEN)
			return -EBADMSG;
		type = be16(f);
		o = SLL2_LEN;
		break;
	case CAPTURE_LINK_RAW:
	case CAPTURE_LINK_RAW_BSD:
	case CAPTURE_LINK_RAW_FILE:
	case CAPTURE_LINK_IPV4:
	case CAPTURE_LINK_IPV6:
		*off = 0;
		return 0;
	default:
		return -EPROTONOSUPPORT;
	}
	if (type != 0x0800 && type != 0x86dd)
		return -EPROTONOSUPPORT;
	*off = o;
	return 0;
}

int model_capture_decode(enum capture_link link, const uint8_t *f, size_t len, size_t wire_len,
		   struct capture_pkt *p)
{
	const uint8_t *at[X_N] = { NULL };
	size_t o = 0, hdrs;
	uint32_t body;
	const uint8_t *b;
	int r;

	memset(p, 0, sizeof(*p));
	p->wire_len = (uint32_t)wire_len;
	r = link_header(link, f, len, &o);
	if (r < 0)
		return r;
	r = decode_ip_udp(f, len, wire_len, &o, p, &body);
	if (r < 0)
		return r;
	if (len < o + BTH_LEN)
		return -EBADMSG;
	b = f + o;
	p->opcode = b[0];
	p->solicited = b[1] & 0x80;
	p->migreq = b[1] & 0x40;
	p->pad = (b[1] >> 4) & 0x03;
	p->tver = b[1] & 0x0f;
	p->pkey = be16(b + 2);
	p->fecn = b[4] & 0x80;
	p->becn = b[4] & 0x40;
	p->dqpn = be24(b + 5);
	p->ackreq = b[8] & 0x80;
	p->psn = be24(b + 9);
	if (!op_in_transport(p->opcode))
		return -EBADMSG;
	p->ext = model_capture_opcode_ext(p->opcode);
	o += BTH_LEN;
	hdrs = BTH_LEN;
	for (size_t i = 0; i < X_N; i++) {
		if (!(p->ext & ext_hdrs[i].ext))
			continue;
		if (len < o + ext_hdrs[i].len)
			return -EBADMSG;
		at[i] = f + o;
		o += ext_hdrs[i].len;
		hdrs += ext_hdrs[i].len;
	}
	if (at[X_DETH]) {
		p->qkey = be32(at[X_DETH]);
		p->sqpn = be24(at[X_DETH] + 5);
	}
	/* An atomic request's address and key sit where an RDMA request's do. */
	if (at[X_RETH] || at[X_ATOMIC]) {
		const uint8_t *h = at[X_RETH] ? at[X_RETH] : at[X_ATOMIC];

		p->va = be64(h);
		p->rkey = be32(h + 8);
		if (at[X_RETH])
			p->dma_len = be32(h + 12);
	}
	if (at[X_AETH]) {
		p->syndrome = at[X_AETH][0];
		p->msn = be24(at[X_AETH] + 1);
	}
	if (at[X_IMMDT])
		p->imm = be32(at[X_IMMDT]);
	if (at[X_IETH])
		p->inv_rkey = be32(at[X_IETH]);
	/* The payload from UDP's length: a capture may hold less than was sent. */
	if (body < hdrs + p->pad + ICRC_LEN)
		return -EBADMSG;
	p->payload = body - (uint32_t)hdrs - p->pad - ICRC_LEN;
	return 0;
}
