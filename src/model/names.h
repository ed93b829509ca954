/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel accepts as RDMA device and network device names. */
#ifndef RDMACTL_NAMES_H
#define RDMACTL_NAMES_H

/* NULL when NAME is acceptable, else why not (a phrase to follow "NAME: "). */
const char *model_names_rdma_invalid(const char *name);
const char *model_names_netdev_invalid(const char *name);
/*
 * Why NAME (valid for the kernel) cannot be a field of the persistent-links
 * file, or NULL: what persist add and add --persist refuse.
 */
const char *model_names_conf_field_invalid(const char *name);
/* Why KVER cannot be a kernel release (as uname -r prints one), or NULL. */
const char *model_names_kernel_release_invalid(const char *kver);

/*
 * NAME as systemd spells it inside a unit name (systemd-escape): letters,
 * digits, ':', '_' and '.' (but a leading '.') are kept, '/' is '-', every
 * other byte \xNN. The length it needs, NUL excluded (as snprintf).
 */
size_t model_names_unit_escape(char *buf, size_t len, const char *name);

#endif
