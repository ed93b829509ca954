// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rxe-vm's start of virtiofsd, on the host: virtiofsd has no read-only mode,
 * so it serves a view of / in a mount namespace of its own, the whole tree
 * bound at DIR and every mount in it read-only. A guest that mounts the share
 * again read-write still cannot write to the host.
 *
 * Usage: vfs-view [--root ROOT] DIR PROGRAM [ARGS...]   (then PROGRAM runs,
 * in that namespace)
 *
 * With --root (a userland of its own, --userland), ROOT is bound at DIR
 * instead, and the host's / at DIR/.rxevm-host: the guest binds the host
 * paths it is to share (the checkout, the bed's cache) from there.
 *
 * One mount_setattr (Linux 5.12, glibc 2.36: Debian 12) makes the whole tree
 * read-only at once, each mount's other flags kept. A shell did this with a
 * mount(8) a mount: some 40 ms on the path of every boot of the bed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int fail(const char *what, const char *dir)
{
	fprintf(stderr, "rxe-vm: the read-only view of / for virtiofsd: %s %s: %s\n", what, dir,
		strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	const char *dir, *root = NULL;
	char host[4096];

	if (argc >= 3 && !strcmp(argv[1], "--root")) {
		root = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: vfs-view [--root ROOT] DIR PROGRAM [ARGS...]\n");
		return 2;
	}
	dir = argv[1];
	if (unshare(CLONE_NEWNS))
		return fail("cannot make a mount namespace for", dir);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("cannot make private", "/");
	if (root) {
		snprintf(host, sizeof(host), "%s/.rxevm-host", dir);
		if (mount(root, dir, NULL, MS_BIND | MS_REC, NULL))
			return fail("cannot bind the userland onto", dir);
		if (mount("/", host, NULL, MS_BIND | MS_REC, NULL))
			return fail("cannot bind / onto", host);
	} else if (mount("/", dir, NULL, MS_BIND | MS_REC, NULL)) {
		return fail("cannot bind / onto", dir);
	}
	if (mount_setattr(AT_FDCWD, dir, AT_RECURSIVE, &ro, sizeof(ro))) {
		if (errno == ENOSYS)
			fprintf(stderr, "rxe-vm: this kernel has no mount_setattr (Linux 5.12): "
				"use --root-fs 9p\n");
		return fail("cannot make read-only", dir);
	}
	execv(argv[2], argv + 2);
	return fail("cannot run", argv[2]);
}
