// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl selftest: prove an rxe link end to end, and say where it breaks. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain.h"
#include "model.h"
#include "names.h"
#include "out.h"
#include "rdmactl.h"
#include "selftest.h"
#include "selftest_pp.h"

/* Larger than the largest RoCE MTU, and an odd length. */
#define DEFAULT_SIZE (3 * 4096 + 123)

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

/* The GID index of DEV's first RoCE v2 IPv4 GID, from sysfs; -1 when none. */
static int ipv4_gid(struct rc_ctx *ctx, const char *dev)
{
	struct model m;
	int64_t idx = -1;

	if (model_load(ctx->sysfs_root, dev, MODEL_GIDS, &m))
		return -1;
	if (m.n && m.devs[0].nports)
		idx = port_ipv4_gid_index(&m.devs[0].ports[0], NULL);
	model_free(&m);
	return (int)idx;
}

static int pingpong(struct rc_ctx *ctx, struct pp_opts *o)
{
	struct pp_report r;
	struct out *out = ctx->out;
	int err;

	if (o->gid_index < 0)
		o->gid_index = ipv4_gid(ctx, o->dev);
	err = st_pingpong(o, &r);
	out_obj_open(out, NULL);
	out_str(out, "ifname", "%s:", o->dev);
	out_str(out, "role", " pingpong %s", o->server ? "server" : "client");
	if (!o->server)
		out_str(out, "peer", " of %s", o->host);
	out_u64(out, "port", " port %" PRIu64, o->port);
	out_s64(out, "gid_index", ", GID %" PRId64, o->gid_index);
	out_str(out, "local_gid", " %s", *r.local_gid ? r.local_gid : NULL);
	out_nl(out);
	if (r.passed) {
		out_str(out, "remote_gid", "  remote GID %s", r.remote_gid);
		out_u64(out, "remote_qpn", ", QPN 0x%06" PRIx64, r.remote_qpn);
		out_nl(out);
		out_u64(out, "bytes", "  %" PRIu64 " bytes", r.bytes);
		out_u64(out, "usec", " in %" PRIu64 " us", r.usec);
		out_u64(out, "iters", ", %" PRIu64 " iterations", r.iters);
		out_text(out, " = %.2f usec/iter, data checked\n",
			 r.iters ? (double)r.usec / r.iters : 0);
	} else {
		out_str(out, "error", "  FAIL  %s\n", r.error);
		out_str(out, "hint", *r.hint ? "  hint: %s\n" : NULL, *r.hint ? r.hint : NULL);
	}
	out_bool(out, "passed", NULL, r.passed);
	out_text(out, "%s: pingpong %s\n", o->dev, r.passed ? "passed" : "FAILED");
	out_obj_close(out);
	return err ? -EIO : 0;
}

int cmd_selftest(struct rc_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gid-index", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "pingpong", no_argument, NULL, 'P' },
		{ "server", no_argument, NULL, 'S' },
		{ "client", required_argument, NULL, 'C' },
		{ "port", required_argument, NULL, 'p' },
		{ "iters", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct pp_opts pp = { .gid_index = -1, .port = 18515, .size = 4096, .iters = 1000,
			      .rx_depth = 500, .mtu = 3 /* IBV_MTU_1024 */, .timeout_ms = 30000 };
	bool pingpong_mode = false;
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
			if ((err = cli_uint("selftest", "--gid-index", optarg, 0, 0xffff, &v)))
				return err;
			o.gid_index = pp.gid_index = (int)v;
			break;
		case 't':
			if ((err = cli_uint("selftest", "--timeout", optarg, 1, 3600, &v)))
				return err;
			o.timeout_ms = pp.timeout_ms = (unsigned int)v * 1000;
			break;
		case 's':
			if ((err = cli_uint("selftest", "--size", optarg, 1, 64 << 20, &v)))
				return err;
			o.size = pp.size = (unsigned int)v;
			break;
		case 'P':
			pingpong_mode = true;
			break;
		case 'S':
			pp.server = true;
			break;
		case 'C':
			pp.host = optarg;
			break;
		case 'p':
			if ((err = cli_uint("selftest", "--port", optarg, 1, 65535, &v)))
				return err;
			pp.port = (unsigned int)v;
			break;
		case 'n':
			if ((err = cli_uint("selftest", "--iters", optarg, 1, 100000000, &v)))
				return err;
			pp.iters = (unsigned int)v;
			break;
		default:
			return -EUSAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "rdmactl: selftest: at most one device; try 'rdmactl help selftest'\n");
		return -EUSAGE;
	}
	if ((pp.server || pp.host) && !pingpong_mode) {
		fprintf(stderr, "rdmactl: selftest: --server and --client work with --pingpong in "
			"this version; rdmactl's own two-host exchange is not built yet\n");
		return -EUSAGE;
	}
	if (pingpong_mode && !!pp.server + !!pp.host != 1) {
		fprintf(stderr, "rdmactl: selftest: --pingpong needs --server or --client HOST\n");
		return -EUSAGE;
	}
	if (pingpong_mode && optind == argc) {
		fprintf(stderr, "rdmactl: selftest: --pingpong needs the device: "
			"rdmactl selftest --pingpong ... DEV\n");
		return -EUSAGE;
	}

	if (optind < argc) {
		if (rdma_name_invalid(argv[optind])) {
			fprintf(stderr, "rdmactl: selftest: device name '%s': %s\n", argv[optind],
				rdma_name_invalid(argv[optind]));
			return -EUSAGE;
		}
		devs[n++] = argv[optind];
		if (pingpong_mode) {
			pp.dev = argv[optind];
			return pingpong(ctx, &pp);
		}
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
