// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest --transport: the report, a row an operation. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "kernel/clock.h"
#include "selftest/internal.h"
#include "selftest/sidechan.h"
#include "selftest/xport/internal.h"

struct xp_row *xp_row_add(struct xp_run *x, enum xp_transport t, const char *op, enum xp_claim c,
			  const char *fmt, ...)
{
	static struct xp_row spare;
	struct xp_row *w;
	va_list ap;

	if (x->r->nrows == XP_MAXROWS) {
		memset(&spare, 0, sizeof(spare));
		return &spare;
	}
	w = &x->r->rows[x->r->nrows++];
	*w = (struct xp_row){ .t = t, .op = op, .claim = c, .result = XP_PASS,
			      .usec = mono_us() };
	va_start(ap, fmt);
	vsnprintf(w->claim_text, sizeof(w->claim_text), fmt, ap);
	va_end(ap);
	return w;
}

void xp_row_done(struct xp_row *w, int err, uint64_t bytes)
{
	w->usec = mono_us() - w->usec;
	w->bytes = err ? 0 : bytes;
	if (err && w->result == XP_PASS)
		w->result = XP_FAIL;
}

void xp_note(struct xp_row *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->f.detail, sizeof(w->f.detail), fmt, ap);
	va_end(ap);
}

void xp_row_unsupported(struct xp_row *w, const char *fmt, ...)
{
	va_list ap;

	w->usec = 0;
	w->result = XP_UNSUPPORTED;
	va_start(ap, fmt);
	vsnprintf(w->f.detail, sizeof(w->f.detail), fmt, ap);
	va_end(ap);
}

void xp_row_not_run(struct xp_run *x, enum xp_transport t, const char *op, enum xp_claim c,
		    const char *why)
{
	struct xp_row *w = xp_row_add(x, t, op, c, "%s", "");

	w->usec = 0;
	w->result = XP_NOT_RUN;
	xp_note(w, "%s", why);
}

void xp_row_refused(struct xp_row *w, struct st_fault *f)
{
	struct st_fault g = *f;

	memset(f, 0, sizeof(*f));
	xp_row_unsupported(w, "%s", g.detail);
}

void xp_report_init(struct st_report *r, const struct st_opts *o)
{
	struct utsname u;

	memset(r, 0, sizeof(*r));
	r->mode = ST_MODE_TRANSPORTS;
	snprintf(r->head.dev, sizeof(r->head.dev), "%s", o->common.dev);
	r->head.gid_index = -1;
	r->events = o->common.events;
	if (uname(&u) == 0)
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
}

int xp_report_done(struct st_report *r)
{
	r->passed = !r->f.failed && !r->nasync;
	for (unsigned int i = 0; i < r->nrows; i++)
		if (r->rows[i].result == XP_FAIL)
			r->passed = false;
	return r->passed ? 0 : -1;
}
