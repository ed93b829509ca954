// SPDX-License-Identifier: GPL-2.0-or-later
/* The tools a module build runs (apt-get, tar, cp, rm, dkms): each failure said in an op_err. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "kernel/spawn.h"
#include "ops/op_err.h"
#include "ops/tools.h"

/*
 * The line of a failed tool's output that says why: its first error line
 * ("tar: ...", apt's "E: ..."), else its last line.
 */
static const char *why_line(struct spawn_out *o, const char *tool)
{
	size_t n = strlen(tool);
	char *t = o->text, *end = t + strlen(t);

	for (const char *l = t; *l; l += strcspn(l, "\n"), l += *l == '\n')
		if ((!strncmp(l, tool, n) && l[n] == ':') || !strncmp(l, "E: ", 3))
			return l;
	while (end > t && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	while (end > t && end[-1] != '\n')
		end--;
	return end;
}

int tools_run(const char *const argv[], const char *label, const struct spawn_progress *p,
	     struct spawn_out *o, struct op_err *e, const char *what)
{
	int err = spawn_run(argv, label, p, o);

	if (err)
		return op_err_tool(e, err, what, argv[0], 0, "", 0);
	if (o->status) {
		const char *why = why_line(o, argv[0]);

		return op_err_tool(e, 0, what, argv[0], o->status, why, strcspn(why, "\n"));
	}
	return 0;
}

void tools_rm_tree(const char *dir)
{
	const char *argv[] = { "rm", "-rf", "--one-file-system", dir, NULL };
	struct spawn_out o;

	spawn_run(argv, NULL, NULL, &o);
}

int tools_apt_install(const char *const pkgs[], size_t n, const struct spawn_progress *p,
		     struct op_err *e)
{
	/* --allow-downgrades: a package asked for at its version (PKG=VERSION) only. */
	const char *argv[16] = { "apt-get", "install", "-y", "-q", "--no-install-recommends",
				 "--allow-downgrades" };
	struct spawn_out o;
	size_t a = 6;

	for (size_t i = 0; i < n && a < 15; i++)
		argv[a++] = pkgs[i];
	argv[a] = NULL;
	return tools_run(argv, "apt-get install", p, &o, e, "cannot install the packages");
}
