/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The systemd journal through libsystemd (opened at first use): an entry
 * sent with fields of the caller's, and entries read back by field, from a
 * time on. It never prints: a failure is a negative errno with words.
 */
#ifndef RDMACTL_KERNEL_JOURNAL_H
#define RDMACTL_KERNEL_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define JOURNAL_WHY_MAX 256

/*
 * rdmactl's entries' MESSAGE_IDs (systemd's catalogue habit: one for each
 * kind of entry, whatever its words): a program's failure (a call refused,
 * an rdma_cm event, a QP's error completion, a QP moved to error or
 * resending), a change of the host's (devices, ports, netdevs, GIDs,
 * error counters), and monitor --journal started.
 */
#define JOURNAL_ID_FAILURE "3117d69da7924d7ea8976a1ce51ee2a6"
#define JOURNAL_ID_CHANGE "7a59065564b74ef6a0ed37af5931772f"
#define JOURNAL_ID_STARTED "bff2bb42b75945fc8c7f713641001a87"
/* The identifier its entries carry (SYSLOG_IDENTIFIER=). */
#define JOURNAL_IDENT "rdmactl"


/* One field of an entry: NAME (journald's grammar: A-Z, 0-9, _) and its VALUE. */
struct journal_field {
	const char *name;
	const char *value;
};

/*
 * The N fields sent as one entry: 0, or -ENOPKG (no libsystemd), or the
 * send's negative errno (-ENOENT: no journald listens); WHY says which.
 */
int journal_send(const struct journal_field *f, size_t n, char *why);

struct journal;

/* The system's journal opened for reading: 0, or -ENOPKG or -errno with WHY. */
int journal_open(struct journal **j, char *why);
/*
 * Only entries whose FIELD is VALUE from now on (several values of one field:
 * any of them); NULL FIELD: every entry again. 0 or a negative errno.
 */
int journal_match(struct journal *j, const char *field, const char *value);
/* Where journal_next reads from: the first entry at or after USEC (wall clock), or the end. */
int journal_seek(struct journal *j, uint64_t usec);
int journal_seek_end(struct journal *j);
/* The next (or, with journal_prev, the previous) matching entry: 1, 0 at the end, or -errno. */
int journal_next(struct journal *j);
int journal_prev(struct journal *j);
/* The entry's FIELD's value, at most LEN - 1 bytes of it: 0, or -ENOENT when it has none. */
int journal_get(struct journal *j, const char *field, char *buf, size_t len);
/* The entry's own time, microseconds of the wall clock. */
uint64_t journal_time(struct journal *j);
void journal_close(struct journal *j);

#endif
