// SPDX-License-Identifier: GPL-2.0-or-later
/* selftest loopback|server|client: prove rxe links end to end, and say where they break. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/runloop.h"
#include "views/selftest.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "selftest/selftest.h"
#include "selftest/sidechan.h"

/* The options every verb shares, with the defaults of the verbs exchange. */
static int st_options(const struct cli_args *a, const char *dev, struct st_opts *o)
{
	static const unsigned int bench[] = { ST_BENCH_LAT | ST_BENCH_BW, ST_BENCH_LAT,
					      ST_BENCH_BW };
	bool is_bench = cli_takes(a, "bench") && cli_str(a, "bench");
	unsigned long iters;

	st_opts_init(o, dev);
	if (cli_str(a, "gid-index"))
		o->common.gid_index = (int)cli_num(a, "gid-index", 0);
	o->common.timeout_ms = (unsigned int)cli_value(a, "timeout") * 1000;
	if (cli_str(a, "size"))
		o->common.size = o->lat_size = o->bw_size = (unsigned int)cli_num(a, "size", 0);
	iters = cli_num(a, "iters", 0);
	if (iters)
		o->lat_iters = o->bw_iters = (unsigned int)iters;
	o->cm = cli_flag(a, "cm");
	if (is_bench) {
		o->bench = bench[cli_num(a, "bench", 0)];
		o->depth = (unsigned int)cli_value(a, "depth");
		if (o->cm)
			return cli_usage(a, "--bench measures over the verbs exchange; --cm proves "
					 "the rdma_cm path");
		if (cli_str(a, "size") && o->common.size > (32u << 20))
			return cli_usage(a, "--bench --size: at most 32 MiB (latency uses twice "
					 "the size)");
	} else if (cli_takes(a, "depth") && cli_str(a, "depth")) {
		return cli_usage(a, "--depth is for --bench");
	}
	if (o->common.dev && cmd_valid_name(a, "device name", o->common.dev, true))
		return -EUSAGE;
	return 0;
}

/* --transport and --events: the matrix instead of the RC stages. */
static int xport_options(const struct cli_args *a, struct st_opts *o)
{
	const char *list = cli_str(a, "transport");
	char bad[128];

	o->common.events = cli_flag(a, "events");
	if (!list && !o->common.events)
		return 0;
	if (o->bench || o->cm)
		return cli_usage(a, "--transport and --events prove the transports: not with "
				 "--bench or --cm");
	if (!list)
		list = "rc";
	if (xp_parse(list, &o->transports, bad, sizeof(bad)))
		return cli_usage(a, "--transport: '%s' is not a transport (rc, uc, ud, srq, xrc, "
				 "mw, or all)", bad);
	return 0;
}

/* N reports R as OPTS ran them: JUnit XML when JUNIT, else a list of them. */
static int report(struct cmd_ctx *ctx, bool junit, const struct st_opts *o,
		  const struct st_report *const *r, size_t n)
{
	if (!junit) {
		view_selftest_begin(ctx->out);
		for (size_t i = 0; i < n; i++)
			view_selftest(ctx->out, o, r[i]);
		view_selftest_end(ctx->out);
		return 0;
	}
	return cmd_junit_written("selftest", view_selftest_junit(stdout, o, r, n));
}

