// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmactl: parse, dispatch, and map errnos to exit statuses in one place. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/netns.h"
#include "kernel/nldebug.h"
#include "kernel/safe.h"
#include "kernel/sysfs.h"
#include "kernel/errname.h"
#include "lazy/lazy.h"
#include "model/conf.h"
#include "model/model.h"

/*
 * A library a command needs cannot be loaded (src/lazy): said here, and the
 * command abandoned back to main, so the exit status is main's and no half
 * document reaches stdout.
 */
static jmp_buf lazy_abandon;

static void lazy_failed(const struct lazy_lib *lib, const char *symbol, const char *why)
{
	if (!symbol)
		pr_err("this command needs %s, which cannot be loaded: %s\n"
		       "hint: apt-get install %s", lib->soname, why, lib->package);
	else
		pr_err("%s has no %s: %s\nhint: the installed %s is older than the one rdmactl "
		       "was built with: apt-get install %s", lib->soname, symbol, why, lib->package,
		       lib->package);
	longjmp(lazy_abandon, 1);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The fixture G names, looked at before anything reads it: a directory that
 * holds only what tools/capture-sysfs writes. A FIFO, socket or device in it
 * would stop a read (or feed it forever), so it is refused here by name.
 */
static bool fixture_bad(const struct cli_globals *g)
{
	const char *word = g->sysfs_root == getenv("RDMACTL_SYSFS_ROOT") ?
			   "RDMACTL_SYSFS_ROOT=" : "--sysfs-root ";
	char bad[PATH_MAX];
	mode_t type = 0;

	char sys[PATH_MAX];

	if (!is_dir(g->sysfs_root)) {
		pr_err("%s%s: no such directory; give a fixture captured with "
		       "tools/capture-sysfs", word, g->sysfs_root);
		return true;
	}
	/* A fixture has its sys/ (and proc/, netlink/): any other tree is none, said at once. */
	snprintf(sys, sizeof(sys), "%s/sys", g->sysfs_root);
	if (!is_dir(sys)) {
		pr_err("%s%s: no fixture: it has no sys/ directory; give one captured with "
		       "tools/capture-sysfs", word, g->sysfs_root);
		return true;
	}
	if (sysfs_tree_check(g->sysfs_root, bad, sizeof(bad), &type) == -ENOTREG) {
		pr_err("%s%s: %s is %s; a fixture holds only directories, regular files "
		       "and symlinks: capture it again with tools/capture-sysfs", word,
		       g->sysfs_root, bad, safe_type_name(type));
		return true;
	}
	return false;
}

/*
 * -n NETNS: into the namespace before anything opens a socket or reads sysfs.
 * What cannot be entered is said as what it is; nothing has been done yet.
 */
static int enter_netns(const char *spec, const char *sysfs_root)
{
	enum netns_step step;
	char path[4096];
	int err;

	if (sysfs_root) {
		pr_err("-n %s: a fixture (--sysfs-root or RDMACTL_SYSFS_ROOT) has no network "
		       "namespaces; leave one of them out", spec);
		return -EUSAGE;
	}
	err = netns_enter(spec, &step, path, sizeof(path));
	if (!err)
		return 0;
	if (step == NETNS_NAME)
		pr_err("-n '%s': give a network namespace's name ('ip netns list' lists them) or "
		       "the PID of a process in it", spec);
	else if (step == NETNS_OPEN && err == -ENOENT)
		pr_err("-n %s: %s (%s does not exist)", spec,
		       !strncmp(path, "/proc/", 6) ? "no process has that PID" :
		       "no network namespace has that name ('ip netns list' lists them)", path);
	else if (err == -EPERM || err == -EACCES)
		pr_err("-n %s: not allowed: entering a network namespace takes CAP_SYS_ADMIN over it "
		       "(run as root, on the host rather than in a container) (%s: %s)", spec, errname(err),
		       strerror(-err));
	else
		pr_err("-n %s: cannot %s (%s: %s)", spec,
		       step == NETNS_OPEN ? "open the namespace" :
		       step == NETNS_SETNS ? "enter the namespace (is it a network namespace?)" :
		       "mount the namespace's sysfs", errname(err), strerror(-err));
	return -EUSAGE;
}

/* RET as an exit status; a command's own PASS (>= 0, record's) when it succeeded. */
static int exit_status(int ret, int pass)
{
	if (ret == 0)
		return pass >= 0 ? pass : RDMACTL_EXIT_OK;
	if (ret == -EUSAGE)
		return RDMACTL_EXIT_USAGE;
	return RDMACTL_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	struct cli_globals g = {
		.sysfs_root = getenv("RDMACTL_SYSFS_ROOT"),
		.config = getenv("RDMACTL_CONFIG"),
	};
	struct cmd_ctx ctx = { .root = rdmactl_commands, .pass_status = -1 };
	struct cli_args a;
	int ret, err;

	/*
	 * A reader that goes (rdmactl stat | head) ends the output, not the
	 * command: every command as monitor and capture, exit 0 where it did
	 * what it was asked. SIGPIPE ignored, the write fails with EPIPE.
	 */
	out_stream_begin();
	ret = cli_parse(rdmactl_commands, argc, argv, &a, &g);
	switch (ret) {
	case CLI_HELP:
		return exit_status(cli_print_help(stdout, rdmactl_commands, a.nwords, a.words), -1);
	case CLI_EMPTY:
		cli_print_usage(stderr, rdmactl_commands);
		return RDMACTL_EXIT_USAGE;
	case CLI_VERSION:
		a.cmd = NULL;	/* -V anywhere: the version */
		break;
	case CLI_RUN:
		break;
	default:
		return exit_status(ret, -1);
	}

	/* The environment's paths as the options': an empty one is no default. */
	if ((g.sysfs_root && !*g.sysfs_root) || (g.config && !*g.config)) {
		pr_err("%s is empty: give a path, or leave it unset for the default",
		       g.sysfs_root && !*g.sysfs_root ? "RDMACTL_SYSFS_ROOT" : "RDMACTL_CONFIG");
		return RDMACTL_EXIT_USAGE;
	}

	/* A fixture that is not there is not a kernel without RDMA: said as what it is. */
	if (g.sysfs_root && fixture_bad(&g))
		return RDMACTL_EXIT_USAGE;
	if (g.netns && enter_netns(g.netns, g.sysfs_root))
		return RDMACTL_EXIT_USAGE;
	if (g.debug)
		nldebug_set(stderr);
	ctx.json = g.json;
	ctx.pretty = g.pretty;
	model_sys_init(&ctx.sys, g.sysfs_root);
	ctx.config = g.config ? g.config : RDMACTL_CONF_DEFAULT;
	if (a.cmd && a.cmd->live_only && !model_sys_live(&ctx.sys)) {
		pr_err("%s works on the running system only, not on the fixture %s "
		       "(--sysfs-root or RDMACTL_SYSFS_ROOT); leave that out", a.path,
		       ctx.sys.root);
		return RDMACTL_EXIT_USAGE;
	}
	/*
	 * The libraries the command needs for sure (and json-c for -j) are
	 * opened first: one that cannot be is said before anything runs.
	 * Another, needed deeper, abandons the command back here.
	 */
	lazy_on_failure(lazy_failed);
	if (setjmp(lazy_abandon))
		return RDMACTL_EXIT_FAIL;	/* said; the process's end frees the rest */
	lazy_require((a.cmd ? a.cmd->libs : 0) | (ctx.json ? LAZY_JSONC : 0));
	ctx.out = out_new(stdout, ctx.json, ctx.pretty);
	if (!ctx.out) {
		pr_err("out of memory");
		return RDMACTL_EXIT_FAIL;
	}
	ret = a.cmd ? a.cmd->fn(&ctx, &a) : cmd_version(&ctx, &a);
	model_sys_close(&ctx.sys);
	err = out_finish(ctx.out);
	if (out_reader_gone(err))
		err = 0;
	if (err && !ret) {
		pr_err_cause("cannot write the output", errname(-err), strerror(-err), NULL);
		ret = err;
	}
	return exit_status(ret, ctx.pass_status);
}
