/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live QPs: a row a QP, with its owner, its peer on this host and a verdict (plain and JSON). */
#ifndef RDMACTL_VIEWS_QP_H
#define RDMACTL_VIEWS_QP_H

struct out;
struct model_qps;
struct rdma_qp;

/* 'rdmactl qp': every QP of Q, one row each. */
void view_qp(struct out *o, const struct model_qps *q);
/* Q's PID and command under KEY, after LABEL: "pid 1234 (prog)", "[ib_core]" for the kernel's own. */
void view_qp_owner(struct out *o, const char *key, const char *label, const struct rdma_qp *q);

#endif
