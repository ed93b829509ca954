/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What users paste when their RDMA program fails, and what it means on rxe:
 * work completion statuses, the errnos of the verbs and rdma_cm calls,
 * rdma_cm's events and rdma_rxe's kernel log lines, each with its causes
 * (most likely first) and the rdmactl command that tells which.
 */
#ifndef RDMACTL_DIAG_FAILURE_H
#define RDMACTL_DIAG_FAILURE_H

#include <stdbool.h>
#include <stddef.h>

enum diag_failure_kind {
	DIAG_FAILURE_WC_STATUS,	/* enum ibv_wc_status */
	DIAG_FAILURE_CM_EVENT,		/* enum rdma_cm_event_type */
	DIAG_FAILURE_ERRNO,		/* an errno a verbs or rdma_cm call set */
	DIAG_FAILURE_KERNEL_LOG,	/* a line rdma_rxe logs (diag/rxelog.c) */
	DIAG_FAILURE_MESSAGE,		/* a program's or library's message (diag/stacklog.c) */
};

#define DIAG_FAILURE_CAUSES 5

/* It says nothing went wrong: never a log's cause. */
#define DIAG_FAILURE_NOTICE 1u
/*
 * A message a program prints with perror() where errno is stale (a read
 * that met the end of the stream sets none): the errno's words after it on
 * its line are no failure's.
 */
#define DIAG_FAILURE_PERROR 2u
/*
 * It follows from a failure another line names (a program's "Couldn't
 * connect to remote QP" after its RTR failure, nvme's verdict after the
 * kernel's): a log's cause only when nothing else is.
 */
#define DIAG_FAILURE_FOLLOWS 4u
/*
 * Its "status N" is its own (a reject reason, an errno), not a work
 * completion's: a positive number beside it on its line names no status.
 */
#define DIAG_FAILURE_OWN_STATUS 8u

struct diag_failure {
	enum diag_failure_kind kind;
	int value;		/* the status, event or errno */
	/* "IBV_WC_RETRY_EXC_ERR", "RDMA_CM_EVENT_ADDR_ERROR", "ENOMEM"; a log line's words */
	const char *name;
	const char *what;	/* what happened */
	const char *causes[DIAG_FAILURE_CAUSES];	/* on rxe, most likely first; NULL-ended */
	const char *tell;	/* what tells which cause it is */
	/*
	 * A kernel log line's: the whole line as rxe prints it; other words that
	 * say it. A message's: a line as the program prints it (NAME is its
	 * printf format, a number conversion standing for a number, any other
	 * for anything); a word the line must hold too (NULL: none). A status's,
	 * event's or errno's: other words that name it (FORM NULL).
	 */
	const char *form, *also;
	const char *source;	/* a message's: the program and the file of its source */
	unsigned flags;		/* DIAG_FAILURE_NOTICE, _PERROR, _FOLLOWS, _OWN_STATUS */
};

/* What a host's check says of a cause it rests on. */
enum diag_failure_standing {
	DIAG_FAILURE_SHOWN,	/* the check finds it here (fail or warning) */
	DIAG_FAILURE_OPEN,	/* no check tells it, or its verdict says nothing of it */
	DIAG_FAILURE_CLEARED,	/* the check finds it not here */
};

struct diag_failure_ranked {
	size_t cause;		/* the index in causes[] */
	enum diag_failure_standing standing;
};

/*
 * F's causes ranked by what a host shows, into OUT (diag/failure_host.c):
 * those its checks find first, then those no check tells, then those its
 * checks find not there, each group in the catalogue's order. STANDING(ID,
 * ARG) says what the host's check ID found (DIAG_FAILURE_OPEN for one not
 * run). How many causes.
 */
size_t diag_failure_rank(const struct diag_failure *f,
			  enum diag_failure_standing (*standing)(const char *id, void *arg),
			  void *arg, struct diag_failure_ranked out[DIAG_FAILURE_CAUSES]);

/* "shown", "open", "cleared". */
const char *diag_failure_standing_name(enum diag_failure_standing s);
/*
 * The id of the host's check that tells F's cause I ("memlock"); NULL: none
 * does. *SHORT_OF (unless SHORT_OF is NULL): why its pass clears nothing
 * ("it reads this shell's limit, ..."), NULL when it does.
 */
