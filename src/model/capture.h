/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RoCE v2 packets as a capture sees them: one frame decoded into its
 * addresses, base transport header and extended headers, each opcode and
 * acknowledgement syndrome named, and the conversation of each QP followed
 * (resent requests, NAKs by kind, the longest wait). Pure: bytes in, facts
 * out; what captures the frames lives in kernel/, what prints them in views/.
 */
#ifndef RDMACTL_MODEL_CAPTURE_H
#define RDMACTL_MODEL_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What a frame starts with: the link types (pcap_datalink's DLT_ values) of
 * the ones rdmactl reads, which tcpdump and tshark write.
 */
enum capture_link {
	CAPTURE_LINK_ETHERNET = 1,	/* DLT_EN10MB */
	CAPTURE_LINK_RAW = 12,		/* DLT_RAW: an IPv4 or IPv6 header first */
	CAPTURE_LINK_RAW_BSD = 14,	/* DLT_RAW on OpenBSD */
	CAPTURE_LINK_RAW_FILE = 101,	/* LINKTYPE_RAW, as a file says it */
	CAPTURE_LINK_SLL = 113,		/* DLT_LINUX_SLL: tcpdump -i any before libpcap 1.10 */
	CAPTURE_LINK_IPV4 = 228,	/* DLT_IPV4 */
	CAPTURE_LINK_IPV6 = 229,	/* DLT_IPV6 */
	CAPTURE_LINK_SLL2 = 276,	/* DLT_LINUX_SLL2: tcpdump -i any from libpcap 1.10 */
};

/* The extended transport headers a packet carries (IBA's names). */
enum capture_ext {
	CAPTURE_RETH = 1 << 0,		/* RDMA: virtual address, R_Key, length */
	CAPTURE_AETH = 1 << 1,		/* ACK: syndrome, MSN */
	CAPTURE_DETH = 1 << 2,		/* datagram: Q_Key, source QP */
	CAPTURE_IMMDT = 1 << 3,		/* immediate data */
	CAPTURE_IETH = 1 << 4,		/* the R_Key to invalidate */
	CAPTURE_ATOMICETH = 1 << 5,	/* atomic: address, R_Key, operands */
	CAPTURE_ATOMICACKETH = 1 << 6,	/* the original value */
	CAPTURE_FETH = 1 << 7,		/* FLUSH: type and level */
	CAPTURE_XRCETH = 1 << 8,	/* XRC: the XRC SRQ */
};

/* What an AETH's syndrome says (IBA 9.7.5.1.1). */
enum capture_ack {
	CAPTURE_ACK_NONE,		/* no AETH */
	CAPTURE_ACK,			/* positive: the requests up to the PSN arrived */
	CAPTURE_NAK_RNR,		/* receiver not ready: no receive posted */
	CAPTURE_NAK_PSN,		/* PSN sequence error: a packet went missing */
	CAPTURE_NAK_INVALID,		/* invalid request */
	CAPTURE_NAK_ACCESS,		/* remote access error: R_Key, bounds, rights */
	CAPTURE_NAK_OPERATION,		/* remote operational error */
	CAPTURE_NAK_INVALID_RD,		/* invalid RD request */
	CAPTURE_ACK_RESERVED,		/* a syndrome IBA reserves */
};

struct capture_pkt {
	/* Where it went: IPv4 (4) or IPv6 (6), the addresses as text, UDP's source port. */
	uint8_t ip_version;
	char src[46], dst[46];
	uint16_t sport;
	/* The base transport header. */
	uint8_t opcode;
	bool solicited, migreq, ackreq, fecn, becn;
	uint8_t pad, tver;
	uint16_t pkey;
	uint32_t dqpn, psn;
	/* The extended headers, by the opcode; only those in EXT are filled. */
	unsigned int ext;		/* enum capture_ext */
	uint64_t va;
	uint32_t rkey, dma_len;
	uint8_t syndrome;
	uint32_t msn;
	uint32_t qkey, sqpn;
	uint32_t imm, inv_rkey;
	/* The payload after the headers, less its pad and the ICRC. */
	uint32_t payload;
	/* The whole frame's length on the wire. */
	uint32_t wire_len;
};

/*
 * Decodes FRAME (LEN bytes captured of WIRE_LEN sent, starting as LINK
 * says) into *P: 0, -EPROTONOSUPPORT for a frame that is no RoCE v2 packet
 * (not UDP to port 4791), or -EBADMSG for one too short or malformed for its
 * headers (a truncated capture included, and a UDP length past the frame's).
 */
int model_capture_decode(enum capture_link link, const uint8_t *frame, size_t len, size_t wire_len,
		   struct capture_pkt *p);

