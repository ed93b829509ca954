/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How records print (plain and JSON), shared by the commands that show them. */
#ifndef RDMACTL_VIEWS_H
#define RDMACTL_VIEWS_H

#include <stddef.h>

#include "ops/service.h"

struct out;
struct port;
struct rdma_dev;
struct check_ctx;
struct st_report;

/*
 * One rxe link, a row for each port of D (MODEL_NETLINK | MODEL_MTU): 'link
 * show', also what 'add' prints.
 */
void view_link(struct out *o, const struct rdma_dev *d);
/*
 * An MTU in bytes under KEY, plain text LABEL before it ("" none, NULL JSON
 * only): "-" and null when unknown (BYTES <= 0).
 */
void view_mtu(struct out *o, const char *key, const char *label, int bytes);
/* A port's " state S physical_state P", as every command shows it. */
void view_port_state(struct out *o, const struct port *p);
/* After an edit of CONFIG: the note that tells systemd of it, when one is needed. */
void view_persist_edited(const char *config);
struct service_result;
/* What the start sequence did: its modules and links, as far as it came. */
void view_start(struct out *o, const struct service_result *r);
/* What start did to each module: an array under "modules". */
void view_modules(struct out *o, const struct service_module res[RXE_NMODULES]);
/* Check verdicts and the closing count; COUNT gets the number of each verdict. */
void view_checks(struct out *o, const struct check_ctx *c, size_t count[4]);
struct st_fault;
/* A selftest failure's errno by name under "errno" (JSON only): null when none says it. */
void view_errno(struct out *o, const struct st_fault *f);
/* One selftest report (a device's, or a client's). */
void view_st_report(struct out *o, const struct st_report *r);

struct xp_report;
/* selftest --transport: the capability matrix, one row per transport and operation. */
void view_xp_report(struct out *o, const struct xp_report *r);

#endif
