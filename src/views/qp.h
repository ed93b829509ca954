/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live QPs: a row a QP, with its owner, its peer on this host and a verdict (plain and JSON). */
#ifndef RDMACTL_VIEWS_QP_H
#define RDMACTL_VIEWS_QP_H

struct out;
struct model_qps;

/* 'rdmactl qp': every QP of Q, one row each. */
void view_qp(struct out *o, const struct model_qps *q);

#endif
