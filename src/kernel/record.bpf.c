// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The eBPF half of record (record.c): the recorded command's process tree,
 * followed from the process record.c puts in TREE through every fork
 * (tp_btf/sched_process_fork), however deep, and only those; and at the
 * entry and return of the kernel's uverbs and rdma_cm handlers (kprobes on
 * ib_uverbs_write, ib_uverbs_ioctl and rdma_ucm's ucma_write), the
 * requests of that tree the kernel refused, with the bytes the process
 * passed (the verb, the attributes that explain it), and the rdma_cm
 * events it was given. Nothing of another process is kept: a lookup in
 * TREE is all a foreign call costs. And at rdma_rxe's rxe_cq_post, each
 * QP's first completion in error, whoever's: it runs in rxe's own context,
 * and user space keeps those of the tree's QPs.
 *
 * Only the kernel's own types are read (task_struct's tgid, pid, comm and
 * exit_code; a refused call's process's memlock limit, capabilities and
 * user namespace, as ib_umem_get judges them), through CO-RE against
 * vmlinux's BTF, which every Debian kernel has: the requests are the uapi's, read from the process's
 * memory, so one object serves 5.10 to 7.3 whether or not the RDMA
 * modules carry BTF.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "kernel/record.bpf.h"
#include "kernel/record_types.bpf.h"

/* Records not handed over: no room in the ring. */
__u64 dropped;

/*
 * Set by record.c before loading: every process of the host is followed
 * (monitor --journal), and the tree's programs are not loaded.
 */
const volatile __u32 host_wide = 0;

/* The tree's processes, by tgid: the first put by record.c, the others by on_fork. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u32);
} tree SEC(".maps");

/*
 * A call entered and not yet returned, by thread: where its request is,
 * read only if the kernel refuses it (the caller's memory holds it until
 * the call returns), so a call that succeeds costs a lookup and this.
 */
struct pending {
	__u32 kind;
	__u32 len, in_len;
	__u32 cmd;		/* rdma_ucm's command number; the write command ioctl carries */
	__u64 buf, in;		/* the request, and a write command's own struct (ioctl's CORE_IN) */
	__u64 resp;		/* rdma_ucm's GET_EVENT: where its answer goes */
	__u64 qpn_at;		/* ioctl's QP_CREATE: where the QP's number is written; 0: none */
	__u64 handle_at;	/* ... and its handle, the process's name for it in later calls */
	__u64 filp;		/* an ioctl's file: whose handles they are */
	__u32 qp_type;		/* ... and the type asked */
	__u32 rdev;		/* ... and its character device: which RDMA device */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct pending);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} ring SEC(".maps");

static __always_inline struct record_bpf_rec *rec_new(__u32 kind, __u32 tgid, __u32 tid)
{
	struct record_bpf_rec *r = bpf_ringbuf_reserve(&ring, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&dropped, 1);
		return NULL;
	}
	r->ts_ns = bpf_ktime_get_ns();
	r->kind = kind;
	r->tgid = tgid;
	r->tid = tid;
	r->ret = 0;
	r->arg = 0;
	r->len = 0;
	r->memlock = 0;
	r->cap_eff = 0;
	r->userns = 0;
	r->file = 0;
	r->rdev = 0;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	return r;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	struct record_bpf_rec *r;
	__u32 one = 1;

	/* A thread is its process's: only a new process joins. */
	if (ptgid == ctgid || !bpf_map_lookup_elem(&tree, &ptgid))
		return 0;
	bpf_map_update_elem(&tree, &ctgid, &one, BPF_ANY);
	r = rec_new(RECORD_BPF_FORK, ctgid, ctgid);
	if (!r)
		return 0;
	r->arg = ptgid;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct record_bpf_rec *r;

	if (!bpf_map_lookup_elem(&tree, &tgid))
		return 0;
	r = rec_new(RECORD_BPF_EXEC, tgid, BPF_CORE_READ(p, pid));
	if (r)
		bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct record_bpf_rec *r;

	/* The process ends with its first thread; a PID used again later is another's. */
	if (BPF_CORE_READ(p, pid) != tgid || !bpf_map_lookup_elem(&tree, &tgid))
		return 0;
	bpf_map_delete_elem(&tree, &tgid);
	r = rec_new(RECORD_BPF_EXIT, tgid, tgid);
	if (!r)
		return 0;
	r->arg = (__u32)BPF_CORE_READ(p, exit_code);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* Call KIND's request, N bytes at BUF (and with IN, IN_N bytes at IN from RECORD_REQ_CORE_IN on), into P. */
