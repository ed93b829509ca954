// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the persistent-links file. A file that loads must survive an
 * add, a delete and a save, and load again to the same entries; a file that
 * does not load must be refused with the line named.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "model/conf.h"

static char dir[64];
static char path[96];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf c, again;
	char err[512];
	int ret;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz_conf.XXXXXX");
		CHECK(mkdtemp(dir));
		snprintf(path, sizeof(path), "%s/rxe.conf", dir);
		atexit(cleanup);
	}
	fuzz_write_file(path, data, size);
	ret = conf_load(path, &c, err, sizeof(err));
	if (ret) {
		/* Refused: the reason names the file, and is printable. */
		CHECK(ret < 0 && !strncmp(err, path, strlen(path)));
		for (const char *q = err; *q; q++)
			CHECK(isprint((unsigned char)*q));
		return 0;
	}
	ret = conf_add(&c, "rxefz", "fz0");
	CHECK(ret == 0 || ret == 1 || ret == -EEXIST);
	conf_del(&c, "rxefz");
	CHECK(!conf_find(&c, "rxefz"));
	CHECK(conf_save(&c, path) == 0);
	CHECK(conf_load(path, &again, err, sizeof(err)) == 0);
	CHECK(again.n == c.n);
	for (size_t i = 0; i < c.n; i++) {
		CHECK(!strcmp(again.e[i].name, c.e[i].name));
		CHECK(!strcmp(again.e[i].netdev, c.e[i].netdev));
	}
	conf_free(&again);
	conf_free(&c);
	return 0;
}
