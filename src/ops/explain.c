// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel errors as people read them: the translation first, the raw errno kept. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "ops/explain.h"

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

void pr_kerr(int err, const char *ext, const char *fmt, ...)
{
	va_list ap;

	fputs("rdmactl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s: %s", errname(err), strerror(err < 0 ? -err : err));
	if (ext && *ext)
		fprintf(stderr, "; kernel: %s", ext);
	fputs(")\n", stderr);
}

void pr_no_rdma_kernel(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		strcpy(u.release, "this kernel");
	fprintf(stderr,
		"rdmactl: the running kernel (%s) has no RDMA support: RDMA netlink is missing "
		"(CONFIG_INFINIBAND is off) (EPROTONOSUPPORT)\n"
		"rdmactl: boot a kernel with CONFIG_RDMA_RXE (Debian's stock kernel has it as a "
		"module), or run rdmactl inside the test bed: tools/rxe-vm run -- rdmactl ...\n",
		u.release);
}
