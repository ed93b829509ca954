/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The context every command handler gets, the handlers, and what they share. */
#ifndef RDMACTL_CMD_H
#define RDMACTL_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"
#include "model/sys.h"

struct cli_args;
struct cli_cmd;
struct nl;
struct out;
struct op_err;
struct link_add_req;
struct view_env;


enum rdmactl_exit {
	RDMACTL_EXIT_OK = 0,
	RDMACTL_EXIT_FAIL = 1,
	RDMACTL_EXIT_USAGE = 2,
};

struct cmd_ctx {
	struct out *out;
	bool json;
	bool pretty;
	/*
	 * The system read (its root: "" for the running one, else a fixture)
	 * and its RDMA netlink, opened on first use by cmd_netlink(): help and
	 * sysfs-only work never touch it.
	 */
	struct model_sys sys;
	/* The persistent-links file. */
	const char *config;
	/* The command tree, for help. */
	const struct cli_cmd *root;
	/* The exit status a command passes through (record: its command's); -1: its own. */
	int pass_status;
	/* Standard output holds a report (JSON, JUnit): what steps print goes to stderr. */
	bool report_on_stdout;
};

/* The command tree (table.c). */
extern const struct cli_cmd rdmactl_commands[];

/* The RDMA netlink (live, or a fixture's capture), opened now if need be; a failure is said. */
int cmd_netlink(struct cmd_ctx *ctx, struct nl **nlp);
/* Where the model comes from for this run: the fixture, or the running system. */
struct model_src cmd_model_src(const struct cmd_ctx *ctx);
/* Every RDMA device and port as the netlink has them; a failure is said. */
int cmd_devices(struct cmd_ctx *ctx, struct model *m);
/*
 * Device ONLY alone the same way (NULL: every one), with the facts ASK names
 * (its source is the netlink's); -ENODEV, unsaid, when there is no such device.
 */
int cmd_device(struct cmd_ctx *ctx, const char *only, struct model_ask ask, struct model *m);
/* Says E ("rdmactl: WHAT (ENAME: text; kernel: EXT)") and returns its errno. */
int cmd_fail(const struct op_err *e);
/* A name for the persistent-links file: refused (said, -EUSAGE) when it cannot hold it. */
int cmd_valid_field(const struct cli_args *a, const char *what, const char *name);
/*
 * Whether --format junit was asked (1, else 0), or a usage error: JUnit is
 * XML, not beside -j's JSON.
 */
int cmd_junit_asked(const struct cmd_ctx *ctx, const struct cli_args *a);
/* A JUnit report's write that failed with ERR said (a reader gone is not said); ERR. */
int cmd_junit_written(const char *cmd, int err);
/* A name a user typed: refused (said, -EUSAGE) when the kernel would refuse it. */
int cmd_valid_name(const struct cli_args *a, const char *what, const char *name, bool rdma);


int cmd_help(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_version(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_add(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_del(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_link_show(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_status(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_start(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_stop(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_persist_list(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_persist_add(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_persist_del(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_persist_wants(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_show(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_gids(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_netdevs(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_qp(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_capture(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_stat(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_monitor(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_record(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_report(struct cmd_ctx *ctx, const struct cli_args *a);
/* The report of record's file PATH into O (cmd/report.c): 0, or its reading's errno, said. */
int cmd_report_file(const char *path, struct out *o);
int cmd_explain(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_check(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_selftest_loopback(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_selftest_server(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_selftest_client(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_up(struct cmd_ctx *ctx, const struct cli_args *a);
/*
 * up's netdev: GIVEN (NULL: the default route's), checked to be an
 * Ethernet device there, into NETDEV before anything is loaded: 0, or said.
 */
int cmd_up_netdev(const struct cli_args *a, const char *given, char netdev[IF_NAMESIZE + 1]);
/*
 * up's steps on R->netdev: start, add --exist-ok, check, selftest, each
 * said as it runs, the device into R->made: 0, or the first failure's
 * errno, its step in *FAILED.
 */
int cmd_up_steps(struct cmd_ctx *ctx, struct link_add_req *r, const char **failed);
int cmd_ci_setup(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_system_show(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_system_set(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_link_move(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_env(struct cmd_ctx *ctx, const struct cli_args *a);
/*
 * env's link in M: DEV's, or the one rxe device with an ACTIVE port and a
 * RoCE v2 GID of the family, into L: 0, or E says why (-EUSAGE: several
 * could serve, name one).
 */
int cmd_env_pick(const struct model *m, const char *root, const char *dev, bool ipv6,
		 struct view_env *l, struct op_err *e);
int cmd_lab_add(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_lab_show(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_lab_test(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_lab_del(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_module_status(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_module_install(struct cmd_ctx *ctx, const struct cli_args *a);
int cmd_module_remove(struct cmd_ctx *ctx, const struct cli_args *a);

#endif