const char *diag_failure_rests(const struct diag_failure *f, size_t i, const char **short_of);
/* Row I of that table: its entry's kind and name; false past its end. */
bool diag_failure_rests_row(size_t i, enum diag_failure_kind *kind, const char **name);

/* "wc_status", "cm_event", "errno", "kernel_log", "message". */
const char *diag_failure_kind_name(enum diag_failure_kind k);

/* rdma_rxe's kernel log lines (diag/rxelog.c): the table, its length into *N. */
const struct diag_failure *diag_failure_rxelog(size_t *n);

/* The programs' and libraries' messages (diag/stacklog.c): the table, its length into *N. */
const struct diag_failure *diag_failure_stacklog(size_t *n);
/* Theirs over rdma_cm: librdmacm's tools, UCX, libfabric, NVMe (diag/applog.c). */
const struct diag_failure *diag_failure_applog(size_t *n);
/* The kernel's other RDMA lines: ib_core, rdma_cm, xprtrdma (diag/kernlog.c). */
const struct diag_failure *diag_failure_kernlog(size_t *n);
/*
 * Where printf FORMAT's words first stand in HAY (lowercased, each run of
 * white space one space), its conversions standing for anything; -1 when
 * they do not, in order.
 */
long diag_failure_format_at(const char *hay, const char *format);
/*
 * The longest literal run of printf FORMAT, as diag_failure_format_at seeks
 * it, into BUF (SIZE bytes): a line that lacks it is not the format's. Its length.
 */
size_t diag_failure_format_anchor(const char *format, char *buf, size_t size);

/* Every entry known, of every table, into OUT (at most MAX): how many there are. */
size_t diag_failure_all(const struct diag_failure **out, size_t max);

/*
 * What TEXT (a number, a name, a library's words for it, or a pasted line
 * holding any of them) names: up to MAX entries into OUT, in the order the
 * text has them, each once; how many. TEXT_OF gives each status's and
 * event's words as the installed library says them (ibv_wc_status_str,
 * rdma_event_str), NULL when it has none.
 */
size_t diag_failure_match(const char *text,
			   const char *(*text_of)(enum diag_failure_kind k, int value),
			   const struct diag_failure **out, size_t max);
/* The same of TEXT's LEN bytes (no NUL needed; one ends the text), the first 1023 read. */
size_t diag_failure_match_n(const char *text, size_t len,
			     const char *(*text_of)(enum diag_failure_kind k, int value),
			     const struct diag_failure **out, size_t max);

/*
 * A whole log read a line at a time (explain --file): each known entry once,
 * where it first stands, how many lines hold it; memory fixed whatever the
 * log's size. The cause is the first error that is not the consequence of
 * another (a flush, a disconnect): what most likely made the rest.
 */
#define DIAG_FAILURE_LOG_ITEMS 128
#define DIAG_FAILURE_LOG_LINES 8	/* the line numbers kept of each item */
#define DIAG_FAILURE_LOG_QUOTE 160	/* the bytes of its first line kept, made printable */

struct diag_failure_log_item {
	const struct diag_failure *f;
	size_t count;		/* the lines that hold it */
	size_t lines[DIAG_FAILURE_LOG_LINES];	/* the first of them, 1-based */
	char quote[DIAG_FAILURE_LOG_QUOTE];	/* its first line, control bytes as '?' */
};

struct diag_failure_log {
	size_t lines;		/* read so far */
	size_t known;		/* lines holding anything known */
	struct diag_failure_log_item items[DIAG_FAILURE_LOG_ITEMS];
	size_t n;
	long cause;		/* the index in items of the likely cause; -1: none */
};

void diag_failure_log_init(struct diag_failure_log *l);
/* One line of the log (LEN bytes, no newline; any bytes), TEXT_OF as diag_failure_match's. */
void diag_failure_log_line(struct diag_failure_log *l, const char *line, size_t len,
			    const char *(*text_of)(enum diag_failure_kind k, int value));
/* The cause chosen and put first; the rest stay in the order the log has them. */
void diag_failure_log_finish(struct diag_failure_log *l);

#endif
