// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The eBPF half of capture's loopback source (capture_loop.c): at the entry
 * of rdma_rxe's rxe_rcv (a kprobe), each packet the device sent to itself (rxe's
 * RXE_LOOPBACK_MASK in the packet's info, which rxe keeps in skb->cb) is
 * copied, from the IP and UDP headers rxe built for it, into a ring buffer.
 * The kernel's types are read through CO-RE against rdma_rxe's own BTF, so
 * one object serves every kernel whose module carries BTF.
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
struct sk_buff {
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

/* Set before loading: the device watched (~0: every one), the bytes kept. */
const volatile __u32 want_dev = ~0u;
const volatile __u32 snap = CAPTURE_LOOP_DATA_MAX;

#define RING_BYTES (8 << 20)

/* Records the ring had no room for. */
__u64 dropped;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RING_BYTES);
} ring SEC(".maps");

/*
 * Where a record is made before it goes into the ring at its own length (a
 * kprobe's program is not preempted: one CPU's is its own while it runs).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct capture_loop_rec);
} scratch SEC(".maps");

SEC("kprobe/rxe_rcv")
int on_rxe_rcv(struct pt_regs *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)PT_REGS_PARM1(ctx);
	struct rxe_pkt_info *pkt = (struct rxe_pkt_info *)((char *)skb +
							   bpf_core_field_offset(skb->cb));
	struct capture_loop_rec *r;
	unsigned char *head, *data, *ip;
	__u32 mask, dev, len;
	__u64 hdrs, n;
	__u32 zero = 0;

	mask = BPF_CORE_READ(pkt, mask);
	if (!(mask & bpf_core_enum_value(enum rxe_hdr_mask, RXE_LOOPBACK_MASK)))
		return 0;
	dev = BPF_CORE_READ(pkt, rxe, ib_dev.index);
	if (want_dev != ~0u && dev != want_dev)
		return 0;
	head = BPF_CORE_READ(skb, head);
	data = BPF_CORE_READ(skb, data);
	len = BPF_CORE_READ(skb, len);
	ip = head + BPF_CORE_READ(skb, network_header);
	/* rxe pulls its IP and UDP headers before rxe_rcv; they stay in front. */
	hdrs = data >= ip ? (__u64)(data - ip) : 0;
	if (hdrs > 128)
		return 0;
	r = bpf_map_lookup_elem(&scratch, &zero);
	if (!r)
		return 0;
	r->ts_ns = bpf_ktime_get_ns();
	r->dev_index = dev;
	/* 64-bit all through: the verifier bounds the register the copy is given. */
	n = hdrs + len;
	r->wire_len = (__u32)n;
	if (n > snap)
		n = snap;
	if (n > CAPTURE_LOOP_DATA_MAX)
		n = CAPTURE_LOOP_DATA_MAX;
	r->len = (__u32)n;
	r->pad = 0;
	if (bpf_probe_read_kernel(r->data, n, ip))
		return 0;
	/*
	 * User space is woken only once the ring is a quarter full: else it
	 * reads the ring every CAPTURE_FLUSH_MS (capture.c), a block at a time,
	 * as libpcap reads the netdev's. A wake-up a packet cost the traffic.
	 */
	if (bpf_ringbuf_output(&ring, r, offsetof(struct capture_loop_rec, data) + n,
			       bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA) > RING_BYTES / 4 ?
			       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP))
		__sync_fetch_and_add(&dropped, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
