/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log's words about modules that failed to load: the lines the
 * module loader prints, parsed into what failed and why.
 */
#ifndef RDMACTL_KLOG_H
#define RDMACTL_KLOG_H

#include <stddef.h>

enum klog_kind {
	KLOG_UNKNOWN_SYMBOL,	/* "M: Unknown symbol S (err -2)": nothing exports S */
	KLOG_SYMBOL_VERSION,	/* "M: disagrees about version of symbol S", or (err -22) */
	KLOG_VERMAGIC,		/* "M: version magic 'A' should be 'B'" */
	KLOG_SIG_REJECTED,	/* "Loading of unsigned module is rejected" (names no module) */
};

struct klog_event {
	enum klog_kind kind;
	char module[64];	/* "" for KLOG_SIG_REJECTED */
	char symbol[128];	/* the first symbol, for the symbol kinds */
	char symbols[1024];	/* every symbol named, space-separated (cut at the size) */
	char got[128];		/* version magic: the module's, and the kernel's */
	char want[128];
	char text[256];		/* the line as the kernel wrote it, without its prefix */
	unsigned count;		/* lines of this kind for this module (the first is kept) */
};

/* The whole kernel log (klogctl), NUL-terminated, in *TEXT (free it); -errno. */
int klog_read(char **text);

/*
 * The module-load failures in TEXT, one event per module and kind, in the order
 * first seen; at most MAX. Lines of other modules than those WANT accepts are
 * left out (WANT NULL: all).
 */
size_t klog_module_failures(const char *text, int (*want)(const char *module),
			    struct klog_event *ev, size_t max);

#endif
