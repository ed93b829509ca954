// SPDX-License-Identifier: GPL-2.0-or-later
/* Which kernel: its release, and errno's names as the kernel's headers spell them. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "kernel/release.h"
#include "kernel/sysfs.h"

const char *kernel_release(const char *root)
{
	static __thread char buf[128];
	static __thread char for_root[256] = "\1";
	struct utsname u;

	if (!strcmp(for_root, root))
		return buf;
	snprintf(for_root, sizeof(for_root), "%s", root);
	if (*root) {
		if (sysfs_read(root, buf, sizeof(buf), "/proc/sys/kernel/osrelease") <= 0)
			snprintf(buf, sizeof(buf), "unknown");
	} else {
		snprintf(buf, sizeof(buf), "%s", uname(&u) == 0 ? u.release : "unknown");
	}
	return buf;
}

bool kernel_before(const char *root, int major, int minor)
{
	int ma, mi;

	if (sscanf(kernel_release(root), "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

const char *errname(int err)
{
	static __thread char buf[24];
	const char *name;

	if (err < 0)
		err = -err;
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}