int cmd_selftest_loopback(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *devs[64];
	const struct st_report *rs[64];
	struct model m = { 0 };
	struct st_report *r;
	struct st_opts o;
	struct op_err e;
	size_t n = 0;
	int err, failed = 0, junit = cmd_junit_asked(ctx, a);

	if (junit < 0)
		return junit;
	err = st_options(a, a->argc ? a->argv[0] : NULL, &o);
	if (err)
		return err;
	if (cli_str(a, "iters") && !o.bench)
		return cli_usage(a, "--iters is for --bench, --cm between two hosts, or "
				 "--pingpong");
	err = xport_options(a, &o);
	if (err)
		return err;
	if (o.common.dev) {
		devs[n++] = o.common.dev;
	} else {
		/* Every rxe device. */
		err = model_sys_load(&ctx->sys, NULL, (struct model_ask){ .ports = MODEL_PORTS_NONE },
				     -1, &m);
		if (err)
			return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, NULL), &e));
		for (size_t i = 0; i < m.n && n < 64; i++)
			if (!strcmp(m.devs[i].driver, "rxe"))
				devs[n++] = m.devs[i].name;
		if (n == 0) {
			model_free(&m);
			return cmd_fail((op_err_no_devices(&e, ctx->sys.root, "there is no rxe "
						    "device to test ('rdmactl add rxe0 NETDEV' makes one)"), &e));
		}
	}
	/* JUnit is one document: every device's report kept for it; text says each as it ends. */
	r = calloc(junit ? n : 1, sizeof(*r));
	if (!r) {
		model_free(&m);
		return cmd_fail((op_err_set(&e, -ENOMEM, NULL, "out of memory"), &e));
	}
	if (!junit)
		view_selftest_begin(ctx->out);
	for (size_t i = 0; i < n; i++) {
		struct st_report *ri = &r[junit ? i : 0];

		o.common.dev = devs[i];
		if (o.transports ? xp_loopback(&o, ri) : o.cm ? st_cm_loopback(&o, ri) :
		    st_loopback(&o, ri))
			failed++;
		if (!junit)
			view_selftest(ctx->out, &o, ri);
		rs[i] = ri;
	}
	if (!junit)
		view_selftest_end(ctx->out);
	else if (report(ctx, true, &o, rs, n))
		failed++;
	free(r);
	model_free(&m);
	return failed ? -EIO : 0;
}

/* The GID index of DEV's first RoCE v2 IPv4 GID, from sysfs; -1 when none. */
static int ipv4_gid(struct cmd_ctx *ctx, const char *dev)
{
	struct model m;
	int64_t idx = -1;

	if (model_sys_load(&ctx->sys, dev, (struct model_ask){ .gids = MODEL_GIDS_USED }, -1, &m))
		return -1;
	if (m.n && m.devs[0].nports)
		idx = model_port_ipv4_gid_index(&m.devs[0].ports[0], NULL);
	model_free(&m);
	return (int)idx;
}

/* --pingpong: an rdma-core example's exchange and traffic, against a stock one. */
static int pingpong(struct cmd_ctx *ctx, const struct cli_args *a, const struct st_opts *so,
		    bool server, bool junit)
{
	static const char *const kinds[] = { "rc", "uc", "ud", "srq", NULL };
	const char *t = cli_str(a, "transport");
	struct st_opts o = {
		.common = { .dev = so->common.dev, .gid_index = so->common.gid_index,
			    .host = server ? NULL : a->argv[0],
			    .port = (unsigned int)cli_value(a, "port"),
			    .events = cli_flag(a, "events"),
			    .timeout_ms = (unsigned int)cli_value(a, "timeout") * 1000 },
		.pp = { .server = server, .iters = (unsigned int)cli_num(a, "iters", 1000),
			.rx_depth = 500, .mtu = 3 /* IBV_MTU_1024 */, .num_qp = 1 },
	};
	struct st_report *r;
	int err;

	if (so->cm || so->bench || (server && (cli_flag(a, "once") || cli_str(a, "bind"))))
		return cli_usage(a, "--pingpong is the rdma-core examples' exchange: not with --cm, "
				 "--bench, --bind or --once");
	while (t && kinds[o.pp.kind] && strcmp(kinds[o.pp.kind], t))
		o.pp.kind++;
	if (t && !kinds[o.pp.kind])
		return cli_usage(a, "--pingpong --transport: one of rc, uc, ud or srq (the "
				 "examples ibv_rc_, ibv_uc_, ibv_ud_ and ibv_srq_pingpong), not '%s'",
				 t);
	if (o.pp.kind == PP_SRQ)
		o.pp.num_qp = 16;	/* ibv_srq_pingpong's -q default */
	o.common.size = (unsigned int)cli_num(a, "size", o.pp.kind == PP_UD ? 2048 : 4096);
	if (o.common.gid_index < 0)
		o.common.gid_index = ipv4_gid(ctx, o.common.dev);
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = st_pingpong(&o, r);
	if (!junit)
		view_selftest(ctx->out, &o, r);
	else if (report(ctx, true, &o, (const struct st_report *const *)&r, 1))
		err = -1;
	free(r);
	return err ? -EIO : 0;
}

