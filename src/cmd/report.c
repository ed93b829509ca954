// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report FILE...: what each record says failed, read back from its file
 * (model/record.h), offline: plain, -j, or JUnit XML, and under GitHub
 * Actions each failure an annotation too; and the same report record
 * prints at its end.
 */
#include <errno.h>
#include <stdlib.h>

#include "cli/github.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "diag/record.h"
#include "kernel/safe.h"
#include "model/record.h"
#include "ops/op_err.h"
#include "views/record.h"

/* PATH read into R: 0, or its reading's errno, said. */
static int read_one(const char *path, struct model_record *r)
{
	struct op_err e;
	int err = model_record_read(path, r);

	if (err == -ENOTREG) {
		struct safe_path sp;

		safe_resolve(path, &sp);
		return cmd_fail((op_err_not_regular(&e, "read", path, &sp,
						     "name a file record wrote"), &e));
	}
	if (err == -EINVAL) {
		/* Not the kernel's or a call's errno: the file's own fault, said as such. */
		pr_err("%s holds no record: no line of it is one 'rdmactl record' writes; name a "
		       "file record wrote (-o FILE)", path);
		return err;
	}
	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "cannot read %s", path), &e));
	diag_record_flushes(r);
	return 0;
}

/* REC's report into O; under GitHub Actions, each failure the run's annotation too. */
static void report_one(const struct model_record *rec, struct out *o)
{
	view_record_report(o, rec);
	/* Annotations go to stdout, as the runner reads them. */
	if (!out_is_json(o) && github_actions())
		view_record_annotations(stdout, rec);
}

int cmd_report_file(const char *path, struct out *o)
{
	struct model_record rec;
	int err = read_one(path, &rec);

	if (err)
		return err;
	/* Both ends of a QP on this host are in the one record. */
	model_record_pair(&rec, 1);
	report_one(&rec, o);
	model_record_free(&rec);
	return 0;
}

int cmd_report(struct cmd_ctx *ctx, const struct cli_args *a)
{
	int junit = cmd_junit_asked(ctx, a), err = 0;
	struct model_record *recs;
	size_t n = 0;

	if (junit < 0)
		return junit;
	/*
	 * Every file read first: a QP's peer may be in any of them (the hosts
	 * of one job). A file that cannot be read is said, and the others
	 * reported all the same, but JUnit's one report is of all or none.
	 */
	recs = calloc((size_t)a->argc, sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	for (int i = 0; i < a->argc && (!err || !junit); i++) {
		int e = read_one(a->argv[i], &recs[n]);

		if (!e)
			n++;
		else if (!err)
			err = e;
	}
	model_record_pair(recs, n);
	if (!junit) {
		view_record_reports_begin(ctx->out);
		for (size_t i = 0; i < n; i++)
			report_one(&recs[i], ctx->out);
		view_record_reports_end(ctx->out);
	} else if (!err) {
		err = cmd_junit_written("report", view_record_junit(stdout, recs, n));
	}
	for (size_t i = 0; i < n; i++)
		model_record_free(&recs[i]);
	free(recs);
	return err;
}
