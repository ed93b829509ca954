/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What capture_loop.bpf.c hands user space for each packet rdma_rxe
 * delivers to itself: a record of the ring buffer, read by capture_loop.c.
 * Only <linux/types.h> types: both the BPF program and rdmactl include it.
 */
#ifndef RDMACTL_KERNEL_CAPTURE_LOOP_BPF_H
#define RDMACTL_KERNEL_CAPTURE_LOOP_BPF_H

#include <linux/types.h>

/*
 * The most bytes of a packet (from its IP header on) a record holds: rxe's
 * largest, 4096 bytes of payload with every header RoCE v2 has over IPv6.
 */
#define CAPTURE_LOOP_DATA_MAX 4352

struct capture_loop_rec {
	__u64 ts_ns;		/* bpf_ktime_get_ns(): the monotonic clock */
	__u32 dev_index;	/* the rxe device's RDMA index */
	__u32 wire_len;		/* the packet's bytes from its IP header to its ICRC */
	__u32 len;		/* of those, the bytes in data (the record ends there) */
	__u32 pad;
	__u8 data[CAPTURE_LOOP_DATA_MAX];
};

#endif