/* Two hosts: the port and sizes each protocol uses by default; the device it needs. */
static int two_hosts(const struct cli_args *a, struct st_opts *o)
{
	if (!o->common.dev && (!o->cm || cli_flag(a, "pingpong")))
		return cli_usage(a, "two hosts need the device: rdmactl selftest server DEV, "
				 "rdmactl selftest client HOST DEV");
	o->common.port = (unsigned int)cli_value(a, "port");
	if (o->cm) {
		/* rping's defaults: 64-byte buffers; pings counted by --iters. */
		o->common.size = (unsigned int)cli_num(a, "size", 64);
		o->lat_iters = (unsigned int)cli_num(a, "iters", 100);
		if (o->common.size < RPING_MIN_SIZE)
			return cli_usage(a, "--cm --size: rping's messages need at least %d bytes",
					 RPING_MIN_SIZE);
	} else if (cli_str(a, "iters") && !o->bench && !cli_flag(a, "pingpong")) {
		return cli_usage(a, "--iters is for --bench, --cm between two hosts, or "
				 "--pingpong");
	}
	return 0;
}

struct serving {
	struct cmd_ctx *ctx;
	const struct st_opts *o;
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
		if (r->head.gid_index >= 0)
			pr_err("selftest server: %s GID %d %s, listening on %s", r->head.dev,
			       r->head.gid_index, r->head.gid, r->head.peer);
		else	/* rdma_cm: the address each client comes to picks the device */
			pr_err("selftest server: listening on %s", r->head.peer);
		return;
	}
	sv->served++;
	sv->failed += !r->passed;
	/* One document a client: JSON lines with -j. */
	o = out_new(stdout, out_is_json(sv->ctx->out), false);
	if (o) {
		view_selftest(o, sv->o, r);
		out_finish(o);
	}
}

int cmd_selftest_server(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct st_report *r;
	struct runloop l;
	struct st_opts o;
	struct serving sv = { .ctx = ctx, .o = &o };
	int err;

	err = st_options(a, a->argc ? a->argv[0] : NULL, &o);
	if (!err)
		err = two_hosts(a, &o);
	if (err)
		return err;
	if (cli_str(a, "format") && !strcmp(cli_str(a, "format"), "junit"))
		return cli_usage(a, "a server says each client's report as it ends: --format "
				 "junit is for loopback and client");
	if (cli_flag(a, "pingpong"))
		return pingpong(ctx, a, &o, true, false);
	if (cli_str(a, "transport") || cli_flag(a, "events"))
		return cli_usage(a, "the server serves whatever transports its clients ask for: "
				 "--transport and --events are the client's (or go with "
				 "--pingpong)");
	o.bind = cli_str(a, "bind");
	if (o.bind && inet_pton(AF_INET, o.bind, &(struct in6_addr){ 0 }) != 1 &&
	    inet_pton(AF_INET6, o.bind, &(struct in6_addr){ 0 }) != 1)
		return cli_usage(a, "--bind takes an IPv4 or IPv6 address, not '%s'", o.bind);
	o.once = cli_flag(a, "once");
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	/* Not held: a signal ends the blocking waits of the sockets and verbs with EINTR. */
	runloop_begin(&l, false);
	err = o.cm ? st_cm_server(&o, r, session, &sv) : st_server(&o, r, session, &sv);
	runloop_end(&l);
	if (!sv.listening) {	/* it never started: say why as any report would */
		view_selftest_alone(ctx->out, &o, r);
		free(r);
		return -EIO;
	}
	free(r);
	if (!o.once)
		pr_err("selftest server: stopped after %u clients, %u failed", sv.served, sv.failed);
	return err ? -EIO : 0;
}

int cmd_selftest_client(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct st_report *r;
	struct st_opts o;
	int err, junit = cmd_junit_asked(ctx, a);

	if (junit < 0)
		return junit;
	err = st_options(a, a->argc > 1 ? a->argv[1] : NULL, &o);
	if (!err)
		err = two_hosts(a, &o);
	if (err)
		return err;
	o.common.host = a->argv[0];
	if (cli_flag(a, "pingpong"))
		return pingpong(ctx, a, &o, false, junit);
	err = xport_options(a, &o);
	if (err)
		return err;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = o.transports ? xp_client(&o, r) : o.cm ? st_cm_client(&o, r) : st_client(&o, r);
	if (report(ctx, junit, &o, (const struct st_report *const *)&r, 1))
		err = -1;
	free(r);
	return err ? -EIO : 0;
}
