/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The packets rdma_rxe delivers to itself (two QPs of one device: they never
 * reach the netdev), seen by an eBPF program at the entry of rxe_rcv, or of
 * rxe_loopback where the module has no BTF (capture_loop.bpf.c), through libbpf, each given an Ethernet header with
 * the netdev's address in front of the IP and UDP headers rxe made for it.
 * It never prints: a failure is a negative errno with words beside it.
 */
#ifndef RDMACTL_KERNEL_CAPTURE_LOOP_H
#define RDMACTL_KERNEL_CAPTURE_LOOP_H

#include <stdint.h>

#include "kernel/capture.h"

struct capture_loop;

/*
 * The loopback packets of the RDMA device DEV_INDEX, whose netdev is
 * IFINDEX in this network namespace, the first SNAP bytes of each as
 * frames from MAC to MAC, through a ring of RING bytes (a power of two, of
 * pages): 0, or -ENOPKG (libbpf cannot be opened), -EOPNOTSUPP (the kernel
 * has no BTF, or rdma_rxe none and no rxe_loopback to probe), -ENOENT
 * (rdma_rxe is not loaded, or has no rxe_rcv or field the program reads),
 * -EPERM (neither root nor CAP_BPF with CAP_PERFMON), -EIO (WHY says).
 */
int capture_loop_open(uint32_t dev_index, unsigned int ifindex, const uint8_t mac[6], int snap,
		      uint32_t ring, struct capture_loop **l, char *why);

/* The function of rdma_rxe probed: "rxe_rcv" or "rxe_loopback". */
const char *capture_loop_at(const struct capture_loop *l);

/* A descriptor poll() says is readable when a packet may be there. */
int capture_loop_fd(const struct capture_loop *l);

/* The next packet into *F: 1, or 0 when none is there now. */
int capture_loop_next(struct capture_loop *l, struct capture_frame *f);

/* Packets the ring had no room for. */
uint64_t capture_loop_dropped(const struct capture_loop *l);

void capture_loop_close(struct capture_loop *l);

#endif
