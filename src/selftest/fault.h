/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The selftest's one result type: whether something failed, what went wrong
 * (or why a stage was skipped) and what to look at. A stage, a step the peer
 * answered, a measurement and a pingpong run each say theirs in one.
 */
#ifndef RDMACTL_SELFTEST_FAULT_H
#define RDMACTL_SELFTEST_FAULT_H

#include <stdarg.h>
#include <stdbool.h>

#define ST_TEXT_LEN 240		/* each text with its NUL; also its length on the wire */

struct st_fault {
	bool failed;
	int err;		/* the errno behind it (positive), 0 when there is none */
	char detail[ST_TEXT_LEN];
	char hint[ST_TEXT_LEN];	/* "" when there is nothing more to say */
};

/*
 * The one failure helper: marks F failed with DETAIL (a format) and HINT (or
 * NULL), unless it failed already (the first failure is the one to report).
 * Returns -1, for `return st_fault(...)`.
 */
int st_fault(struct st_fault *f, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int st_vfault(struct st_fault *f, const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The same for a failure an errno says: ERR (negative or positive) kept in F. */
int st_fault_err(struct st_fault *f, int err, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
