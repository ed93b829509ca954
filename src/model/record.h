/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A record read back (record's file, a JSON object a line): the command,
 * how it ended, and each failure its lines name with the cause they gave,
 * in the order they came. Read offline: nothing of this host is looked at.
 */
#ifndef RDMACTL_MODEL_RECORD_H
#define RDMACTL_MODEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>

struct model_record;
struct model_record_failure;

/*
 * The other end of a failed QP, found among the records read beside
 * (model_record_pair): the QP its connect named, made by a process of the
 * same record or another's (another host's).
 */
struct model_record_peer {
	const struct model_record *rec;	/* the record it is in */
	long qpn, pid;
	char comm[64];
	const struct model_record_failure *failed;	/* its own first failure, or NULL */
	char ended[40];		/* when its process ended, "" when the record has no end of it */
	int end_status;		/* ... and how: a wait status */
	/* It failed, or its process ended, before this failure: the end that went first. */
	bool first;
	/*
	 * ... by its process's end: before any failure of it that is no flush
	 * (a flush is the end's consequence: a killed process's QPs are flushed).
	 */
	bool by_end;
};

struct model_record_failure {
	char time[40];
	long pid;		/* -1: no process (a device's, a port's) */
	char comm[64];
	char what[192];		/* "ibv_modify_qp (MODIFY_QP) refused with EINVAL" */
	char cause[448], evidence[448];
	char fix[512];		/* as long as the longest a verdict gives (diag/qpdiag.h's 400) */
	bool sure;
	size_t seq;		/* its place in the file */
	bool flush;		/* a completion flushed (IBV_WC_WR_FLUSH_ERR): another's consequence */
	int wc_status;		/* a completion's status (IBV_WC_*); -1: no completion */
	/*
	 * Not its process's cause: that is its first failure that is no flush
	 * (its first at all when each is one); the rest follow from it.
	 */
	bool follows;
	long qpn;		/* the QP that failed; -1: none (a verb, an event) */
	char ifname[32];	/* ... its device, when the line names it */
	bool paired;
	struct model_record_peer peer;	/* when PAIRED */
};

/* A QP the record saw made, and the peer its connect gave (qp-made, qp-modified). */
struct model_record_qp {
	long qpn, pid;
	char comm[64];
	char dev[32];		/* its device, as qp-made names it; "": not named (an older record) */
	long dest_qpn;		/* -1: none given (no RTR seen) */
	char dgid[48];		/* the peer's GID as sysfs writes it; "" */
};

/*
 * A change of the host's the record saw that takes QPs down with it: a
 * port no longer ACTIVE, a netdev down, a GID removed, a device removed.
 */
struct model_record_change {
	char time[40];		/* when the watch read it: a little after it came */
	char event[16];		/* its line's: "port-state", "netdev-state", "gid-removed", ... */
	char ifname[32];	/* the device */
	char what[160];		/* "port 1 ACTIVE -> DOWN", "netdev veth0 up -> down", "GID 1 ..." */
};

/* A process of the record's tree that ended (process-exited). */
struct model_record_exit {
	long pid;
	char time[40];
	int status;		/* a wait status */
};

struct model_record {
	char path[256];
	char command[512];	/* its words, each shown as the shell would need it */
	long pid;
	bool started, ended, timed_out;
	int status;		/* the wait status when ENDED */
	unsigned long lost;	/* records the kernel's ring had no room for */
	char unseen[320];	/* what record said it could not see; "" */
	size_t lines, bad;	/* lines read, and those that were no record's */
	struct model_record_failure *f;
	size_t n;
	char host[64];		/* where it was made: the host's name, "" in older records */
	char (*gids)[48];	/* the host's GIDs when it began, as sysfs writes them */
	size_t ngids;
	struct model_record_qp *qps;
	size_t nqps;
	struct model_record_exit *exits;
	size_t nexits;
	struct model_record_change *changes;
	size_t nchanges;
	/* record --capture's packets line: how many its pcap file holds, and the file beside it. */
	unsigned long packets;
	char pcap[256];		/* "" when none was written */
};

/*
 * PATH read into R: 0, or -ENOENT, -ENOTREG (not a regular file), -EINVAL
 * (no line of it is a record's), or another negative errno. A line cut
 * short (a record killed mid-write) is counted in BAD and skipped.
 */
int model_record_read(const char *path, struct model_record *r);
/*
 * The same a line at a time, from lines found elsewhere (the journal's
 * RDMACTL_JSON, monitor --journal's): R zeroed first, each line given to
 * model_record_line (false: it is no record's), then model_record_done
 * sorts the failures and chooses each process's cause.
 */
bool model_record_line(struct model_record *r, const char *text);
void model_record_done(struct model_record *r);
void model_record_free(struct model_record *r);
/*
 * Whether A and B are failures of one process: one pid and one command.
 * Over the journal's hour a pid is given again, most often to another
 * program; a pid alone would read two programs as one.
 */
bool model_record_same_process(const struct model_record_failure *a,
			       const struct model_record_failure *b);
/* Whether devices A and B are two, as far as a record names them ("": not named). */
bool model_record_devs_apart(const char *a, const char *b);
/*
 * The last QP numbered QPN that PID made (PID -1: anyone's) on device DEV
 * (NULL or "": any; a QP whose device is not named is on any) in R, or NULL.
 */
struct model_record_qp *model_record_qp_of(const struct model_record *r, long qpn, long pid,
					   const char *dev);
/*
 * Each failed QP of the N records in RECS given its peer: the QP its connect
 * named (the destination QP number, at a GID of the peer's host), in any of
 * them, its own too (both ends on one host); and which end went first, by
 * the records' times (UTC: hosts whose clocks differ are judged as they say).
 */
void model_record_pair(struct model_record *recs, size_t n);

#endif