static __always_inline void pend(struct pending *p, __u32 kind, const void *buf, __u64 n,
				 const void *in, __u64 in_n)
{
	__u64 head[2];

	*p = (struct pending){ .kind = kind, .buf = (__u64)buf, .in = (__u64)in, .cmd = ~0u };
	p->len = n > RECORD_REQ_MAX ? RECORD_REQ_MAX : (__u32)n;
	p->in_len = in_n > RECORD_REQ_MAX - RECORD_REQ_CORE_IN ?
		RECORD_REQ_MAX - RECORD_REQ_CORE_IN : (__u32)in_n;
	if (in && p->len > RECORD_REQ_CORE_IN)
		p->len = RECORD_REQ_CORE_IN;
	/* rdma_ucm's header and GET_EVENT's response pointer: its answer is read at return. */
	if (kind == RECORD_BPF_UCMA_WRITE && n >= sizeof(head) &&
	    !bpf_probe_read_user(head, sizeof(head), buf)) {
		p->cmd = (__u32)head[0];
		p->resp = head[1];
	}
}

/* Whether the calling process is of the tree (every process is, host-wide). */
static __always_inline int ours(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (host_wide)
		return 1;
	return bpf_map_lookup_elem(&tree, &tgid) != NULL;
}

/* The kprobe's half: a call of the tree kept till it returns. */
static __always_inline void enter(__u32 kind, const void *buf, __u64 n, const void *in,
				  __u64 in_n)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct pending p;

	if (!ours())
		return;
	pend(&p, kind, buf, n, in, in_n);
	bpf_map_update_elem(&calls, &id, &p, BPF_ANY);
}

/* The pending call's request, read now, into R. */
static __always_inline void request(const struct pending *p, struct record_bpf_rec *r)
{
	__u32 n = p->len, in_n = p->in_len;

	if (n > RECORD_REQ_MAX)
		n = RECORD_REQ_MAX;
	r->len = bpf_probe_read_user(r->req, n, (const void *)p->buf) ? 0 : n;
	if (!p->in)
		return;
	if (in_n > RECORD_REQ_MAX - RECORD_REQ_CORE_IN)
		in_n = RECORD_REQ_MAX - RECORD_REQ_CORE_IN;
	if (bpf_probe_read_user(r->req + RECORD_REQ_CORE_IN, in_n, (const void *)p->in))
		in_n = 0;
	r->len = RECORD_REQ_CORE_IN + in_n;
}

/* FILP as a number of its own: its address mixed, not given away. */
static __always_inline __u32 file_of(__u64 filp)
{
	return (__u32)((filp >> 4) * 0x9e3779b97f4a7c15ull >> 32);
}

/*
 * Call P's return, RET, by thread ID: a refused one handed over with its
 * request; a successful GET_EVENT of rdma_cm with the event it gave; a QP
 * made, and a QP modified, with what pairs it with its peer.
 */
static __always_inline void leave_with(const struct pending *p, long ret, __u64 id)
{
	struct record_bpf_rec *r;
	int event = ret >= 0 && p->kind == RECORD_BPF_UCMA_WRITE && p->cmd == UCMA_GET_EVENT &&
		    p->resp;
	__u32 qpn;

	/* A QP made: its number and handle as the kernel wrote them back, its type as asked. */
	if (ret == 0 && p->qpn_at) {
		if (bpf_probe_read_user(&qpn, sizeof(qpn), (const void *)p->qpn_at))
			return;
		r = rec_new(RECORD_BPF_QP_MADE, id >> 32, (__u32)id);
		if (!r)
			return;
		r->arg = qpn;
		r->ret = (__s32)p->qp_type;
		r->file = file_of(p->filp);
		r->rdev = p->rdev;
		if (p->handle_at && !bpf_probe_read_user(r->req, sizeof(__u32),
							 (const void *)p->handle_at))
			r->len = sizeof(__u32);
		bpf_ringbuf_submit(r, 0);
		return;
	}
	/* A QP of the tree moved, or given its peer: the request, as a refused one's. */
	if (ret == 0 && !host_wide && p->kind == RECORD_BPF_UVERBS_IOCTL &&
	    (p->cmd & WRITE_CMD_MASK) == WRITE_MODIFY_QP) {
		r = rec_new(RECORD_BPF_QP_MODIFIED, id >> 32, (__u32)id);
		if (!r)
			return;
		r->file = file_of(p->filp);
		r->rdev = p->rdev;
		request(p, r);
		bpf_ringbuf_submit(r, 0);
		return;
	}
	if (ret >= 0 && !event)
		return;
	r = rec_new(event ? RECORD_BPF_UCMA_EVENT : p->kind, id >> 32, (__u32)id);
	if (!r)
		return;
	{
		struct task_struct *t = (struct task_struct *)bpf_get_current_task();
		const struct cred *cred = BPF_CORE_READ(t, cred);

		r->memlock = BPF_CORE_READ(t, signal, rlim[RLIMIT_MEMLOCK].rlim_cur);
		bpf_core_read(&r->cap_eff, sizeof(r->cap_eff), &cred->cap_effective);
		r->userns = BPF_CORE_READ(cred, user_ns, ns.inum);
	}
	r->ret = (__s32)ret;
	if (!event)
		request(p, r);
	else
		r->len = bpf_probe_read_user(r->req, UCMA_EVENT_HEAD, (const void *)p->resp) ?
			0 : UCMA_EVENT_HEAD;
	bpf_ringbuf_submit(r, 0);
}

