// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel modules through libkmod: state, load with dependencies, unload. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkmod.h>

#include "kernel/kmods.h"

struct kmods {
	struct kmod_ctx *ctx;
};

int kmods_open(struct kmods **kmp)
{
	return kmods_open_config(kmp, NULL);
}

int kmods_open_config(struct kmods **kmp, const char *const *config)
{
	struct kmods *km = calloc(1, sizeof(*km));

	if (!km)
		return -ENOMEM;
	/* NULL: the running kernel's /lib/modules/$(uname -r) and the usual config. */
	km->ctx = kmod_new(NULL, config);
	if (!km->ctx) {
		free(km);
		return -ENOMEM;
	}
	kmod_load_resources(km->ctx);
	*kmp = km;
	return 0;
}

void kmods_close(struct kmods *km)
{
	if (!km)
		return;
	kmod_unref(km->ctx);
	free(km);
}

static struct kmod_module *lookup(struct kmods *km, const char *name)
{
	struct kmod_module *mod = NULL;

	/* From a name, not a lookup: a module that is not installed still has a state. */
	if (kmod_module_new_from_name(km->ctx, name, &mod) < 0)
		return NULL;
	return mod;
}

enum kmod_state kmods_state(struct kmods *km, const char *name)
{
	struct kmod_module *mod = lookup(km, name);
	enum kmod_state s = KMOD_ABSENT;

	if (!mod)
		return s;
	switch (kmod_module_get_initstate(mod)) {
	case KMOD_MODULE_BUILTIN:
		s = KMOD_BUILTIN;
		break;
	case KMOD_MODULE_LIVE:
	case KMOD_MODULE_COMING:
		s = KMOD_LOADED;
		break;
	default:
		/* Not loaded: installed if the index knows a file for it. */
		s = kmod_module_get_path(mod) ? KMOD_AVAILABLE : KMOD_ABSENT;
		break;
	}
	kmod_module_unref(mod);
	return s;
}

const char *kmods_state_name(enum kmod_state s)
{
	switch (s) {
	case KMOD_AVAILABLE:
		return "available";
	case KMOD_LOADED:
		return "loaded";
	case KMOD_BUILTIN:
		return "built-in";
	default:
		return "absent";
	}
}

int kmods_load(struct kmods *km, const char *name)
{
	struct kmod_module *mod;
	int err;

	switch (kmods_state(km, name)) {
	case KMOD_LOADED:
	case KMOD_BUILTIN:
		return 0;
	case KMOD_ABSENT:
		return -ENOENT;
	default:
		break;
	}
	mod = lookup(km, name);
	if (!mod)
		return -ENOMEM;
	/* Dependencies first, softdeps and modprobe.d options as modprobe does. */
	err = kmod_module_probe_insert_module(mod, KMOD_PROBE_IGNORE_LOADED, NULL, NULL, NULL,
					      NULL);
	kmod_module_unref(mod);
	return err > 0 ? -EPERM : err;	/* > 0: blacklisted or refused by config */
}

int kmods_options(struct kmods *km, const char *name, char *buf, size_t len)
{
	struct kmod_module *mod = lookup(km, name);
	const char *o;

	if (!mod)
		return -ENOMEM;
	o = kmod_module_get_options(mod);
	snprintf(buf, len, "%s", o ? o : "");
	kmod_module_unref(mod);
	return 0;
}

static int kmods_refcnt(struct kmods *km, const char *name)
{
	struct kmod_module *mod = lookup(km, name);
	int n;

	if (!mod)
		return -ENOENT;
	n = kmod_module_get_refcnt(mod);
	kmod_module_unref(mod);
	return n;
}

int kmods_unload(struct kmods *km, const char *name)
{
	struct kmod_module *mod;
	int err;

	if (kmods_state(km, name) != KMOD_LOADED)
		return 0;
	if (kmods_refcnt(km, name) > 0)
		return -EBUSY;
	mod = lookup(km, name);
	if (!mod)
		return -ENOMEM;
	err = kmod_module_remove_module(mod, 0);
	kmod_module_unref(mod);
	return err;
}

