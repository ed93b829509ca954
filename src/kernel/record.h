/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of record: one process and every process it makes,
 * however deep, followed by an eBPF program (record.bpf.c) through libbpf;
 * each verbs or rdma_cm call of theirs the kernel refused, with the bytes
 * they passed, and each rdma_cm event they were given, as records of
 * record.bpf.h in the order they came. It never prints: a failure is a
 * negative errno with words beside it.
 */
#ifndef RDMACTL_KERNEL_RECORD_H
#define RDMACTL_KERNEL_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/record.bpf.h"

#define RECORD_WHY_MAX 256

struct record;

/* What the probes see: the tree always; the calls of each module that was loaded. */
struct record_sees {
	bool uverbs;	/* ib_uverbs's write and ioctl handlers */
	bool ucma;	/* rdma_ucm's write handler: rdma_cm's calls and events */
	bool wc;	/* rdma_rxe's rxe_cq_post: each QP's first error completion */
	/*
	 * ib_uverbs's handlers are taken by trampolines (fexit, where the
	 * module has BTF), not kprobes: each of rxe's ibv_post_send is a write
	 * to uverbs, and a kprobe's trap on it is felt in a program's latency.
	 */
	bool trampolines;
};

/* Whose calls the probes follow. */
enum record_scope {
	RECORD_TREE,	/* the processes record_follow names, and every process they make */
	RECORD_HOST,	/* every process of the host; no process-tree records */
};

/*
 * The probes armed for SCOPE, following no process yet (RECORD_TREE): 0, or -ENOPKG (libbpf cannot
 * be opened), -EOPNOTSUPP (the kernel has no BTF, CONFIG_DEBUG_INFO_BTF),
 * -EPERM (neither root nor CAP_BPF with CAP_PERFMON), -EIO; WHY says which
 * in words. SEES: the calls seen (ib_uverbs, rdma_ucm or rdma_rxe not loaded: not theirs).
 */
int record_open(struct record **r, enum record_scope scope, struct record_sees *sees,
		char *why);
/* PID and every process it makes from now on followed: 0 or a negative errno. */
int record_follow(struct record *r, pid_t pid);
/* A descriptor poll() says is readable when a record may be there. */
int record_fd(const struct record *r);
/* The next record into *OUT: 1, or 0 when none is there now. */
int record_next(struct record *r, struct record_bpf_rec *out);
/*
 * The RDMA device a QP_MADE or QP_MODIFIED record's uverbs file is of, from
 * its RDEV, into NAME: its length, or a negative errno (-ENOENT: the device
 * is gone, or RDEV is 0: not read).
 */
int record_rdev_name(uint32_t rdev, char *name, size_t len);
/* Records the ring had no room for. */
uint64_t record_dropped(const struct record *r);
void record_close(struct record *r);

#endif
