/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Operations on the persistent-links file, and on the links it lists. */
#ifndef RDMACTL_OPS_PERSIST_H
#define RDMACTL_OPS_PERSIST_H

#include <stdbool.h>

#include "model/conf.h"

struct nl;
struct op_err;
struct link_add_req;

/* How long an edit waits for another rdmactl's edit of the same file to end (RDMACTL_LOCK_TIMEOUT: seconds). */
#define PERSIST_LOCK_MS 10000

/*
 * The file's edits held to this process (safe_lock) until persist_unlock:
 * a descriptor, or a negative errno explained (another edit that did not
 * end within PERSIST_LOCK_MS, or RDMACTL_LOCK_TIMEOUT's seconds, among them). The default file's directory is
 * made when missing, as persist_save would.
 */
int persist_lock(const char *path, struct op_err *e);
void persist_unlock(int lock);
int persist_load(const char *path, struct conf *c, struct op_err *e);
int persist_save(const char *path, const struct conf *c, struct op_err *e);
/* Whether PATH is a symlink (edits replace TARGET, the file it leads to). */
bool persist_is_symlink(const char *path, char *target, size_t len);

/* Records NAME on NETDEV: 0 also when it is there already; -EEXIST on another netdev. */
int persist_add(const char *path, const char *name, const char *netdev, struct op_err *e);
/* Forgets each of WORDS[0..N) (a name, or a netdev): -ENOENT, nothing written, when one is not there. */
int persist_del(const char *path, char *const *words, int n, struct op_err *e);

/*
 * link_add, and the link recorded in PATH. The file is read first, so a broken
 * one changes nothing; when the record cannot be written, a link this call
 * made is deleted again.
 */
int persist_add_link(struct nl *nl, const char *path, struct link_add_req *r, struct op_err *e);

enum start_state { START_PRESENT, START_ADDED, START_FAILED, START_ABSENT };

/*
 * Creates each link of C that does not exist yet (as rdmactl start does),
 * going on past a failure: STATE[i] says what happened to C's entry i. An
 * entry whose netdev does not exist (yet) is START_ABSENT and no failure: its
 * link is made when the netdev appears (rdmactl-link@NETDEV.service). The
 * first failure is returned, each explained in E with its file and line.
 */
int persist_start(struct nl *nl, const char *path, const struct conf *c,
		  enum start_state *state, struct op_err *e);

/*
 * Whether an edit of PATH needs systemd told ('systemctl daemon-reload'): it
 * is the file systemd's generator reads, and systemd runs rdmactl.service, so
 * the netdevs' units learn of the edit at daemon-reload (or boot).
 */
bool persist_needs_reload(const char *path);

/*
 * Keeps in C only the entries on one of NETDEVS[0..N) (all when N is 0), in
 * their order; the others are freed. The file's lines stay as read.
 */
void persist_only_netdevs(struct conf *c, char *const *netdevs, int n);

/*
 * What rdmactl's systemd generator writes into DIR: for each netdev of PATH's
 * entries, a drop-in that makes its device unit want
 * rdmactl-link@NETDEV.service, so the netdev's links come when it appears.
 * A malformed file writes nothing.
 */
int persist_wants(const char *path, const char *dir, struct op_err *e);

#endif
