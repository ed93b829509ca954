/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ci-setup's report: each way tried to make RDMA ready and what came of
 * it, the link it ended with, and where its variables were written; as
 * text, JSON, and the Markdown of a GitHub step summary.
 */
#ifndef RDMACTL_VIEWS_CI_H
#define RDMACTL_VIEWS_CI_H

#include <stdbool.h>
#include <stdio.h>

struct out;

#define VIEW_CI_STEPS 4
#define VIEW_CI_WROTE 3

struct view_ci_step {
	const char *step;	/* "driver", "link", "env" */
	bool ok;
	char how[1400];		/* what worked, or why not */
};

struct view_ci {
	const char *ci;		/* "github", "gitlab", or NULL: none known */
	struct view_ci_step steps[VIEW_CI_STEPS];
	size_t nsteps;
	bool ready;
	/* The link, once ready. */
	const char *dev, *netdev, *address;
	unsigned int gid_index;
	const char *wrote[VIEW_CI_WROTE];	/* the files its variables went to */
	size_t nwrote;
};

/* C as a step's lines then a last one (text), or an object (JSON). */
void view_ci_setup(struct out *o, const struct view_ci *c);
/* C as GitHub's step summary shows it: Markdown (the names printable ASCII: the caller saw to it). */
void view_ci_summary(FILE *f, const struct view_ci *c);
/*
 * C as a JUnit XML report to F: a test case a step (classname
 * rdmactl.ci-setup), those after a failed one skipped as not tried. 0, or
 * the write's negative errno.
 */
int view_ci_junit(FILE *f, const struct view_ci *c);
/* The link's facts as GitHub's step outputs: device, netdev, gid_index, address. */
void view_ci_outputs(FILE *f, const struct view_ci *c);

#endif
