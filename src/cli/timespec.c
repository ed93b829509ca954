// SPDX-License-Identifier: GPL-2.0-or-later
/* --since's times (timespec.h). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/timespec.h"

/* systemd.time(7)'s units, in seconds, longest first where one begins another. */
static const struct unit {
	const char *name;
	uint64_t s;
} units[] = {
	{ "seconds", 1 }, { "second", 1 }, { "sec", 1 }, { "s", 1 },
	{ "minutes", 60 }, { "minute", 60 }, { "min", 60 }, { "m", 60 },
	{ "hours", 3600 }, { "hour", 3600 }, { "hr", 3600 }, { "h", 3600 },
	{ "days", 86400 }, { "day", 86400 }, { "d", 86400 },
	{ "weeks", 604800 }, { "week", 604800 }, { "w", 604800 },
};

/* "1h 30min" into *SECS: 0, or -EINVAL. Each number needs its unit. */
static int duration(const char *p, uint64_t *secs)
{
	*secs = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -EINVAL;
	while (*p) {
		const struct unit *u = NULL;
		char *end;
		unsigned long long n;
		size_t len;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		n = strtoull(p, &end, 10);
		if (errno || n > 100ull * 365 * 86400)
			return -EINVAL;
		p = end;
		while (isspace((unsigned char)*p))
			p++;
		len = strspn(p, "abcdefghijklmnopqrstuvwxyz");
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strlen(units[i].name) == len && !strncmp(p, units[i].name, len))
				u = &units[i];
		if (!u)
			return -EINVAL;
		*secs += n * u->s;
		p += len;
		while (isspace((unsigned char)*p))
			p++;
	}
	return 0;
}

/* A date, a time or both, local or (" UTC", "Z") universal, into *T. */
static int absolute(const char *text, time_t now, time_t *t)
{
	char buf[64], *z;
	struct tm tm;
	bool utc = false;
	size_t n = strlen(text);

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n + 1);
	if (n > 4 && !strcmp(buf + n - 4, " UTC")) {
		buf[n - 4] = '\0';
		utc = true;
	} else if (n > 1 && buf[n - 1] == 'Z') {
		buf[n - 1] = '\0';
		utc = true;
	}
	if ((z = strchr(buf, 'T')))
		*z = ' ';
	/* Each form tried on the day of NOW (strptime leaves what a failed try set). */
	static const struct form {
		const char *fmt;
		bool day;	/* it gives the date alone: midnight */
	} forms[] = {
		{ "%Y-%m-%d %H:%M:%S", false }, { "%Y-%m-%d %H:%M", false },
		{ "%Y-%m-%d", true }, { "%H:%M:%S", false }, { "%H:%M", false },
	};
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (utc)
			gmtime_r(&now, &tm);
		else
			localtime_r(&now, &tm);
		tm.tm_sec = 0;
		if (forms[i].day)
			tm.tm_hour = tm.tm_min = 0;
		const char *end = strptime(buf, forms[i].fmt, &tm);

		if (end && !*end)
			break;
	}
	if (i == sizeof(forms) / sizeof(forms[0]))
		return -EINVAL;
	tm.tm_isdst = -1;
	*t = utc ? timegm(&tm) : mktime(&tm);
	return *t == (time_t)-1 ? -EINVAL : 0;
}

int cli_time(const char *text, time_t now, uint64_t *usec)
{
	unsigned long long s;
	uint64_t secs;
	time_t t = now;
	struct tm tm;
	size_t n = strlen(text);
	char *end;

	if (!strcmp(text, "now")) {
		t = now;
	} else if (!strcmp(text, "today") || !strcmp(text, "yesterday")) {
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_mday -= !strcmp(text, "yesterday");
		tm.tm_isdst = -1;
		t = mktime(&tm);
	} else if (*text == '-') {
		if (duration(text + 1, &secs) || secs > (uint64_t)now)
			return -EINVAL;
		t = now - (time_t)secs;
	} else if (n > 4 && !strcmp(text + n - 4, " ago")) {
		char d[64];

		if (n - 4 >= sizeof(d))
			return -EINVAL;
		memcpy(d, text, n - 4);
		d[n - 4] = '\0';
		if (duration(d, &secs) || secs > (uint64_t)now)
			return -EINVAL;
		t = now - (time_t)secs;
	} else if (*text == '@') {
		errno = 0;
		s = strtoull(text + 1, &end, 10);

		if (errno || end == text + 1 || *end || s > (unsigned long long)now * 2)
			return -EINVAL;
		t = (time_t)s;
	} else if (absolute(text, now, &t)) {
		return -EINVAL;
	}
	if (t < 0)
		return -EINVAL;
	*usec = (uint64_t)t * 1000000ull;
	return 0;
}
