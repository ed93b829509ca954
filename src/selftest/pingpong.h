/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selftest --pingpong: interoperating with rdma-core's ibv_rc_pingpong. */
#ifndef RDMACTL_SELFTEST_PP_H
#define RDMACTL_SELFTEST_PP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/gid.h"
#include "selftest/common.h"
#include "selftest/fault.h"

/* Which rdma-core example: ibv_rc_, ibv_uc_, ibv_ud_ or ibv_srq_pingpong. */
enum pp_kind { PP_RC, PP_UC, PP_UD, PP_SRQ };

/* ibv_srq_pingpong's exchange always carries this many QPs, the unused ones zero. */
#define PP_MAX_QP 256

struct pp_opts {
	enum pp_kind kind;
	unsigned int num_qp;	/* srq: 16 as the example; 1 otherwise */
	/* port: TCP, 18515 as ibv_rc_pingpong; size 4096, ud 2048; events: -e */
	struct st_common common;
	bool server;
	unsigned int iters;	/* 1000 */
	unsigned int rx_depth;	/* 500 */
	int mtu;		/* enum ibv_mtu: IBV_MTU_1024 */
};

struct pp_report {
	bool passed;
	char local_gid[GID_ADDR_LEN];
	char remote_gid[GID_ADDR_LEN];
	uint32_t remote_qpn;
	uint64_t usec;
	uint64_t bytes;
	unsigned int iters;
	unsigned int cq_events;	/* with events: how many the channel gave */
	struct st_fault f;	/* what went wrong */
};

const char *pp_kind_name(enum pp_kind k);
int st_pingpong(const struct pp_opts *o, struct pp_report *r);

#endif
