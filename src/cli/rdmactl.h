/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The context every command handler gets, and the command table's row. */
#ifndef RDMACTL_H
#define RDMACTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct conf;
struct link_list;
struct nl;
struct out;

/* Not an errno: a handler returns -EUSAGE for a usage error (exit status 2). */
#define EUSAGE 4096

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
	/* Opened on first use by rc_netlink(): help and offline work never touch it. */
	struct nl *nl;
};

/*
 * What commands share (ctx.c); each explains its own failure to the user.
 * rc_netlink: the RDMA netlink socket, opened now if need be.
 * rc_links: every RDMA port (link.h), through that socket.
 * rc_conf_load: the persistent-links file.
 */
int rc_netlink(struct rc_ctx *ctx, struct nl **nlp);
int rc_links(struct rc_ctx *ctx, struct link_list *l);
int rc_conf_load(struct rc_ctx *ctx, struct conf *c);
/* The name of the rxe device on NETDEV into NAME; -ENODEV (said) when none. */
int rc_rxe_on(struct rc_ctx *ctx, const char *netdev, char *name, size_t len);

struct rc_cmd {
	const char *name;
	/* ARGV[0] is the command's name. Returns 0, or a negative errno / -EUSAGE. */
	int (*fn)(struct rc_ctx *ctx, int argc, char **argv);
	const char *synopsis;
	const char *help;
};

extern const struct rc_cmd rc_commands[];

void rc_print_usage(FILE *f);

int cmd_help(struct rc_ctx *ctx, int argc, char **argv);
int cmd_version(struct rc_ctx *ctx, int argc, char **argv);
int cmd_add(struct rc_ctx *ctx, int argc, char **argv);
int cmd_del(struct rc_ctx *ctx, int argc, char **argv);
struct rdma_link;
/* -EBUSY, each said, when a process holds one of TARGETS open; else 0. */
int rc_refuse_busy(struct rc_ctx *ctx, const struct rdma_link *const *targets, size_t n);
int cmd_link(struct rc_ctx *ctx, int argc, char **argv);
int cmd_status(struct rc_ctx *ctx, int argc, char **argv);
int cmd_start(struct rc_ctx *ctx, int argc, char **argv);
int cmd_stop(struct rc_ctx *ctx, int argc, char **argv);
int cmd_persist(struct rc_ctx *ctx, int argc, char **argv);
int cmd_show(struct rc_ctx *ctx, int argc, char **argv);
int cmd_gids(struct rc_ctx *ctx, int argc, char **argv);
int cmd_netdevs(struct rc_ctx *ctx, int argc, char **argv);
int cmd_check(struct rc_ctx *ctx, int argc, char **argv);
int cmd_selftest(struct rc_ctx *ctx, int argc, char **argv);
int cmd_up(struct rc_ctx *ctx, int argc, char **argv);

#endif
