/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What record.bpf.c hands user space: a record of the ring buffer for each
 * process of the recorded command's tree made, run anew or ended, each
 * verbs or rdma_cm call of theirs the kernel refused, each rdma_cm event
 * they were given, each QP they made, and each QP's first error completion. Read by record.c. Only <linux/types.h> types:
 * both the BPF program and rdmactl include it.
 */
#ifndef RDMACTL_KERNEL_RECORD_BPF_H
#define RDMACTL_KERNEL_RECORD_BPF_H

#include <linux/types.h>

/* The most bytes of a call's request kept: every verb's fixed part, its first attributes. */
#define RECORD_REQ_MAX 256
/*
 * A write command carried by ioctl (UVERBS_METHOD_INVOKE_WRITE, as
 * libibverbs sends them where the kernel takes it): the ioctl's header and
 * first attributes before this offset, the command's own struct (its
 * UVERBS_ATTR_CORE_IN, which the header only points to) from it.
 */
#define RECORD_REQ_CORE_IN 64

enum record_bpf_kind {
	RECORD_BPF_FORK = 1,	/* tgid made by parent (arg) */
	RECORD_BPF_EXEC,	/* tgid runs comm anew */
	RECORD_BPF_EXIT,	/* tgid ended: arg its exit code, as wait(2) gives it */
	RECORD_BPF_UVERBS_WRITE,	/* a write(2) to a uverbs device refused: req, ret */
	RECORD_BPF_UVERBS_IOCTL,	/* an ioctl(2) to a uverbs device refused: req, ret */
	RECORD_BPF_UCMA_WRITE,	/* a write(2) to rdma_cm refused: req, ret */
	RECORD_BPF_UCMA_EVENT,	/* an rdma_cm event given: req is its struct rdma_ucm_event_resp */
	/*
	 * rdma_rxe posted a QP's first completion in error (any process's: the
	 * QP number tells whose): arg the QP number, ret the status; req the
	 * completion's first bytes as struct ib_uverbs_wc lays them out.
	 */
	RECORD_BPF_WC,
	/*
	 * A QP made by the tree through ioctl's QP_CREATE (libibverbs' way where
	 * the kernel has it, 5.10 to 7.3): arg its number, ret its type
	 * (IB_QPT_*); req its handle (a __u32, len 4) when read: the process's
	 * name for the QP in later calls; known the moment it exists, however
	 * soon it is gone.
	 */
	RECORD_BPF_QP_MADE,
	/*
	 * A QP of the tree modified (ibv_modify_qp through ioctl's INVOKE_WRITE,
	 * libibverbs' way where the kernel has it): req as a refused ioctl's,
	 * its struct ib_uverbs_modify_qp at RECORD_REQ_CORE_IN: the state
	 * asked, and at RTR the destination QP number and GID its connect gave.
	 */
	RECORD_BPF_QP_MODIFIED,
};

struct record_bpf_rec {
	__u64 ts_ns;		/* bpf_ktime_get_ns(): the monotonic clock */
	__u32 kind;
	__u32 tgid, tid;
	__s32 ret;		/* the call's return: a negative errno */
	__u32 arg;		/* FORK: the parent; EXIT: the exit code */
	__u32 len;		/* the bytes of req read */
	/* A refused call's process as the kernel judged it: its memlock limit, capabilities. */
	__u64 memlock;		/* RLIMIT_MEMLOCK's soft limit, bytes (~0: unlimited) */
	__u64 cap_eff;		/* CapEff's bits */
	__u32 userns;		/* its user namespace's inode: the initial one's, or a container's */
	/*
	 * QP_MADE, QP_MODIFIED: the uverbs file the call came through, as a
	 * number of its own (not its address): a handle is that file's, and a
	 * process with two devices open has a handle 3 on each.
	 */
	__u32 file;
	/*
	 * QP_MADE, QP_MODIFIED: that file's character device as the kernel
	 * numbers it (major << 20 | minor): /sys/dev/char/MAJOR:MINOR/ibdev
	 * is the RDMA device the QP is of; 0: not read.
	 */
	__u32 rdev;
	char comm[16];
	__u8 req[RECORD_REQ_MAX];
};

#endif
