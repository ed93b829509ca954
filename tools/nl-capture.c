// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records the RDMA netlink answers rdmactl reads its model and the live QPs
 * from (every request and its answer, raw) into FILE, for a fixture's netlink/rdma. tools/capture-sysfs
 * runs it beside the sysfs copy, so the two are captured together.
 *
 * Usage: nl-capture FILE
 */
#include <stdio.h>
#include <string.h>

#include "kernel/nl.h"
#include "model/model.h"
#include "model/qp.h"

int main(int argc, char **argv)
{
	struct model_src src = { .root = "" };
	struct model_qps q = { 0 };
	struct model m;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: nl-capture FILE\n");
		return 2;
	}
	err = nl_open(&src.nl, NETLINK_RDMA);
	if (!err)
		err = nl_record(src.nl, argv[1]);
	if (!err)
		err = model_load(&src, NULL, (struct model_ask){ .source = MODEL_NETLINK }, &m);
	if (!err) {
		err = model_load_qps(&src, NULL, &q);
		if (err)
			model_free(&m);
	}
	if (err) {
		fprintf(stderr, "nl-capture: %s: %s\n", argv[1], strerror(-err));
		nl_close(src.nl);
		remove(argv[1]);
		return 1;
	}
	printf("nl-capture: %zu devices and %zu QPs in %s\n", m.n, q.n, argv[1]);
	model_qps_free(&q);
	model_free(&m);
	nl_close(src.nl);
	return 0;
}
