// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the persistent-links file, parsed from memory as model_conf_load
 * parses what it reads. A file that parses must survive an add, a delete and
 * a format (what model_conf_save writes), and parse again to the same entries; a
 * file that does not parse must be refused with the line named, printably.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "model/conf.h"

#define PATH RDMACTL_CONF_DEFAULT

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf c, again;
	char err[512], *text;
	size_t len;
	int ret;

	ret = model_conf_parse((const char *)data, size, PATH, &c, err, sizeof(err));
	if (ret) {
		/*
		 * Refused: the reason names the file, and fits. It quotes the bad
		 * name's bytes as they are: the one place that prints it escapes
		 * them (\xNN), as the man page says.
		 */
		CHECK(ret < 0 && !strncmp(err, PATH, strlen(PATH)) && strlen(err) < sizeof(err));
		return 0;
	}
	ret = model_conf_add(&c, "rxefz", "fz0");
	CHECK(ret == 0 || ret == 1 || ret == -EEXIST || ret == -EBUSY);
	model_conf_del(&c, "rxefz");
	CHECK(!model_conf_find(&c, "rxefz"));
	text = model_conf_format(&c, &len);
	CHECK(text && strlen(text) == len);
	CHECK(model_conf_parse(text, len, PATH, &again, err, sizeof(err)) == 0);
	CHECK(again.n == c.n);
	for (size_t i = 0; i < c.n; i++) {
		CHECK(!strcmp(again.e[i].name, c.e[i].name));
		CHECK(!strcmp(again.e[i].netdev, c.e[i].netdev));
	}
	free(text);
	model_conf_free(&again);
	model_conf_free(&c);
	return 0;
}
