// SPDX-License-Identifier: GPL-2.0-or-later
/* check: run the checks, print verdicts and fixes, map them to an exit status. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "checks/checks.h"
#include "cli/github.h"
#include "cli/grammar.h"
#include "cli/out.h"
#include "cli/timespec.h"
#include "cmd/cmd.h"
#include "views/check.h"

/*
 * --peer as the checks want it in O (PEER and ZONE its buffers): an IPv4
 * address; an IPv4-mapped IPv6 one (::ffff:a.b.c.d, an IPv4 GID's very form)
 * as the IPv4 address it is; an IPv6 one; a link-local one with its zone,
 * fe80::1%veth0, as ping and ssh take it.
 */
static int peer_parse(const struct cli_args *a, struct check_opts *o, char *peer, char *zone)
{
	const char *pct = strchr(o->peer, '%');
	size_t len = pct ? (size_t)(pct - o->peer) : strlen(o->peer);
	unsigned char raw[16];

	if (len >= INET6_ADDRSTRLEN)
		return cli_usage(a, "--peer takes an IPv4 or IPv6 address, not '%s'", o->peer);
	memcpy(peer, o->peer, len);
	peer[len] = '\0';
	if (inet_pton(AF_INET, peer, raw) == 1 && !pct) {
		o->peer = peer;
		return 0;
	}
	if (inet_pton(AF_INET6, peer, raw) != 1)
		return cli_usage(a, "--peer takes an IPv4 or IPv6 address, not '%s'", o->peer);
	if (pct) {
		if (!IN6_IS_ADDR_LINKLOCAL((struct in6_addr *)raw))
			return cli_usage(a, "--peer %s: a zone (%%NETDEV) is for a link-local "
					 "peer (fe80::/10) only", o->peer);
		if (cmd_valid_name(a, "--peer's zone", pct + 1, false))
			return -EUSAGE;
		snprintf(zone, IF_NAMESIZE, "%s", pct + 1);
		o->peer_zone = zone;
	}
	if (IN6_IS_ADDR_V4MAPPED((struct in6_addr *)raw))
		inet_ntop(AF_INET, raw + 12, peer, INET6_ADDRSTRLEN);
	o->peer = peer;
	return 0;
}

int cmd_check(struct cmd_ctx *ctx, const struct cli_args *a)
{
	struct check_opts o = { .gid_index = -1,
				.dev = cli_str(a, "dev"), .peer = cli_str(a, "peer"),
				.only = cli_str(a, "only"),
				.module_file = cli_str(a, "module-file"),
				.pid = (int)cli_num(a, "pid", 0) };
	char peer[INET6_ADDRSTRLEN], zone[IF_NAMESIZE];
	int junit = cmd_junit_asked(ctx, a);
	struct check_ctx c;
	const char *bad;
	size_t count[4];
	int err = 0;

	if (junit < 0)
		return junit;
	if (cli_flag(a, "list")) {
		view_check_list(ctx->out);
		return 0;
	}
	if (o.dev && (err = cmd_valid_name(a, "--dev", o.dev, true)))
		return err;
	if (o.peer && (err = peer_parse(a, &o, peer, zone)))
		return err;
	if (o.only && (bad = checks_unknown(o.only)))
		return cli_usage(a, "unknown check '%.*s' ('rdmactl check --list' lists them)",
				 (int)strcspn(bad, ","), bad);
	if (o.pid && (o.dev || o.peer || o.module_file))
		return cli_usage(a, "--pid checks one process: not with --dev, --peer or "
				 "--module-file");
	/*
	 * An --only that runs nothing would pass every time: a CI gate built on
	 * it could never fail. The host's checks and --pid's do not mix.
	 */
	if (o.only && (bad = checks_misplaced(o.only, o.pid != 0)))
		return cli_usage(a, o.pid ? "--only %.*s is a check of the host's, not of --pid's "
				 "process (its checks: 'rdmactl check --list', those marked --pid)" :
				 "--only %.*s is a check of one process's: give --pid PID",
				 (int)strcspn(bad, ","), bad);
	/* The file is vetted against the running kernel, by the modules check. */
	if (o.module_file && !model_sys_live(&ctx->sys))
		return cli_usage(a, "--module-file vets a file against the running kernel: not "
				 "with --sysfs-root");
	if (o.module_file && !checks_listed(o.only, "modules"))
		return cli_usage(a, "--module-file is vetted by the modules check: add it to --only");
	if (cli_str(a, "since")) {
		if (cli_time(cli_str(a, "since"), time(NULL), &o.since_us))
			return cli_usage(a, "--since takes a time as journalctl does: '-2h', '30min "
					 "ago', 'today', '2026-12-03 09:10', '@EPOCH'; not '%s'",
					 cli_str(a, "since"));
		if (o.pid || !checks_listed(o.only, "journal"))
			return cli_usage(a, "--since is for the journal check: %s",
					 o.pid ? "not with --pid" : "add it to --only");
	}
	if (cli_str(a, "gid-index"))
		o.gid_index = (int64_t)cli_num(a, "gid-index", 0);

	checks_run(&o, &ctx->sys, &c);
	if (junit) {
		err = cmd_junit_written("check", view_check_junit(stdout, &c,
								      cli_flag(a, "strict"), count));
	} else {
		view_check(ctx->out, &c, count);
		/* Under GitHub Actions, the FAILs and WARNs are the run's annotations too. */
		if (!ctx->json && github_actions())
			view_check_annotations(stdout, &c);
	}
	check_ctx_free(&c);
	if (err)
		return err;
	/* A failed check is the command's failure; what it found is already said. */
	if (count[V_FAIL] || (cli_flag(a, "strict") && count[V_WARN]))
		return -EAGAIN;
	return 0;
}
