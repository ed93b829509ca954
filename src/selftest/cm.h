/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside selftest --cm: the rdma_cm plumbing its loopback and rping's protocol share. */
#ifndef RDMACTL_SELFTEST_CM_H
#define RDMACTL_SELFTEST_CM_H

#include <rdma/rdma_cma.h>

#include "selftest/internal.h"

/* rping's advertisement: where a buffer is, its rkey and length. */
struct rping_info {
	uint64_t buf;
	uint32_t rkey;
	uint32_t size;
} __attribute__((packed));

struct cm {
	struct st_run *s;
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen, *id, *child;
	struct ibv_mr *ctl_mr;	/* rping's two 16-byte messages, sent and received */
	struct rping_info ctl[2];
};

/* The next event, which must be WANT (bounded by the timeout unless FOREVER). */
int cm_wait(struct cm *c, enum rdma_cm_event_type want, struct rdma_cm_id **got,
	    bool forever);
/* The event channel, nonblocking: every wait is a bounded poll. */
int cm_open(struct cm *c);
/* ID's device becomes the selftest's (refused when it is not the one named). */
int cm_adopt(struct cm *c, struct rdma_cm_id *id);
struct rdma_conn_param cm_conn_param(unsigned int depth);
int cm_create_qp(struct cm *c, struct rdma_cm_id *id, struct st_end *e);
void cm_close(struct cm *c);
/* Address and route resolution of C's id towards DST. */
int cm_resolve(struct cm *c, struct sockaddr *dst);

#endif
