/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rxe's port counters (hw_counters) as users know them: one name for each
 * across kernels, its unit, what it counts, and what a non-zero value of an
 * error counter has meant. One home for those words: stat prints them,
 * check warns with them.
 */
#ifndef RDMACTL_MODEL_COUNTER_H
#define RDMACTL_MODEL_COUNTER_H

#include <stddef.h>

struct model_counter_info {
	const char *name;	/* rdmactl's name: the newest kernel's */
	const char *old_name;	/* an older kernel's name for the same counter, or NULL */
	const char *unit;	/* what one counts: "packets", "bytes", "events", ... */
	const char *meaning;	/* what it counts */
	/* What a non-zero value has meant, for an error counter check warns on; else NULL. */
	const char *trouble;
};

/* Every counter rdmactl knows, in rxe's order. */
extern const struct model_counter_info model_counters[];
extern const size_t model_ncounters;

/* The counter sysfs names KERNEL_NAME (either name), or NULL for one rdmactl does not know. */
const struct model_counter_info *model_counter_info(const char *kernel_name);

/* hw_counters' "lifespan": how long (ms) the kernel keeps a reading, not a counter:
 * the model leaves it out. */
#define MODEL_COUNTER_LIFESPAN "lifespan"

#endif
