// SPDX-License-Identifier: GPL-2.0-or-later
/* errno's names as the kernel's headers spell them, for messages. */
#include <stdio.h>
#include <string.h>

#include "kernel/errname.h"

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
