/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selftest --transport: each transport the verbs examples use (RC, UC, UD,
 * SRQ, XRC) and memory windows, proven in loopback byte for byte, beside what
 * the device claims: the capability matrix.
 */
#ifndef RDMACTL_SELFTEST_XPORT_H
#define RDMACTL_SELFTEST_XPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/gid.h"
#include "selftest/common.h"
#include "selftest/fault.h"

enum xp_transport { XP_RC, XP_UC, XP_UD, XP_SRQ, XP_XRC, XP_MW, XP_NTRANSPORTS };

#define XP_ALL ((1u << XP_NTRANSPORTS) - 1)

/* What the device says of a feature. */
enum xp_claim {
	XP_IMPLIED,	/* every verbs device of this transport has it: no flag to ask */
	XP_CLAIMED,	/* a capability or attribute says yes */
	XP_NOT_CLAIMED,	/* the device says no */
};

enum xp_result {
	XP_PASS,	/* done and verified */
	XP_FAIL,	/* claimed (or implied) and it failed: a finding */
	XP_UNSUPPORTED,	/* the device says no, and the verb agrees */
	XP_NOT_RUN,	/* an earlier step of the transport failed */
};

struct xp_row {
	enum xp_transport t;
	const char *op;		/* "send", "write_imm", "srq_limit", ... */
	enum xp_claim claim;
	char claim_text[64];	/* what said so: "atomic_cap GLOB", "max_srq 0" */
	enum xp_result result;
	uint64_t usec;
	uint64_t bytes;
	struct st_fault f;	/* failure, or what the refusal/claim was */
};

#define XP_MAXROWS 48
#define XP_MAXASYNC 8

struct xp_opts {
	struct st_common common;	/* size: RC/UC's; UD's is up to the path MTU */
	unsigned int transports;	/* 1 << enum xp_transport */
};

struct xp_report {
	struct st_head head;
	char kernel[65];		/* uname -r */
	bool events;
	struct xp_row rows[XP_MAXROWS];
	unsigned int nrows;
	char async[XP_MAXASYNC][80];	/* asynchronous events no step expected */
	unsigned int nasync;
	struct st_fault f;	/* the device could not be set up */
	bool passed;		/* no row failed and nothing unexpected arrived */
};

/* The words --transport takes: each transport's name, then "all"; NULL-terminated. */
extern const char *const xp_transport_words[XP_NTRANSPORTS + 2];
/* T's name; XP_NTRANSPORTS is the device's own rows ("device"). */
const char *xp_transport_name(enum xp_transport t);
/* "rc,ud,srq" or "all" into a mask: 0, or -1 naming the bad word in BAD. */
int xp_parse(const char *list, unsigned int *mask, char *bad, size_t badlen);
const char *xp_claim_name(enum xp_claim c);
const char *xp_result_name(enum xp_result r);

/* Runs the transports O selects in loopback on one device: 0 when all passed, else -1. */
int xp_loopback(const struct xp_opts *o, struct xp_report *r);
/* The same between two hosts: A here, B in O->host's 'selftest server'. */
int xp_client(const struct xp_opts *o, struct xp_report *r);
/*
 * The server's part for a client whose first message, FIRST (header and
 * body), is an XOPEN: end B of each transport it asks for, until its goodbye.
 * R is the server's side of it: a row a transport served.
 */
int xp_serve(const struct xp_opts *o, int fd, const uint8_t *first, const char *peer,
	     struct xp_report *r);

#endif
