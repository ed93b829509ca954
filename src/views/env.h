/* SPDX-License-Identifier: GPL-2.0-or-later */
/* env's settings for each RDMA stack, of one rxe link: shell, GitHub's environment file, JSON. */
#ifndef RDMACTL_VIEWS_ENV_H
#define RDMACTL_VIEWS_ENV_H

#include <stdbool.h>

#include "model/model.h"

struct out;

/* The link env describes: an rxe device, its ACTIVE port, and the RoCE v2 GID of the family. */
struct view_env {
	const struct rdma_dev *dev;
	const struct port *port;
	const struct gid_slot *gid;
	bool ipv6;
};

/*
 * E's variables: NAME=VALUE lines for GitHub's environment file when GITHUB
 * (the names printable ASCII: the caller saw to it), else shell assignments
 * escaped, under a comment naming the link; with -j, the link and its "env".
 */
void view_env(struct out *o, const struct view_env *e, bool github);

#endif
