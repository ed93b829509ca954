/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command lookup and generated help over a command table. */
#ifndef RDMACTL_CLI_H
#define RDMACTL_CLI_H

#include <stdio.h>

#include "cli/rdmactl.h"

/*
 * The row named WORD, or the only row WORD is a prefix of. NULL otherwise, with
 * *NMATCH the number of rows it is a prefix of (0: unknown, >1: ambiguous).
 * TAB ends with a row whose name is NULL.
 */
const struct rc_cmd *cli_lookup(const struct rc_cmd *tab, const char *word, int *nmatch);

/* "add, addr" style list of the rows WORD is a prefix of. */
void cli_print_matches(FILE *f, const struct rc_cmd *tab, const char *word);

/*
 * Parses a command's option OPT as a decimal number from MIN to MAX. On
 * anything else it says so ("rdmactl: CMD: OPT takes ...") and returns -EUSAGE.
 */
int cli_uint(const char *cmd, const char *opt, const char *s, unsigned long min,
	     unsigned long max, unsigned long *v);

void cli_print_commands(FILE *f, const struct rc_cmd *tab);
void cli_print_command(FILE *f, const char *prog, const struct rc_cmd *c);

#endif
