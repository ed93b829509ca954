// SPDX-License-Identifier: GPL-2.0-or-later
/* libsystemd, opened at the first call into it (lazy.h): the journal, monitor's and check's. */
/* No CODE_FILE= and CODE_LINE=: sd_journal_sendv is then the function itself. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_systemd = { .soname = "libsystemd.so.0", .package = "libsystemd0" };

LAZY(lazy_systemd, int, sd_journal_sendv, (const struct iovec *iov, int n), (iov, n))
LAZY(lazy_systemd, int, sd_journal_open, (sd_journal **ret, int flags), (ret, flags))
LAZY_VOID(lazy_systemd, sd_journal_close, (sd_journal *j), (j))
LAZY(lazy_systemd, int, sd_journal_add_match, (sd_journal *j, const void *data, size_t size),
     (j, data, size))
LAZY_VOID(lazy_systemd, sd_journal_flush_matches, (sd_journal *j), (j))
LAZY(lazy_systemd, int, sd_journal_seek_realtime_usec, (sd_journal *j, uint64_t usec), (j, usec))
LAZY(lazy_systemd, int, sd_journal_seek_tail, (sd_journal *j), (j))
LAZY(lazy_systemd, int, sd_journal_next, (sd_journal *j), (j))
LAZY(lazy_systemd, int, sd_journal_previous, (sd_journal *j), (j))
LAZY(lazy_systemd, int, sd_journal_get_data,
     (sd_journal *j, const char *field, const void **data, size_t *l), (j, field, data, l))
LAZY(lazy_systemd, int, sd_journal_get_realtime_usec, (sd_journal *j, uint64_t *ret), (j, ret))
LAZY(lazy_systemd, int, sd_journal_set_data_threshold, (sd_journal *j, size_t sz), (j, sz))
