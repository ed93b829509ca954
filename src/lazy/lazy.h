/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libraries only some commands need (libibverbs, librdmacm, libkmod and
 * what they pull in: libnl, libcrypto, liblzma, libzstd; json-c for -j; zlib
 * for a compressed kernel configuration) are opened at the
 * first call into them, not when rdmactl starts: a command that does not use
 * one does not pay for loading it. src/lazy/LIB.c define the functions rdmactl
 * calls, each resolving its namesake in the library once; the compiler holds
 * each definition to the library's own header.
 */
#ifndef RDMACTL_LAZY_H
#define RDMACTL_LAZY_H

struct lazy_lib {
	const char *soname;	/* "libibverbs.so.1" */
	const char *package;	/* the Debian package that ships it */
	void *handle;
};

/* NAME from LIB, opened if it is not yet; a library or symbol missing ends rdmactl, said. */
void *lazy_sym(struct lazy_lib *lib, const char *name);

/* RET NAME PARAMS defined as a call of the library's NAME with ARGS. */
#define LAZY(lib, ret, name, params, args)				\
	ret(name) params						\
	{								\
		static ret(*fn) params;					\
		if (!fn)						\
			*(void **)&fn = lazy_sym(&(lib), #name);	\
		return fn args;						\
	}

#define LAZY_VOID(lib, name, params, args)				\
	void(name) params						\
	{								\
		static void(*fn) params;				\
		if (!fn)						\
			*(void **)&fn = lazy_sym(&(lib), #name);	\
		fn args;						\
	}

#endif