/* The kretprobe's half: the call kept at its entry, now returned. */
static __always_inline void leave(long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct pending *p = bpf_map_lookup_elem(&calls, &id);

	if (!p)
		return;
	leave_with(p, ret, id);
	bpf_map_delete_elem(&calls, &id);
}

SEC("kprobe/ib_uverbs_write")
int BPF_KPROBE(uverbs_write_in, void *filp, const void *buf, __u64 count)
{
	enter(RECORD_BPF_UVERBS_WRITE, buf, count, NULL, 0);
	return 0;
}

SEC("kretprobe/ib_uverbs_write")
int BPF_KRETPROBE(uverbs_write_out, long ret)
{
	leave(ret);
	return 0;
}

/*
 * The ioctl at ARG as a pending call into P: its header says its length; a
 * write command it carries points to its own struct (CORE_IN), read too.
 */
static __always_inline void ioctl_pend(struct pending *p, __u64 filp, unsigned long arg)
{
	struct ioctl_hdr h = { 0 };
	struct ioctl_attr a;
	const void *in = NULL;
	__u64 in_n = 0;
	__u32 cmd = ~0u;

	bpf_probe_read_user(&h, sizeof(h), (const void *)arg);
	if (h.object_id == INVOKE_WRITE_OBJECT && h.method_id == INVOKE_WRITE_METHOD) {
		for (int i = 0; i < INVOKE_WRITE_ATTRS; i++) {
			if (i >= h.num_attrs)
				break;
			if (bpf_probe_read_user(&a, sizeof(a), (const char *)arg + sizeof(h) +
						i * sizeof(a)))
				break;
			if (a.attr_id == ATTR_CORE_IN) {
				in = (const void *)a.data;
				in_n = a.len;
			} else if (a.attr_id == ATTR_WRITE_CMD) {
				cmd = (__u32)a.data;
			}
		}
	}
	pend(p, RECORD_BPF_UVERBS_IOCTL, (const void *)arg, h.length, in, in_n);
	p->cmd = cmd;
	p->filp = filp;
	/* A QP made or modified: its device, the file's character device (uverbsN). */
	if ((cmd & WRITE_CMD_MASK) == WRITE_MODIFY_QP ||
	    (h.object_id == QP_OBJECT && h.method_id == QP_CREATE_METHOD))
		p->rdev = BPF_CORE_READ((struct file *)(unsigned long)filp, f_inode, i_rdev);
	if (h.object_id != QP_OBJECT || h.method_id != QP_CREATE_METHOD)
		return;
	for (int i = 0; i < QP_CREATE_ATTRS; i++) {
		if (i >= h.num_attrs)
			break;
		if (bpf_probe_read_user(&a, sizeof(a), (const char *)arg + sizeof(h) +
					i * sizeof(a)))
			break;
		if (a.attr_id == ATTR_QP_NUM)
			p->qpn_at = a.data;
		else if (a.attr_id == ATTR_QP_HANDLE)
			p->handle_at = arg + sizeof(h) + i * sizeof(a) +
				       __builtin_offsetof(struct ioctl_attr, data);
		else if (a.attr_id == ATTR_QP_TYPE)
			p->qp_type = (__u32)(a.data & 0xff);
	}
}

