/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside checks/stacks.h: what the readers of each stack's variables share,
 * the ports a program here sees and the helpers that say a verdict. One
 * file a stack, each after that stack's own source.
 */
#ifndef RDMACTL_CHECKS_STACKS_INTERNAL_H
#define RDMACTL_CHECKS_STACKS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/stacks.h"

#define MAX_PORTS 64
#define MAX_ITEMS 32
#define ITEM_LEN 64

struct sport {
	const struct rdma_dev *d;
	const struct port *p;
};

struct run {
	const struct stacks_in *in;
	stacks_say say;
	void *arg;
	struct sport all[MAX_PORTS];	/* every port of a device a program here sees */
	size_t nall;
	size_t said;		/* the verdicts said so far */
};

/* The stacks, each saying what its variables make of the links, when any is set. */
void stacks_nccl(struct run *r);
void stacks_ucx(struct run *r);
void stacks_libfabric(struct run *r);
void stacks_openmpi(struct run *r);

void stacks_say_fmt(struct run *r, enum verdict v, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *stacks_env(const struct run *r, const char *name);
bool stacks_active(const struct sport *s);
/* "rxe0:1, rxe1:1" of V, or "none". */
void stacks_ports_text(const struct sport *v, size_t n, char *buf, size_t len);
/* The active ports of R's. */
size_t stacks_active_ports(const struct run *r, struct sport *out);
/* The GID at INDEX of P: zeros where the slot is empty, as ibv_query_gid reads it. */
const uint8_t *stacks_gid_at(const struct port *p, int64_t index, const struct gid_slot **slot);
/* RoCE's version of a GID slot: 2, 1, or -1 when the kernel gives none. */
int stacks_roce_version(const struct gid_slot *s);
/*
 * Whether the list VALUE, its words apart at any of SEPS, takes NAME: holds
 * it, or with a leading '^' (every list of Open MPI's and libfabric's)
 * does not.
 */
bool stacks_list_takes(const char *value, const char *name, const char *seps);
/* The strtoll(S, NULL, 0) that NCCL's and libfabric's parameters are: digits at S's start. */
bool stacks_c_number(const char *s, long long *v);
/*
 * Says the verdict (BAD when wrong) of the GID index each of V's N ports
 * gets from STACK (INDEX[i]), held to the one rule; WHAT says where it came
 * from. Whether all were right.
 */
bool stacks_gids_ok(struct run *r, const char *stack, const struct sport *v, size_t n,
		    const int64_t *index, const char *what, const char *fix, enum verdict bad);
/* "rxe0 port 1 with GID 1 (10.11.11.251), ..." for V with INDEX. */
void stacks_uses_text(const struct sport *v, size_t n, const int64_t *index, char *buf, size_t len);

#endif
