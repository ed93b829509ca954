/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's build configuration: /boot/config-RELEASE or /proc/config.gz. */
#ifndef RDMACTL_KCONFIG_H
#define RDMACTL_KCONFIG_H

#include <stddef.h>

struct kconfig {
	char *text;
	char source[256];
};

/* 0, or -ENOENT when neither file exists (or cannot be read). */
int kconfig_load(const char *root, const char *release, struct kconfig *k);
void kconfig_free(struct kconfig *k);
/* 'y', 'm', or 'n' for an option that is not set. */
char kconfig_value(const struct kconfig *k, const char *opt);

#endif
