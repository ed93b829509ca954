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
	struct utsname u;

	if (!*root)
		snprintf(buf, sizeof(buf), "%s", uname(&u) == 0 ? u.release : "unknown");
	else if (sysfs_read(root, buf, sizeof(buf), "/proc/sys/kernel/osrelease") <= 0)
		snprintf(buf, sizeof(buf), "unknown");
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
