/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The requests a process passes the kernel's uverbs and rdma_cm devices
 * (rdma/ib_user_verbs.h, rdma/ib_user_ioctl_cmds.h, rdma/rdma_user_cm.h),
 * decoded from their bytes as record keeps them: which verb, and the
 * attributes that explain a refusal. Bytes only: no device is looked at.
 */
#ifndef RDMACTL_KERNEL_UVERBS_H
#define RDMACTL_KERNEL_UVERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum uverbs_via {
	UVERBS_VIA_WRITE,	/* write(2) to /dev/infiniband/uverbsN */
	UVERBS_VIA_IOCTL,	/* ioctl(2) to it */
	UVERBS_VIA_UCMA,	/* write(2) to /dev/infiniband/rdma_cm */
};

struct uverbs_call {
	/* The library call that makes it ("ibv_modify_qp"), and the kernel's name ("MODIFY_QP"). */
	const char *verb;
	char cmd[48];
	/* ibv_modify_qp's */
	bool modify_qp;
	uint32_t qp_handle;	/* the process's name for the QP (record's qp-made has it) */
	uint32_t attr_mask;	/* IBV_QP_* */
	uint8_t qp_state;	/* the state asked for (IBV_QPS_*), when attr_mask has IBV_QP_STATE */
	uint8_t path_mtu;	/* IBV_MTU_* when attr_mask has IBV_QP_PATH_MTU */
	uint32_t dest_qp_num;
	/* its address vector, when attr_mask has IBV_QP_AV */
	bool is_global;
	uint8_t sgid_index, port_num, hop_limit;
	uint8_t dgid[16];
	uint16_t dlid;
	/* ibv_reg_mr's */
	bool reg_mr;
	uint64_t mr_length;
	uint32_t access;
	/* ibv_create_cq's and ibv_create_qp's depths, when the request holds them */
	bool create_cq, create_qp;
	uint32_t cqe;
	uint32_t max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline;
	uint8_t qp_type;	/* IBV_QPT_* */
};

/*
 * Where record puts the struct of a write command carried by ioctl (its
 * CORE_IN), after the ioctl's header and first attributes: record.bpf.h's
 * RECORD_REQ_CORE_IN.
 */
#define UVERBS_CORE_IN_AT 64

/* ibv_qp_attr_mask's bits and ibv_qp_state's RTR (infiniband/verbs.h, the uapi's numbers). */
#define UVERBS_QP_STATE (1u << 0)
#define UVERBS_QP_AV (1u << 7)
#define UVERBS_QP_PATH_MTU (1u << 8)
#define UVERBS_QP_DEST_QPN (1u << 20)
#define UVERBS_QPS_RTR 2

/* LEN bytes of a request passed VIA, decoded into C: false when too short to name its verb. */
bool uverbs_decode(enum uverbs_via via, const uint8_t *req, size_t len, struct uverbs_call *c);

/* An rdma_cm event as rdma_get_cm_event gave it (struct rdma_ucm_event_resp). */
struct uverbs_cm_event {
	uint32_t id, event;
	int32_t status;
};
bool uverbs_cm_event(const uint8_t *resp, size_t len, struct uverbs_cm_event *e);
/* "RDMA_CM_EVENT_REJECTED", or NULL for a number this header does not name. */
const char *uverbs_cm_event_name(uint32_t event);
/* "RTR", "RTS": the names ibv_qp_state's values carry; NULL beyond them. */
const char *uverbs_qp_state_name(unsigned int state);

#endif
