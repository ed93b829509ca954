// SPDX-License-Identifier: GPL-2.0-or-later
/* Libraries opened at their first use (lazy.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy/lazy.h"

void *lazy_sym(struct lazy_lib *lib, const char *name)
{
	void *sym;

	if (!lib->handle)
		lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib->handle) {
		fprintf(stderr, "rdmactl: this command needs %s, which cannot be loaded: %s\n"
			"rdmactl: hint: apt-get install %s\n", lib->soname, dlerror(), lib->package);
		exit(1);
	}
	sym = dlsym(lib->handle, name);
	if (!sym) {
		fprintf(stderr, "rdmactl: %s has no %s: %s\n"
			"rdmactl: hint: the installed %s is older than the one rdmactl was built "
			"with: apt-get install %s\n", lib->soname, name, dlerror(), lib->package,
			lib->package);
		exit(1);
	}
	return sym;
}
