// SPDX-License-Identifier: GPL-2.0-or-later
/* Command lookup and generated help over a command table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"

const struct rc_cmd *cli_lookup(const struct rc_cmd *tab, const char *word, int *nmatch)
{
	const struct rc_cmd *found = NULL;
	size_t len = strlen(word);
	int n = 0;

	*nmatch = 0;
	if (len == 0)
		return NULL;
	for (const struct rc_cmd *c = tab; c->name; c++) {
		if (strcmp(c->name, word) == 0) {
			*nmatch = 1;
			return c;
		}
		if (strncmp(c->name, word, len) == 0) {
			found = c;
			n++;
		}
	}
	*nmatch = n;
	return n == 1 ? found : NULL;
}

void cli_print_matches(FILE *f, const struct rc_cmd *tab, const char *word)
{
	size_t len = strlen(word);
	const char *sep = "";

	for (const struct rc_cmd *c = tab; c->name; c++) {
		if (strncmp(c->name, word, len) == 0) {
			fprintf(f, "%s%s", sep, c->name);
			sep = ", ";
		}
	}
}

void cli_print_commands(FILE *f, const struct rc_cmd *tab)
{
	for (const struct rc_cmd *c = tab; c->name; c++) {
		const char *nl = strchr(c->help, '\n');
		int first = nl ? (int)(nl - c->help) : (int)strlen(c->help);
		char head[64];

		snprintf(head, sizeof(head), "%s%s%s", c->name, *c->synopsis ? " " : "",
			 c->synopsis);
		fprintf(f, "  %-30s %.*s\n", head, first, c->help);
	}
}

void cli_print_command(FILE *f, const char *prog, const struct rc_cmd *c)
{
	fprintf(f, "Usage: %s %s%s%s\n\n%s\n", prog, c->name, *c->synopsis ? " " : "",
		c->synopsis, c->help);
}

int cli_uint(const char *cmd, const char *opt, const char *s, unsigned long min,
	     unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	/* strtoul takes "-1" as ULONG_MAX and skips leading space: refuse both. */
	if (errno || *end || end == s || *s == '-' || *s == ' ' || *s == '+' || *v < min ||
	    *v > max) {
		fprintf(stderr, "rdmactl: %s: %s takes a number from %lu to %lu, not '%s'\n", cmd,
			opt, min, max, s);
		return -EUSAGE;
	}
	return 0;
}
