// SPDX-License-Identifier: GPL-2.0-or-later
/* GitHub Actions' workflow commands: annotations (github.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/github.h"

bool github_actions(void)
{
	const char *v = getenv("GITHUB_ACTIONS");

	return v && !strcmp(v, "true");
}

/* S escaped for a command: a property's value (PROPERTY) or its message. */
static void put(FILE *f, const char *s, bool property)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '%')
			fputs("%25", f);
		else if (property && *p == ':')
			fputs("%3A", f);
		else if (property && *p == ',')
			fputs("%2C", f);
		else if (*p == '\\')
			fputs("\\\\", f);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\x%02x", *p);	/* CR and LF among them: never raw */
		else
			fputc(*p, f);
	}
}

void github_annotation(FILE *f, const char *level, const char *title, const char *const *lines,
		       size_t n)
{
	fprintf(f, "::%s title=", level);
	put(f, title, true);
	fputs("::", f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs("%0A", f);
		put(f, lines[i], false);
	}
	fputc('\n', f);
}
