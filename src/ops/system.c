// SPDX-License-Identifier: GPL-2.0-or-later
/* The RDMA subsystem's settings and devices' namespaces (RDMA netlink). */
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/rdma_netlink.h>

#include "kernel/kmods.h"
#include "kernel/nl.h"
#include "kernel/nldev.h"
#include "kernel/safe.h"
#include "kernel/sysfs.h"
#include "ops/op_err.h"
#include "ops/system.h"

int system_get(struct nl *nl, struct nldev_sys *s, struct op_err *e)
{
	int err = nldev_sys_get(nl, s);

	if (err)
		return op_err_set(e, err, nl_ext_msg(nl), "cannot read the RDMA subsystem's settings "
				  "(RDMA_NLDEV_CMD_SYS_GET)");
	return 0;
}

/* sysfs_list's EACH: counts the names 'ip netns' lists. */
static int count(void *arg, const char *name)
{
	(void)name;
	++*(int *)arg;
	return 0;
}

int system_set_netns_mode(struct nl *nl, int mode, struct op_err *e)
{
	struct nlmsghdr *nlh = nldev_request(nl, RDMA_NLDEV_CMD_SYS_SET, 0);
	int err, named = 0;

	err = nldev_put_netns_mode(nlh, NL_BUF_SIZE, (uint8_t)mode) ? nl_talk(nl, nlh, NULL, NULL)
								     : -EMSGSIZE;
	if (err == -EBUSY) {
		/* No /run/netns: none named, containers' only. */
		sysfs_list("", "/run/netns", count, &named);
		return op_err_set(e, err, nl_ext_msg(nl), "the RDMA namespace mode can be changed only "
				  "while no network namespace but the initial one exists (%d named "
				  "ones: 'ip netns list'; containers have theirs too): set it at boot "
				  "instead with 'rdmactl system set netns %s --persist' and reboot",
				  named, nldev_netns_mode_name(mode));
	}
	if (err == -EPERM || err == -EACCES)
		return op_err_set(e, err, nl_ext_msg(nl), "setting the RDMA namespace mode needs "
				  "CAP_NET_ADMIN in the initial namespace: run it as root on the host");
	if (err)
		return op_err_set(e, err, nl_ext_msg(nl), "cannot set the RDMA namespace mode to %s "
				  "(RDMA_NLDEV_CMD_SYS_SET)", nldev_netns_mode_name(mode));
	return 0;
}

int system_persist_netns_mode(const char *dir, int mode, char *had, size_t hadlen,
			   struct op_err *e)
{
	static const char text[] = "# Written by 'rdmactl system set netns exclusive --persist';\n"
				    "# 'rdmactl system set netns shared --persist' removes it.\n"
				    "# The RDMA subsystem's namespace mode from boot: each RDMA device\n"
				    "# belongs to one network namespace (ib_core's default is shared).\n"
				    "options ib_core netns_mode=0\n";
	char path[PATH_MAX];
	struct safe_path p;
	size_t len = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, SYSTEM_MODPROBE_FILE);
	/* safe_read reads one byte past MAX to tell a longer file: MAX + 1 and a NUL fit. */
	err = safe_read(path, had, hadlen - 2, &len, &p);
	if (err == -ENOENT)
		len = 0;
	else if (err)
		return op_err_conf_save(e, err, path, &p);
	if (len > hadlen - 2)
		return op_err_set(e, -EFBIG, NULL, "%s is longer than rdmactl writes it: it is not "
				  "rdmactl's, and is left as it is (remove it, or edit it by hand)", path);
	had[len] = '\0';
	if (mode == 0) {
		err = safe_write(path, text, sizeof(text) - 1, 0644, &p);
		return err ? op_err_conf_save(e, err, path, &p) : 0;
	}
	if (!len && err == -ENOENT)
		return 0;
	if (unlink(p.target) < 0)
		return op_err_conf_save(e, -errno, path, &p);
	return 0;
}

int system_persist_restore(const char *dir, const char *had, struct op_err *e)
{
	char path[PATH_MAX];
	struct safe_path p;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, SYSTEM_MODPROBE_FILE);
	if (*had)
		err = safe_write(path, had, strlen(had), 0644, &p);
	else if (safe_resolve(path, &p) == 0 && unlink(p.target) < 0)
		err = -errno;
	if (err)
		op_err_add(e, "and %s could not be put back as it was (%s): check it by hand", path,
			   strerror(-err));
	return err;
}

int system_boot_netns_mode(const char *dir)
{
	const char *const paths[] = { dir, NULL };
	char opts[4096], *tok, *save = NULL;
	struct kmods *km;
	int mode = 1, err;

	err = kmods_open_config(&km, dir ? paths : NULL);
	if (err)
		return err;
	err = kmods_options(km, "ib_core", opts, sizeof(opts));
	kmods_close(km);
	if (err)
		return err;
	/* As the kernel parses them: the last netns_mode= given wins; 0 is exclusive. */
	for (tok = strtok_r(opts, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		if (!strncmp(tok, "netns_mode=", 11))
			mode = strtol(tok + 11, NULL, 0) != 0;
	return mode;
}
