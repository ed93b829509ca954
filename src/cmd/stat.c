// SPDX-License-Identifier: GPL-2.0-or-later
/* stat [DEV]: the port counters, named and explained; their change over an interval. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/clock.h"
#include "kernel/sysfs.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "views/stat.h"

/* One sample of DEV's (NULL: every device's) counters. */
static int sample(struct cmd_ctx *ctx, const char *dev, struct model *m)
{
	struct op_err e;
	int err;

	err = model_sys_load(&ctx->sys, dev, (struct model_ask){ .ports = MODEL_PORTS_STATES,
								 .counters = true }, -1, m);
	if (err)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, dev), &e));
	return 0;
}

int cmd_stat(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL;
	const char *format = cli_str(a, "format");
	bool prometheus = format && !strcmp(format, "prometheus");
	unsigned int interval = (unsigned int)cli_num(a, "interval", 0);
	unsigned long count = cli_num(a, "count", 1);
	struct model prev, m;
	struct op_err e;
	int err;

	if (dev && (err = cmd_valid_name(a, "device name", dev, true)))
		return err;
	if (cli_str(a, "count") && !interval)
		return cli_usage(a, "--count is for --interval: how many changes to print");
	if (prometheus && (interval || ctx->json))
		return cli_usage(a, "--format prometheus is one sample in Prometheus's text format: "
				 "not with --interval or -j");
	if (!sysfs_exists(ctx->sys.root, "/sys/class/infiniband"))
		return cmd_fail((op_err_no_class(&e, ctx->sys.root), &e));
	err = sample(ctx, dev, &m);
	if (err)
		return err;
	if (prometheus) {
		view_stat_prometheus(stdout, &m);
		model_free(&m);
		return 0;
	}
	if (!interval) {
		view_stat(ctx->out, &m, NULL, 0);
		model_free(&m);
		return 0;
	}
	/* Each change its own document (JSON lines with -j), printed as it comes. */
	for (unsigned long i = 0; i < count; i++) {
		struct out *o;

		prev = m;
		mono_sleep_ms((uint64_t)interval * 1000);
		err = sample(ctx, dev, &m);
		if (err) {
			model_free(&prev);
			return err;
		}
		o = out_new(stdout, ctx->json, ctx->pretty);
		if (o) {
			view_stat(o, &m, &prev, interval);
			err = out_finish(o);
		}
		model_free(&prev);
		if (!o || err) {
			model_free(&m);
			return o ? err : -ENOMEM;
		}
	}
	model_free(&m);
	return 0;
}
