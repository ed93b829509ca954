/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command tree's branches kept in files of their own, for table.c to hang in place. */
#ifndef RDMACTL_RDMACTL_TABLE_H
#define RDMACTL_RDMACTL_TABLE_H

#include "cli/grammar.h"

/* selftest loopback, server and client (selftest.c). */
extern const struct cli_cmd rdmactl_selftest_verbs[];
/* lab show, add, test and del (lab.c). */
extern const struct cli_cmd rdmactl_lab_verbs[];

#endif