int kmods_info(struct kmods *km, const char *name, bool is_path, char *vermagic, size_t vlen,
	       char *depends, size_t dlen)
{
	struct kmod_module *mod = NULL;
	struct kmod_list *info = NULL, *l;
	int err;

	vermagic[0] = depends[0] = '\0';
	err = is_path ? kmod_module_new_from_path(km->ctx, name, &mod) :
			kmod_module_new_from_name(km->ctx, name, &mod);
	if (err < 0)
		return err;
	err = kmod_module_get_info(mod, &info);
	if (err < 0) {
		kmod_module_unref(mod);
		return err;
	}
	kmod_list_foreach(l, info) {
		const char *key = kmod_module_info_get_key(l);
		const char *val = kmod_module_info_get_value(l);

		if (!val)
			continue;
		if (!strcmp(key, "vermagic"))
			snprintf(vermagic, vlen, "%s", val);
		else if (!strcmp(key, "depends"))
			snprintf(depends, dlen, "%s", val);
	}
	kmod_module_info_free_list(info);
	kmod_module_unref(mod);
	return 0;
}

int kmods_provider(struct kmods *km, const char *symbol, char *buf, size_t len)
{
	struct kmod_list *list = NULL;
	struct kmod_module *mod;
	char alias[256];
	int err;

	snprintf(alias, sizeof(alias), "symbol:%s", symbol);
	err = kmod_module_new_from_lookup(km->ctx, alias, &list);
	if (err < 0)
		return err;
	if (!list)
		return -ENOENT;
	mod = kmod_module_get_module(list);
	snprintf(buf, len, "%s", kmod_module_get_name(mod));
	kmod_module_unref(mod);
	kmod_module_unref_list(list);
	return 0;
}

int kmods_imports(struct kmods *km, const char *name, const char *symbol)
{
	struct kmod_module *mod = lookup(km, name);
	struct kmod_list *syms = NULL;
	int ret;

	if (!mod)
		return -ENOENT;
	if (!kmod_module_get_path(mod)) {
		kmod_module_unref(mod);
		return -ENOENT;
	}
	ret = kmod_module_get_dependency_symbols(mod, &syms);
	if (ret >= 0) {
		ret = syms ? 0 : -ENODATA;
		for (struct kmod_list *l = syms; l; l = kmod_list_next(syms, l))
			if (!strcmp(kmod_module_dependency_symbol_get_symbol(l), symbol)) {
				ret = 1;
				break;
			}
	}
	if (syms)
		kmod_module_dependency_symbols_free_list(syms);
	kmod_module_unref(mod);
	return ret;
}

int kmods_path(struct kmods *km, const char *name, char *buf, size_t len)
{
	struct kmod_module *mod = lookup(km, name);
	const char *path = mod ? kmod_module_get_path(mod) : NULL;

	if (path)
		snprintf(buf, len, "%s", path);
	kmod_module_unref(mod);
	return path ? 0 : -ENOENT;
}

static bool listed(const char *out, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = out; (p = strstr(p, name)); p += n)
		if ((p == out || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static void load_order(struct kmods *km, struct kmod_module *mod, char *out, size_t len,
		       int depth)
{
	struct kmod_list *deps, *l;
	const char *name = kmod_module_get_name(mod);
	size_t used;

	if (depth > 16 || listed(out, name) || kmods_state(km, name) == KMOD_LOADED ||
	    kmods_state(km, name) == KMOD_BUILTIN)
		return;
	deps = kmod_module_get_dependencies(mod);
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);

		load_order(km, d, out, len, depth + 1);
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
	used = strlen(out);
	if (used + strlen(name) + 2 <= len)
		snprintf(out + used, len - used, "%s%s", used ? " " : "", name);
}

void kmods_load_order(struct kmods *km, const char *name, char *out, size_t len)
{
	struct kmod_module *mod = lookup(km, name);

	if (!mod)
		return;
	load_order(km, mod, out, len, 0);
	kmod_module_unref(mod);
}
