/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An event's line as the fields of a journal entry: MESSAGE its plain text,
 * RDMACTL_JSON its JSON object whole, and each member of the object a field
 * of its own, named RDMACTL_ and its path in capitals, '_' for '.'
 * (owner.pid: RDMACTL_PID, the owner's members standing as the event's
 * own), its value as plain text prints it: escaped, so that no byte of a
 * name reaches a reader raw. docs/json.md's events are the names' source.
 */
#ifndef RDMACTL_CLI_JOURNAL_H
#define RDMACTL_CLI_JOURNAL_H

#include <stddef.h>

#include "kernel/journal.h"

#define OUT_JOURNAL_MAX 48

struct out_journal {
	struct journal_field f[OUT_JOURNAL_MAX];
	size_t n;
	char *mem[2 * OUT_JOURNAL_MAX];	/* what the fields point to, freed with them */
	size_t nmem;
};

/*
 * JSON (an event's object, as -j prints it) and PLAIN (its plain-text line,
 * beginning with its time) into E's fields: 0, -EINVAL when JSON is no
 * object, -ENOMEM. Members past OUT_JOURNAL_MAX fields are left out.
 */
int out_journal_make(struct out_journal *e, const char *json, const char *plain);
/* NAME=VALUE added (both the caller's, kept as long as E): false when E is full. */
int out_journal_add(struct out_journal *e, const char *name, const char *value);
void out_journal_free(struct out_journal *e);

#endif
