// SPDX-License-Identifier: GPL-2.0-or-later
/* The running kernel's build configuration: /boot/config-RELEASE or /proc/config.gz. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "kernel/kconfig.h"
#include "kernel/safe.h"

#define KCONFIG_MAX (4 << 20)

/* gzread reads plain files too, so one reader serves both sources. */
static int slurp(const char *path, char **out)
{
	int fd = safe_open_at(AT_FDCWD, path, NULL);
	gzFile f = fd >= 0 ? gzdopen(fd, "rb") : NULL;
	char *buf;
	int n;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : -EIO;
	}
	buf = malloc(KCONFIG_MAX + 1);
	if (!buf) {
		gzclose(f);
		return -ENOMEM;
	}
	n = gzread(f, buf, KCONFIG_MAX);
	gzclose(f);
	if (n <= 0) {
		free(buf);
		return -EIO;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

int kconfig_load(const char *root, const char *release, struct kconfig *k)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->source, sizeof(k->source), "%s/boot/config-%s", root, release);
	if (slurp(k->source, &k->text) == 0)
		return 0;
	snprintf(k->source, sizeof(k->source), "%s/proc/config.gz", root);
	if (slurp(k->source, &k->text) == 0)
		return 0;
	k->source[0] = '\0';
	return -ENOENT;
}

void kconfig_free(struct kconfig *k)
{
	free(k->text);
	k->text = NULL;
}

char kconfig_value(const struct kconfig *k, const char *opt)
{
	size_t len = strlen(opt);

	for (const char *p = k->text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, opt, len) && p[len] == '=')
			return p[len + 1] == 'y' || p[len + 1] == 'm' ? p[len + 1] : 'n';
	}
	return 'n';
}
