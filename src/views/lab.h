/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What lab prints: its nodes, a lab removed, and the matrix of its test. */
#ifndef RDMACTL_VIEWS_LAB_H
#define RDMACTL_VIEWS_LAB_H

#include <stddef.h>

struct out;
struct lab;
struct lab_pair;

/* L's nodes, a record each: what add made and what show finds. */
void view_lab_nodes(struct out *o, const struct lab *l);
/* Lab NAME removed, with its NODES nodes. */
void view_lab_del(struct out *o, const char *name, size_t nodes);
/* The test of L: its N pairs P (a matrix in text, records in JSON), in SECONDS. */
void view_lab_test(struct out *o, const struct lab *l, const struct lab_pair *p, size_t n,
		   double seconds);

#endif
