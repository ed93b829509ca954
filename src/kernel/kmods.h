/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel modules through libkmod: state, load with dependencies, unload. */
#ifndef RDMACTL_KMODS_H
#define RDMACTL_KMODS_H

#include <stdbool.h>
#include <stddef.h>

struct kmods;

enum kmod_state {
	KMOD_ABSENT,		/* not installed for the running kernel */
	KMOD_AVAILABLE,		/* installed, not loaded */
	KMOD_LOADED,
	KMOD_BUILTIN,
};

int kmods_open(struct kmods **km);
/* The same with CONFIG, a NULL-ended list of modprobe.d paths, instead of the usual ones. */
int kmods_open_config(struct kmods **km, const char *const *config);
void kmods_close(struct kmods *km);
enum kmod_state kmods_state(struct kmods *km, const char *name);
const char *kmods_state_name(enum kmod_state s);
/* Loads NAME and what it depends on; 0 when loaded or built in. */
int kmods_load(struct kmods *km, const char *name);
/* Unloads NAME when nothing holds it: -EBUSY when something does. */
int kmods_unload(struct kmods *km, const char *name);
/* The options modprobe would load NAME with (its config's and the kernel command line's) into BUF. */
int kmods_options(struct kmods *km, const char *name, char *buf, size_t len);

/*
 * A module's vermagic ("6.1.0-56-amd64 SMP preempt ...") and comma-separated
 * "depends", from its file: NAME is a module name, or a path when IS_PATH.
 */
int kmods_info(struct kmods *km, const char *name, bool is_path, char *vermagic, size_t vlen,
	       char *depends, size_t dlen);

/* The module of the running kernel that exports SYMBOL, into BUF; -ENOENT when none. */
int kmods_provider(struct kmods *km, const char *symbol, char *buf, size_t len);
/*
 * Whether module NAME's file calls SYMBOL of another (its modversions list):
 * 1 or 0; negative when that cannot be told (built in, no such module, a
 * kernel built without CONFIG_MODVERSIONS).
 */
int kmods_imports(struct kmods *km, const char *name, const char *symbol);
/* NAME's file, into BUF; -ENOENT when it is not installed (or built in). */
int kmods_path(struct kmods *km, const char *name, char *buf, size_t len);
/*
 * Appends to OUT (space-separated) NAME and what it depends on that is not
 * loaded, in the order they must load: dependencies first. Names already in
 * OUT are not repeated.
 */
void kmods_load_order(struct kmods *km, const char *name, char *out, size_t len);

#endif
