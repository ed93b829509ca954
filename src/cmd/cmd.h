/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The context every command handler gets, the handlers, and what they share. */
#ifndef RDMACTL_CMD_H
#define RDMACTL_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cli_args;
struct cli_cmd;
struct nl;
struct out;
struct rc_err;


enum rc_exit {
	RC_EXIT_OK = 0,
	RC_EXIT_FAIL = 1,
	RC_EXIT_USAGE = 2,
};

struct rc_ctx {
	struct out *out;
	bool json;
	bool pretty;
	/* Prefix for every sysfs and proc path; "" for the running system. */
	const char *sysfs_root;
	/* The persistent-links file. */
	const char *config;
	/* The command tree, for help. */
	const struct cli_cmd *root;
	/*
	 * Opened on first use by rc_netlink(): help and sysfs-only work never
	 * touch it. With a fixture, the netlink answers captured with it.
	 */
	struct nl *nl;
};

/* The command tree (table.c). */
extern const struct cli_cmd rc_commands[];

/* The RDMA netlink (live, or a fixture's capture), opened now if need be; a failure is said. */
int rc_netlink(struct rc_ctx *ctx, struct nl **nlp);
struct model;
struct model_src;
/* Where the model comes from for this run: the fixture, or the running system. */
struct model_src rc_model_src(const struct rc_ctx *ctx);
/* Every RDMA device and port as the netlink has them (MODEL_NETLINK); a failure is said. */
int rc_devices(struct rc_ctx *ctx, struct model *m);
/*
 * Device ONLY alone the same way, with FLAGS (MODEL_NO_PORTS) added; -ENODEV,
 * unsaid, when there is no such device.
 */
int rc_device(struct rc_ctx *ctx, const char *only, unsigned int flags, struct model *m);
/* Says E ("rdmactl: WHAT (ENAME: text; kernel: EXT)") and returns its errno. */
int rc_fail(const struct rc_err *e);
/* A name a user typed: refused (said, -EUSAGE) when the kernel would refuse it. */
int rc_check_name(const struct cli_args *a, const char *what, const char *name, bool rdma);


int cmd_help(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_version(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_add(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_del(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_link_show(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_status(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_start(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_stop(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_persist_list(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_persist_add(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_persist_del(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_persist_wants(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_show(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_gids(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_netdevs(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_check(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_selftest_loopback(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_selftest_server(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_selftest_client(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_up(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_module_status(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_module_install(struct rc_ctx *ctx, const struct cli_args *a);
int cmd_module_remove(struct rc_ctx *ctx, const struct cli_args *a);

#endif
