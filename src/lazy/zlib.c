// SPDX-License-Identifier: GPL-2.0-or-later
/* zlib, opened at the first call into it (lazy.h): only reading /proc/config.gz uses it. */
#include <zlib.h>

#include "lazy/lazy.h"

static struct lazy_lib zlib = { .soname = "libz.so.1", .package = "zlib1g" };

LAZY(zlib, gzFile, gzopen, (const char *path, const char *mode), (path, mode))
LAZY(zlib, int, gzread, (gzFile file, voidp buf, unsigned len), (file, buf, len))
LAZY(zlib, int, gzclose, (gzFile file), (file))
