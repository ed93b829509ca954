// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl selftest: prove an rxe link end to end, and say where it breaks. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "ops/explain.h"
#include "model/model.h"
#include "model/names.h"
#include "cli/out.h"
#include "cli/rdmactl.h"
#include "selftest/selftest.h"
#include "selftest/pingpong.h"
#include "selftest/sidechan.h"

/* Larger than the largest RoCE MTU, and an odd length. */
#define DEFAULT_SIZE (3 * 4096 + 123)

static void print_stats(struct out *o, enum st_stage st, const struct st_stats *t)
{
	out_obj_open(o, "stats");
	out_u64(o, "iters", "  %" PRIu64, t->iters);
	out_u64(o, "size", " x %" PRIu64 " bytes:", t->size);
	if (st == ST_BW_WRITE) {
		out_dbl(o, "mib_s", " %.2f MiB/s", t->mib_s);
		out_dbl(o, "gb_s", " = %.2f Gb/s", t->gb_s);
	} else {
		out_dbl(o, "t_min_us", " t_min %.2f", t->t_min);
		out_dbl(o, "t_typical_us", " t_typical %.2f", t->t_typical);
		out_dbl(o, "t_p99_us", " 99%% %.2f", t->t_p99);
		out_dbl(o, "t_avg_us", " t_avg %.2f", t->t_avg);
		out_dbl(o, "t_max_us", " t_max %.2f usec", t->t_max);
	}
	out_obj_close(o);
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
	if (*r->peer) {
		out_str(o, "peer", "  peer %s", r->peer);
		out_str(o, "remote_gid", *r->remote_gid ? ", GID %s" : NULL,
			*r->remote_gid ? r->remote_gid : NULL);
		out_nl(o);
	}
	out_arr_open(o, "stages");
	for (int i = 0; i < ST_NSTAGES; i++) {
		const struct st_stage_result *x = &r->st[i];
		static const char *const res[] = { "pass", "FAIL", "skip" };

		if (!x->ran)
			continue;
		out_obj_open(o, NULL);
		out_str(o, "stage", "  %-10s", st_stage_name((enum st_stage)i));
		out_text(o, " %-4s", res[x->result]);
		out_str(o, "result", NULL, x->result == ST_PASS ? "pass" :
			x->result == ST_FAIL ? "fail" : "skip");
		if (x->result != ST_SKIPPED)
			out_u64(o, "usec", " %9" PRIu64 " us", x->usec);
		if (x->result == ST_PASS && x->stats.iters)
			print_stats(o, (enum st_stage)i, &x->stats);
		else if (x->result == ST_PASS && x->bytes)
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

struct serving {
	struct rc_ctx *ctx;
	bool listening;
	unsigned int served, failed;
};

/* The server's reports: where it listens (stderr), then each client's, as it ends. */
static void session(void *arg, const struct st_report *r)
{
	struct serving *sv = arg;
	struct out *o;

	if (!sv->listening) {
		sv->listening = true;
		if (r->gid_index >= 0)
			fprintf(stderr, "rdmactl: selftest server: %s GID %d %s, listening on %s\n",
				r->dev, r->gid_index, r->gid, r->peer);
		else	/* rdma_cm: the address each client comes to picks the device */
			fprintf(stderr, "rdmactl: selftest server: listening on %s\n", r->peer);
		return;
	}
	sv->served++;
	sv->failed += !r->passed;
	/* One document a client: JSON lines with -j. */
	o = out_new(stdout, out_is_json(sv->ctx->out), false);
	if (o) {
		print_report(o, r);
		out_finish(o);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	sc_stop = 1;
}

static int serve(struct rc_ctx *ctx, const struct st_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: waits end */
	struct serving sv = { .ctx = ctx };
	struct st_report r;
	int err;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	err = o->cm ? st_cm_server(o, &r, session, &sv) : st_server(o, &r, session, &sv);
	if (!sv.listening) {	/* it never started: say why as any report would */
		out_arr_open(ctx->out, NULL);
		print_report(ctx->out, &r);
		out_arr_close(ctx->out);
		return -EIO;
	}
	if (!o->once)
		fprintf(stderr, "rdmactl: selftest server: stopped after %u clients, %u failed\n",
			sv.served, sv.failed);
	return err ? -EIO : 0;
}

static int usage(const char *what)
{
	fprintf(stderr, "rdmactl: selftest: %s; try 'rdmactl help selftest'\n", what);
	return -EUSAGE;
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
		{ "bind", required_argument, NULL, 'b' },
		{ "once", no_argument, NULL, '1' },
		{ "bench", optional_argument, NULL, 'B' },
		{ "depth", required_argument, NULL, 'd' },
		{ "cm", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct pp_opts pp = { .gid_index = -1, .port = 18515, .size = 4096, .iters = 1000,
			      .rx_depth = 500, .mtu = 3 /* IBV_MTU_1024 */, .timeout_ms = 30000 };
	struct st_opts o = { .gid_index = -1, .timeout_ms = 5000, .size = DEFAULT_SIZE,
			     .lat_size = 2, .bw_size = 65536, .lat_iters = 1000, .bw_iters = 5000,
			     .depth = 128 };
	bool pingpong_mode = false, server = false, got_size = false, got_iters = false;
	bool got_port = false, got_depth = false;
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
			o.size = pp.size = o.lat_size = o.bw_size = (unsigned int)v;
			got_size = true;
			break;
		case 'P':
			pingpong_mode = true;
			break;
		case 'S':
			server = pp.server = true;
			break;
		case 'C':
			o.host = pp.host = optarg;
			break;
		case 'p':
			if ((err = cli_uint("selftest", "--port", optarg, 1, 65535, &v)))
				return err;
			o.port = pp.port = (unsigned int)v;
			got_port = true;
			break;
		case 'n':
			if ((err = cli_uint("selftest", "--iters", optarg, 1, 100000000, &v)))
				return err;
			pp.iters = o.lat_iters = o.bw_iters = (unsigned int)v;
			got_iters = true;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case '1':
			o.once = true;
			break;
		case 'B':
			if (!optarg || !strcmp(optarg, "all"))
				o.bench = ST_BENCH_LAT | ST_BENCH_BW;
			else if (!strcmp(optarg, "lat"))
				o.bench = ST_BENCH_LAT;
			else if (!strcmp(optarg, "bw"))
				o.bench = ST_BENCH_BW;
			else
				return usage("--bench=WHAT: lat, bw or all");
			break;
		case 'd':
			if ((err = cli_uint("selftest", "--depth", optarg, 1, 4096, &v)))
				return err;
			o.depth = (unsigned int)v;
			got_depth = true;
			break;
		case 'M':
			o.cm = true;
			break;
		default:
			return -EUSAGE;
		}
	}
	if (argc - optind > 1)
		return usage("at most one device");
	if (server && o.host)
		return usage("--server or --client HOST, not both");
	if ((o.bind || o.once) && !server)
		return usage("--bind and --once are for --server");
	if (got_port && !server && !o.host)
		return usage("--port is for --server or --client");
	if (got_depth && !o.bench)
		return usage("--depth is for --bench");
	if (pingpong_mode && (o.cm || o.bench || o.bind || o.once))
		return usage("--pingpong is ibv_rc_pingpong's exchange: not with --cm, --bench, "
			     "--bind or --once");
	if (o.cm && o.bench)
		return usage("--bench measures over the verbs exchange; --cm proves the rdma_cm path");
	if (got_iters && !o.bench && !o.cm && !pingpong_mode)
		return usage("--iters is for --bench, --cm between two hosts, or --pingpong");
	if (pingpong_mode && !server && !o.host)
		return usage("--pingpong needs --server or --client HOST");
	if ((pingpong_mode || ((server || o.host) && !o.cm)) && optind == argc)
		return usage("two hosts need the device: rdmactl selftest --server DEV, "
			     "rdmactl selftest --client HOST DEV");

	if (o.bench && got_size && o.size > (32u << 20))
		return usage("--bench --size: at most 32 MiB (latency uses twice the size)");
	if (o.cm && (server || o.host) && got_size && o.size < RPING_MIN_SIZE)
		return usage("--cm --size: rping's messages need at least 26 bytes");

	if (optind < argc) {
		if (rdma_name_invalid(argv[optind])) {
			fprintf(stderr, "rdmactl: selftest: device name '%s': %s\n", argv[optind],
				rdma_name_invalid(argv[optind]));
			return -EUSAGE;
		}
		devs[n++] = argv[optind];
		o.dev = pp.dev = argv[optind];
		if (pingpong_mode)
			return pingpong(ctx, &pp);
	}
	if (server || o.host) {
		struct st_report r;

		if (!got_port)
			o.port = o.cm ? 7174 : 18516;
		if (o.cm) {
			/* rping's defaults: 64-byte buffers; pings counted by --iters. */
			o.size = got_size ? o.size : 64;
			o.lat_iters = got_iters ? o.lat_iters : 100;
		}
		if (server)
			return serve(ctx, &o);
		err = o.cm ? st_cm_client(&o, &r) : st_client(&o, &r);
		out_arr_open(ctx->out, NULL);
		print_report(ctx->out, &r);
		out_arr_close(ctx->out);
		return err ? -EIO : 0;
	}
	if (optind == argc) {
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
		if (o.cm ? st_cm_loopback(&o, &r) : st_loopback(&o, &r))
			failed++;
		print_report(ctx->out, &r);
	}
	out_arr_close(ctx->out);
	model_free(&m);
	return failed ? -EIO : 0;
}
