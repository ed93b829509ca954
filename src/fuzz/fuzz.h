/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every fuzz target shares: the entry point, and checks that never compile away. */
#ifndef RDMACTL_FUZZ_H
#define RDMACTL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Unlike assert(), evaluated in every build: a failure is a finding. */
#define CHECK(x)                                                                        \
	do {                                                                            \
		if (!(x)) {                                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #x); \
			abort();                                                        \
		}                                                                       \
	} while (0)

/* PATH holds exactly the N bytes at DATA afterwards, or the target aborts. */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t n)
{
	FILE *f = fopen(path, "we");
	size_t w;

	if (!f)
		abort();
	w = fwrite(data, 1, n, f);
	if (fclose(f) || w != n)
		abort();
}

#endif
