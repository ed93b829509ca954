/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What record.bpf.c reads, and nothing else includes: the kernel's own types
 * as CO-RE stand-ins (only the fields read, relocated against vmlinux's
 * BTF), and the user ABI of the uverbs and rdma_cm devices as the uapi
 * headers lay it out (rdma/rdma_user_ioctl_cmds.h, ib_user_ioctl_cmds.h,
 * ib_user_verbs.h, rdma_user_cm.h), written out because the BPF object is
 * built without the system's headers.
 */
#ifndef RDMACTL_KERNEL_RECORD_TYPES_BPF_H
#define RDMACTL_KERNEL_RECORD_TYPES_BPF_H

#include <linux/types.h>

struct rlimit {
	unsigned long rlim_cur;
} __attribute__((preserve_access_index));

struct signal_struct {
	struct rlimit rlim[16];
} __attribute__((preserve_access_index));

/* Two u32 before 6.3, one u64 since: the same 8 bytes, CAP_IPC_LOCK among the first 32 bits. */
typedef struct {
	__u64 val;
} kernel_cap_t;

struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct user_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct cred {
	kernel_cap_t cap_effective;
	struct user_namespace *user_ns;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	int exit_code;
	char comm[16];
	struct signal_struct *signal;
	const struct cred *cred;
} __attribute__((preserve_access_index));

#define RLIMIT_MEMLOCK 8

/* A uverbs call's file: its character device, /dev/infiniband/uverbsN, names the device. */
struct inode {
	__u32 i_rdev;
} __attribute__((preserve_access_index));

struct file {
	struct inode *f_inode;
} __attribute__((preserve_access_index));

/* rdma_ucm's command numbers (rdma/rdma_user_cm.h): the one whose answer is read. */
#define UCMA_GET_EVENT 12
/* struct rdma_ucm_event_resp's first fields: uid, id, event, status. */
#define UCMA_EVENT_HEAD 20

/* struct ib_uverbs_ioctl_hdr and struct ib_uverbs_attr (rdma/rdma_user_ioctl_cmds.h). */
struct ioctl_hdr {
	__u16 length, object_id, method_id, num_attrs;
	__u64 reserved1;
	__u32 driver_id, reserved2;
};

struct ioctl_attr {
	__u16 attr_id, len, flags, attr_data;
	__u64 data;
};

/* UVERBS_OBJECT_DEVICE's UVERBS_METHOD_INVOKE_WRITE, and its UVERBS_ATTR_CORE_IN. */
#define INVOKE_WRITE_OBJECT 0
#define INVOKE_WRITE_METHOD 0
#define ATTR_CORE_IN 0
/* ... and its UVERBS_ATTR_WRITE_CMD (a value inline): IB_USER_VERBS_CMD_MODIFY_QP's
 * number, alone or with IB_USER_VERBS_CMD_FLAG_EXTENDED (the _EX_ one) above the mask. */
#define ATTR_WRITE_CMD 2
#define WRITE_CMD_MASK 0xff
#define WRITE_MODIFY_QP 26
/* libibverbs puts the command's 2 to 5 attributes first, CORE_IN among them. */
#define INVOKE_WRITE_ATTRS 5
/*
 * UVERBS_OBJECT_QP's UVERBS_METHOD_QP_CREATE (rdma/ib_user_ioctl_cmds.h),
 * its UVERBS_ATTR_CREATE_QP_TYPE (a value inline), _RESP_QP_NUM (where
 * the kernel writes the number) and _HANDLE (a new object: the kernel
 * writes its handle back into the attribute's own data); it has at most
 * 16 attributes.
 */
#define QP_OBJECT 4
#define QP_CREATE_METHOD 0
#define ATTR_QP_HANDLE 0
#define ATTR_QP_TYPE 9
#define ATTR_QP_NUM 14
#define QP_CREATE_ATTRS 16

/*
 * struct ib_uverbs_wc's first fields (rdma/ib_user_verbs.h), which rxe
 * fills for a user's CQ: status at the same place as the kernel's ib_wc,
 * the QP number after. A kernel QP's completion reads as another number,
 * which user space knows no QP of.
 */
struct uwc {
	__u64 wr_id;
	__u32 status, opcode, vendor_err, byte_len, ex, qp_num;
};

#endif
