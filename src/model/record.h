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

struct model_record_failure {
	char time[40];
	long pid;		/* -1: no process (a device's, a port's) */
	char comm[64];
	char what[192];		/* "ibv_modify_qp (MODIFY_QP) refused with EINVAL" */
	char cause[320], evidence[320], fix[256];
	bool sure;
	size_t seq;		/* its place in the file */
	bool flush;		/* a completion flushed (IBV_WC_WR_FLUSH_ERR): another's consequence */
	/*
	 * Not its process's cause: that is its first failure that is no flush
	 * (its first at all when each is one); the rest follow from it.
	 */
	bool follows;
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

#endif
