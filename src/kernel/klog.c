// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log's words about modules that failed to load. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "kernel/klog.h"

int klog_read(char **text)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	*text = NULL;
	if (size < 0)
		return -errno;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		int err = -errno;

		free(buf);
		return err;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
}

/* The message of one log line: past "<N>" and "[ seconds] ". */
static const char *message(const char *line)
{
	if (*line == '<') {
		const char *gt = strchr(line, '>');

		if (gt)
			line = gt + 1;
	}
	if (*line == '[') {
		const char *br = strchr(line, ']');

		if (br)
			line = br + 1;
	}
	while (*line == ' ')
		line++;
	return line;
}

/* "NAME: rest": copies NAME and returns rest, or NULL when MSG has no module prefix. */
static const char *module_prefix(const char *msg, char *name, size_t len)
{
	size_t n = 0;

	while (msg[n] && (islower((unsigned char)msg[n]) || isdigit((unsigned char)msg[n]) ||
			  msg[n] == '_' || msg[n] == '-'))
		n++;
	if (!n || n >= len || msg[n] != ':' || msg[n + 1] != ' ')
		return NULL;
	memcpy(name, msg, n);
	name[n] = '\0';
	return msg + n + 2;
}

/* The word at S, up to a space or the end, into BUF. */
static void word(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\n')
		n++;
	snprintf(buf, len, "%.*s", (int)n, s);
}

/* Parses MSG into EV; false when it is not a module-load failure. */
static bool parse(const char *msg, size_t mlen, struct klog_event *ev)
{
	const char *line, *rest, *p;

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->text, sizeof(ev->text), "%.*s", (int)mlen, msg);
	line = ev->text;
	if (!strncmp(line, "Loading of ", 11) && strstr(line, " is rejected")) {
		ev->kind = KLOG_SIG_REJECTED;
		return true;
	}
	rest = module_prefix(line, ev->module, sizeof(ev->module));
	if (!rest)
		return false;
	if (!strncmp(rest, "Unknown symbol ", 15)) {
		word(rest + 15, ev->symbol, sizeof(ev->symbol));
		p = strstr(rest, "(err ");
		ev->kind = p && atoi(p + 5) == -EINVAL ? KLOG_SYMBOL_VERSION : KLOG_UNKNOWN_SYMBOL;
		return true;
	}
	if (!strncmp(rest, "disagrees about version of symbol ", 34)) {
		word(rest + 34, ev->symbol, sizeof(ev->symbol));
		ev->kind = KLOG_SYMBOL_VERSION;
		return true;
	}
	if (!strncmp(rest, "version magic '", 15)) {
		const char *end = strchr(rest + 15, '\'');

		if (!end)
			return false;
		snprintf(ev->got, sizeof(ev->got), "%.*s", (int)(end - rest - 15), rest + 15);
		p = strstr(end, "should be '");
		if (p) {
			end = strchr(p + 11, '\'');
			snprintf(ev->want, sizeof(ev->want), "%.*s",
				 (int)(end ? end - p - 11 : (long)strlen(p + 11)), p + 11);
		}
		ev->kind = KLOG_VERMAGIC;
		return true;
	}
	return false;
}

static void add_symbol(struct klog_event *ev, const char *sym)
{
	size_t used = strlen(ev->symbols), need = strlen(sym) + (used ? 1 : 0);

	if (!*sym || used + need >= sizeof(ev->symbols))
		return;
	snprintf(ev->symbols + used, sizeof(ev->symbols) - used, "%s%s", used ? " " : "", sym);
}

size_t klog_module_failures(const char *text, int (*want)(const char *module),
			    struct klog_event *ev, size_t max)
{
	size_t n = 0;

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *msg = message(line);
		size_t mlen = nl ? (size_t)(nl - msg) : strlen(msg);
		struct klog_event e;
		size_t i;

		line = nl ? nl + 1 : NULL;
		if (!parse(msg, mlen, &e) || (want && *e.module && !want(e.module)))
			continue;
		for (i = 0; i < n; i++)
			if (ev[i].kind == e.kind && !strcmp(ev[i].module, e.module))
				break;
		if (i == n) {
			if (n == max)
				continue;
			ev[n++] = e;
		}
		ev[i].count++;
		add_symbol(&ev[i], e.symbol);
	}
	return n;
}
