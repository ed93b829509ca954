/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running the programs rdmactl builds modules with and reads (tar, dkms,
 * dpkg-query, nft), their output kept; and the one record runs, as it is.
 */
#ifndef RDMACTL_SPAWN_H
#define RDMACTL_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <sys/types.h>

struct spawn_out {
	char text[8192];	/* the first of what it wrote, stdout and stderr together */
	size_t len;
	int status;		/* its exit status; 128 + N for signal N */
};

/*
 * Who is told of a long run: TICK with the seconds it has taken, about once a
 * second while it runs, then once with DONE. The caller prints, if anything.
 */
struct spawn_progress {
	void (*tick)(void *arg, const char *label, unsigned int seconds, bool done);
	void *arg;
};

/*
 * Runs ARGV (argv[0] looked up in PATH) with standard input from /dev/null,
 * its output in O; P (or nobody, when NULL) is told of it under LABEL. 0 when
 * it ran (its own status in O->status), -ENOENT when there is no such
 * program, or another negative errno.
 */
int spawn_run(const char *const argv[], const char *label, const struct spawn_progress *p,
	      struct spawn_out *o);

/*
 * Runs ARGV (argv[0] looked up in PATH, no shell) with standard input from
 * /dev/null and its standard error discarded, and gives its whole standard
 * output, NUL-terminated, in *OUT (free it). 0 when it exited 0; -ENOENT
 * when there is no such program, -EIO when it failed, -EFBIG past MAX
 * bytes, or another negative errno; *OUT is NULL then.
 */
int spawn_read(const char *const argv[], size_t max, char **out);

/* A command run as it is, held before its exec until spawn_child_go. */
struct spawn_child {
	pid_t pid;
	int go;		/* written to let it exec */
	int failed;	/* closed by its exec; its errno when the exec failed */
};

/*
 * ARGV forked (argv[0] looked up in PATH, no shell) with rdmactl's standard
 * streams, terminal, process group and environment, and MASK its signal
 * mask; it waits to exec until spawn_child_go. 0 or a negative errno.
 */
int spawn_child_start(char *const argv[], const sigset_t *mask, struct spawn_child *c);
/*
 * Lets C exec: 0 once it runs ARGV, or the exec's negative errno (-ENOENT:
 * no such program), C having exited 127 then (reap it).
 */
int spawn_child_go(struct spawn_child *c);
/*
 * The signals SFD (a signalfd) holds, taken: each passed on to C but
 * SIGCHLD and a terminal's SIGINT or SIGQUIT (which C, in the terminal's
 * process group, had too). Whether C has ended, its wait status in *STATUS.
 */
bool spawn_child_signalled(const struct spawn_child *c, int sfd, int *status);

#endif
