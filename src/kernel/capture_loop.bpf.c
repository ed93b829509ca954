// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The eBPF half of capture's loopback source (capture_loop.c): at the entry
 * of rdma_rxe's rxe_rcv (a kprobe), each packet the device sent to itself (rxe's
 * RXE_LOOPBACK_MASK in the packet's info, which rxe keeps in skb->cb) is
 * copied, from the IP and UDP headers rxe built for it, into a ring buffer.
 * The kernel's types are read through CO-RE against rdma_rxe's own BTF, so
 * one object serves every kernel whose module carries BTF.
 *
 * Where the module carries none (Debian's 5.10), rxe's types cannot be had,
 * but its rxe_loopback is a function of its own there, which every packet
 * the device sends to itself enters, its IP header first: a kprobe on it
 * needs only the kernel's own types (sk_buff, net_device), and knows the
 * device by its netdev. capture_loop.c loads one program or the other.
 *
 * A kprobe, not fentry: fentry's program may be preempted, and where rxe
 * runs its tasks in process context (7.3's workqueue) another call of
 * rxe_rcv on that CPU meanwhile is skipped by the kernel's recursion guard
 * (4 packets of 200 lost on 7.3 in one vCPU); a kprobe's program runs with
 * preemption off.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "kernel/capture_loop.bpf.h"

/* The fields read, by name: CO-RE finds them wherever a kernel put them. */
struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net {
	struct ns_common ns;
} __attribute__((preserve_access_index));

typedef struct {
	struct net *net;
} possible_net_t;

struct net_device {
	int ifindex;
	possible_net_t nd_net;
} __attribute__((preserve_access_index));

struct sk_buff {
	struct net_device *dev;
	char cb[48];
	unsigned int len;
	__u16 network_header;
	unsigned char *head;
	unsigned char *data;
} __attribute__((preserve_access_index));

struct ib_device {
	__u32 index;
} __attribute__((preserve_access_index));

struct rxe_dev {
	struct ib_device ib_dev;
} __attribute__((preserve_access_index));

struct rxe_pkt_info {
	struct rxe_dev *rxe;
	__u32 mask;
} __attribute__((preserve_access_index));

enum rxe_hdr_mask {
	RXE_LOOPBACK_MASK = 1,
};

/*
 * Set before loading: the device watched (~0: every one), the bytes kept;
 * for on_rxe_loopback, its netdev's index and network namespace.
 */
const volatile __u32 want_dev = ~0u;
const volatile __s32 want_ifindex;
const volatile __u32 want_netns;
const volatile __u32 snap = CAPTURE_LOOP_DATA_MAX;
/* The ring's bytes in use past which user space is woken (a quarter of it). */
const volatile __u64 wake_at = 1 << 20;

/* Packets not handed over: no room in the ring, or not read whole. */
__u64 dropped;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);	/* capture_loop.c sizes it */
} ring SEC(".maps");

#define REC_HEAD offsetof(struct capture_loop_rec, data)

/*
 * N bytes from IP into a record of SIZE bytes (a constant: the ring takes
 * records of a size the verifier knows), sent to user space. User space is
 * woken only once the ring is a quarter full: else it reads the ring every
 * CAPTURE_FLUSH_MS (capture.c), a block at a time, as libpcap reads the
 * netdev's; a wake-up a packet cost the traffic.
 */
static __always_inline void emit(const unsigned char *ip, __u64 n, __u32 wire_len, __u32 dev,
				 const __u32 size)
{
	struct capture_loop_rec *r = bpf_ringbuf_reserve(&ring, size, 0);

	if (!r) {
		__sync_fetch_and_add(&dropped, 1);
		return;
	}
	if (n > size - REC_HEAD)
		n = size - REC_HEAD;
	r->ts_ns = bpf_ktime_get_ns();
	r->dev_index = dev;
	r->wire_len = wire_len;
	r->len = (__u32)n;
	r->pad = 0;
	if (bpf_probe_read_kernel(r->data, n, ip)) {
		bpf_ringbuf_discard(r, 0);
		__sync_fetch_and_add(&dropped, 1);
		return;
	}
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA) > wake_at ?
			      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/*
 * SKB's bytes from its IP header on, the first SNAP of them, as a record of
 * device DEV. rxe pulls its IP and UDP headers before rxe_rcv, so they stay
 * in front of the data there; at rxe_loopback the data starts at them.
 */
static __always_inline void take(struct sk_buff *skb, __u32 dev)
{
	unsigned char *head, *data, *ip;
	__u64 hdrs, n;
	__u32 len;

	head = BPF_CORE_READ(skb, head);
	data = BPF_CORE_READ(skb, data);
	len = BPF_CORE_READ(skb, len);
	ip = head + BPF_CORE_READ(skb, network_header);
	hdrs = data >= ip ? (__u64)(data - ip) : 0;
	if (hdrs > 128) {
		__sync_fetch_and_add(&dropped, 1);
		return;
	}
	/* 64-bit all through: the verifier bounds the register the copy is given. */
	n = hdrs + len;
	if (n > snap)
		n = snap;
	/* The smallest of four sizes that holds it: an ACK's, a 1024 MTU's, 2048's, the most. */
	if (n <= 256 - REC_HEAD)
		emit(ip, n, (__u32)(hdrs + len), dev, 256);
	else if (n <= 1280 - REC_HEAD)
		emit(ip, n, (__u32)(hdrs + len), dev, 1280);
	else if (n <= 2304 - REC_HEAD)
		emit(ip, n, (__u32)(hdrs + len), dev, 2304);
	else
		emit(ip, n, (__u32)(hdrs + len), dev, sizeof(struct capture_loop_rec));
}

SEC("kprobe/rxe_rcv")
int on_rxe_rcv(struct pt_regs *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)PT_REGS_PARM1(ctx);
	struct rxe_pkt_info *pkt = (struct rxe_pkt_info *)((char *)skb +
							   bpf_core_field_offset(skb->cb));
	__u32 mask, dev;

	mask = BPF_CORE_READ(pkt, mask);
	if (!(mask & bpf_core_enum_value(enum rxe_hdr_mask, RXE_LOOPBACK_MASK)))
		return 0;
	dev = BPF_CORE_READ(pkt, rxe, ib_dev.index);
	if (want_dev != ~0u && dev != want_dev)
		return 0;
	take(skb, dev);
	return 0;
}

/* Every packet here is one the device sends to itself: the netdev's tells which device. */
SEC("kprobe/rxe_loopback")
int on_rxe_loopback(struct pt_regs *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)PT_REGS_PARM1(ctx);

	if (BPF_CORE_READ(skb, dev, ifindex) != want_ifindex ||
	    BPF_CORE_READ(skb, dev, nd_net.net, ns.inum) != want_netns)
		return 0;
	take(skb, want_dev);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
