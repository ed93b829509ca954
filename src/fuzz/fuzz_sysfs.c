// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: sysfs values as the model reads them. A copy of a tree captured
 * from a real guest (bats/fixtures/two-netdevs, rxe0 with its first GID slots)
 * gets fuzzed contents in the files rdmactl parses, then is loaded.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "model/gid.h"
#include "model/model.h"

#define DEV "/sys/class/infiniband/rxe0"
#define PORT DEV "/ports/1"

/* The files whose contents the input decides, in input order. */
static const char *const files[] = {
	PORT "/gids/0", PORT "/gids/1", PORT "/gids/2",
	PORT "/gid_attrs/types/1", PORT "/gid_attrs/ndevs/1",
	PORT "/gid_attrs/types/2", PORT "/gid_attrs/ndevs/2",
	PORT "/state", PORT "/phys_state", PORT "/rate", PORT "/link_layer",
	PORT "/hw_counters/rcvd_pkts", DEV "/node_type", DEV "/node_guid", DEV "/fw_ver",
	DEV "/parent",
};

static char root[64];

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_sysfs: could not remove %s\n", root);
}

static void setup(void)
{
	const char *src = getenv("FUZZ_FIXTURE");
	char cmd[512];

	snprintf(root, sizeof(root), "/tmp/fuzz_sysfs.XXXXXX");
	CHECK(mkdtemp(root));
	if (!src)
		src = "bats/fixtures/two-netdevs";
	/* rxe0 and the first 4 GID slots (with their attributes) of its 1024. */
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/sys' '%s/' && rm -rf '%s/sys/class/infiniband/rxe1' && "
		 "find '%s%s' -path '*/gid*/[0-9]*' -regex '.*/\\([4-9]\\|[0-9][0-9]+\\)$' -delete",
		 src, root, root, root, PORT);
	if (system(cmd) != 0) {
		fprintf(stderr, "fuzz_sysfs: cannot copy the fixture from %s (FUZZ_FIXTURE)\n", src);
		exit(1);
	}
	atexit(cleanup);
}

static void put(const char *rel, const uint8_t *data, size_t n)
{
	char p[256];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fuzz_write_file(p, data, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m;
	int err;

	if (!root[0])
		setup();
	/* Each file: a length byte, then that many bytes (fewer at the end). */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && size; i++) {
		size_t n = data[0] < size - 1 ? data[0] : size - 1;

		put(files[i], data + 1, n);
		data += 1 + n;
		size -= 1 + n;
	}
	err = model_load(&(struct model_src){ .root = root }, NULL, MODEL_GIDS | MODEL_COUNTERS, &m);
	CHECK(err == 0);
	for (size_t d = 0; d < m.n; d++) {
		for (size_t p = 0; p < m.devs[d].nports; p++) {
			struct port *pt = &m.devs[d].ports[p];
			char addr[64];

			CHECK(strnlen(pt->rate, sizeof(pt->rate)) < sizeof(pt->rate));
			CHECK(strnlen(pt->width, sizeof(pt->width)) < sizeof(pt->width));
			for (size_t g = 0; g < pt->ngids; g++) {
				gid_addr(pt->gids[g].raw, addr, sizeof(addr));
				CHECK(strnlen(pt->gids[g].type, sizeof(pt->gids[g].type)) <
				       sizeof(pt->gids[g].type));
			}
			(void)port_ipv4_gid_index(pt, m.devs[d].netdev);
		}
	}
	model_free(&m);
	return 0;
}
