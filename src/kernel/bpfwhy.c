// SPDX-License-Identifier: GPL-2.0-or-later
/* libbpf's first warning kept as the words of a failed step (bpfwhy.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "kernel/bpfwhy.h"

static char first_warning[256];

static int keep_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(first_warning)];
	const char *p = line;
	size_t n;

	if (level != LIBBPF_WARN || *first_warning)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (!strncmp(p, "libbpf: ", 8))
		p += 8;
	snprintf(first_warning, sizeof(first_warning), "%s", p);
	n = strlen(first_warning);
	while (n && (first_warning[n - 1] == '\n' || first_warning[n - 1] == ' '))
		first_warning[--n] = '\0';
	return 0;
}

void bpfwhy_begin(void)
{
	*first_warning = '\0';
	libbpf_set_print(keep_warning);
}

void bpfwhy_say(int err, char *why, size_t len)
{
	if (!*why)
		snprintf(why, len, "%s", *first_warning ? first_warning : strerror(-err));
}
