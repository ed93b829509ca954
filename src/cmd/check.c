// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl check: run the checks, print verdicts and fixes, map them to an exit status. */
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "cli/grammar.h"
#include "model/names.h"
#include "cli/out.h"
#include "cli/rdmactl.h"

static const struct check_def *find(const char *id)
{
	for (size_t i = 0; i < check_ndefs; i++)
		if (!strcmp(check_defs[i].id, id))
			return &check_defs[i];
	return NULL;
}

/* Marks the checks of "ID,ID,..." in WANT; -EUSAGE for an unknown id. */
static int select_only(char *list, bool *want)
{
	char *save = NULL;

	for (char *id = strtok_r(list, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		const struct check_def *d = find(id);

		if (!d) {
			fprintf(stderr, "rdmactl: check: unknown check '%s'; 'rdmactl check --list' "
				"lists them\n", id);
			return -EUSAGE;
		}
		want[d - check_defs] = true;
	}
	return 0;
}

static void list(struct rc_ctx *ctx)
{
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < check_ndefs; i++) {
		out_obj_open(ctx->out, NULL);
		out_str(ctx->out, "id", "%-16s", check_defs[i].id);
		out_str(ctx->out, "summary", " %s\n", check_defs[i].summary);
		out_obj_close(ctx->out);
	}
	out_arr_close(ctx->out);
}

int cmd_check(struct rc_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "gid-index", required_argument, NULL, 'g' },
		{ "peer", required_argument, NULL, 'P' },
		{ "only", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "strict", no_argument, NULL, 's' },
		{ "module-file", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_ctx c = { .o = { .root = ctx->sysfs_root, .gid_index = -1 } };
	bool want[64] = { false }, only = false, strict = false;
	size_t count[4] = { 0 };
	int opt, err;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (rdma_name_invalid(optarg)) {
				fprintf(stderr, "rdmactl: check: --dev '%s': %s\n", optarg,
					rdma_name_invalid(optarg));
				return -EUSAGE;
			}
			c.o.dev = optarg;
			break;
		case 'g': {
			unsigned long v;

			if ((err = cli_uint("check", "--gid-index", optarg, 0, 0xffff, &v)))
				return err;
			c.o.gid_index = (int64_t)v;
			break;
		}
		case 'P': {
			unsigned char a[16];

			if (inet_pton(AF_INET, optarg, a) != 1 && inet_pton(AF_INET6, optarg, a) != 1) {
				fprintf(stderr, "rdmactl: check: --peer takes an IPv4 or IPv6 address, "
					"not '%s'\n", optarg);
				return -EUSAGE;
			}
			c.o.peer = optarg;
			break;
		}
		case 'o':
			err = select_only(optarg, want);
			if (err)
				return err;
			only = true;
			break;
		case 'l':
			list(ctx);
			return 0;
		case 's':
			strict = true;
			break;
		case 'm':
			c.o.module_file = optarg;
			break;
		default:
			return -EUSAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rdmactl: check: unexpected '%s'; try 'rdmactl help check'\n",
			argv[optind]);
		return -EUSAGE;
	}
	for (size_t i = 0; i < check_ndefs; i++) {
		if (only && !want[i])
			continue;
		c.cur = check_defs[i].id;
		check_defs[i].run(&c);
	}

	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < c.nr; i++) {
		const struct check_result *r = &c.r[i];
		struct out *o = ctx->out;
		char tag[8];

		snprintf(tag, sizeof(tag), "%s", verdict_name(r->v));
		for (char *t = tag; *t; t++)
			*t = (char)(*t - 'a' + 'A');
		count[r->v]++;
		out_obj_open(o, NULL);
		out_text(o, "%-5s ", tag);
		out_str(o, "id", "%-16s", r->id);
		out_str(o, "result", NULL, verdict_name(r->v));
		out_str(o, "message", " %s", r->msg);
		out_nl(o);
		out_str(o, "fix", r->fix ? "      fix: %s\n" : NULL, r->fix);
		out_obj_close(o);
	}
	out_arr_close(ctx->out);
	out_text(ctx->out, "check: %zu pass, %zu warn, %zu fail, %zu skip\n", count[V_PASS],
		 count[V_WARN], count[V_FAIL], count[V_SKIP]);
	check_ctx_free(&c);
	/* A failed check is the command's failure; what it found is already said. */
	if (count[V_FAIL] || (strict && count[V_WARN]))
		return -EAGAIN;
	return 0;
}
