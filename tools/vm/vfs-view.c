// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rxe-vm's start of virtiofsd, on the host: virtiofsd has no read-only mode,
 * so it serves a view of / in a mount namespace of its own, the whole tree
 * bound at DIR and every mount in it read-only. A guest that mounts the share
 * again read-write still cannot write to the host.
 *
 * Usage: vfs-view DIR PROGRAM [ARGS...]   (then PROGRAM runs, in that namespace)
 *
 * One mount_setattr makes the tree read-only. Where the kernel refuses it
 * (before Linux 5.12), each mount of the view is remounted read-only in turn,
 * its other flags kept; one that cannot be is left as it is, but DIR itself
 * must be. A shell did this with a mount(8) a mount: some 40 ms on the path of
 * every boot of the bed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int fail(const char *what, const char *dir)
{
	fprintf(stderr, "rxe-vm: the read-only view of / for virtiofsd: %s %s: %s\n", what, dir,
		strerror(errno));
	return 1;
}

/* /proc/self/mountinfo writes a space, tab, newline or backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The per-mount flags of mountinfo's sixth field that a bind remount would drop. */
static unsigned long mount_flags(const char *opts)
{
	static const struct { const char *name; unsigned long flag; } f[] = {
		{ "nosuid", MS_NOSUID }, { "nodev", MS_NODEV }, { "noexec", MS_NOEXEC },
		{ "noatime", MS_NOATIME }, { "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME },
	};
	unsigned long flags = 0;
	char buf[256], *save, *o;

	snprintf(buf, sizeof(buf), "%s", opts);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(o, f[i].name))
				flags |= f[i].flag;
	return flags;
}

/* Each mount at or under DIR, in mountinfo's order (parents first), read-only. */
static int remount_each(const char *dir)
{
	size_t len = strlen(dir);
	char line[8192], mp[4096], opts[256];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int top = 0;

	if (!f)
		return fail("cannot read", "/proc/self/mountinfo");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s %255s", mp, opts) != 2)
			continue;
		unescape(mp);
		if (strncmp(mp, dir, len) || (mp[len] && mp[len] != '/'))
			continue;
		if (mount(NULL, mp, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | mount_flags(opts), NULL)) {
			if (!mp[len]) {
				fclose(f);
				return fail("cannot make read-only", mp);
			}
		} else if (!mp[len]) {
			top = 1;
		}
	}
	fclose(f);
	if (!top) {
		errno = ENOENT;
		return fail("no mount at", dir);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	const char *dir;

	if (argc < 3) {
		fprintf(stderr, "usage: vfs-view DIR PROGRAM [ARGS...]\n");
		return 2;
	}
	dir = argv[1];
	if (unshare(CLONE_NEWNS))
		return fail("cannot make a mount namespace for", dir);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("cannot make private", "/");
	if (mount("/", dir, NULL, MS_BIND | MS_REC, NULL))
		return fail("cannot bind / onto", dir);
	if (mount_setattr(AT_FDCWD, dir, AT_RECURSIVE, &ro, sizeof(ro)) && remount_each(dir))
		return 1;
	execv(argv[2], argv + 2);
	return fail("cannot run", argv[2]);
}