/*
 * The operation of OPCODE as IBA names it ("SEND_ONLY", "ACKNOWLEDGE",
 * "CNP"), its transport apart; NULL for an opcode no RoCE transport uses.
 */
const char *model_capture_opcode_name(uint8_t opcode);

/* The transport of OPCODE: "RC", "UC", "RD", "UD", "CNP", "XRC", or NULL. */
const char *model_capture_transport_name(uint8_t opcode);

/* The extended headers OPCODE carries (enum capture_ext), or 0 for an unused opcode. */
unsigned int model_capture_opcode_ext(uint8_t opcode);

/* Whether OPCODE is a request (sent by a requester) rather than a response. */
bool model_capture_opcode_is_request(uint8_t opcode);

/* What an AETH syndrome says. */
enum capture_ack model_capture_ack_kind(uint8_t syndrome);

/* "ACK", "RNR NAK", "NAK PSN sequence error", ...: the words a view prints. */
const char *model_capture_ack_name(enum capture_ack k);

/* The name a JSON record carries: "ack", "rnr", "psn_sequence_error", ... */
const char *model_capture_ack_key(enum capture_ack k);

/* An RNR NAK's timer (the syndrome's low five bits) in microseconds (IBA table 45). */
uint32_t model_capture_rnr_timer_us(uint8_t syndrome);

/*
 * The UDP source ports rdma_rxe gives the packets a QP sends: how a capture
 * tells which QP sent a packet, since BTH names only the destination. A UD
 * QP's (and, on older kernels, every QP's) is 0xc000 plus 14 bits of the
 * kernel's hash_32 of its QPN; a connected QP's with no flow label of its
 * own, the one both ends share, folded from their two QPNs' product
 * (the kernel's rdma_get_udp_sport, as 6.1 has it).
 */
uint16_t model_capture_rxe_qp_sport(uint32_t qpn);
uint16_t model_capture_rxe_flow_sport(uint32_t lqpn, uint32_t rqpn);

/* Timestamps in microseconds from here on. */

/* One QP's side of a conversation, keyed by where its packets go. */
struct capture_qp {
	uint8_t ip_version;
	char addr[46];		/* the address its packets are sent to */
	uint32_t qpn;		/* the destination QP they name */
	char from[46];		/* the address they come from */
	uint16_t sport;		/* the sending QP's UDP source port */
	bool sender_known;	/* the sending QP's number is known: sender_qpn */
	uint32_t sender_qpn;
	uint64_t packets, bytes;
	uint64_t resent;	/* requests whose PSN came before */
	uint64_t naks[CAPTURE_ACK_RESERVED + 1];	/* by enum capture_ack */
	uint64_t first_us, last_us;	/* its earliest and latest packets' */
	uint64_t longest_gap_us;	/* the longest time between two of its packets */
	bool psn_known;
	uint32_t next_psn;	/* the PSN after the highest request seen */
	/* The next conversation (+1; 0: none) of its addresses and port, and of its addresses. */
	size_t next_port, next_pair;
};

struct capture_slot;

/* Every conversation a capture saw, in the order their first packets came. */
struct capture_flows {
	struct capture_qp *v;
	size_t n, cap;
	/* Their keys, hashed: each packet finds its conversation in constant time. */
	struct capture_slot *slots;
	size_t nslots, nkeys;
};

/* What capture_track found in one packet. */
struct capture_seen {
	size_t qp;		/* its conversation's index */
	bool resent;		/* a request whose PSN came before: a retransmission */
	uint64_t gap_us;	/* since that conversation's packet before it (0 for the first) */
};

/*
 * Counts packet P, captured at TS_US, in its conversation (made at its first
 * packet) and says what it was into *SEEN (may be NULL): 0, or -ENOMEM.
 */
int model_capture_track(struct capture_flows *f, const struct capture_pkt *p, uint64_t ts_us,
		  struct capture_seen *seen);

/*
 * Whether conversation Q's packets come from QP QPN: its sender known to be
 * it, or, with nothing seen the other way (a peer gone, a firewall), its
 * source port the one rdma_rxe gives QPN's packets to Q's destination.
 */
bool model_capture_from(const struct capture_qp *q, uint32_t qpn);

/* The conversation in F whose packets go the other way: its index, or -1 when none was seen. */
long model_capture_reverse(const struct capture_flows *f, size_t i);

void model_capture_flows_free(struct capture_flows *f);

/* Whether PSN A comes before PSN B in the 24-bit PSN space (IBA 9.7.2). */
bool model_capture_psn_before(uint32_t a, uint32_t b);

#endif
