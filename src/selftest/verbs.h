/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one verbs layer under every selftest mode (stages, two hosts, the
 * transports matrix, the ping-pong, the bench): the device and its GID, the
 * memory, CQs and QPs, the RESET -> INIT -> RTR -> RTS connect of RC, UC and
 * UD, address handles, waiting for completions, and what a failed work
 * completion means. Each failure is said once, here, in one wording.
 */
#ifndef RDMACTL_SELFTEST_VERBS_H
#define RDMACTL_SELFTEST_VERBS_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "model/gid.h"
#include "selftest/selftest.h"

#define VB_PORT 1		/* rxe has one port */
#define VB_GRH 40		/* what a UD receive holds before the payload */
#define VB_QKEY 0x11111111	/* the verbs examples' (ibv_ud_pingpong) */
#define VB_IMM 0x5eed1234u	/* the immediate data the selftest sends */
#define VB_HOP_LIMIT 64		/* the selftest's; the examples use 1 */
#define VB_ACCESS_REMOTE (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
			  IBV_ACCESS_REMOTE_ATOMIC)

/* An opened device, its one port and the GID the selftest speaks from. */
struct vb_device {
	struct ibv_context *ctx;
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port;
	int gid_index;
	union ibv_gid gid;
	char gid_text[GID_ADDR_LEN];
};

/*
 * Opens NAME (D zeroed; or D->ctx set to a context rdma_cm opened), checks
 * that its port is ACTIVE and takes GID GID_INDEX, or the first RoCE v2 GID
 * of an IPv4 address when it is -1: 0, or -1 with F said.
 */
int vb_device_open(struct vb_device *d, const char *name, int gid_index, struct st_fault *f);
void vb_device_close(struct vb_device *d);
/* The port's active MTU in bytes. */
unsigned int vb_mtu_bytes(enum ibv_mtu mtu);

/* LEN bytes at BUF registered with ACCESS: NULL with F said (the memlock limit named). */
struct ibv_mr *vb_reg_mr(struct ibv_pd *pd, void *buf, size_t len, int access,
			 struct st_fault *f);
/*
 * A completion channel, shared by the CQs made on it, and the CQs whose
 * events it gave that no wait has claimed yet (in loopback both ends' CQs
 * share it: an event taken while waiting for one end is kept for the other).
 */
#define VB_MAX_ANNOUNCED 8
struct vb_channel {
	struct ibv_comp_channel *ch;
	unsigned int events;	/* how many it gave */
	struct ibv_cq *announced[VB_MAX_ANNOUNCED];
	unsigned int nannounced;
};

/* C's channel, its fd never blocking (every wait polls it with a timeout): 0, or -1. */
int vb_channel_open(struct vb_channel *c, struct ibv_context *ctx, struct st_fault *f);
void vb_channel_close(struct vb_channel *c);
/*
 * CQ's event, taken from C before CQ is polled (or kept from an earlier
 * wait), within TIMEOUT_MS: 0, or -1 with F said.
 */
int vb_wait_event(struct vb_channel *c, const struct ibv_cq *cq, unsigned int timeout_ms,
		  struct st_fault *f);
/* A CQ of DEPTH, armed when its completions come through channel C (NULL: polled). */
struct ibv_cq *vb_cq_create(struct ibv_context *ctx, int depth, struct vb_channel *c,
			    struct st_fault *f);
/*
 * A QP as QA asks; when the device refuses the inline data asked for
 * (EINVAL), the same QP without it. QA's caps are what the QP got.
 */
struct ibv_qp *vb_qp_create(struct ibv_pd *pd, struct ibv_qp_init_attr *qa, struct st_fault *f);

/* Where a QP sends: the peer's QP, its GID, and what both ends agreed. */
struct vb_path {
	enum ibv_qp_type type;	/* IBV_QPT_RC, _UC or _UD */
	uint32_t dest_qpn, rq_psn, sq_psn;
	uint8_t dgid[16];
	uint16_t dlid;
	int sgid_index;
	uint8_t hop_limit;
	uint8_t rd_atomic;	/* RC: reads and atomics in flight each way */
	enum ibv_mtu mtu;
};

/* RESET -> INIT for TYPE: the port, pkey 0, ACCESS (RC, UC) or the q_key (UD). */
int vb_qp_init(struct ibv_qp *qp, enum ibv_qp_type type, int access, struct st_fault *f);
/*
 * INIT -> RTR -> RTS along P: RC with its retries and reads, UC with the path
 * alone, UD with neither (its address handles carry the path). A failure at
 * RTR, where the kernel resolves the path, names the GID index and the route.
 */
int vb_qp_ready(struct ibv_qp *qp, const struct vb_path *p, struct st_fault *f);
/* vb_qp_init then vb_qp_ready. */
int vb_qp_connect(struct ibv_qp *qp, const struct vb_path *p, int access, struct st_fault *f);
/* A UD address handle along P (its dgid, dlid, sgid_index and hop_limit). */
struct ibv_ah *vb_ah_create(struct ibv_pd *pd, const struct vb_path *p, struct st_fault *f);

/*
 * The teardown beside the making: each destroys what *P holds (NULL:
 * nothing) and leaves *P NULL, so that an end half made tears down as one
 * made whole. QPs go before their CQs and SRQ, MRs after the QPs that used
 * them.
 */
void vb_qp_destroy(struct ibv_qp **p);
void vb_cq_destroy(struct ibv_cq **p);
void vb_srq_destroy(struct ibv_srq **p);
void vb_ah_destroy(struct ibv_ah **p);
void vb_mr_dereg(struct ibv_mr **p);

/* Waiting for completions on one CQ, polled or through its channel. */
struct vb_wait {
	struct ibv_cq *cq;
	struct vb_channel *ch;	/* NULL: polled */
	unsigned int timeout_ms;
	bool spin;		/* poll without a pause (bench, ping-pong): else 20 us naps */
	/*
	 * Through the channel as the examples' -e does: each poll after an event
	 * was taken (so every completion is announced first); else the CQ is
	 * polled first and the channel waited on only when it is empty.
	 */
	bool event_first;
	bool more;		/* event_first: the last poll was full, more may be there */
};

/*
 * Up to N completions into WC, unchecked: how many (> 0); 0 when none came
 * within the timeout; -1 with F said when polling or the channel failed.
 * Through a channel, each event is acknowledged, its CQ armed again and
 * kept as announced, before the poll.
 */
int vb_poll(struct vb_wait *w, struct ibv_wc *wc, int n, struct st_fault *f);
/*
 * One completion of opcode OP, successful, within the timeout: 0, or -1 with
 * F said and what to look at.
 */
int vb_wait_wc(struct vb_wait *w, enum ibv_wc_opcode op, struct ibv_wc *wc, struct st_fault *f);
/* WC succeeded: 0; else -1 with F said (its status, the vendor error, the hint). */
int vb_wc_check(const struct ibv_wc *wc, struct st_fault *f);
/* The one wording of "the peer stopped answering": the firewall, the route, the MTU. */
extern const char vb_unanswered_hint[];

/*
 * HINT for a failure of traffic (no answer, no completion, a QP error), or,
 * where rxe can carry no traffic from this network namespace at all (no UDP
 * 4791 socket in it, which is not the initial one: rdma_rxe before Linux 7.1),
 * that cause: it is the one to fix first, and a firewall hint would mislead.
 */
const char *vb_traffic_hint(const char *hint);

#endif
