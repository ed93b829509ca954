/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A selftest's report: stages, bench figures, the transports matrix, the ping-pong (plain and JSON). */
#ifndef RDMACTL_VIEWS_SELFTEST_H
#define RDMACTL_VIEWS_SELFTEST_H

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

#endif
