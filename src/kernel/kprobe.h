/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A doorbell rung by kernel functions: perf's kprobe events on the returns
 * of named functions, every CPU's in one descriptor to poll. It tells that
 * one of them ran, not what it did: the caller reads the state anew.
 */
#ifndef RDMACTL_KPROBE_H
#define RDMACTL_KPROBE_H

#include <stdbool.h>
#include <stddef.h>

struct kprobe_bell;

/*
 * A bell rung whenever one of FUNCS (N names, of MODULE) returns, on any CPU. The
 * events are perf's own: gone with the descriptor, nothing left behind in
 * tracefs. -EACCES without CAP_PERFMON or CAP_SYS_ADMIN, -ENOENT when a
 * function is not in the running kernel (its module not loaded), -ENODEV
 * when the kernel has no kprobe PMU, or another negative errno.
 */
int kprobe_bell_open(struct kprobe_bell **b, const char *module, const char *const *funcs,
		     size_t n);
/*
 * Whether B's functions are gone: MODULE (of the open, NULL for the kernel
 * itself) was unloaded since, and maybe loaded again, where the probes do
 * not follow it.
 */
bool kprobe_bell_stale(const struct kprobe_bell *b);
/* A descriptor that polls readable when the bell has rung since the last drain. */
int kprobe_bell_fd(const struct kprobe_bell *b);
/* Whether the bell rang since the last drain; quiets it. */
bool kprobe_bell_drain(struct kprobe_bell *b);
void kprobe_bell_close(struct kprobe_bell *b);

#endif
