// SPDX-License-Identifier: GPL-2.0-or-later
/* The systemd journal, written and read through libsystemd (journal.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* No CODE_FILE= and CODE_LINE=: sd_journal_sendv is then the function itself. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>

#include "kernel/journal.h"
#include "lazy/lazy.h"

/* At most this many fields an entry. */
#define FIELDS_MAX 64

int journal_send(const struct journal_field *f, size_t n, char *why)
{
	struct iovec iov[FIELDS_MAX];
	char *text[FIELDS_MAX];
	size_t k = 0;
	int err = 0;

	*why = '\0';
	if (lazy_open(&lazy_systemd, why, JOURNAL_WHY_MAX))
		return -ENOPKG;
	for (size_t i = 0; i < n && k < FIELDS_MAX; i++) {
		if (!f[i].value)
			continue;
		if (asprintf(&text[k], "%s=%s", f[i].name, f[i].value) < 0) {
			err = -ENOMEM;
			break;
		}
		iov[k].iov_base = text[k];
		iov[k].iov_len = strlen(text[k]);
		k++;
	}
	if (!err)
		err = sd_journal_sendv(iov, (int)k);
	for (size_t i = 0; i < k; i++)
		free(text[i]);
	if (err == -ENOENT || err == -ECONNREFUSED)
		snprintf(why, JOURNAL_WHY_MAX, "no journald listens on this system "
			 "(/run/systemd/journal/socket)");
	else if (err)
		snprintf(why, JOURNAL_WHY_MAX, "the journal refused the entry: %s", strerror(-err));
	return err;
}

struct journal {
	sd_journal *j;
};

int journal_open(struct journal **out, char *why)
{
	struct journal *j;
	int err;

	*out = NULL;
	*why = '\0';
	if (lazy_open(&lazy_systemd, why, JOURNAL_WHY_MAX))
		return -ENOPKG;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	err = sd_journal_open(&j->j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
	if (err) {
		snprintf(why, JOURNAL_WHY_MAX, "cannot open the system's journal: %s",
			 strerror(-err));
		free(j);
		return err;
	}
	/* A field's value whole (the default cuts at 64 KiB; ours are a line). */
	sd_journal_set_data_threshold(j->j, 0);
	*out = j;
	return 0;
}

int journal_match(struct journal *j, const char *field, const char *value)
{
	char m[256];
	int n;

	if (!field) {
		sd_journal_flush_matches(j->j);
		return 0;
	}
	n = snprintf(m, sizeof(m), "%s=%s", field, value);
	if (n < 0 || (size_t)n >= sizeof(m))
		return -ENAMETOOLONG;
	return sd_journal_add_match(j->j, m, (size_t)n);
}

int journal_seek(struct journal *j, uint64_t usec)
{
	return sd_journal_seek_realtime_usec(j->j, usec);
}

int journal_seek_end(struct journal *j)
{
	return sd_journal_seek_tail(j->j);
}

int journal_next(struct journal *j)
{
	return sd_journal_next(j->j);
}

int journal_prev(struct journal *j)
{
	return sd_journal_previous(j->j);
}

int journal_get(struct journal *j, const char *field, char *buf, size_t len)
{
	size_t n = strlen(field), l = 0;
	const void *data;
	int err;

	*buf = '\0';
	err = sd_journal_get_data(j->j, field, &data, &l);
	if (err)
		return err;
	/* "FIELD=VALUE" */
	if (l <= n || ((const char *)data)[n] != '=')
		return -EBADMSG;
	l -= n + 1;
	if (l >= len)
		l = len - 1;
	memcpy(buf, (const char *)data + n + 1, l);
	buf[l] = '\0';
	return 0;
}

uint64_t journal_time(struct journal *j)
{
	uint64_t t = 0;

	sd_journal_get_realtime_usec(j->j, &t);
	return t;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	sd_journal_close(j->j);
	free(j);
}
