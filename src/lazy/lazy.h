/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libraries only some commands need (libibverbs, librdmacm, libkmod and
 * what they pull in: libnl, libcrypto, liblzma, libzstd; json-c for -j; zlib
 * for a compressed kernel configuration; libsystemd for the journal) are opened at the
 * first call into them, not when rdmactl starts: a command that does not use
 * one does not pay for loading it. src/lazy/LIB.c define the functions rdmactl
 * calls, each resolving its namesake in the library once; the compiler holds
 * each definition to the library's own header. libpcap, for capture; libbpf,
 * for capture's loopback, which does without it when it cannot be opened.
 */
#ifndef RDMACTL_LAZY_H
#define RDMACTL_LAZY_H

#include <stddef.h>

struct lazy_lib {
	const char *soname;	/* "libibverbs.so.1" */
	const char *package;	/* the Debian package that ships it */
	void *handle;
};

/*
 * What a library that cannot be opened, or lacks a symbol, comes to: the
 * program's own handler (rdmactl's main reports it and returns through its
 * exit statuses). Called from lazy_sym it must not return. SYMBOL is NULL
 * when the library itself cannot be opened; WHY is dlerror()'s text.
 */
typedef void (*lazy_fail_fn)(const struct lazy_lib *lib, const char *symbol, const char *why);
void lazy_on_failure(lazy_fail_fn fn);

/* Each library, by the mask a command's row names it with (lazy_require). */
enum lazy_mask {
	LAZY_VERBS = 1 << 0,
	LAZY_RDMACM = 1 << 1,
	LAZY_KMOD = 1 << 2,
	LAZY_JSONC = 1 << 3,
	LAZY_ZLIB = 1 << 4,
	LAZY_PCAP = 1 << 5,
};

extern struct lazy_lib lazy_verbs, lazy_rdmacm, lazy_kmod, lazy_jsonc, lazy_zlib, lazy_pcap,
	lazy_bpf, lazy_systemd;

/*
 * Opens the libraries of MASK now, before a command that needs them starts:
 * 0, or -1 once the handler has been told of the first that cannot be (the
 * handler may then return).
 */
int lazy_require(unsigned int mask);

/*
 * LIB opened now, for a caller that goes on without it: 0, or -1 with
 * dlerror()'s words in WHY (LEN bytes); the handler is not told.
 */
int lazy_open(struct lazy_lib *lib, char *why, size_t len);

/*
 * NAME from LIB, opened if it is not yet. A library or symbol missing goes to
 * the handler; without one the program aborts (this layer prints nothing).
 */
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
