// SPDX-License-Identifier: GPL-2.0-or-later
/* The selftest's one failure helper. */
#include <stdio.h>

#include "selftest/selftest.h"

int st_vfault(struct st_fault *f, const char *hint, const char *fmt, va_list ap)
{
	if (f->failed)
		return -1;
	f->failed = true;
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	snprintf(f->hint, sizeof(f->hint), "%s", hint ? hint : "");
	return -1;
}

int st_fault_err(struct st_fault *f, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (f->failed)
		return -1;
	va_start(ap, fmt);
	st_vfault(f, hint, fmt, ap);
	va_end(ap);
	f->err = err < 0 ? -err : err;
	return -1;
}

int st_fault(struct st_fault *f, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_vfault(f, hint, fmt, ap);
	va_end(ap);
	return -1;
}
