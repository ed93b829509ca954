// SPDX-License-Identifier: GPL-2.0-or-later
/* libkmod, opened at the first call into it (lazy.h). */
#include <libkmod.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_kmod = { .soname = "libkmod.so.2", .package = "libkmod2" };

LAZY(lazy_kmod, struct kmod_ctx *, kmod_new, (const char *dir, const char *const *paths),
     (dir, paths))
LAZY(lazy_kmod, struct kmod_ctx *, kmod_unref, (struct kmod_ctx *c), (c))
LAZY(lazy_kmod, int, kmod_load_resources, (struct kmod_ctx *c), (c))
LAZY(lazy_kmod, struct kmod_list *, kmod_list_next,
     (const struct kmod_list *l, const struct kmod_list *cur), (l, cur))
LAZY(lazy_kmod, int, kmod_module_new_from_name,
     (struct kmod_ctx *c, const char *name, struct kmod_module **m), (c, name, m))
LAZY(lazy_kmod, int, kmod_module_new_from_path,
     (struct kmod_ctx *c, const char *path, struct kmod_module **m), (c, path, m))
LAZY(lazy_kmod, int, kmod_module_new_from_lookup,
     (struct kmod_ctx *c, const char *alias, struct kmod_list **l), (c, alias, l))
LAZY(lazy_kmod, struct kmod_module *, kmod_module_unref, (struct kmod_module *m), (m))
LAZY(lazy_kmod, int, kmod_module_unref_list, (struct kmod_list *l), (l))
LAZY(lazy_kmod, struct kmod_module *, kmod_module_get_module, (const struct kmod_list *e), (e))
LAZY(lazy_kmod, struct kmod_list *, kmod_module_get_dependencies, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, const char *, kmod_module_get_name, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, const char *, kmod_module_get_path, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, int, kmod_module_get_initstate, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, const char *, kmod_module_get_options, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, int, kmod_module_get_refcnt, (const struct kmod_module *m), (m))
LAZY(lazy_kmod, int, kmod_module_get_info, (const struct kmod_module *m, struct kmod_list **l),
     (m, l))
LAZY_VOID(lazy_kmod, kmod_module_info_free_list, (struct kmod_list *l), (l))
LAZY(lazy_kmod, const char *, kmod_module_info_get_key, (const struct kmod_list *e), (e))
LAZY(lazy_kmod, const char *, kmod_module_info_get_value, (const struct kmod_list *e), (e))
LAZY(lazy_kmod, int, kmod_module_get_dependency_symbols,
     (const struct kmod_module *m, struct kmod_list **l), (m, l))
LAZY_VOID(lazy_kmod, kmod_module_dependency_symbols_free_list, (struct kmod_list *l), (l))
LAZY(lazy_kmod, const char *, kmod_module_dependency_symbol_get_symbol, (const struct kmod_list *e),
     (e))
LAZY(lazy_kmod, int, kmod_module_remove_module, (struct kmod_module *m, unsigned int flags),
     (m, flags))
LAZY(lazy_kmod, int, kmod_module_probe_insert_module,
     (struct kmod_module *m, unsigned int flags, const char *opts,
      int (*run_install)(struct kmod_module *mm, const char *cmdline, void *data),
      const void *data,
      void (*print_action)(struct kmod_module *mm, bool install, const char *options)),
     (m, flags, opts, run_install, data, print_action))
