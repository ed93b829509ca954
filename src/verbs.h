/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Port attributes only libibverbs gives (sysfs has no MTU). */
#ifndef RDMACTL_VERBS_H
#define RDMACTL_VERBS_H

#include <stdbool.h>
#include <stdint.h>

/* MTUs in bytes; -ENODEV when the device has no usable uverbs node. */
int verbs_port_mtu(const char *dev, uint32_t port, int *active, int *max);

/* Whether libibverbs lists DEV, that is, has a working provider for it. */
bool verbs_lists(const char *dev);

#endif
