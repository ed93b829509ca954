/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdmactl check: the checks, their verdicts, and what they share. */
#ifndef RDMACTL_CHECKS_H
#define RDMACTL_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/proc.h"
#include "model/model.h"
#include "model/sys.h"

struct ifaddrs;

enum verdict {
	V_PASS,
	V_WARN,
	V_FAIL,
	V_SKIP,
};

struct check_result {
	const char *id;
	enum verdict v;
	char *msg;
	char *fix;		/* NULL when there is nothing to do */
};

struct check_opts {
	const char *dev;	/* only this RDMA device */
	int64_t gid_index;	/* -1: not given */
	const char *peer;	/* the remote address, or NULL */
	const char *peer_zone;	/* a link-local peer's netdev (fe80::1%veth0), or NULL */
	const char *module_file;	/* an out-of-tree .ko to vet */
	const char *only;	/* "ID,ID,...": only these checks; NULL: all */
	int pid;		/* --pid: that process's checks alone; 0: the host's */
	uint64_t since_us;	/* --since: the journal's failures from then (wall clock, us); 0: an hour ago */
};

struct check_ctx {
	struct check_opts o;
	/* The run's system (the running one, or a fixture) and its RDMA netlink. */
	struct model_sys *sys;
	const char *cur;	/* the id of the check running */
	struct check_result *r;
	size_t nr;
	/* Loaded on first use by the getters below. */
	struct model m;
	int model_err;
	bool model_done;
	struct ifaddrs *ifa;
	bool ifa_done;
	/* The container this runs in (check_ctx_container), read once. */
	int box;
	bool box_done;
	/* The kernel check found no rdma_rxe for this kernel: the checks that
	 * need it skip, so a user sees one cause and one fix. */
	bool no_rxe;
	/* --pid's process, read once. */
	struct proc_info proc;
	int proc_err;
	bool proc_done;
};

struct check_def {
	const char *id;
	void (*run)(struct check_ctx *c);
	const char *summary;
	bool pid;		/* one of --pid's, run only with it */
};

extern const struct check_def check_defs[];
extern const size_t check_ndefs;

/* The first unknown id of "ID,ID,..." (pointing into LIST), or NULL when all are known. */
const char *checks_unknown(const char *list);
/* The first id of LIST that runs only with --pid when PID is false, or only without it when true. */
const char *checks_misplaced(const char *list, bool pid);
/* Whether the check ID runs for --only LIST (NULL: all run). */
bool checks_listed(const char *list, const char *id);
/* Runs the checks O selects on SYS, in table order, into C (check_ctx_free it). */
void checks_run(const struct check_opts *o, struct model_sys *sys, struct check_ctx *c);

/* Records a verdict for the running check. FIX may be NULL; MSG is a format. */
void check_report(struct check_ctx *c, enum verdict v, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *check_verdict_name(enum verdict v);
/*
 * The worst verdict check ID gave among the N results R points to: V_FAIL,
 * then V_WARN, then V_PASS; V_SKIP when it gave none but skips.
 */
enum verdict check_verdict_of(const struct check_result *const *r, size_t n, const char *id);

void check_ctx_free(struct check_ctx *c);

/* The model (GIDs and counters), NULL when it cannot be read (model_err says why). */
const struct model *check_ctx_model(struct check_ctx *c);
/* The rxe devices of the model that --dev selects, of this namespace (check_dev_here). */
size_t check_ctx_rxe_devs(struct check_ctx *c, const struct rdma_dev **out, size_t max);
/* The same; when there are none, the running check is reported skipped. */
size_t check_ctx_rxe_devs_or_skip(struct check_ctx *c, const struct rdma_dev **out, size_t max);
/* getifaddrs() once; NULL on failure or when reading a fixture tree. */
struct ifaddrs *check_ctx_addrs(struct check_ctx *c);
bool check_ctx_live(const struct check_ctx *c);
/* The container the check runs in (kernel/container.h), CONTAINER_NONE on a fixture. */
int check_ctx_container(struct check_ctx *c);
/*
 * Whether D's netdev is in the network namespace checked: the RDMA netlink
 * names a port's netdev only to a caller in the netdev's namespace (sysfs
 * names it to all, and a name may be taken in each namespace). A device whose
 * netdev is elsewhere is another namespace's, shown here by the shared
 * namespace mode: the checks of links leave those to the netns check. A
 * fixture has one namespace: always true.
 */
bool check_dev_here(struct check_ctx *c, const struct rdma_dev *d);
/* Whether IFNAME is NETDEV or one of its VLAN (upper) devices. */
bool check_ctx_on_netdev(const struct check_ctx *c, const char *ifname, const char *netdev);

/* --pid's process, read once; NULL (and the running check skipped) when there is none. */
const struct proc_info *check_ctx_proc(struct check_ctx *c);
/* "PID (comm)" of P, in BUF. */
const char *check_proc_who(const struct proc_info *p, char *buf, size_t len);

/*
 * How a process gets back into the host's network namespace, in the words of
 * ENGINE (enum container_kind), ROOTLESS or not.
 */
const char *check_host_network(int engine, bool rootless);

/* At most this many rxe devices are checked. */
#define CHECK_MAX_DEVS 64

/* The checks, by file. */
void check_kernel(struct check_ctx *c);
/*
 * The kernel check's finding (C->no_rxe) without its row, from the kernel's
 * config alone (no socket that would load ib_core): for --only lists without it.
 */
void check_kernel_assess(struct check_ctx *c);
void check_modules(struct check_ctx *c);
void check_netns(struct check_ctx *c);
struct kmods;
/* The kernel log's module-load failures that still hold, reported; how many. */
int check_modules_log(struct check_ctx *c, struct kmods *km);
void check_uverbs(struct check_ctx *c);
void check_provider(struct check_ctx *c);
void check_memlock(struct check_ctx *c);
void check_link(struct check_ctx *c);
void check_mtu(struct check_ctx *c);
void check_gid_consistency(struct check_ctx *c);
void check_gid_index(struct check_ctx *c);
void check_subnet(struct check_ctx *c);
void check_firewall(struct check_ctx *c);
void check_ipv6(struct check_ctx *c);
void check_counters(struct check_ctx *c);
/* journal.c: what monitor --journal wrote of programs' failures since --since. */
void check_journal(struct check_ctx *c);
/* qp.c: the live QPs', of the host and of --pid's process. */
void check_qps(struct check_ctx *c);
void check_process_qps(struct check_ctx *c);
/* process.c: check --pid's. */
void check_process(struct check_ctx *c);
void check_process_memlock(struct check_ctx *c);
void check_process_env(struct check_ctx *c);
void check_process_uverbs(struct check_ctx *c);
void check_process_netns(struct check_ctx *c);

#endif
