// SPDX-License-Identifier: GPL-2.0-or-later
/* The selftest's branch of the command tree: its verbs, their options and mode defaults. */
#include <stddef.h>

#include "cli/grammar.h"
#include "cmd/cmd.h"
#include "lazy/lazy.h"
#include "rdmactl/table.h"
#include "selftest/selftest.h"

/* The selftest's defaults that depend on its mode: each protocol's own. */
static const struct cli_default timeout_defaults[] = { { "pingpong", 30 }, { NULL, 5 } };
static const struct cli_default port_defaults[] = {
	{ "pingpong", 18515 },	/* ibv_rc_pingpong's */
	{ "cm", 7174 },		/* rping's */
	{ NULL, 18516 },
};
static const struct cli_default depth_defaults[] = { { NULL, 128 } };

static const char *const st_formats[] = { "text", "junit", NULL };

/* The selftest's options, shared by its verbs. */
static const struct cli_opt st_opts[] = {
	{ "gid-index", 0, CLI_UINT, "N", .max = 0xffff,
	  .help = "use GID N (default: the RoCE v2 GID of an IPv4 address)" },
	{ "timeout", 0, CLI_UINT, "S", .min = 1, .max = 3600, .help = "bound every wait",
	  .defaults = timeout_defaults, .unit = "s" },
	{ "size", 0, CLI_UINT, "BYTES", .min = 1, .max = 64 << 20,
	  .help = "bytes per operation (default 12411; see --bench, --cm, --pingpong)" },
	{ "iters", 0, CLI_UINT, "N", .min = 1, .max = 100000000,
	  .help = "iterations of --bench (1000 for latency, 5000 for bandwidth), pings of "
		  "--cm between two hosts (100), exchanges of --pingpong (1000)" },
	{ "cm", 0, CLI_FLAG, .help = "connect through librdmacm (address and route "
	  "resolution); between two hosts it speaks rping's protocol (port 7174, 64-byte "
	  "messages)" },
	{ "format", 0, CLI_CHOICE, "FORMAT", .choices = st_formats,
	  .help = "junit: the report as JUnit XML, a test case a stage or row, for a CI job's "
		  "test results (loopback and client; default text; -j: JSON)" },
	{ NULL },
};

static const char *const bench_words[] = { "all", "lat", "bw", NULL };

static const struct cli_opt st_bench_opts[] = {
	{ "bench", 0, CLI_CHOICE, "WHAT", .optional = true, .choices = bench_words,
	  .help = "measure instead: SEND and RDMA WRITE latency (min, typical, 99%) and RDMA "
		  "WRITE bandwidth; WHAT is all (the default), lat or bw; --size defaults to 2 "
		  "for latency, 65536 for bandwidth" },
	{ "depth", 0, CLI_UINT, "N", .min = 1, .max = 4096,
	  .help = "--bench: writes in flight", .defaults = depth_defaults },
	{ NULL },
};

static const struct cli_opt st_xport_opts[] = {
	{ "transport", 0, CLI_STR, "LIST", .help = "loopback: prove these instead, each "
	  "operation a row of a capability matrix beside what the device claims: rc, uc, ud, "
	  "srq, xrc, mw (memory windows), comma-separated, or all; with --pingpong: one of rc, "
	  "uc, ud, srq, as ibv_TRANSPORT_pingpong", .choices = xp_transport_words,
	  .complete = CLI_C_WORDS, .list = true },
	{ "events", 0, CLI_FLAG, .help = "take completions through a completion channel "
	  "(ibv_req_notify_cq, ibv_get_cq_event) instead of polling, as the examples' -e; "
	  "alone in loopback, with the rc transport" },
	{ NULL },
};

static const struct cli_opt st_two_opts[] = {
	{ "port", 0, CLI_UINT, "P", .min = 1, .max = 65535,
	  .help = "TCP port of the exchange: rping's with --cm, ibv_rc_pingpong's with "
		  "--pingpong", .defaults = port_defaults },
	{ "pingpong", 0, CLI_FLAG, .help = "speak the exchange and traffic of rdma-core's "
	  "ibv_rc_pingpong (or, with --transport, ibv_uc_, ibv_ud_ or ibv_srq_pingpong), with "
	  "a stock one on the other side (--size default 4096, 2048 for ud)" },
	{ NULL },
};

static const struct cli_opt st_server_opts[] = {
	{ "bind", 0, CLI_STR, "ADDR", .help = "listen on this address only" },
	{ "once", 0, CLI_FLAG, .help = "serve one client, then exit" },
	{ NULL },
};

const struct cli_cmd rdmactl_selftest_verbs[] = {
	{ "loopback", .fn = cmd_selftest_loopback, .opts = { st_opts, st_bench_opts, st_xport_opts },
	  .args = "[DEV]", .max_args = 1, .live_only = true, .libs = LAZY_VERBS,
	  .summary = "Prove DEV (every rxe device without DEV) in loopback: two RC QPs do SEND "
		     "with immediate data, RDMA WRITE, RDMA READ, compare-and-swap and "
		     "fetch-and-add, and every byte is checked.",
	  .help = "Buffers are larger than one MTU and not page-aligned. Each stage is reported "
		  "with its time; a failure names the stage, the verbs call or work completion "
		  "status, and a hint. --transport runs each operation of each transport "
		  "named as a row of a matrix: what the device claims, and pass, fail or not "
		  "supported with its answer." },
	{ "server", .fn = cmd_selftest_server, .opts = { st_opts, st_two_opts, st_server_opts, st_xport_opts },
	  .args = "[DEV]", .max_args = 1, .live_only = true, .libs = LAZY_VERBS,
	  .summary = "Serve selftest clients on DEV, one at a time, each with its own buffer, "
		     "until interrupted.",
	  .help = "DEV is needed but with --cm, where the address a client comes to picks the "
		  "device." },
	{ "client", .fn = cmd_selftest_client, .opts = { st_opts, st_two_opts, st_bench_opts, st_xport_opts },
	  .args = "HOST [DEV]", .min_args = 1, .max_args = 2, .live_only = true, .libs = LAZY_VERBS,
	  .summary = "Run every stage from DEV against HOST's selftest server (or, with "
		     "--pingpong, an ibv_rc_pingpong)." },
	{ NULL },
};
