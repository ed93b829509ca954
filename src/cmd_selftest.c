// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl selftest: prove an rxe link end to end, and say where it breaks. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "model.h"
#include "names.h"
#include "out.h"
#include "rdmactl.h"
#include "selftest.h"

/* Larger than the largest RoCE MTU, and an odd length. */
#define DEFAULT_SIZE (3 * 4096 + 123)

static int parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max,
		      unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || *v < min || *v > max) {
		fprintf(stderr, "rdmactl: selftest: %s takes a number from %lu to %lu, not '%s'\n",
			opt, min, max, s);
		return -EUSAGE;
	}
	return 0;
}

static void print_report(struct out *o, const struct st_report *r)
{
	out_obj_open(o, NULL);
	out_str(o, "ifname", "%s:", r->dev);
	if (r->gid_index >= 0) {
		out_s64(o, "gid_index", " GID %" PRId64, r->gid_index);
		out_str(o, "gid", " %s", r->gid);
		out_s64(o, "mtu", ", MTU %" PRId64, r->mtu);
	}
	out_nl(o);
	out_arr_open(o, "stages");
	for (int i = 0; i < ST_NSTAGES; i++) {
		const struct st_stage_result *x = &r->st[i];
		static const char *const res[] = { "pass", "FAIL", "skip" };

		out_obj_open(o, NULL);
		out_str(o, "stage", "  %-10s", st_stage_name((enum st_stage)i));
		out_text(o, " %-4s", res[x->result]);
		out_str(o, "result", NULL, x->result == ST_PASS ? "pass" :
			x->result == ST_FAIL ? "fail" : "skip");
		if (x->result != ST_SKIPPED)
			out_u64(o, "usec", " %9" PRIu64 " us", x->usec);
		if (x->result == ST_PASS && x->bytes)
			out_u64(o, "bytes", "  %" PRIu64 " bytes verified", x->bytes);
		if (x->result != ST_PASS)
			out_str(o, "detail", "  %s", x->detail);
		out_nl(o);
		if (x->result == ST_FAIL && *x->hint)
			out_str(o, "hint", "             hint: %s\n", x->hint);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_bool(o, "passed", NULL, r->passed);
	out_text(o, "%s: selftest %s\n", r->dev, r->passed ? "passed" : "FAILED");
	out_obj_close(o);
}

int cmd_selftest(struct rc_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gid-index", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct st_opts o = { .gid_index = -1, .timeout_ms = 5000, .size = DEFAULT_SIZE };
	const char *devs[64];
	struct model m = { 0 };
	unsigned long v;
	size_t n = 0;
	int opt, err, failed = 0;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if ((err = parse_uint("--gid-index", optarg, 0, 0xffff, &v)))
				return err;
			o.gid_index = (int)v;
			break;
		case 't':
			if ((err = parse_uint("--timeout", optarg, 1, 3600, &v)))
				return err;
			o.timeout_ms = (unsigned int)v * 1000;
			break;
		case 's':
			if ((err = parse_uint("--size", optarg, 1, 64 << 20, &v)))
				return err;
			o.size = (unsigned int)v;
			break;
		default:
			return -EUSAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "rdmactl: selftest: at most one device; try 'rdmactl help selftest'\n");
		return -EUSAGE;
	}
	if (optind < argc) {
		if (rdma_name_invalid(argv[optind])) {
			fprintf(stderr, "rdmactl: selftest: device name '%s': %s\n", argv[optind],
				rdma_name_invalid(argv[optind]));
			return -EUSAGE;
		}
		devs[n++] = argv[optind];
	} else {
		/* Every rxe device. */
		err = model_load(ctx->sysfs_root, NULL, 0, &m);
		if (err) {
			pr_kerr(err, NULL, "cannot list the RDMA devices");
			return err;
		}
		for (size_t i = 0; i < m.n && n < 64; i++)
			if (!strcmp(m.devs[i].driver, "rxe"))
				devs[n++] = m.devs[i].name;
		if (n == 0) {
			fprintf(stderr, "rdmactl: selftest: there is no rxe device to test "
				"('rdmactl add rxe0 NETDEV' makes one) (ENODEV)\n");
			model_free(&m);
			return -ENODEV;
		}
	}
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < n; i++) {
		struct st_report r;

		o.dev = devs[i];
		if (st_loopback(&o, &r))
			failed++;
		print_report(ctx->out, &r);
	}
	out_arr_close(ctx->out);
	model_free(&m);
	return failed ? -EIO : 0;
}
