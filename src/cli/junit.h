/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JUnit XML, as CI systems read a job's test report (GitLab's unit test
 * reports, Jenkins's junit step, GitHub actions that publish one): a
 * <testsuites> of one <testsuite>, a <testcase> a result, each keyed by its
 * classname and name, which GitLab shows as Suite and Name and keeps only
 * the first of when two are the same: the writer makes each name unique.
 */
#ifndef RDMACTL_CLI_JUNIT_H
#define RDMACTL_CLI_JUNIT_H

#include <stddef.h>
#include <stdio.h>

enum junit_result {
	JUNIT_PASS,
	JUNIT_FAIL,	/* <failure> */
	JUNIT_SKIP,	/* <skipped> */
};

struct junit_case {
	const char *classname;
	const char *name;
	enum junit_result result;
	/* A failure's or a skip's one line (message=), and what it says whole (its text). */
	const char *message;
	const char *text;
	/* What it printed besides (<system-out>), or NULL. */
	const char *out;
};

/*
 * The report of suite SUITE, its N cases C, to F. Every text is written as
 * printable ASCII, the XML's five specials as entities, any other byte as
 * \xNN and a backslash as \\, as the plain text shows them: the file is
 * well-formed whatever a name holds. 0, or the write's negative errno.
 */
int junit_write(FILE *f, const char *suite, const struct junit_case *c, size_t n);

#endif
