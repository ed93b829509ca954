/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GitHub Actions' workflow commands, which the runner reads from a step's
 * standard output: an annotation, shown on the run's page and its summary,
 * when the step runs under GitHub Actions.
 */
#ifndef RDMACTL_CLI_GITHUB_H
#define RDMACTL_CLI_GITHUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether this runs in a GitHub Actions step (GITHUB_ACTIONS=true, as the runner sets it). */
bool github_actions(void);

/*
 * "::LEVEL title=TITLE::MESSAGE" on F (LEVEL error, warning or notice), the
 * message N LINES (the runner's %0A between them), escaped as the runner's
 * toolkit escapes (%; in the title ':' and ',' too) after any byte not
 * printable ASCII, a newline among them, is written \xNN as the plain text
 * shows it: a name cannot end the line or start a command of its own.
 */
void github_annotation(FILE *f, const char *level, const char *title, const char *const *lines,
		       size_t n);

#endif
