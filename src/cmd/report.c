// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report FILE...: what each record says failed, read back from its file
 * (model/record.h), offline; and the same report record prints at its end.
 */
#include <errno.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/safe.h"
#include "model/record.h"
#include "ops/op_err.h"
#include "views/record.h"

int cmd_report_file(const char *path, struct out *o)
{
	struct model_record rec;
	struct op_err e;
	int err = model_record_read(path, &rec);

	if (err == -ENOTREG) {
		struct safe_path sp;

		safe_resolve(path, &sp);
		return cmd_fail((op_err_not_regular(&e, "read", path, &sp,
						     "name a file record wrote"), &e));
	}
	if (err == -EINVAL)
		return cmd_fail((op_err_set(&e, err, NULL, "%s holds no record: no line of it is "
					    "one 'rdmactl record' writes", path), &e));
	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "cannot read %s", path), &e));
	view_record_report(o, &rec);
	model_record_free(&rec);
	return 0;
}

int cmd_report(struct cmd_ctx *ctx, const struct cli_args *a)
{
	int err = 0;

	view_record_reports_begin(ctx->out);
	for (int i = 0; i < a->argc; i++) {
		int e = cmd_report_file(a->argv[i], ctx->out);

		if (e && !err)
			err = e;
	}
	view_record_reports_end(ctx->out);
	return err;
}
