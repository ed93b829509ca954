// SPDX-License-Identifier: GPL-2.0-or-later
/* errno's names as the kernel's headers spell them, for messages. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kernel/errname.h"

const char *errname(int err)
{
	static __thread char buf[24];
	/* Negated as unsigned: a hostile message's INT_MIN has no int negation. */
	unsigned int u = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;
	const char *name = u <= INT_MAX ? strerrorname_np((int)u) : NULL;

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %u", u);
	return buf;
}
