/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A point in time as a user types it for --since, in journalctl's words
 * (systemd.time(7)), the part of them people use: "now", "today",
 * "yesterday"; "-1h", "30min ago", "1d 2h"; "2026-12-03", "2026-12-03
 * 09:10", "2026-12-03T09:10:11", "09:10" (today), local time unless
 * followed by " UTC" or "Z"; "@1764752400" (seconds since the epoch).
 */
#ifndef RDMACTL_CLI_TIMESPEC_H
#define RDMACTL_CLI_TIMESPEC_H

#include <stdint.h>
#include <time.h>

/* TEXT at NOW, into *USEC (microseconds since the epoch): 0, or -EINVAL. */
int cli_time(const char *text, time_t now, uint64_t *usec);

#endif
