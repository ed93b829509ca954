/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A selftest's report: stages, bench figures and the transports matrix (plain and JSON). */
#ifndef RDMACTL_VIEWS_SELFTEST_H
#define RDMACTL_VIEWS_SELFTEST_H

struct out;
struct st_fault;
struct st_report;
struct xp_report;

/* A selftest failure's errno by name under "errno" (JSON only): null when none says it. */
void view_selftest_errno(struct out *o, const struct st_fault *f);

/* One selftest report (a device's, or a client's). */
void view_selftest_report(struct out *o, const struct st_report *r);

/* selftest --transport: the capability matrix, one row per transport and operation. */
void view_selftest_transports(struct out *o, const struct xp_report *r);

#endif
