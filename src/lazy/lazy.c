// SPDX-License-Identifier: GPL-2.0-or-later
/* Libraries opened at their first use (lazy.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy/lazy.h"

static lazy_fail_fn on_failure;

void lazy_on_failure(lazy_fail_fn fn)
{
	on_failure = fn;
}

static void failed(const struct lazy_lib *lib, const char *symbol)
{
	const char *why = dlerror();

	if (on_failure)
		on_failure(lib, symbol, why ? why : "");
	abort();
}

int lazy_require(unsigned int mask)
{
	struct lazy_lib *const libs[] = { &lazy_verbs, &lazy_rdmacm, &lazy_kmod, &lazy_jsonc,
					   &lazy_zlib, &lazy_pcap };

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		struct lazy_lib *lib = libs[i];

		char why[256];

		if (!(mask & 1u << i) || !lazy_open(lib, why, sizeof(why)))
			continue;
		if (on_failure)
			on_failure(lib, NULL, why);
		return -1;
	}
	return 0;
}

int lazy_open(struct lazy_lib *lib, char *why, size_t len)
{
	const char *e;

	if (lib->handle)
		return 0;
	lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (lib->handle)
		return 0;
	e = dlerror();
	snprintf(why, len, "%s", e ? e : lib->soname);
	return -1;
}

void *lazy_sym(struct lazy_lib *lib, const char *name)
{
	void *sym;

	if (!lib->handle)
		lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib->handle)
		failed(lib, NULL);
	sym = dlsym(lib->handle, name);
	if (!sym)
		failed(lib, name);
	return sym;
}