SEC("kprobe/ib_uverbs_ioctl")
int BPF_KPROBE(uverbs_ioctl_in, void *filp, unsigned int cmd, unsigned long arg)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct pending p;

	if (!ours())
		return 0;
	ioctl_pend(&p, (__u64)filp, arg);
	bpf_map_update_elem(&calls, &id, &p, BPF_ANY);
	return 0;
}

SEC("kretprobe/ib_uverbs_ioctl")
int BPF_KRETPROBE(uverbs_ioctl_out, long ret)
{
	leave(ret);
	return 0;
}

SEC("kprobe/ucma_write")
int BPF_KPROBE(ucma_write_in, void *filp, const void *buf, __u64 len)
{
	enter(RECORD_BPF_UCMA_WRITE, buf, len, NULL, 0);
	return 0;
}

SEC("kretprobe/ucma_write")
int BPF_KRETPROBE(ucma_write_out, long ret)
{
	leave(ret);
	return 0;
}

/*
 * Where the modules carry BTF (6.1 and later), the same at fexit, which
 * has the arguments and the return in one program and costs no trap: a
 * call that succeeds returns at the first test, before any lookup.
 * record.c loads these or the kprobes, not both.
 */
SEC("fexit/ib_uverbs_write")
int BPF_PROG(uverbs_write_exit, void *filp, const char *buf, __u64 count, void *pos, long ret)
{
	struct pending p;

	if (ret >= 0 || !ours())
		return 0;
	pend(&p, RECORD_BPF_UVERBS_WRITE, buf, count, NULL, 0);
	leave_with(&p, ret, bpf_get_current_pid_tgid());
	return 0;
}

SEC("fexit/ib_uverbs_ioctl")
int BPF_PROG(uverbs_ioctl_exit, void *filp, unsigned int cmd, unsigned long arg, long ret)
{
	struct pending p;
	__u64 f = 0;

	/* A success is read only for a QP made or modified: its header tells, the control path's alone. */
	if (ret > 0 || !ours())
		return 0;
	/*
	 * The verifier types the argument by BTF, a struct file *, and lets no
	 * arithmetic but adding touch it: its value read as a number, for file_of.
	 */
	bpf_probe_read_kernel(&f, sizeof(f), &ctx[0]);
	ioctl_pend(&p, f, arg);
	leave_with(&p, ret, bpf_get_current_pid_tgid());
	return 0;
}

SEC("fexit/ucma_write")
int BPF_PROG(ucma_write_exit, void *filp, const char *buf, __u64 len, void *pos, long ret)
{
	struct pending p;

	if (!ours())
		return 0;
	pend(&p, RECORD_BPF_UCMA_WRITE, buf, len, NULL, 0);
	leave_with(&p, ret, bpf_get_current_pid_tgid());
	return 0;
}

/* The QPs whose first error completion was handed over: only the first is. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u32);
} wc_seen SEC(".maps");

/* The completion at CQE, when it is its QP's first in error. */
static __always_inline void cq_post(const void *cqe)
{
	struct record_bpf_rec *r;
	struct uwc wc;
	__u32 one = 1;

	if (bpf_probe_read_kernel(&wc, sizeof(wc), cqe) || !wc.status ||
	    bpf_map_lookup_elem(&wc_seen, &wc.qp_num))
		return;
	bpf_map_update_elem(&wc_seen, &wc.qp_num, &one, BPF_ANY);
	r = rec_new(RECORD_BPF_WC, 0, 0);
	if (!r)
		return;
	r->arg = wc.qp_num;
	r->ret = (__s32)wc.status;
	r->len = sizeof(wc);
	__builtin_memcpy(r->req, &wc, sizeof(wc));
	bpf_ringbuf_submit(r, 0);
}

/* rdma_rxe's one way a completion reaches a CQ, from 5.10 to 7.3: the first error of each QP. */
SEC("kprobe/rxe_cq_post")
int BPF_KPROBE(rxe_cq_post_in, void *cq, const void *cqe)
{
	cq_post(cqe);
	return 0;
}

/*
 * A trampoline's argument is typed by the module's BTF (struct rxe_cqe):
 * the status is loaded in place, no helper called, and a completion that
 * succeeded, nearly every one, costs that load alone.
 */
SEC("fentry/rxe_cq_post")
int BPF_PROG(rxe_cq_post_entry, void *cq, const struct uwc *cqe)
{
	if (cqe->status)
		cq_post(cqe);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
