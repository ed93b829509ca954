/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A selftest's report: stages, bench figures, the transports matrix, the ping-pong (plain, JSON, JUnit). */
#ifndef RDMACTL_VIEWS_SELFTEST_H
#define RDMACTL_VIEWS_SELFTEST_H

#include <stddef.h>
#include <stdio.h>

struct out;
struct st_fault;
struct st_opts;
struct st_report;


/*
 * One selftest report (a device's, or a client's) as its mode has it: the
 * stages, the transports' capability matrix (a row per transport and
 * operation), or the ping-pong run OPTS asked for.
 */
void view_selftest(struct out *o, const struct st_opts *opts, const struct st_report *r);
/*
 * The list a command's reports are said in as each ends: begun, a
 * view_selftest each, ended (a JSON array; nothing more in plain text).
 */
void view_selftest_begin(struct out *o);
void view_selftest_end(struct out *o);
/* The list of one report: a client's, or a server's that never listened. */
void view_selftest_alone(struct out *o, const struct st_opts *opts, const struct st_report *r);
/*
 * N reports R as one JUnit XML report to F (cli/junit.h): a test case a
 * stage (classname rdmactl.selftest.DEV), a row of the transports' matrix
 * (rdmactl.selftest.DEV.TRANSPORT, its operation the name; not supported
 * and not run are skipped), or the ping-pong (OPTS's); a failure's detail
 * and hint its words. 0, or the write's negative errno (-ENOMEM).
 */
int view_selftest_junit(FILE *f, const struct st_opts *opts, const struct st_report *const *r,
			size_t n);

#endif
