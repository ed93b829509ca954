// SPDX-License-Identifier: GPL-2.0-or-later
/* JUnit XML for CI systems' test reports (junit.h). */
#include <errno.h>
#include <string.h>

#include "cli/junit.h"

/* S as text or an attribute's value: entities, and \xNN for any byte not printable ASCII. */
static void put_xml(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputc('\n', f); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(f, "\\x%02x", *p);
			else
				fputc(*p, f);
		}
	}
}

/* How many of C[0..I) have C[I]'s classname and name: its number among them, from 0. */
static size_t same_before(const struct junit_case *c, size_t i)
{
	size_t k = 0;

	for (size_t j = 0; j < i; j++)
		k += !strcmp(c[j].classname, c[i].classname) && !strcmp(c[j].name, c[i].name);
	return k;
}

static void put_case(FILE *f, const struct junit_case *c, size_t nth)
{
	static const char *const tag[] = { [JUNIT_FAIL] = "failure", [JUNIT_SKIP] = "skipped" };

	fputs("    <testcase classname=\"", f);
	put_xml(f, c->classname);
	fputs("\" name=\"", f);
	put_xml(f, c->name);
	if (nth)	/* the same name again: GitLab would keep only the first */
		fprintf(f, " (%zu)", nth + 1);
	fputs("\">\n", f);
	if (c->result != JUNIT_PASS) {
		fprintf(f, "      <%s message=\"", tag[c->result]);
		put_xml(f, c->message);
		fputs("\">", f);
		put_xml(f, c->text);
		fprintf(f, "</%s>\n", tag[c->result]);
	}
	if (c->out) {
		fputs("      <system-out>", f);
		put_xml(f, c->out);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

int junit_write(FILE *f, const char *suite, const struct junit_case *c, size_t n)
{
	size_t count[3] = { 0 };

	for (size_t i = 0; i < n; i++)
		count[c[i].result]++;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	put_xml(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", n,
		count[JUNIT_FAIL], count[JUNIT_SKIP]);
	fputs("  <testsuite name=\"", f);
	put_xml(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		n, count[JUNIT_FAIL], count[JUNIT_SKIP]);
	for (size_t i = 0; i < n; i++)
		put_case(f, &c[i], same_before(c, i));
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fflush(f) == EOF || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
