// SPDX-License-Identifier: GPL-2.0-or-later
/* Which kernel: its release, from the running system or a captured fixture. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "kernel/release.h"
#include "kernel/sysfs.h"

const char *release_name(const char *root)
{
	static __thread char buf[128];
	struct utsname u;

	if (!*root)
		snprintf(buf, sizeof(buf), "%s", uname(&u) == 0 ? u.release : "unknown");
	else if (sysfs_read(root, buf, sizeof(buf), "/proc/sys/kernel/osrelease") <= 0)
		snprintf(buf, sizeof(buf), "unknown");
	return buf;
}

bool release_before(const char *root, int major, int minor)
{
	int ma, mi;

	if (sscanf(release_name(root), "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}
