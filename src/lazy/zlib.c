// SPDX-License-Identifier: GPL-2.0-or-later
/* zlib, opened at the first call into it (lazy.h): only reading /proc/config.gz uses it. */
#include <zlib.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_zlib = { .soname = "libz.so.1", .package = "zlib1g" };

LAZY(lazy_zlib, gzFile, gzdopen, (int fd, const char *mode), (fd, mode))
LAZY(lazy_zlib, int, gzread, (gzFile file, voidp buf, unsigned len), (file, buf, len))
LAZY(lazy_zlib, int, gzclose, (gzFile file), (file))
