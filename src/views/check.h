/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdmactl check's verdicts and closing count (plain, JSON and JUnit XML). */
#ifndef RDMACTL_VIEWS_CHECK_H
#define RDMACTL_VIEWS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct out;
struct check_ctx;

/* Check verdicts and the closing count; COUNT gets the number of each verdict. */
void view_check(struct out *o, const struct check_ctx *c, size_t count[4]);

/*
 * The verdicts as a JUnit XML report to F (cli/junit.h), COUNT as
 * view_check's: a check's result a test case, classname rdmactl.check.ID;
 * a failure is a <failure>, a skip <skipped>, a warning a pass that says
 * it (a <failure> when STRICT, as the exit status has it). 0, or the
 * write's negative errno (-ENOMEM).
 */
int view_check_junit(FILE *f, const struct check_ctx *c, bool strict, size_t count[4]);

/*
 * Each FAIL (an error) and WARN (a warning) of C as a GitHub Actions
 * annotation to F, titled "rdmactl check: ID", its words and fix as the
 * message: the run's page lists them without the log being read.
 */
void view_check_annotations(FILE *f, const struct check_ctx *c);

/* Every check's id and what it looks at, as check --list prints them. */
void view_check_list(struct out *o);

#endif
